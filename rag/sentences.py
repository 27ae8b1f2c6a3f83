"""Sentence splitting for evidence and citation checks.

Our own small splitter rather than NLTK punkt (what llama-index bundles): punkt splits these abstracts
after "e.g.", "i.e." and "vs." and takes ~2.6 s to load; abstracts are clean prose where a boundary
is terminal punctuation followed by a capital, digit, opening bracket or a name such as "mCLM" or "dLLMs".
"""

from __future__ import annotations

import re

_ABBREVIATIONS = {"e.g.", "i.e.", "vs.", "al.", "fig.", "figs.", "eq.", "eqs.", "sec.", "cf.", "approx.",
                  "resp.", "no.", "ref.", "refs.", "tab.", "dr.", "mr.", "ms.", "st.", "w.r.t."}
# (… or a name in lower case with a capital inside: "… drug potentials. mCLM, with only 3B parameters, …")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?(?:[A-Z0-9]|[a-z]+[A-Z]))")


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        candidate = text[start:match.start()].strip()
        last_word = candidate.rsplit(None, 1)[-1].lower().lstrip("([\"'") if candidate else ""
        if last_word in _ABBREVIATIONS or re.fullmatch(r"[a-z]\.", last_word):
            continue
        end = match.start() + len(match.group(0).rstrip())  # keep a closing quote/bracket
        sentences.append(text[start:end].strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return [s for s in sentences if s]
