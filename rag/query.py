"""Query normalisation shared by the lexical stages: the words of a question that carry its topic."""

from __future__ import annotations

import re

from rag.clean import search_text

# Question scaffolding and corpus-wide filler: present in most questions, saying nothing about the topic.
QUESTION_WORDS = frozenset(
    "a an and are as at be by can could did do does for from has have how i in is it its me of on or "
    "our that the their them there these they this to was we what when where which who whom whose why "
    "will with you your about any all also between both compare compared describe explain find show "
    "tell than into using used use paper papers work works study studies propose proposed proposes "
    "problem problems solve solves address addresses tackle approach method methods".split())
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*[a-z0-9]|[a-z0-9]")


def content_words(text: str) -> set[str]:
    """Lower-cased topic words (keeping tokens such as ``trim-kv`` and ``3.5x`` whole)."""
    return {w for w in _WORD.findall(search_text(text).lower()) if w not in QUESTION_WORDS}


def keyword_query(question: str) -> str:
    """The question without its scaffolding, in original order; the question itself if nothing is left."""
    words = [w for w in _WORD.findall(search_text(question).lower()) if w not in QUESTION_WORDS]
    return " ".join(words) or question
