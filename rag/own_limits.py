"""Whether a turn asks for a paper's own limitations ("What are its limitations?", "any drawbacks?") that its abstract
does not state. Abstracts seldom say what their own method cannot do; the limitations they write of are usually
earlier work's (the problem they take on), so an answer made of the paper's nearest sentences would read as if it
answered. Such a turn is refused by ``rag.unstated``, naming the paper."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.roles import Role, role_of

if TYPE_CHECKING:
    from rag.types import Evidence

_LIMITS = r"(?:limitations?|weakness(?:es)?|drawbacks?|downsides?|shortcomings?|caveats?|failure\s+modes?)"
# Asked of the paper's own method: "limitations?", "What are its main limitations?", "does it have any drawbacks?",
# "any downsides to this approach?" (not "what limitation of existing methods …", nor "… does it address?")
_OWN = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|but|then|also)\W+)?(?:(?:what\s+(?:are|were|is|'re)|any|are\s+there\s+"
                  r"any|(?:does|do)\s+(?:it|they|this|the\s+(?:method|approach|paper|model))\s+have\s+(?:any)?)\s+)?"
                  r"(?:(?:its|their|the|known|main|key|biggest|obvious|major|some)\s+){0,2}" + _LIMITS +
                  r"(?:\s+(?:of|to|with)\s+(?:it|them|this|that|the\s+(?:method|approach|paper|model|work)|"
                  r"this\s+(?:method|approach|paper|model|work)))?\s*\?*\s*$", re.IGNORECASE)
# A sentence of the paper's own (not background, not the problem taken on) saying what it cannot do or gives up
_STATED = re.compile(r"\b(?:limitations?|limited\s+(?:to|by)|drawbacks?|weakness(?:es)?|downsides?|caveats?|"
                     r"at\s+the\s+(?:cost|expense)\s+of|fails?\s+to|cannot|can['’]t)\b", re.IGNORECASE)
# …not one about the limitations the paper takes on ("To address these limitations, we propose …", "… where prior
# watermarking methods cannot be used")
_OTHERS = re.compile(r"\b(?:address\w*|overcom\w*|tackl\w*|solv\w*|mitigat\w*|alleviat\w*|resolv\w*|remed\w*|"
                     r"existing|prior|previous|conventional|current|traditional|probe)\b", re.IGNORECASE)


def unlimited(question: str, evidence: list[Evidence]) -> list[str]:
    """["limitations of its own"] when ``question`` asks for the paper's own limitations and none of ``evidence``'s
    papers states one in a sentence of its own (by the role stored at ingest, ``roles.role_of``); else []."""
    if not _OWN.match(question):
        return []
    for item in evidence:
        for sentence in item.sentences:
            if _STATED.search(sentence.text) and not _OTHERS.search(sentence.text) and role_of(
                    sentence, item.hit.paper.short_name) not in (Role.BACKGROUND, Role.PROBLEM):
                return []
    return ["limitations of its own"]
