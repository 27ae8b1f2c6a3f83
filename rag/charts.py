"""A collection answer's chart: the groups of papers it counts (``rag.collection``), saved with the turn."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CollectionGroup:
    label: str
    count: int
    paper_ids: list[str]
    kind: str = "area"  # "area", "topic" (a cluster of the paper vectors), "none" (papers without an area)


@dataclass
class CollectionStats:
    """A collection answer's chart: groups of papers (a click narrows to a group's papers)."""

    kind: str  # the question's: "areas" | "count" | "trends"
    total: int  # indexed papers
    groups: list[CollectionGroup]
    topic: str | None = None
    matched: list[str] = field(default_factory=list)  # the papers mentioning the topic (count, trends)
    method: str = ""  # how groups and matches were made, in words

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CollectionStats:
        return cls(**{**data, "groups": [CollectionGroup(**group) for group in data.get("groups", [])]})
