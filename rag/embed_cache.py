"""Vectors an ingest has computed, kept on disk as they are made, so an interrupted ingest (Ctrl+C, kill -9, a time
limit) continues where it stopped instead of embedding everything again.

A small SQLite file beside the index (``<index_dir>/.embed-cache-<prefix>.sqlite3``, stdlib ``sqlite3``: one file,
atomic commits, no server) maps hash(model, text) → vector; each embedded batch is committed at once. The index's own
generation swap is unchanged (nothing half-written goes live); the cache is emptied when an ingest goes live, since
Chroma then holds the vectors. Ours rather than llama-index's ``IngestionCache``: that caches whole node lists per
transformation run in a key-value store written when the run ends, which is exactly what an interruption loses.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from rag.store import IndexStore


def _key(model: str, text: str) -> str:
    return hashlib.sha256(f"{model}\0{text}".encode("utf-8")).hexdigest()


class EmbedCache:
    """Vectors by (model, text) in ``folder``."""

    def __init__(self, folder: Path, prefix: str = "iclr") -> None:
        self.path = Path(folder) / f".embed-cache-{prefix}.sqlite3"

    @classmethod
    def for_store(cls, store: IndexStore) -> EmbedCache:
        """The cache of an index's ingests: in its folder; for a Chroma server (embedding is still local) in
        ``~/.cache/iclr-rag/``, named by server and prefix."""
        index = store.settings.index
        if index.chroma_host:
            return cls(Path.home() / ".cache" / "iclr-rag", f"{index.chroma_host}-{index.chroma_port}-{store.prefix}")
        return cls(index.index_dir, store.prefix)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
        return connection

    def embed(self, model: str, texts: Sequence[str], compute: Callable[[list[str]], Sequence[Sequence[float]]],
              batch_size: int, done: Callable[[int], None] = lambda n: None) -> list[list[float]]:
        """``texts`` embedded, from the cache where it has them, else by ``compute`` in batches of ``batch_size``,
        each batch kept before the next starts; ``done(n)`` after every n texts (a progress bar)."""
        keys = [_key(model, text) for text in texts]
        with closing(self._connect()) as db:
            found = self._get(db, keys)
            done(sum(1 for k in keys if k in found))
            missing = list(dict.fromkeys(i for i, k in enumerate(keys) if k not in found))
            for start in range(0, len(missing), batch_size):
                batch = missing[start:start + batch_size]
                computed = [np.asarray(v, dtype=np.float32) for v in compute([texts[i] for i in batch])]
                with db:  # one transaction a batch: what is committed survives a kill
                    db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                   [(keys[i], v.tobytes()) for i, v in zip(batch, computed)])
                found.update((keys[i], v) for i, v in zip(batch, computed))
                done(len(batch))
        return [found[k].astype(float).tolist() for k in keys]

    @staticmethod
    def _get(db: sqlite3.Connection, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), 500):  # SQLite's limit on bound parameters
            chunk = unique[start:start + 500]
            rows = db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            found.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in rows)
        return found

    def count(self) -> int:
        """Vectors kept (by an ingest that has not gone live)."""
        if not self.path.is_file():
            return 0
        with closing(self._connect()) as db:
            return int(db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def clear(self) -> None:
        """The ingest went live: Chroma holds the vectors now."""
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
