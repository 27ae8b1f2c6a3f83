"""The typed records that flow between pipeline stages, defined once.

corpus → ``Paper`` (``rag.paper``); one question → a ``Turn``, filled in order by the stages:
understand (``QuestionShape``) → retrieve (``Hit``) → evidence (``Evidence``) → decide (``Decision``)
→ write and check (``Answer`` with ``Citation`` and ``Source``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from rag.charts import CollectionGroup, CollectionStats  # (re-exported: a collection answer's chart)
from rag.paper import Paper

if TYPE_CHECKING:
    import numpy as np

    from rag.nearmiss import Missing
    from rag.roles import Role


class QuestionKind(str, Enum):
    """What a question asks for: one paper's answer, a list of papers, or a comparison of named papers."""

    SINGLE = "single"
    LIST = "list"
    COMPARISON = "comparison"
    CHOICE = "choice"  # picks among papers already on the table ("Which of them needs less memory?")


@dataclass
class QuestionShape:
    kind: QuestionKind
    parts: list[str] = field(default_factory=list)  # sub-queries, one per compared paper
    names: list[str] = field(default_factory=list)  # name-like tokens, as written
    multilingual: bool = False  # not (mostly) English: matched with multilingual-e5

    def __post_init__(self) -> None:
        self.kind = QuestionKind(self.kind)


@dataclass
class Hit:
    """A paper found by retrieval, with what each ranking thought of it (None: not in its top)."""

    paper: Paper
    score: float  # fused relevance, higher is better
    dense_score: float | None = None  # best cosine similarity of any chunk of the paper
    bm25_score: float | None = None
    sentence_score: float | None = None  # best cosine similarity of any single sentence
    headline_score: float | None = None  # multilingual-e5 similarity of title + first sentence (non-English)
    # the piece of the question it answers (compared; a list's alternative it came first for; "" for a paper of the kind
    # a list asks for alone, ``alternatives.search_each``): a list keeps it whenever it clears the evidence floor
    part: str | None = None


@dataclass
class EvidenceSentence:
    text: str
    score: float  # similarity to the question, higher is better
    position: int  # index of the sentence in the abstract
    role: Role | None = None  # as stored at ingest (None: work it out, ``roles.role_of``)


@dataclass
class Evidence:
    """What one retrieved paper can support: its sentences ranked by relevance to the question."""
    hit: Hit
    sentences: list[EvidenceSentence]
    names_found: list[str] = field(default_factory=list)  # names from the question the paper contains
    terms_found: list[str] = field(default_factory=list)  # a list question's rarer terms the paper uses verbatim
    answering: set[int] = field(default_factory=set)  # positions of the sentences answering a part best (``by_parts``)
    leads: int | None = None  # position of the sentence that leads whatever else fits (a field asked: ``rag.fields``)
    denies: bool = False  # says of itself it does not do what a choice asks for (``choice_words.mark_denials``)

    @property
    def best_score(self) -> float:
        return max((s.score for s in self.sentences), default=0.0)


@dataclass
class Decision:
    """Refuse, or the papers (numbered as sources) and how much of each to answer from."""

    refused: bool
    chosen: list[tuple[int, Evidence]] = field(default_factory=list)  # (source number n, evidence)
    sentences_per_paper: int = 2
    missing_names: list[str] = field(default_factory=list)  # named things no abstract mentions
    unknown_words: list[str] = field(default_factory=list)  # topic words no abstract of a large index has
    pick: int | None = None  # a choice: the source number the evidence decides for (None: not settled)
    missing: list[Missing] = field(default_factory=list)  # the question's qualifiers no chosen paper holds
    reason: str = ""  # a refusal's own wording, when it can say what is not there ("… does not mention “GPU”")
    discussed: list[int] = field(default_factory=list)  # "Which other papers …": listed ones the last answer gave
    about: list[str] = field(default_factory=list)  # a refusal naming the papers asked about: still the chat's subject


