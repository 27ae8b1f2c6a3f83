"""Answer stage, extractive mode: the answer is the chosen evidence sentences, each cited ``[n]``.

Needs no LLM and cannot invent anything; it stays as the fallback for every other backend.
"""

from __future__ import annotations

from rag.prompts import (CHOICE_OTHER, CHOICE_PICK, CHOICE_UNSETTLED, REFUSAL, REFUSAL_MISSING_NAMES,
                         REFUSAL_UNKNOWN_WORDS, SPELLING_NOTE)
from rag.settings import Settings
from rag.table import method_sentence
from rag.types import Answer, Citation, Decision, Evidence, QuestionKind, Source


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


def extractive_answer(question: str, evidence: list[Evidence], decision: Decision, settings: Settings,
                      kind: QuestionKind = QuestionKind.SINGLE) -> Answer:
    sources = sources_for(evidence)
    if decision.refused:
        return Answer(question=question, text=refusal_text(decision), refused=True, citations=[], sources=sources)
    if kind is QuestionKind.CHOICE and len(decision.chosen) >= 2:
        first = sorted(decision.chosen, key=lambda item: item[0] != decision.pick)  # the pick leads the table
        return Answer(question=question, text=choice_text(decision), refused=False, sources=sources,
                      citations=[Citation.of(n, item) for n, item in first])
    paragraphs, citations = [], []
    for i, (n, item) in enumerate(decision.chosen):
        picked = [s for s in item.sentences[: decision.sentences_per_paper] if s.score >= settings.decision.min_sentence]
        picked = picked or item.sentences[:1]
        method = method_sentence(item) if i == 0 and kind is QuestionKind.SINGLE else None
        if method is not None and method not in picked:  # what the paper proposes, beside what fits the question
            picked.append(method)
        picked.sort(key=lambda s: s.position)  # read in the abstract's own order
        paragraphs.append(" ".join(f"{s.text} [{n}]" for s in picked))
        citations.append(Citation.of(n, item))
    return Answer(question=question, text="\n\n".join(paragraphs), refused=False, citations=citations,
                  sources=sources)


def choice_text(decision: Decision) -> str:
    """A choice among papers on the table: the pick and the sentence that decides it, then what the others say;
    when the evidence does not settle it, what each says (an honest partial answer, not a guess)."""
    def says(n: int, item: Evidence) -> str:
        best = item.sentences[0].text if item.sentences else "nothing on this in the abstract."
        return f"{item.hit.paper.short_name}: {best} [{n}]"

    if decision.pick is None:
        lines = [f"- {says(n, item)}" for n, item in decision.chosen]
        return CHOICE_UNSETTLED + "\n" + "\n".join(lines)
    picked = dict(decision.chosen)[decision.pick]
    others = [CHOICE_OTHER.format(says=says(n, item)) for n, item in decision.chosen if n != decision.pick]
    return "\n\n".join([CHOICE_PICK.format(says=says(decision.pick, picked)), *others])
