"""A question's acronyms spelled out for BM25, as the corpus defines them: "any other RL papers?" also finds the
abstract that only writes "in-context reinforcement learning". Each acronym's long form is the one the abstracts
most often write before it in brackets ("reinforcement learning (RL)"), whose initials are the acronym's capitals.

Hand-rolled (a regex scan per new acronym, cached): neither bm25s nor llama-index expands queries, and working out
every abstract's definitions up front (``Paper.acronyms``) takes ~9 s on 4,302 papers.
"""

from __future__ import annotations

import re
from collections import Counter

# Two capitals or more, on its own (not "KV" of "TRIM-KV"): RL, LLMs, DiT, MLLM.
_ACRONYM = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*[A-Z][A-Za-z]*(?![\w-])")
_MAX_WORDS = 6


class AcronymExpander:
    def __init__(self, texts: list[str]) -> None:
        self._texts = texts
        self._long: dict[str, str] = {}

    def expand(self, query: str, names: set[str] = frozenset()) -> str:
        """The query with the long form of each acronym in it that the corpus defines (and the query lacks), but
        not of ``names`` (papers' own names, "PEAR": the name already finds its paper's sentences)."""
        extra = [long for short in dict.fromkeys(_ACRONYM.findall(query)) if short not in names
                 and (long := self.long_form(short)) and long not in query.lower()]
        return " ".join([query, *extra])

    def long_form(self, short: str) -> str:
        key = short[:-1] if short.endswith("s") and len(short) > 2 else short  # "LLMs" is defined as "LLM"
        if key not in self._long:
            pattern = re.compile(rf"\(\s*{re.escape(key)}s?\s*\)")  # where it is defined; the words before it
            found = Counter(long.lower() for text in self._texts for m in pattern.finditer(text)
                            if (long := _spelled(re.findall(r"[A-Za-z][\w-]*", text[max(0, m.start() - 120):m.start()])
                                                 [-_MAX_WORDS:], key)))
            self._long[key] = found.most_common(1)[0][0] if found else ""
        return self._long[key]


def _spelled(words: list[str], short: str) -> str:
    """The shortest tail of ``words`` whose initials (hyphen parts too) are the acronym's capitals."""
    capitals = "".join(c for c in short if c.isupper()).lower()
    for n in range(1, len(words) + 1):
        tail = words[-n:]
        parts = [p for w in tail for p in w.split("-") if p]
        if "".join(p[0] for p in parts).lower() == capitals or "".join(w[0] for w in tail).lower() == capitals:
            return " ".join(tail)
    return ""
