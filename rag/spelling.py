"""Query spelling: a question word that no indexed abstract contains is a typo or an off-corpus topic.

On a large index such a word makes the question a refusal ("monsoon"). A typo ("wtermarking") should
not: it is read as the corpus word it almost spells, and the answer says so. What separates the two is
an English dictionary (the frequency list shipped with ``symspellpy``): a dictionary word ("horse",
"coral") is a real word the abstracts lack and stays unknown; any other word is corrected to the
nearest corpus word by SymSpell (edit distance 1, or 2 for words of 8+ letters), if one is common
enough in the corpus that the fix is not itself a one-off string. A paper's own name ("FutureFill", "Tactic")
is in one paper only, yet a typo of it ("FuturFill", "Tactik") means that paper: names are entries whatever their
count, and a fix to one is written as the paper writes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rag.settings import DecisionSettings


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """About 83,000 lower-case English words (symspellpy's frequency dictionary, Google Books n-grams)."""
    from importlib.resources import files

    text = (files("symspellpy") / "frequency_dictionary_en_82_765.txt").read_text(encoding="utf-8")
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line)


@dataclass
class Speller:
    """SymSpell over the corpus vocabulary, each word counted once per paper that uses it."""

    symspell: Any
    rules: DecisionSettings  # spelling_min_length / _min_papers / _long_word
    names: dict[str, str]  # a paper's name in lower case → as the paper writes it ("futurefill" → "FutureFill")

    @classmethod
    def from_texts(cls, texts: Iterable[str], rules: DecisionSettings, names: Iterable[str] = ()) -> Speller:
        """``texts``: each paper's words, lower case and space-separated (~2.5 s for 4,300 papers); ``names``: the
        names papers give themselves, as written."""
        from collections import Counter

        from symspellpy import SymSpell

        papers_using: Counter[str] = Counter()
        for text in texts:
            papers_using.update({w for w in text.split() if w.isalpha()})
        symspell = SymSpell(max_dictionary_edit_distance=2, prefix_length=7, count_threshold=rules.spelling_min_papers)
        for word, count in papers_using.items():
            # A shorter word is out of reach: typos are 5+ letters, 1 edit away.
            if len(word) >= rules.spelling_min_length - 1:
                symspell.create_dictionary_entry(word, count)  # (8+ letters may be 2 edits away: still 6+)
        cased = {name.lower(): name for name in names if name.isalpha() and len(name) >= rules.spelling_min_length}
        for word in cased:  # (made as common as the threshold: entries below it are never suggested)
            if (lacking := rules.spelling_min_papers - papers_using[word]) > 0:
                symspell.create_dictionary_entry(word, lacking)
        return cls(symspell, rules, cased)

    def correction(self, word: str) -> str | None:
        """The corpus word a non-dictionary ``word`` is a typo of, or None (a real word, or no close one)."""
        from symspellpy import Verbosity

        word = word.lower()
        if len(word) < self.rules.spelling_min_length or not word.isalpha() or word in english_words():
            return None
        distance = 2 if len(word) >= self.rules.spelling_long_word else 1
        # Closest distance first, then the word most papers use.
        found = self.symspell.lookup(word, Verbosity.CLOSEST, max_edit_distance=distance)
        fix = found[0].term if found and found[0].term != word else None
        return self.names.get(fix, fix) if fix else None


def apply_corrections(text: str, corrections: dict[str, str]) -> str:
    """``text`` with each corrected word replaced (whole words, any case)."""
    for typo, word in corrections.items():
        text = re.sub(rf"(?<![\w-]){re.escape(typo)}(?![\w-])", word, text, flags=re.IGNORECASE)
    return text


# The words that make a question a comparison, a choice or a list: a typo of one changes what kind of question it is,
# whatever the index holds ("How is its approach diffrent from MoH?" was answered about one paper).
_FRAME_WORDS = ("compare", "compared", "comparing", "comparison", "differ", "differs", "different", "difference",
                "differences", "differently", "contrast", "versus", "which", "papers", "between")


def frame_typos(text: str) -> str:
    """``text`` with each misspelt frame word ("diffrent", "comapre") read as the one frame word it is one edit
    from (a swap of two letters is one edit); a dictionary word, a word under 5 letters or a near tie is kept."""
    from symspellpy.editdistance import DistanceAlgorithm, EditDistance

    distance = EditDistance(DistanceAlgorithm.DAMERAU_OSA)

    def fix(match: re.Match[str]) -> str:
        word = match.group(0).lower()
        if len(word) < 5 or word in english_words():
            return match.group(0)
        near = [f for f in _FRAME_WORDS if 0 <= distance.compare(word, f, 1) <= 1]
        return near[0] if len(near) == 1 else match.group(0)

    return re.sub(r"[A-Za-z]+", fix, text)
