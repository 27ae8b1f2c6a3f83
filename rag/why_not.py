""""Why not just least-squares fit the pruned layer to the original outputs?": the question names the obvious
alternative to what the paper does. The paper's sentence about that alternative (usually what is wrong with it:
"Although direct least-squares fitting can reduce such errors, it tends to overfit …") answers it and leads, not the
paper's method sentence that the rest of the question's words fit as well."""

from __future__ import annotations

import re

from rag.tokens import content_words, stems
from rag.topic_words import REFERENCE_WORDS
from rag.types import Evidence

_WHY_NOT = re.compile(r"\b(?:why\s+(?:not|don['’]?t\s+(?:they|you|we|the\s+authors)|didn['’]?t\s+(?:they|the\s+"
                      r"authors)|can['’]?t\s+(?:they|you|we|one)))\s+(?:just\s+|simply\s+)?"
                      r"(?P<alternative>[^?!;]{3,100})", re.IGNORECASE)


def alternative(question: str) -> set[str]:
    """The stems of the alternative a "why not just …?" question names; empty for other questions."""
    asked = _WHY_NOT.search(question)
    return _words(asked.group("alternative")) - stems(REFERENCE_WORDS) if asked else set()


def _words(text: str) -> set[str]:
    """Stems of the text's words, a hyphenated one in its parts ("least-squares" as "least squares" is written)."""
    return stems(content_words(text.replace("-", " ")))


def lead_alternative(question: str, evidence: list[Evidence]) -> None:
    """Each paper's sentence that best words the alternative the question names leads its answer (``Evidence.leads``).
    A word counts by how few of the paper's sentences use it (its own abstract's inverse frequency): "pruned" and
    "outputs" run through the whole RCPU abstract, "least-squares" is in the one sentence about the alternative.
    Our own weighting because the retrievers' scores rank sentences for the whole question, not for one part of it."""
    from rag.question import sub_questions
    from rag.roles import releases

    # (not a turn asking several things, "where did their labels come from, and why not just …?": each part's own)
    if not (asked := alternative(question)) or sub_questions(question):
        return
    for item in evidence:
        # (the alternative's own words: "why can't they just use a regular conditional image diffusion model?" of a
        # diffusion paper is about "regular conditional image", which its title does not say)
        words = asked - _words(item.hit.paper.title)
        held = {s.position: _words(s.text) for s in item.sentences if not releases(s.text)}
        uses = {w: sum(w in h for h in held.values()) for w in words}
        weight = {pos: sum(1 / uses[w] for w in words & h) for pos, h in held.items()}
        if weight and (best := max(weight, key=weight.get)) is not None and weight[best] >= 1.0:
            item.leads = best
