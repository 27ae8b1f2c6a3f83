"""Only checked text is streamed: an LLM's reply is read sentence by sentence as it arrives, each complete sentence is
checked against the sources (``rag.verify``) and shown only if a source supports it and it says something in the
model's own words (a copied abstract sentence is left to the evidence below it). The first sentence no source
supports ends the model's part: the model is stopped, and nothing shown is ever taken back, so the answer's text
begins with exactly what was streamed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rag.verify import Checked, check_citations, repeats, strip_markers

if TYPE_CHECKING:
    from rag.retrieval.rankers import SentenceIndex
    from rag.settings import Settings
    from rag.types import Turn

# Where a sentence ends: its final stop (with the [n] markers after it), once more text follows; or a line break.
_END = re.compile(r"[.!?](?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])*(?=\s+\S)|\n")
# A checked text's sentences, each ending with its [n] markers (every checked sentence ends with them).
_SPLIT = re.compile(r"(?<=\])\s+(?!\[)")


@dataclass
class CheckedStream:
    """The model's reply so far (``raw``) and the checked sentences of it already shown (``shown``)."""

    turn: Turn
    settings: Settings
    sentences: SentenceIndex
    embed: Callable[[list[str]], Any]
    evidence: list[str]  # texts whose sentences the model's may not merely copy: the extractive answer, abstracts
    raw: str = ""
    shown: list[str] = field(default_factory=list)
    checked: Checked | None = None
    stopped: bool = False  # a sentence failed the check: the model's part is over
    _upto: int = 0  # how much of ``raw`` has been checked
    _quoted: list[set[str]] = field(default_factory=list)  # each evidence sentence's stemmed topic words

    def __post_init__(self) -> None:
        from rag.sentences import split_sentences

        # Once per answer, not once per checked sentence: the evidence does not change while the model writes.
        self._quoted = [_words(s) for block in self.evidence for s in split_sentences(block)]

    def feed(self, piece: str) -> str:
        """Add a piece of the reply; the newly checked text to show ("" when no new sentence passed)."""
        self.raw += piece
        ends = [m.end() for m in _END.finditer(self.raw)]
        if self.stopped or not ends or ends[-1] <= self._upto:
            return ""
        return self._check(self.raw[: ends[-1]])

    def finish(self) -> str:
        """The reply is complete: its last sentence is checked too."""
        return "" if self.stopped or not self.raw.strip() else self._check(self.raw)

    @property
    def text(self) -> str:
        return " ".join(self.shown)

    def _check(self, prefix: str) -> str:
        self._upto = len(prefix)
        answer = self.settings.answer
        checked = check_citations(prefix, self.turn.question, self.turn.decision.chosen, self.sentences, self.embed,
                                  answer.min_support, answer)
        own = self._own(checked.text, answer.repeat_share)
        same = own[: len(self.shown)] == self.shown
        if checked.removed or not same:
            self.stopped = True  # unsupported, or the check now reads an earlier sentence otherwise: stop here
        if not same:
            return ""
        new, self.shown, self.checked = own[len(self.shown):], own, checked
        return " ".join(new)


    def _own(self, text: str, share: float) -> list[str]:
        """The checked text's sentences that do not have ``share`` of their topic words in one evidence sentence."""
        own = []
        for sentence in (piece for piece in _SPLIT.split(text.strip()) if piece):
            words = _words(sentence)
            if words and not any(repeats(words, quoted, share) for quoted in self._quoted):
                own.append(sentence)
        return own


def _words(sentence: str) -> set[str]:
    """A sentence's stemmed topic words, without its [n] markers."""
    from rag.tokens import content_words, stems

    return stems(content_words(strip_markers(sentence)))
