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
# The frame of a question asking for several papers ("Which papers …", "Are there any works on …"): it says
# what is wanted, not what about. Embedded with the question, it pulls the dense rankings towards
# abstracts that talk about "papers" and "works"; the dense rankings and the evidence stage embed the
# question without it.
# Measured on the list questions (seeds + 4,302) and on keyword-derived list questions; single-paper
# frames ("Is there a method that …") are kept, cutting them moved the right paper down as often as up.
_FRAME = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:\w+\s+)?(?:papers|works|studies|articles|methods)"
    r"|are\s+there\s+(?:any\s+)?(?:\w+\s+)?(?:papers|works|studies|articles|methods)"
    r"|(?:do|does)\s+any\s+(?:papers|works)|(?:list|find|show\s+me)\s+(?:\w+\s+)?(?:papers|works))"
    r"(?:\s+(?:that|which|who|where|on|about|for))?(?:\s+(?:are|is)\s+about)?\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*[a-z0-9]|[a-z0-9]")


def content_words(text: str) -> set[str]:
    """Lower-cased topic words (keeping tokens such as ``trim-kv`` and ``3.5x`` whole)."""
    return {w for w in _WORD.findall(search_text(text).lower()) if w not in QUESTION_WORDS}


def keyword_query(question: str) -> str:
    """The question without its scaffolding, in original order; the question itself if nothing is left."""
    words = [w for w in _WORD.findall(search_text(question).lower()) if w not in QUESTION_WORDS]
    return " ".join(words) or question


def topic_query(question: str) -> str:
    """The question without a leading frame asking for papers: "Which papers study X?" → "study X?"."""
    topic = _FRAME.sub("", question, count=1)
    return topic if len(content_words(topic)) >= 2 else question
