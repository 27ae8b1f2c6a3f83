"""Files derived from one index generation, so that a new process reads them instead of rebuilding them.

A cold ``rag ask`` on the 4,302-paper index spent ~5 s tokenising every abstract for BM25, ~3 s reading ~34k
sentence vectors out of Chroma and ~2 s cleaning every abstract for name lookups. Per generation, an embedded
index now keeps beside its Chroma data (``IndexStore.files_dir``):

* ``bm25/``: the BM25 index (bm25s ``save``), with the k1/b it was built with;
* ``sentences.npy`` / ``titles.npy``: the sentence (MiniLM) and title (e5) vector matrices, and a small JSON
  each of their rows' paper ids, texts, positions and roles (``roles.role``), in Chroma's order;
* ``words.json``: each paper's words for exact-name lookups (``titles.paper_words``);
* ``meta.json``: written last: which generation, row counts, and the hash of the code the texts come from.

They are written at ingest into the new generation before it goes live (and, by an ingest with nothing to
embed, for a live generation that lacks them), and removed with their generation. A reader falls back to
building everything from Chroma as before when they are missing (an index from before them, a Chroma server),
when they do not match the generation, when the BM25 settings differ (then BM25 is rebuilt) or the code that
turns papers into words changed (then BM25 and the words are).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.roles import Role, rules_hash

if TYPE_CHECKING:
    from rag.retrieval.rankers import SentenceIndex
    from rag.settings import RetrievalSettings, Settings
    from rag.store import IndexStore
    from rag.types import Paper

FORMAT = 1
MATRICES = ("sentences", "titles")
# BM25's tokens and the name-lookup words are made by these modules: saved ones are current only for the
# code that wrote them (any edit counts; the next `rag ingest` writes them again).
_TEXT_CODE = ("tokens.py", "clean.py", "retrieval/rankers.py", "retrieval/names.py", "retrieval/titles.py")


def text_code_hash() -> str:
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for name in _TEXT_CODE:
        digest.update((root / name).read_bytes())
    import bm25s
    import Stemmer

    digest.update(f"bm25s {bm25s.__version__} PyStemmer {Stemmer.version()}".encode())
    return digest.hexdigest()[:16]


def write(store: IndexStore, generation: int, settings: Settings) -> Path | None:
    """Write the files of ``generation`` (read back from its collections, so they hold exactly what a reader
    of Chroma would get, in the same order). None for a Chroma server."""
    import numpy as np

    from rag.retrieval.titles import paper_words
    from rag.retrieval.rankers import SentenceIndex, build_bm25

    target = store.files_dir(generation)
    if target is None:
        return None
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        papers = {pid: stored.paper for pid, stored in store.stored_papers(generation).items()}
        build_bm25(list(papers.values()), settings.retrieval).save(staging / "bm25", show_progress=False)
        (staging / "words.json").write_text(json.dumps(paper_words(papers), ensure_ascii=False), encoding="utf-8")
        rows = {}
        for kind in MATRICES:
            index = SentenceIndex.load(store, kind, generation)
            np.save(staging / f"{kind}.npy", index.vectors, allow_pickle=False)
            (staging / f"{kind}.json").write_text(json.dumps(
                {"paper_ids": index.paper_ids, "texts": index.texts, "positions": index.positions,
                 "roles": [r.value if r else None for r in index.roles]},
                ensure_ascii=False), encoding="utf-8")
            rows[kind] = len(index.paper_ids)
        meta = {"format": FORMAT, "generation": generation, "papers": len(papers), "rows": rows,
                "text_code": text_code_hash(), "role_rules": rules_hash()}
        (staging / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        _swap_in(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _swap_in(staging: Path, target: Path) -> None:
    """``staging`` becomes ``target`` by renames, so a reader sees the old folder, none, or the new one."""
    old = target.with_name(f"{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)


@dataclass
class GenerationFiles:
    """The files of one generation, checked to be complete and of this format."""

    folder: Path
    meta: dict[str, Any]

    @classmethod
    def open(cls, store: IndexStore, generation: int | None = None) -> GenerationFiles | None:
        """The live generation's (or ``generation``'s) files; None when there are none to trust."""
        generation = generation if generation is not None else store.live_generation()
        folder = store.files_dir(generation) if generation is not None else None
        if folder is None:
            return None
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if meta.get("format") != FORMAT or meta.get("generation") != generation:
            return None
        return cls(folder, meta)

    @property
    def text_current(self) -> bool:
        """Written by this code (else BM25 tokens and name-lookup words may differ: rebuild them)."""
        return self.meta.get("text_code") == text_code_hash()

    def bm25_current(self, settings: RetrievalSettings) -> bool:
        """Saved with these k1/b and by this code (else BM25 must be rebuilt)."""
        try:
            params = json.loads((self.folder / "bm25" / "params.index.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return (params.get("k1"), params.get("b")) == (settings.bm25_k1, settings.bm25_b) and self.text_current

    def bm25(self, papers: list[Paper], settings: RetrievalSettings) -> Any | None:
        """The saved bm25s index of these papers (in this order), or None to rebuild it."""
        if not self.bm25_current(settings):
            return None
        import bm25s

        try:
            bm25 = bm25s.BM25.load(self.folder / "bm25", load_corpus=True, show_progress=False)
        except (OSError, ValueError, KeyError):
            return None
        if [entry.get("node_id") for entry in bm25.corpus] != [p.paper_id for p in papers]:
            return None  # not these papers: another generation's, or a stale copy
        return bm25

    def words(self, papers: dict[str, Paper]) -> dict[str, str] | None:
        """The saved name-lookup words of these papers, or None to compute them."""
        if not self.text_current:
            return None
        try:
            words = json.loads((self.folder / "words.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return words if list(words) == list(papers) else None

    def matrix(self, kind: str, expected_rows: int) -> SentenceIndex | None:
        """The saved sentence or title vectors, if they have the rows the collection has."""
        import numpy as np

        from rag.retrieval.rankers import SentenceIndex

        if self.meta.get("rows", {}).get(kind) != expected_rows:
            return None
        try:
            vectors = np.load(self.folder / f"{kind}.npy", allow_pickle=False)
            rows = json.loads((self.folder / f"{kind}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if vectors.shape[0] != expected_rows or len(rows["paper_ids"]) != expected_rows:
            return None
        current = self.meta.get("role_rules") == rules_hash()  # else work the roles out at question time
        roles = [Role(r) if r else None for r in rows.get("roles", [])] if current else []
        return SentenceIndex.of(vectors, rows["paper_ids"], rows["texts"], rows["positions"], roles)


def ensure(store: IndexStore, settings: Settings) -> bool:
    """Write the live generation's files if it has none or stale BM25 (an index from before them, other BM25
    settings or code); True if written."""
    generation = store.live_generation()
    if generation is None or store.files_dir(generation) is None:
        return False
    files = GenerationFiles.open(store, generation)
    if files is not None and files.bm25_current(settings.retrieval):
        return False
    write(store, generation, settings)
    return True
