"""Papers whose abstracts say where their code or data is now ("Code and datasets available at https://github.com/…"),
for a list that asks for them ("Which papers in the collection give an actual link to their code?"). In a small
collection such a list holds every paper saying so and only those (``rag.fields.qualified``): "Code will be
available." and "… will be released on Github" say it is not out yet, and a paper on the topic without a word on its
code does not answer the question."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from rag.roles import releases

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever

RELEASE_QUERY = "code available at github open-sourced"  # searched beside the question, so such papers are candidates
FUTURE = re.compile(r"\b(?:will|to\s+be)\b|\bupon\s+(?:acceptance|publication)\b", re.IGNORECASE)
_RELEASE_WORDS = frozenset("code codes link links github repo repos repository released release releases available "
                           "public publicly open source open-source open-sourced opensource actual actually give gives "
                           "provide provides share shares shared implementation implementations weights data "
                           "datasets have has".split())
_WHAT = re.compile(r"\b(?:code|codes|data|datasets?|models?|weights|checkpoints?|implementation|benchmark|github|"
                   r"repository|repo)\b", re.IGNORECASE)  # (not "Video results: https://…")
_CACHE: weakref.WeakKeyDictionary[HybridRetriever, set[str]] = weakref.WeakKeyDictionary()


# "… which one says it's going to make its model publicly available?": a promise will do
_PROMISED = re.compile(r"\b(?:going\s+to|will|plans?\s+to|promis\w*|intends?\s+to)\b", re.IGNORECASE)


def as_asked(question: str) -> Callable[[str], bool]:
    """How a sentence must say the code or data is out for ``question``: now (``out_now``), or, asked what a paper is
    going to release, in a promise too ("We will publicly release …")."""
    asked = re.split(r"\b(?:rather\s+than|instead\s+of|not)\b", question)[0]  # (not "… rather than 'will release'")
    return releases if _PROMISED.search(asked) else out_now


def out_now(text: str) -> bool:
    """The sentence says where the code or data is now (not that it will be, nor where videos are shown)."""
    return releases(text) and not FUTURE.search(text) and bool(_WHAT.search(text))


def asks_only_release(question: str) -> bool:
    """The list asks for the papers whose code is out and for nothing else ("Which papers in the collection give an
    actual link to their code?", not "which watermarking papers release code?", where the topic decides)."""
    from rag.asks import asks_release
    from rag.tokens import topic_asked
    from rag.topic_words import own_topic_words

    return asks_release(question) and not own_topic_words(topic_asked(question)) - _RELEASE_WORDS


def released_papers(retriever: HybridRetriever) -> set[str]:
    """The ids of the indexed papers with a sentence saying where their code or data is now (worked out once)."""
    if retriever not in _CACHE:
        index = retriever.sentences
        _CACHE[retriever] = {index.paper_ids[row] for row, text in enumerate(index.texts) if out_now(text)}
    return _CACHE[retriever]
