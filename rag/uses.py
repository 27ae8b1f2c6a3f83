"""What a work is for: "use cases?", "applications?", "what is it good for?". The sentence saying so ("This is critical
to prevent the spread of misinformation, detect fraud, …") leads the paper's answer, however loosely the question's
few words fit it (two words' embedding ranks sentences by chance; measured: "use cases?" failed on three dialogues)."""

from __future__ import annotations

import re

from rag.types import Evidence

# (not "what applications do they show results on?", which the sentence reporting the results answers)
_USES = re.compile(r"\buse[- ]?cases?\b|"
                   r"^\W*(?:and\s+)?(?:applications?|uses)\W*$|\bapplication[- ]wise\b|\bpractical\s+(?:uses?|value)\b|"
                   r"\bwhat\s+(?:is|are|['’]s)\s+(?:it|they|this|that)\s+(?:good|useful|meant)\s+for\b", re.IGNORECASE)
# A sentence saying what a work is for ("critical to prevent …", not "the critical gap", "importance score")
_SAYS_USE = re.compile(r"\b(?:critical|crucial|essential|vital|important|useful|valuable|key)\s+(?:to|for)\b|"
                       r"\bapplica(?:tions?|ble)\b|\bpractical\b|\breal-world\b|\bdeploy\w*|\bdownstream\b|"
                       r"\buse[- ]cases?\b", re.IGNORECASE)


def asks_uses(question: str) -> bool:
    """The question asks what the work is for."""
    return bool(_USES.search(question))


def lead_uses(question: str, evidence: list[Evidence]) -> None:
    """Asked what a work is for, each paper's first sentence holding a word saying so leads its answer
    (``Evidence.leads``), unless a rule before already chose one (the first: abstracts say what a field needs before
    what their method adds to it, "crucial for applications ranging from gaming to …")."""
    if not asks_uses(question):
        return
    for item in evidence:
        saying = [s for s in item.sentences if _SAYS_USE.search(s.text)]
        if item.leads is None and saying:
            item.leads = min(s.position for s in saying)
