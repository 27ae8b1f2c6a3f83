"""Follow-up questions → standalone queries, deterministically (an LLM rewrite arrives with the LLM backends).

A follow-up such as "What speedup does it claim?" names nothing itself; the earlier turn does. When a
question refers back (a pronoun or "this/that method") or carries almost no topic words, the topic
words of the most recent earlier turn are put in front of it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.tokens import content_words, without_where

if TYPE_CHECKING:
    from rag.backends import LLMBackend
    from rag.settings import Settings

# "that" only where it stands for a thing ("How is that different …", "… of that?"), not "a paper that turns …".
_REFERS_BACK = re.compile(
    r"^\W*that\b|\bthat\s*\?|\b(?:is|does|did|was|can|of|from|than|with|about|like|to)\s+that\b"
    r"(?!\s+(?:is|are|was|were|can|could|does|do|did|has|have|uses?|used|needs?|makes?|turns?|learns?)\b)|"
    r"\b(it|its|it's|they|them|their|this|these|those|that (?:paper|method|model|approach|work|one|framework|benchmark|"
    r"dataset)|the (paper|method|model|approach|authors|work|"
    r"framework|benchmark|dataset|new|previous|proposed|original|authors?)|both|former|latter|same)\b|它|其|这|该|那", re.IGNORECASE)
_FEW_TOPIC_WORDS = 2


def refers_back(question: str) -> bool:
    """A pronoun or "the method"-style reference, or too little of its own: neither a name nor topic words."""
    from rag.question import names_in

    if _REFERS_BACK.search(without_where(question)):  # not "… in this collection?"
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


def llm_rewrite(llm: LLMBackend, question: str, history: list[str], settings: Settings) -> str | None:
    """A follow-up rewritten by the LLM into a standalone question, or None to use the deterministic one.

    Only questions that lean on the conversation are rewritten. A small model's rewrite is accepted only if
    it is a single short line that keeps the question's own topic words (so it cannot change the subject);
    it is then joined to the deterministic rewrite, so retrieval keeps the earlier turn's names too."""
    from rag import prompts
    from rag.backends import Message

    if not refers_back(question):
        return None
    turns = "\n".join(f"User: {turn}" for turn in history[-settings.llm.rewrite_history_turns:])
    messages = [Message("system", prompts.REWRITE_SYSTEM),
                Message("user", prompts.REWRITE_USER.format(history=turns, question=question))]
    try:
        text = "".join(llm.stream(messages, settings.llm.rewrite_tokens)).strip().strip('"')
    except Exception:  # a failed rewrite is not worth failing the question: the fallback is deterministic
        return None
    line = text.splitlines()[0].strip() if text else ""
    own = content_words(question)
    if not line or len(line) > settings.llm.rewrite_max_chars or (own and not own & content_words(line)):
        return None
    return f"{line} {standalone_query(question, history)}"
