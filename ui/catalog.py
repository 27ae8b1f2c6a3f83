"""The indexed papers as the page lists them: looked up by id, searched by title, area, venue or id."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from rag.clean import display_text
from rag.types import Paper

if TYPE_CHECKING:
    from rag.engine import Engine

MAX_LISTED = 60  # checkboxes shown at once; typing narrows the list (the full corpus has 4,302 papers)


class Catalog:
    """All papers of the index, read once; papers met later in answers are added as they come."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._papers: dict[str, Paper] = {p.paper_id: p for p in engine.papers()}

    def __len__(self) -> int:
        return len(self._papers)

    def get(self, paper_id: str) -> Paper | None:
        return self._papers.get(paper_id)

    def by_id(self) -> dict[str, Paper]:
        return dict(self._papers)

    def remember(self, papers: list[Paper]) -> None:
        """Keep papers an answer brought (the index may have grown since the page was built)."""
        with self._lock:
            for paper in papers:
                self._papers.setdefault(paper.paper_id, paper)

    def search(self, query: str, limit: int = MAX_LISTED) -> tuple[list[Paper], int]:
        """Papers whose title, area, venue or id contain every word of ``query``; and how many matched."""
        words = query.lower().split()
        matches = [p for p in self._papers.values() if all(w in _haystack(p) for w in words)]
        matches.sort(key=lambda p: p.display_title.lower())
        return matches[:limit], len(matches)

    def choices(self, query: str, keep: list[str]) -> tuple[list[tuple[str, str]], str]:
        """Checkbox choices (label, paper id) for ``query``, the papers in ``keep`` always first;
        and a line saying how many matched."""
        found, total = self.search(query)
        kept = [p for p in (self._papers.get(pid) for pid in keep) if p is not None]
        shown = kept + [p for p in found if p.paper_id not in set(keep)]
        if not query.strip():
            summary = f"{len(self._papers)} papers indexed"
        else:
            summary = f"{total} of {len(self._papers)} papers match"
        if total > len(found):
            summary += f"; showing {len(found)}, type more to narrow"
        return [(paper_label(p), p.paper_id) for p in shown], summary


def _haystack(paper: Paper) -> str:
    return " ".join(filter(None, (paper.display_title, paper.area, paper.venue, paper.paper_id))).lower()


def paper_label(paper: Paper) -> str:
    """A checkbox label: title, then area and venue when known (plain text)."""
    extra = " · ".join(filter(None, (paper.area, paper.venue)))
    return f"{display_text(paper.title)}" + (f"  —  {extra}" if extra else "")
