"""Follow-up questions → standalone queries, deterministically (an LLM rewrite arrives with the LLM backends).

A follow-up such as "What speedup does it claim?" names nothing itself; the earlier turn does. When a
question refers back (a pronoun or "this/that method") or carries almost no topic words, the topic
words of the most recent earlier turn are put in front of it.
"""

from __future__ import annotations

import re

from rag.query import content_words

_REFERS_BACK = re.compile(
    r"\b(it|its|it's|they|them|their|this|that|these|those|the (paper|method|model|approach|authors|work|"
    r"framework|benchmark|dataset|new|previous|proposed|original|authors?)|both|former|latter|same)\b|它|其|这|该|那", re.IGNORECASE)
_FEW_TOPIC_WORDS = 2


def refers_back(question: str) -> bool:
    """A pronoun or "the method"-style reference, or too little of its own: neither a name nor topic words."""
    from rag.question import names_in

    if _REFERS_BACK.search(question):
        return True
    return not names_in(question) and len(content_words(question)) < _FEW_TOPIC_WORDS


def standalone_query(question: str, history: list[str]) -> str:
    """The question, preceded by the earlier turns it leans on: back to the latest one that stands alone."""
    if not history or not refers_back(question):
        return question
    context = []
    for turn in reversed(history):
        context.insert(0, turn)
        if not refers_back(turn):
            break
    return " ".join([*context, question])
