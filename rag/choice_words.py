"""What a choice among papers on the table is scored against, and what it says the pick is not about ("which of the
two is about text rather than images?")."""

from __future__ import annotations

import re

from rag.question import names_in
from rag.tokens import content_words

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


def rather_than(question: str) -> str:
    """What a choice says the pick is not about ("… about text rather than images?" → "images"); "" if nothing."""
    said = match.group("not").strip() if (match := _RATHER_THAN.search(question)) else ""
    return said if content_words(said) else ""
