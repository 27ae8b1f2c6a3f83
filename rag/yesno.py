"""Yes-no questions ("Does GtR need retraining?"): the verdict a paper's own sentence gives, said first ("No — GtR is
a training-free …"), or nothing when its sentences do not settle it.

Deterministic and narrow on purpose: "No" only where the asked-for thing is negated next to it ("training-free",
"without retraining", "does not require calibration"); "Yes" only where a sentence saying what the paper does or
found holds every word of it. The sentence is quoted as always, so the reader sees why.
"""

from __future__ import annotations

import re

from rag.roles import Role, role_of
from rag.tokens import content_words, stems
from rag.types import EvidenceSentence

_YES_NO = re.compile(r"^\W*(?:(?:and|so|but|ok(?:ay)?|also)\W+)?(?:does|do|did|is|are|was|were|can|could|will|has|have)"
                     r"\s+(?P<rest>.+?)[?.!\s]*$", re.IGNORECASE)
# Words that carry the question's polarity or point at the paper, not the thing asked about.
_FRAME = frozenset("need needs require requires required requiring use uses using work works support supports rely "
                   "relies involve involves it they this that method approach model paper authors also any still "
                   "actually really".split())
_NEGATING = re.compile(r"\b(?:without|free|not|no|never|neither|nor)\b", re.IGNORECASE)


def verdict(question: str, name: str, sentences: list[EvidenceSentence]) -> tuple[str, EvidenceSentence] | None:
    """("No", the sentence) when a sentence negates the thing asked about, ("Yes", it) when a sentence on what the
    paper does or found holds all of it, None otherwise (or when the question itself is negative)."""
    match = _YES_NO.match(question.strip())
    # "Is there a paper on …?" asks for papers (the plan leads with what each proposes), not for a verdict.
    if not match or _NEGATING.search(match.group("rest")) or match.group("rest").lower().startswith("there "):
        return None
    own = {w.lower() for w in re.findall(r"[\w-]+", name)}
    wanted = [w for w in content_words(match.group("rest")) if w not in _FRAME and w not in own and w.isascii()
              and not w.isdigit()]
    if not wanted or len(wanted) > 4:
        return None

    def holds(sentence: EvidenceSentence) -> bool:  # every word asked about, in some form
        held = stems(content_words(sentence.text))
        return all(stems(set(_forms(w))) & held for w in wanted)

    for sentence in sentences:  # (a lone negated word is not enough: "without noisy data" for "… multi-view data?")
        if any(_negated(form, sentence.text) for w in wanted for form in _forms(w)) and (
                len(wanted) == 1 or holds(sentence)):
            return "No", sentence
    for sentence in sentences:
        if holds(sentence) and role_of(sentence, name) in (Role.METHOD, Role.RESULT):
            return "Yes", sentence
    return None


def _forms(word: str) -> list[str]:
    """The word, and without a "re-" of repetition: "retraining" is answered by "training-free"."""
    bare = word[2:] if word.startswith("re") and len(word) > 7 else ""
    return [word, *([bare] if bare else [])]


def _negated(word: str, text: str) -> bool:
    w = re.escape(word)
    # "eliminating the need for multi-view training data", "removes the need for retraining", "avoids any …"
    pattern = (rf"\b{w}[-\s]free\b|\b(?:without|(?:eliminat|remov|avoid|obviat|bypass)\w*\s+the\s+(?:need|"
               rf"requirement)\s+(?:for|of))\s+(?:any\s+|the\s+need\s+(?:for|of)\s+|requiring\s+|extra\s+|"
               rf"additional\s+)?(?:[\w-]+\s+){{0,2}}{w}\w*\b"
               rf"|\bno\s+(?:need\s+(?:for|of)\s+|extra\s+|additional\s+)?{w}\w*\b|"
               rf"\b(?:does|do|did)\s+not\s+(?:require|need|use)\s+(?:any\s+)?(?:[\w-]+\s+)?{w}\w*\b")
    return bool(re.search(pattern, text, re.IGNORECASE))
