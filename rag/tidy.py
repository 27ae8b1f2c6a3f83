"""What an embedded Chroma index leaves behind, found and removed: the vector folders of deleted collections; and
``rag ingest --status``, what an interrupted ingest left.

Chroma's ``delete_collection`` drops a collection's rows but keeps its HNSW folder (``<index>/<segment uuid>/``) on
disk (chroma-core/chroma#5520): each ingest replaced a generation and left the old one's folders (one added paper
grew an index folder from 4.3 MB to 64 MB over three ingests). A folder named like a segment id that no segment of
``chroma.sqlite3`` names any more is such a leftover. This runs under the writer lock, after the new generation is
live, so no segment is being created meanwhile.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rag.store import IndexStore

_SEGMENT = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _database(index_dir: Path) -> Path:
    return Path(index_dir) / "chroma.sqlite3"


def unreferenced_folders(index_dir: Path) -> list[Path]:
    """Segment-like folders of ``index_dir`` that no segment in Chroma's database names (none if unreadable)."""
    database = _database(index_dir)
    if not database.is_file():
        return []
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as db:
            named = {row[0] for row in db.execute("SELECT id FROM segments")}
    except sqlite3.Error:
        return []  # a Chroma version without that table: leave everything alone
    return sorted(p for p in Path(index_dir).iterdir() if p.is_dir() and _SEGMENT.match(p.name) and p.name not in named)


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def tidy(index_dir: Path) -> int:
    """Remove the leftover vector folders; the bytes freed. (Not a VACUUM of ``chroma.sqlite3``: run from another
    connection while Chroma read it, in this process or a `rag serve`, Chroma's next read failed with "database
    disk image is malformed". SQLite reuses the freed pages at the next ingest.)"""
    before = folder_bytes(index_dir)
    for folder in unreferenced_folders(index_dir):
        shutil.rmtree(folder, ignore_errors=True)
    return max(0, before - folder_bytes(index_dir))


def status(store: IndexStore) -> dict[str, Any]:
    """What the index holds and what an interrupted ingest left: vectors kept for a re-run, collections of
    generations that never went live, leftover vector folders."""
    from rag.embed_cache import EmbedCache

    live = store.live_generation()
    names = store.collection_names()
    mine = re.compile(rf"^{re.escape(store.prefix)}-\w+-g(\d+)$")
    stale = sorted({int(m.group(1)) for m in map(mine.match, names) if m and int(m.group(1)) != live})
    embedded = not store.settings.index.chroma_host
    leftovers = unreferenced_folders(store.settings.index.index_dir) if embedded else []
    return {"location": store.location, "live_generation": live,
            "papers": int((store.manifest() or {}).get("papers", 0)),
            "vectors_kept_for_a_rerun": EmbedCache.for_store(store).count(),
            "unfinished_generations": stale, "leftover_vector_folders": len(leftovers),
            "leftover_bytes": sum(folder_bytes(p) for p in leftovers)}


def status_text(report: dict[str, Any]) -> str:
    lines = [f"{report['location']}: generation {report['live_generation']} live, {report['papers']} papers"]
    if report["vectors_kept_for_a_rerun"]:
        lines.append(f"{report['vectors_kept_for_a_rerun']} vectors kept by an interrupted ingest: run the same "
                     "`rag ingest` again to continue where it stopped")
    if report["unfinished_generations"]:
        lines.append(f"unfinished generations {report['unfinished_generations']}: removed by the next `rag ingest`")
    if report["leftover_vector_folders"]:
        lines.append(f"{report['leftover_vector_folders']} leftover vector folders "
                     f"({report['leftover_bytes'] / 2**20:.1f} MB): removed by the next `rag ingest`")
    if len(lines) == 1:
        lines.append("nothing left over")
    return "\n".join(lines)
