"""Text for BM25: the search form plus whole-token forms of names and numbers.

BM25's tokenizer (``\\b\\w\\w+\\b``) cuts ``TRIM-KV`` into ``trim`` + ``kv`` and ``5.14x`` into ``14x``,
losing exactly the rare tokens that identify a paper. Each hyphenated or dotted compound is added
once more as a single token (``trimkv``, ``5_14x``) to documents and queries alike.
"""

from __future__ import annotations

import re

from rag.clean import search_text

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)+[a-z%]*(?![\w])", re.IGNORECASE)  # 5.14x, 1.83, 2,389
_COMPOUND = re.compile(r"(?<![\w-])[^\W_]+(?:-[^\W_]+)+(?![\w-])")  # TRIM-KV, Best-of-N, RainPro-8


def compound_tokens(text: str) -> list[str]:
    numbers = [re.sub(r"[.,]", "_", m.group(0).lower()) for m in _NUMBER.finditer(text)]
    compounds = [m.group(0).replace("-", "").lower() for m in _COMPOUND.finditer(text)]
    return numbers + compounds


def lexical_text(text: str) -> str:
    """What BM25 indexes (and is queried with) for ``text``."""
    folded = search_text(text)
    extra = compound_tokens(folded)
    return f"{folded} {' '.join(extra)}" if extra else folded
