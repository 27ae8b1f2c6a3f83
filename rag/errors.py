"""Errors a user can act on: each says what was wrong, where, and what to do."""

from __future__ import annotations

from pathlib import Path


class RagError(Exception):
    """Base class: the CLI prints the message (no traceback) and exits non-zero."""


class InputError(RagError):
    """A corpus file that cannot be read or parsed. Names the file and, where known, the line."""

    def __init__(self, path: Path | str, problem: str, fix: str = "", line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        message = f"{where}: {problem}"
        if fix:
            message += f". {fix}"
        super().__init__(message)


class IndexMismatchError(RagError):
    """The index on disk was built with other embedding or chunking settings than the current ones."""


class IndexMissingError(RagError):
    """No index has been built at the configured location yet."""