@dataclass
class Citation:
    n: int
    paper_id: str
    title: str

    @classmethod
    def of(cls, n: int, evidence: Evidence) -> Citation:
        """Source number ``n``, citing the paper of ``evidence``."""
        return cls(n=n, paper_id=evidence.hit.paper.paper_id, title=evidence.hit.paper.title)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "paper_id": self.paper_id, "title": self.title}


@dataclass
class Source:
    """A paper as the user saw it among an answer's sources: the engine's, the saved history's and the page's
    one record (a saved conversation whose paper left the index holds a stand-in ``Paper``)."""

    rank: int
    paper: Paper
    score: float

    @property
    def paper_id(self) -> str:
        return self.paper.paper_id

    @property
    def title(self) -> str:
        return self.paper.title

    def to_json(self, abstract: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"rank": self.rank, "paper_id": self.paper_id, "title": self.title,
                                "score": round(self.score, 6)}
        return data | {"abstract": self.paper.abstract} if abstract else data

    @classmethod
    def from_json(cls, data: dict[str, Any], papers: dict[str, Paper] | None = None) -> Source:
        """A saved source, with its paper from ``papers`` (a stand-in if the index no longer holds it)."""
        paper_id = str(data["paper_id"])
        paper = (papers or {}).get(paper_id) or Paper(paper_id=paper_id, title=str(data["title"]),
                                                      abstract=str(data.get("abstract") or ""),
                                                      source="(no longer indexed)")
        return cls(int(data["rank"]), paper, float(data["score"]))


@dataclass
class Answer:
    question: str
    text: str
    refused: bool
    citations: list[Citation]
    sources: list[Source]
    timings_ms: dict[str, float] = field(default_factory=dict)
    backend: str = "extractive"
    ranked_paper_ids: list[str] = field(default_factory=list)  # retrieval order, possibly deeper than sources
    supported_sentences: int = 0  # answer sentences a cited source supports (all of them when extractive)
    total_sentences: int = 0
    tokens_per_s: float = 0.0  # generation speed of an LLM backend (0 when extractive)
    model_sentences: int = 0  # of the local model's, checked and shown after the plan (``rag.gist``)
    notice: str = ""  # why the answer is not the backend's own (fallback), if it is not
    query: str = ""  # what retrieval searched for (the standalone form of a follow-up)
    evidence_sentences: dict[str, list[str]] = field(default_factory=dict)  # paper id → sentences quoted/supporting
    corrections: dict[str, str] = field(default_factory=dict)  # question word (a typo) → corpus word searched for
    chart: CollectionStats | None = None  # a question about the collection: papers per group (in JSON if set)
    missing: list[str] = field(default_factory=list)  # a near-miss: the qualifiers no source holds ("speech")
    about: list[str] = field(default_factory=list)  # a refusal's papers it names as not stating it (``Decision``)
    picked: str = ""  # a choice settled by the evidence: the paper it picked (whose authors "they" are next)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "refused": self.refused,
            "citations": [c.to_json() for c in self.citations],
            "sources": [s.to_json() for s in self.sources],
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "backend": self.backend,
            "supported_sentences": self.supported_sentences,
            "total_sentences": self.total_sentences,
            "notice": self.notice,
            "corrections": self.corrections,
            "missing": self.missing,
        } | ({"picked": self.picked} if self.picked else {}) | ({"chart": self.chart.to_json()} if self.chart else {})


@dataclass
class Shown:
    """An earlier turn as the user saw it: what it put on the table for the turns after it."""

    question: str  # the user's words
    sources: list[str] = field(default_factory=list)  # paper ids in source order: [1], [2], …
    cited: list[str] = field(default_factory=list)  # paper ids in the order the answer cited them (a list's order)
    refused: bool = False
    query: str = ""  # what that turn searched for (its standalone form)
    about: list[str] = field(default_factory=list)  # refused, naming these papers ("… of DPT does not mention …")
    picked: str = ""  # a choice's pick ("Which of those …?" → TRIM-KV; "what do they evaluate on?" asks of it)

    @property
    def listed(self) -> list[str]:
        """The papers in the order the user saw them answered: the cited ones, else the sources."""
        return self.cited or self.about or self.sources

    @property
    def stands(self) -> bool:
        """On the table: answered, or refused naming the papers asked about (which the user then calls "it")."""
        return not self.refused or bool(self.about)

    @classmethod
    def of(cls, answer: Answer) -> Shown:
        return cls(answer.question, [s.paper_id for s in answer.sources], [c.paper_id for c in answer.citations],
                   answer.refused, answer.query, list(answer.about), answer.picked)


