"""A list question offering alternatives ("… on chemistry or molecule design?", "… use Best-of-N or some other
test-time selection among candidates?"): each alternative is searched for on its own as well, so the papers fitting
either one rank near the top (one query mixing both ranks neither's papers well). Which of them are listed is still
decided by their sentences against the whole question, but for each alternative's first paper, listed whenever it
clears the evidence floor (scoring each alternative's sentences alone listed papers that fit a piece of it: "…
loading cost of the KV cache" brought D2F, which only uses a KV cache).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from rag.fields import RELEASED, field_query, field_terms, lone_noun
from rag.choice_words import choice_query
from rag.question import DASHED_EXAMPLES, OPEN_ENDS
from rag.tokens import content_words, stems, topic_query, without_where
from rag.types import Hit

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever
    from rag.types import Evidence

# ("papers on catalysis and on rainfall forecasting": two topics, the preposition said again)
_OR = re.compile(r"\s*,?\s+or\s+(?!(?:so|similar|something|anything|other\s+than|not)\b)|\s+/\s+|"  # (and "A / B")
                 r"\s*,?\s+and\s+(?=(?:on|about|"
                 r"regarding)\s)", re.IGNORECASE)
# What asks for papers rather than saying which: "Different topic: ", "what's (in) here on", "which ones are about".
_ASKING = re.compile(r"^[^:?]{0,40}:\s+|^\W*(?:what(?:'s|’s|\s+is)|anything)\s+(?:in\s+)?here\s+(?:on|about|for|"
                     r"regarding)\s+|^\W*(?:which|what)\s+(?:ones|of\s+(?:the|these|those)\s+papers)\s+"
                     r"(?:are\s+|deal\s+with\s+|work\s+on\s+)?(?:about\s+|on\s+)?"
                     # "… deal with PDEs or eigenvalue problems?": what the papers are about, not a topic word
                     r"|^\W*(?:(?:deal|deals|dealing)\s+with|(?:work|works|working|focus|focuses|focusing)\s+on|"
                     r"(?:are|is)\s+(?:about|on))\s+", re.IGNORECASE)
# Words that join an alternative to what it shares with the other ("… or flow matching to generate …").
_JOINS = frozenset("to for of in on with that which where when among across from by via using about".split())
# The examples a list question gives in brackets ("… operations-research type problems (TSP, bin packing, LP/MIP
# modeling, that sort of thing)?"): more alternatives, which ``question.without_examples`` takes out of its query
_BRACKETED = re.compile(r"\((?:\s*(?:like|e\.\s?g\.?|eg|such\s+as|for\s+(?:example|instance)|say)\b[,:]?)?"
                        r"([^()]*,[^()]*)\)", re.IGNORECASE)
_NOT_EXAMPLES = re.compile(r"^\s*(?:not|except|other\s+than|besides|ignoring|leaving|excluding|without)\b", re.I)
_OPEN_END = re.compile(rf"^(?:or|and)\s+|(?:{OPEN_ENDS}|\band\s+the\s+like)$", re.IGNORECASE)
FEW_HOLDERS = 2  # an example searched on its own only when this many papers at most write it ("bin packing", not
# "agents" or "generating", which would add papers fitting the example but not the question)
RRF_K = 60  # the usual reciprocal-rank constant: no ranking's first places dominate
WHOLE_WEIGHT = 2.0  # the whole question's ranking counts as much as two alternatives': a paper found for one
# alternative alone joins the list's candidates without going ahead of those the whole question found


def alternatives(query: str) -> list[str]:
    """The alternatives a list question's topic offers ("which ones are about chemistry or molecule design?" →
    ["chemistry", "molecule design"]), without what it says they are not ("… rather than generating images");
    [] when it offers none, or one of them has no topic word of its own."""
    topic = topic_query(choice_query(query))
    for _ in range(2):  # "Different topic: what's here on …"
        topic = _ASKING.sub("", topic, count=1)
    match = _OR.search(topic)
    if not match:
        return []
    before, after = topic[:match.start()].split(), topic[match.end():].split()
    # The second alternative runs to the next word joining it to what both share ("flow matching | to generate …");
    # the first is as many words before "or" ("diffusion or flow matching", "generation or inference").
    joint = next((i for i, w in enumerate(after) if i and w.lower().strip(",;") in _JOINS), len(after))
    second, shared = after[:joint], after[joint:]
    first = before[-len(second):] if len(before) > len(second) else before
    head = before[:len(before) - len(first)]
    pieces = [" ".join([*head, *first, *shared]), " ".join([*head, *second, *shared])]
    pieces = [p.strip(" ?.!,;:") for p in pieces]
    return pieces if all(content_words(p) for p in pieces) else []


def examples_in(question: str) -> list[str]:
    """The examples a question gives in brackets or after a dash, open-ended, each of a few words ("(TSP, bin packing,
    LP/MIP modeling, that sort of thing)" → TSP, bin packing, LP/MIP modeling); [] for none, or for what it leaves out
    ("(not …, …)")."""
    found = _BRACKETED.search(question) or re.search(DASHED_EXAMPLES, question, re.IGNORECASE)
    if not found or _NOT_EXAMPLES.match(found.group(1)):
        return []
    items = [_OPEN_END.sub("", item.strip(" .;:")).strip() for item in found.group(1).split(",")]
    return [item for item in items if content_words(item) and len(item.split()) <= 3]


# "… such as GSM8K, MATH, AIME or HMMT?": a run of three or more things, the last joined by "or" / "and"
_RUN = re.compile(r"(?:[\w.@+-]+\s*,\s*)+[\w.@+-]+,?\s+(?:or|and)\s+[\w.@+-]+", re.IGNORECASE)


def offered_among(missing: list[str], question: str) -> list[str]:
    """The ``missing`` names (no abstract writes them) a question gives as one of several things in a run ("which
    papers report results on math benchmarks such as GSM8K, MATH, AIME or HMMT?": HMMT) whose other things are not
    missing: a list asks for papers with any of them, so a paper with another one answers it."""
    runs = [re.split(r"\s*,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+", run.group(0)) for run in _RUN.finditer(question)]
    return [m for m in missing if any(m in items and any(i not in missing for i in items) for items in runs)]


def searched_examples(examples: list[str], retriever: HybridRetriever) -> list[str]:
    """The ``examples`` few enough papers write to be searched for on their own (``FEW_HOLDERS``)."""
    return [e for e in examples if 1 <= len(_holders(e, retriever)) <= FEW_HOLDERS]


def _holders(example: str, retriever: HybridRetriever) -> set[str]:
    """The papers whose title or abstract writes the example, in the singular or plural (``papers_mentioning``)."""
    forms = {example, f"{example}s", example.removesuffix("s")}
    return {pid for form in forms if form for pid in retriever.names.papers_mentioning(form)}


def fused(rankings: list[list[Hit]], depth: int) -> list[Hit]:
    """The papers of several rankings in weighted reciprocal-rank order (the first ranking is the whole question's).
    Hand-rolled beside ``weighted_rrf``: that one fuses the rankings of one query, these are already fused hits."""
    scores: dict[str, float] = {}
    hits: dict[str, Hit] = {}
    for i, ranking in enumerate(rankings):
        for rank, hit in enumerate(ranking):
            pid = hit.paper.paper_id
            scores[pid] = scores.get(pid, 0.0) + (WHOLE_WEIGHT if i == 0 else 1.0) / (RRF_K + rank + 1)
            hits.setdefault(pid, hit)
    order = sorted(scores, key=lambda pid: scores[pid], reverse=True)
    return [hits[pid] for pid in order[:depth]]


def search_each(query: str, ranked: list[Hit], retriever: HybridRetriever, depth: int,
                only: set[str] | None, examples: list[str] | None = None) -> list[Hit]:
    """``ranked`` (the whole question's ranking) fused with each alternative's own ranking; the first paper of each
    of the ``examples`` the question gives (``examples_in``) a candidate too."""
    from rag.list_intent import asked_kind

    examples = searched_examples(examples or [], retriever)
    pieces, field = alternatives(query), field_query(query)  # (a field asked by name: its words searched too)
    kind = asked_kind(query)  # ("any other benchmarks for …?": the kind of paper it asks for)
    if not pieces and not field and not examples and not kind:
        return ranked
    rankings = [retriever.search(p, depth, only=only) for p in [*pieces, *([field] if field else [])]]
    # Each alternative's first paper carries it as its ``part``: listed whenever it clears the evidence floor
    # (``decide``), though its sentences fit the whole question less than the other alternative's papers do.
    best = {r[0].paper.paper_id: replace(r[0], part=p) for p, r in zip(pieces, rankings) if r}
    # (an example's, too, without reordering the others: "bin packing" is MetaMuse's alone)
    for example in examples:
        if (first := retriever.search(example, 1, only=only)) and first[0].paper.paper_id not in best:
            best[first[0].paper.paper_id] = replace(first[0], part=example)
    # The whole question's first paper stays first: the alternatives add papers, they do not reorder the best fit.
    rest = [h for h in fused([ranked, *rankings], depth) if not ranked or h.paper.paper_id != ranked[0].paper.paper_id]
    found = [best.get(h.paper.paper_id, h) for h in [*ranked[:1], *rest]][:depth]
    # (an example's first paper a candidate, however low the others rank it)
    missed = [hit for pid, hit in best.items() if hit.part in examples and pid not in {h.paper.paper_id for h in found}]
    found = found[: depth - len(missed)] + missed
    # (a small collection's) papers using a field's words, and any using the one noun a list asks for ("… make a
    # point about interpretability?"), are candidates, however low they rank
    terms = {**(field_terms(query, retriever) if field else {}),
             **{w: set(retriever.names.papers_mentioning(w)) for w in lone_noun(query)}}  # (a lone noun: in ``field``)
    if terms:
        using = {pid for ids in terms.values() for pid in ids}
        shown = {h.paper.paper_id for h in found}
        extra = [h for h in rankings[-1] if h.paper.paper_id in using and h.paper.paper_id not in shown][: depth // 2]
        # (every paper saying where its code is, which a search for "code available" ranks below others mentioning code)
        listed = shown | {h.paper.paper_id for h in extra}
        extra += [Hit(retriever.papers[pid], 0.0) for pid in sorted(terms.get(RELEASED, ())) if pid not in listed
                  ][: depth // 2]
        found = found[: depth - len(extra)] + extra
    if kind:  # (the benchmarks on long-context reasoning are candidates, though papers on it that are no benchmark
        # rank above them)
        found = _kind_first(found, [h for h in retriever.search(query, depth * 3, only=only) if kind.search(
            h.paper.title)])
    if kind and not content_words(without_where(query)) - _INTRODUCING:  # the kind is all it asks for: each
        # one of it, as an alternative's first paper is, listed when it clears the floor ("which papers introduce a new
        # benchmark?" lists CatalystBench, whose sentences say "benchmark" in passing)
        found = [h if h.part is not None or not kind.search(h.paper.title) else replace(h, part="") for h in found]
    return found


# (what a list asking only for a kind of paper says besides: "which papers introduce a new benchmark?")
_INTRODUCING = frozenset("new novel introduce introduces introducing propose proposes present presents contribute "
                         "contributes release releases main primary key contribution contributions benchmark "
                         "benchmarks dataset datasets testbed testbeds corpus corpora survey surveys".split())
KIND_LIFTED = 3  # papers of the kind a list asks for that join its candidates from deeper in the ranking


def _kind_first(found: list[Hit], of_kind: list[Hit]) -> list[Hit]:
    """The first ``KIND_LIFTED`` papers of the kind asked for not among ``found`` take the places of its last papers
    of other kinds."""
    have, kinds = {h.paper.paper_id for h in found}, {h.paper.paper_id for h in of_kind}
    if not (lifted := [h for h in of_kind if h.paper.paper_id not in have][:KIND_LIFTED]):
        return found
    dropped = {h.paper.paper_id for h in [h for h in found if h.paper.paper_id not in kinds][-len(lifted):]}
    return [h for h in found if h.paper.paper_id not in dropped] + lifted


def each_alternative(query: str, evidence: list[Evidence], retriever: HybridRetriever, weight: float,
                     word_parts: bool, examples: list[str] | None = None) -> list[Evidence]:
    """A list's evidence with each sentence scored by the alternative it fits best, when the question offers
    alternatives: "… use Best-of-N or some other test-time selection among candidates?" lists the paper whose one
    sentence on Best-of-N fits the whole question loosely (a sentence with none of an alternative's own words is not
    scored by it)."""
    from rag.evidence import best_of, evidence_for

    pieces = alternatives(query) + searched_examples(examples or [], retriever)
    if not pieces or not evidence:
        return evidence
    hits, parts = [e.hit for e in evidence], []
    for piece in pieces:  # a sentence counts for an alternative when it has a word of that alternative's own
        own = stems(content_words(piece)) - stems({w for p in pieces if p != piece for w in content_words(p)})
        parts.append([replace(e, sentences=[s for s in e.sentences if own & stems(content_words(s.text))])
                      for e in evidence_for(piece, hits, retriever, weight, word_parts)])
    return best_of(evidence, parts)
