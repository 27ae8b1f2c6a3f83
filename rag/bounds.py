"""Input bounds: what a question, a ``top_k`` and a printed text may be, checked once where every front end
(``rag ask``/``chat``, the browser, the HTTP API) passes, with a one-line message saying what to do."""

from __future__ import annotations

import re
from typing import Any, TextIO

from rag.errors import RagError

TOP_K_MAX = 50
# A terminal's escape sequences (CSI "ESC [ … m", OSC "ESC ] … BEL" that retitles the window, two-byte ones),
# then every other C0/C1 control character but tab and newline (carriage return too: it rewrites the line).
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class QuestionError(RagError):
    """A question or option that cannot be answered as given: empty, too long, not text, ``top_k`` out of range."""


def without_controls(text: str, keep: str = "") -> str:
    """``text`` without terminal escape sequences and control characters (tab and newline stay; ``keep``: others
    to keep, e.g. a progress bar's carriage return)."""
    text = _ESCAPES.sub("", text)
    return _CONTROLS.sub(lambda m: m.group(0) if m.group(0) in keep else "", text)


def check_question(question: object, limit: int) -> str:
    """The question as it will be answered (control characters dropped, whitespace trimmed), or ``QuestionError``."""
    if not isinstance(question, str):
        raise QuestionError(f"the question must be text, not {type(question).__name__}")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: bytes that were not UTF-8, decoded leniently
        raise QuestionError(f"the question holds invalid text at character {exc.start + 1} (not valid Unicode); "
                            "retype it or paste it again as plain text") from None
    cleaned = without_controls(question).strip()
    if not cleaned:
        raise QuestionError("the question is empty; type a question about the indexed papers")
    if len(cleaned) > limit:
        raise QuestionError(f"the question is {len(cleaned):,} characters long; the limit is {limit:,} "
                            "(shorten it, or raise RAG_MAX_QUESTION_CHARS)")
    return cleaned


def top_k_arg(value: str) -> int:
    """``-k N`` on the command line."""
    import argparse

    try:
        return check_top_k(int(value))
    except (ValueError, QuestionError):
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {TOP_K_MAX}, not {value!r}") from None


def check_top_k(top_k: object) -> int:
    """``top_k`` as a number of papers from 1 to ``TOP_K_MAX``, or ``QuestionError``."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= TOP_K_MAX:
        raise QuestionError(f"top_k must be a whole number from 1 to {TOP_K_MAX} (got {top_k!r})")
    return top_k


class TerminalSafe:
    """A text stream that drops escape sequences and control characters from all that is written to it (a
    progress bar's carriage return stays): what an abstract holds never drives the user's terminal."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(without_controls(text, keep="\r"))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
