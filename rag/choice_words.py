"""What a choice among papers on the table is scored against, and what it says the pick is not about ("which of the
two is about text rather than images?")."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING

from rag.question import names_in
from rag.tokens import content_words, stems

if TYPE_CHECKING:
    from rag.types import Evidence

# "… about text rather than images?": what a choice is not about.
# ("… more of an evaluation paper than a model paper?": the pick is not a model paper)
_RATHER_THAN = re.compile(r",?\s*\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|but\s+not|(?<=paper)\s+than|"
                          r"(?<=work)\s+than)\b(?P<not>[^,;?]*)", re.IGNORECASE)
_CALLS_A_PAPER = re.compile(r"\b(?:papers?|study|studies|work)\b", re.IGNORECASE)


def choice_query(question: str) -> str:
    """What a choice among papers is scored against: the question without what it says the pick is not about
    (those words would count for the other papers), nor the sentences before the one asking which that name or call
    a paper ("I'm weighing that against the biological diffusion paper. Which of the two …?")."""
    from rag.asks import asks_which

    sentences = re.split(r"(?<=[.!?])\s+", question.strip())
    asking = next((i for i, s in enumerate(sentences) if asks_which(s)), 0)
    # (a sentence before it saying what the user wants stays: "My worry is X. Which of the two speaks to that?")
    kept = [s for s in sentences[:asking] if not (names_in(s) or _CALLS_A_PAPER.search(s))] + sentences[asking:]
    return _RATHER_THAN.sub("", " ".join(kept)).strip()


# "… where the scoring does not rely on matching hand-written specifications?": what the pick does without
_DOES_WITHOUT = re.compile(r"\b(?:(?:does|do|did|must|should|would)\s*n[o’']t|never|without)\s+(?:need(?:ing)?|"
                           r"requir(?:e|ing)|rel(?:y|ying)\s+on|depend(?:ing)?\s+on|us(?:e|ing))\b[^,;?]*|"
                           r"\b(?:free\s+of|no\s+need\s+(?:for|of))\b[^,;?]*", re.IGNORECASE)


def without_denied(question: str) -> str:
    """The question without what it says the paper does without ("… does not rely on hand-written specs")."""
    return _DOES_WITHOUT.sub("", question)


def rather_than(question: str) -> str:
    """What a choice says the pick is not about ("… about text rather than images?" → "images"); "" if nothing."""
    said = match.group("not").strip() if (match := _RATHER_THAN.search(question)) else ""
    return said if content_words(said) else ""


# A sentence denying something ("Their framework does not require modifications of the generative process"), and the
# few words after the denial that say what it denies.
_DENIAL = re.compile(r"\b(?:not|no|never|without|neither|nor|cannot)\b|n['’]t\b", re.IGNORECASE)
_DENIED_SPAN = 6
# (a choice for what a paper goes without: "… if I have zero access to …?", "… deliberately avoids adding …?")
_ASKS_DENIAL = re.compile(r"\b(?:not|no|never|without|neither|nor|none|lacks?|free|zero|avoids?|avoiding|skips?|"
                          r"bypass(?:es)?|eliminates?|removes?|drops?|dispenses?|sidesteps?)\b|n['’]t\b",
                          re.IGNORECASE)
_OF_OTHERS = re.compile(r"\b(?:existing|prior|previous|current|conventional|traditional|standard|other|earlier)\b",
                        re.IGNORECASE)


def mark_denials(question: str, evidence: list[Evidence]) -> None:
    """A choice's pick is no paper saying of its own method that it does not do what the choice asks for ("which one
    has to intervene in the generation process itself?": the provenance paper's "Their framework does not require
    modifications of the generative process …" holds "generation process" and says the opposite): such a paper is
    marked (``Evidence.denies``). A denial counts when the few words after it hold two of the asked words (all, if
    fewer), in a sentence on the method or its results that speaks of no other work ("existing methods do not …").
    None is marked when the question asks for a denial itself ("which one needs no retraining?")."""
    from rag.asks import asks_which
    from rag.roles import Role

    asked = next((s for s in re.split(r"(?<=[.!?])\s+", question) if asks_which(s)), question)
    wanted = stems(content_words(asked))
    if _ASKS_DENIAL.search(asked) or not wanted:
        return

    def denies(text: str) -> bool:
        return not _OF_OTHERS.search(text) and any(
            len(stems(content_words(" ".join(text[m.end():].split()[:_DENIED_SPAN]))) & wanted) >= min(2, len(wanted))
            for m in _DENIAL.finditer(text))

    for e in evidence:  # (the denial leads what the answer quotes of the paper)
        denial = next((s for s in e.sentences if s.role in (Role.METHOD, Role.RESULT) and denies(s.text)), None)
        e.denies, e.leads = denial is not None, denial.position if denial else e.leads