@dataclass
class Turn:
    """One question through the pipeline: what the user asked, then what each stage decided, in order.

    understand → ``said``, ``query``, ``corrections``, ``unknown_words``, ``shape``, ``follow_up``, ``top_k``;
    retrieve → ``vector``, ``ranked``; evidence → ``evidence``; decide → ``decision``, ``timings['retrieve']``;
    write and check → ``answer``."""

    question: str  # the user's words
    history: list[str] = field(default_factory=list)  # earlier user turns
    carried: list[str] = field(default_factory=list)  # papers the last answer cited
    table: list[Shown] = field(default_factory=list)  # every earlier turn's papers, oldest first
    paper_ids: list[str] | None = None  # search only these papers
    compare_ids: list[str] | None = None  # compare exactly these papers
    rank_depth: int = 0  # rank at least this many papers (evaluation), though fewer are sources
    started: float = field(default_factory=time.perf_counter)  # when the question arrived
    rewrite: str | None = None  # an LLM's standalone rewrite or translation, if one came first
    leans_back: bool = False  # about the last answer's papers, whatever its words (``followup.leans_back``)
    # understand
    said: str = ""  # the user's words made standalone (deterministic)
    query: str = ""  # what retrieval searches for
    corrections: dict[str, str] = field(default_factory=dict)  # question word (a typo) → corpus word
    unknown_words: list[str] = field(default_factory=list)
    shape: QuestionShape = field(default_factory=lambda: QuestionShape(QuestionKind.SINGLE))
    follow_up: bool = False  # refers back to the papers of the last answer
    on_table: list[str] = field(default_factory=list)  # papers on the table this turn is about (answered from them)
    reference: str = "none"  # how it referred to them (``references.ReferenceKind``)
    top_k: int = 0  # sources shown
    # retrieve
    vector: np.ndarray | None = None  # the topic's embedding (dense rankings and evidence)
    ranked: list[Hit] = field(default_factory=list)  # deeper than the sources when rank_depth asks
    # evidence, decide
    evidence: list[Evidence] = field(default_factory=list)
    decision: Decision = field(default_factory=lambda: Decision(refused=True))
    timings: dict[str, float] = field(default_factory=dict)  # ms
    answer: Answer | None = None  # write and check

    @property
    def corrected_question(self) -> str:
        """The user's words with typos read as the corpus words searched for."""
        from rag.spelling import apply_corrections

        return apply_corrections(self.question, self.corrections)

    @property
    def hits(self) -> list[Hit]:
        return self.ranked[: self.top_k]

    @property
    def ranked_paper_ids(self) -> list[str]:
        return [h.paper.paper_id for h in self.ranked]

    @property
    def retrieve_ms(self) -> float:
        return self.timings.get("retrieve", 0.0)


@dataclass
class StreamEvent:
    """What ``Engine.stream`` yields: ``sources`` (before any token), ``token`` pieces, then ``done``."""

    kind: str  # "sources" | "token" | "done"
    text: str = ""
    sources: list[Source] = field(default_factory=list)
    refused: bool = False  # with ``sources``: the evidence already decided to refuse
    answer: Answer | None = None


def final_answer(events: Iterable[StreamEvent]) -> Answer:
    """The ``done`` event's answer of an event stream, consuming it to the end."""
    answer = next((event.answer for event in reversed(list(events)) if event.kind == "done"), None)
    if answer is None:
        raise RuntimeError("the answer stream ended without an answer")  # generate() always ends with one
    return answer
