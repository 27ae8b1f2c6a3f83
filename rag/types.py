"""The typed records that flow between pipeline stages, defined once.

corpus → ``Paper``; retrieve → ``Hit``; evidence → ``Evidence``; answer → ``Answer`` with
``Citation`` and ``Source``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from rag.clean import content_hash, display_text, normalise, search_text


@dataclass(frozen=True)
class Paper:
    """One paper: an abstract with its title and where it came from."""

    paper_id: str
    title: str
    abstract: str  # raw, exactly as given (may hold LaTeX / Markdown)
    source: str  # "file:line" of the first record that brought it
    title_derived: bool = False  # True when no title was given and one was derived from the text
    openreview_id: str | None = None
    url: str | None = None
    venue: str | None = None
    area: str | None = None
    keywords: tuple[str, ...] = ()
    also_in: tuple[str, ...] = ()  # other "file:line" records holding the same abstract

    @cached_property
    def text(self) -> str:
        """Clean display form of the abstract."""
        return display_text(self.abstract)

    @cached_property
    def search_text(self) -> str:
        return search_text(self.abstract)

    @cached_property
    def display_title(self) -> str:
        return display_text(self.title)

    @cached_property
    def text_key(self) -> str:
        """Identity of the abstract however it was typeset: the de-duplication key."""
        return content_hash(normalise(self.abstract))

    @cached_property
    def embed_hash(self) -> str:
        """Hash of everything that is embedded: when it is unchanged, nothing is re-embedded."""
        return content_hash(self.display_title, self.search_text)

    @cached_property
    def record_hash(self) -> str:
        """Hash of the whole record: when it is unchanged, the paper is left alone."""
        return content_hash(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False))

    def metadata(self) -> dict[str, Any]:
        return {
            "openreview_id": self.openreview_id,
            "url": self.url,
            "venue": self.venue,
            "area": self.area,
            "keywords": list(self.keywords),
            "also_in": list(self.also_in),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "paper_id": self.paper_id,
            "title": self.title,
            "title_derived": self.title_derived,
            "abstract": self.abstract,
            "source": self.source,
            "metadata": self.metadata(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Paper:
        meta = data.get("metadata") or {}
        return cls(
            paper_id=data["paper_id"],
            title=data["title"],
            abstract=data["abstract"],
            source=data["source"],
            title_derived=bool(data.get("title_derived", False)),
            openreview_id=meta.get("openreview_id"),
            url=meta.get("url"),
            venue=meta.get("venue"),
            area=meta.get("area"),
            keywords=tuple(meta.get("keywords") or ()),
            also_in=tuple(meta.get("also_in") or ()),
        )

    def merged_with(self, other: Paper) -> Paper:
        """This record, with fields it lacks filled from ``other`` (the same abstract elsewhere)."""
        also_in = tuple(dict.fromkeys((*self.also_in, other.source, *other.also_in)))
        also_in = tuple(s for s in also_in if s != self.source)
        title, derived = self.title, self.title_derived
        if derived and not other.title_derived:
            title, derived = other.title, False
        return replace(
            self,
            title=title,
            title_derived=derived,
            openreview_id=self.openreview_id or other.openreview_id,
            url=self.url or other.url,
            venue=self.venue or other.venue,
            area=self.area or other.area,
            keywords=self.keywords or other.keywords,
            also_in=also_in,
        )


@dataclass
class Hit:
    """A paper found by retrieval, with what each ranking thought of it (None: not in its top)."""

    paper: Paper
    score: float  # fused relevance, higher is better
    dense_score: float | None = None  # best cosine similarity of any chunk of the paper
    bm25_score: float | None = None
    sentence_score: float | None = None  # best cosine similarity of any single sentence
    headline_score: float | None = None  # multilingual-e5 similarity of title + first sentence (non-English)
    part: str | None = None  # for comparisons: the piece of the question this paper answers


@dataclass
class EvidenceSentence:
    text: str
    score: float  # similarity to the question, higher is better
    position: int  # index of the sentence in the abstract


@dataclass
class Evidence:
    """What one retrieved paper can support: its sentences ranked by relevance to the question."""

    hit: Hit
    sentences: list[EvidenceSentence]
    names_found: list[str] = field(default_factory=list)  # names from the question the paper contains

    @property
    def best_score(self) -> float:
        return max((s.score for s in self.sentences), default=0.0)


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
    rank: int
    paper: Paper
    score: float

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "paper_id": self.paper.paper_id,
            "title": self.paper.title,
            "score": round(self.score, 6),
            "abstract": self.paper.abstract,
        }


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
    notice: str = ""  # why the answer is not the backend's own (fallback), if it is not
    query: str = ""  # what retrieval searched for (the standalone form of a follow-up)
    evidence_sentences: dict[str, list[str]] = field(default_factory=dict)  # paper id → sentences quoted/supporting
    corrections: dict[str, str] = field(default_factory=dict)  # question word (a typo) → corpus word searched for

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
        }


@dataclass
class StreamEvent:
    """What ``Engine.stream`` yields: ``sources`` (before any token), ``token`` pieces, then ``done``."""

    kind: str  # "sources" | "token" | "done"
    text: str = ""
    sources: list[Source] = field(default_factory=list)
    refused: bool = False  # with ``sources``: the evidence already decided to refuse
    answer: Answer | None = None


def final_answer(events: Any) -> Answer:
    """The ``done`` event's answer of an event stream, consuming it to the end."""
    answer = None
    for event in events:
        if event.kind == "done":
            answer = event.answer
    if answer is None:
        raise RuntimeError("the answer stream ended without an answer")  # generate() always ends with one
    return answer
