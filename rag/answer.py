"""Answer stage, extractive mode: the answer is the chosen evidence sentences, each cited ``[n]``.

Needs no LLM and cannot invent anything; it stays as the fallback for every other backend.
"""

from __future__ import annotations

from rag.prompts import REFUSAL, REFUSAL_MISSING_NAMES, REFUSAL_UNKNOWN_WORDS, SPELLING_NOTE
from rag.settings import Settings
from rag.types import Answer, Citation, Decision, Evidence, Source


def sources_for(evidence: list[Evidence]) -> list[Source]:
    return [Source(rank=i, paper=e.hit.paper, score=e.hit.score) for i, e in enumerate(evidence, start=1)]


def refusal_text(decision: Decision) -> str:
    if decision.missing_names:
        return REFUSAL_MISSING_NAMES.format(names=", ".join(f"“{n}”" for n in decision.missing_names))
    if decision.unknown_words:
        return REFUSAL_UNKNOWN_WORDS.format(words=", ".join(f"“{w}”" for w in decision.unknown_words))
    return REFUSAL


def spelling_note(corrections: dict[str, str]) -> str:
    """What the answer says about question words it read as others ("" when there were none)."""
    return " ".join(SPELLING_NOTE.format(typo=f"“{typo}”", word=f"“{word}”") for typo, word in corrections.items())


def extractive_answer(question: str, evidence: list[Evidence], decision: Decision, settings: Settings) -> Answer:
    sources = sources_for(evidence)
    if decision.refused:
        return Answer(question=question, text=refusal_text(decision), refused=True, citations=[], sources=sources)
    paragraphs, citations = [], []
    for n, item in decision.chosen:
        picked = [s for s in item.sentences[: decision.sentences_per_paper] if s.score >= settings.decision.min_sentence]
        picked = picked or item.sentences[:1]
        picked.sort(key=lambda s: s.position)  # read in the abstract's own order
        paragraphs.append(" ".join(f"{s.text} [{n}]" for s in picked))
        citations.append(Citation.of(n, item))
    return Answer(question=question, text="\n\n".join(paragraphs), refused=False, citations=citations,
                  sources=sources)
