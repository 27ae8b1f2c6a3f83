"""The persisted index in Chroma: generations of two collections and a manifest naming the live one.

Why generations: an ingest writes a complete new pair of collections (``…-chunks-gN``,
``…-papers-gN``) beside the live pair and only then points the manifest at it, one metadata update.
An error or Ctrl-C before that leaves the live index exactly as it was; the half-written
generation is dropped by the next writer. The same scheme works for an embedded
``PersistentClient`` and a Chroma server, since it needs nothing but collections.

An embedded index also keeps files derived from each generation (``rag.persisted``: BM25, vector
matrices) in ``<index_dir>/generations/<prefix>-gN/``; they live and die with the generation's collections.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rag.errors import IndexMismatchError, IndexMissingError, RagError
from rag.lease import LEASE_SUFFIX, server_lease
from rag.roles import rules_hash
from rag.settings import Settings, apply_offline_env
from rag.types import Paper

SCHEMA_VERSION = 2  # 2: sentence vectors stored beside chunks
# The collections of one generation: chunk vectors (retrieval), sentence vectors (evidence, reranking),
# multilingual title vectors (questions not in English) and one record per paper (its metadata, with
# the mean of its chunk vectors).
KINDS = ("chunks", "sentences", "titles", "papers")
# Settings that change what is stored; an index built with other values must be rebuilt.
_BUILD_KEYS = ("schema", "embed_model", "chunk_size", "chunk_overlap")


@dataclass
class StoredPaper:
    paper: Paper
    record_hash: str
    embed_hash: str


def build_info(settings: Settings) -> dict[str, Any]:
    from rag.embedding import model_identity

    return {
        "schema": SCHEMA_VERSION,
        "embed_model": model_identity(settings.index.embed_model),
        "chunk_size": settings.index.chunk_size,
        "chunk_overlap": settings.index.chunk_overlap,
        "role_rules": rules_hash(),  # which rules wrote the sentences' roles (not a build key: re-tagged by ingest)
    }


def open_client(settings: Settings):
    """An embedded PersistentClient at ``index_dir``, or a Chroma server when ``chroma_host`` is set."""
    apply_offline_env()
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.index.chroma_host:
        try:
            token = settings.index.chroma_token
            return chromadb.HttpClient(host=settings.index.chroma_host, port=settings.index.chroma_port,
                                       ssl=settings.index.chroma_ssl, settings=chroma_settings,
                                       headers={"Authorization": f"Bearer {token}"} if token else None)
        except Exception as exc:  # connection refused, wrong port, not a Chroma server
            raise RagError(f"cannot reach the Chroma server at {settings.index.chroma_host}:{settings.index.chroma_port} "
                           f"({exc}); start it (`chroma run --path DIR --port {settings.index.chroma_port}`) "
                           "or unset RAG_CHROMA_HOST to use the embedded index") from exc
    settings.index.index_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(settings.index.index_dir), settings=chroma_settings)


# Rows fetched per request: Chroma's embedded SQLite refuses a get() of ~33k+ rows at once ("too many
# SQL variables"), and the 4,302-paper corpus has ~34k sentences.
PAGE = 5000


def get_all(collection: Any, include: list[str], where: dict | None = None) -> dict[str, list]:
    """Every row of a collection (optionally filtered), fetched page by page."""
    merged: dict[str, list] = {"ids": [], **{key: [] for key in include}}
    offset = 0
    while True:
        page = collection.get(include=include, where=where, limit=PAGE, offset=offset)
        for key in merged:
            values = page[key]
            merged[key].extend(values if values is not None else [])
        if len(page["ids"]) < PAGE:
            return merged
        offset += PAGE


class IndexStore:
    """Reads the live generation and writes new ones. Knows Chroma; nothing else does."""

    def __init__(self, settings: Settings, client: Any | None = None) -> None:
        self.settings = settings
        self.client = client if client is not None else open_client(settings)
        self.prefix = settings.index.collection_prefix

    @property
    def location(self) -> str:
        if self.settings.index.chroma_host:
            return f"chroma://{self.settings.index.chroma_host}:{self.settings.index.chroma_port}/{self.prefix}"
        return str(self.settings.index.index_dir)

    # -- names -------------------------------------------------------------------------------
    def _name(self, kind: str, generation: int) -> str:
        return f"{self.prefix}-{kind}-g{generation}"

    @property
    def files_root(self) -> Path | None:
        """Where generations keep derived files; None for a Chroma server (no local folder to share)."""
        if self.settings.index.chroma_host:
            return None
        return self.settings.index.index_dir / "generations"

    def files_dir(self, generation: int) -> Path | None:
        root = self.files_root
        return root / f"{self.prefix}-g{generation}" if root is not None else None

    @property
    def _manifest_name(self) -> str:
        return f"{self.prefix}-manifest"

    # -- reading -----------------------------------------------------------------------------
    def manifest(self) -> dict[str, Any] | None:
        """The live generation's record; None when there is no index. A Chroma server that stopped answering is an
        error that says so (it was "no index here, run rag ingest")."""
        from chromadb.errors import NotFoundError

        try:
            return dict(self.client.get_collection(self._manifest_name).metadata or {})
        except (NotFoundError, ValueError):  # no manifest: no index yet
            return None
        except Exception as exc:
            if not self.settings.index.chroma_host:
                return None
            raise RagError(f"lost the Chroma server at {self.location} ({type(exc).__name__}: {exc}); check that it is "
                           "running (`chroma run …`) and ask again") from exc

    def require_manifest(self) -> dict[str, Any]:
        manifest = self.manifest()
        if manifest is None:
            raise IndexMissingError(
                f"no index at {self.location}; build one with `rag ingest PATH…` "
                "(or just ask: the seeds are indexed automatically)")
        return manifest

    def check_compatible(self, manifest: dict[str, Any] | None = None) -> None:
        manifest = manifest if manifest is not None else self.require_manifest()
        wanted = build_info(self.settings)
        differs = [f"{k}: index has {manifest.get(k)!r}, settings say {wanted[k]!r}"
                   for k in _BUILD_KEYS if manifest.get(k) != wanted[k]]
        if differs:
            raise IndexMismatchError(
                f"the index at {self.location} was built with other settings ("
                + "; ".join(differs) + "). Run `rag ingest --rebuild PATH…` to rebuild it")

    def live_generation(self) -> int | None:
        manifest = self.manifest()
        return int(manifest["generation"]) if manifest else None

    def collection(self, kind: str, generation: int | None = None):
        gen = generation if generation is not None else int(self.require_manifest()["generation"])
        return self.client.get_collection(self._name(kind, gen))

    def chunks(self, generation: int | None = None):
        return self.collection("chunks", generation)

    def papers_collection(self, generation: int | None = None):
        return self.collection("papers", generation)

    def has_kind(self, kind: str) -> bool:
        """Whether the live generation has this collection (older indexes may lack newer kinds)."""
        try:
            self.collection(kind)
            return True
        except Exception:  # chromadb's NotFoundError
            return False

    def stored_papers(self, generation: int | None = None) -> dict[str, StoredPaper]:
        """The papers of the live generation (or of ``generation``, e.g. one not live yet), in stored order."""
        if generation is None and self.manifest() is None:
            return {}
        rows = get_all(self.papers_collection(generation), ["metadatas"])
        return {
            pid: StoredPaper(Paper.from_json(json.loads(meta["paper_json"])), meta["record_hash"], meta["embed_hash"])
            for pid, meta in zip(rows["ids"], rows["metadatas"])
        }

    def rows_by_paper(self, kind: str, paper_ids: set[str]) -> dict[str, list[tuple[str, list[float], str, dict]]]:
        """Stored chunk or sentence rows (id, embedding, document, metadata) of the given papers, in order."""
        if not paper_ids or self.manifest() is None or not self.has_kind(kind):
            return {}
        rows = get_all(self.collection(kind), ["embeddings", "documents", "metadatas"])
        grouped: dict[str, list[tuple[str, list[float], str, dict]]] = {}
        for row in zip(rows["ids"], rows["embeddings"], rows["documents"], rows["metadatas"]):
            paper_id = row[3].get("paper_id")
            if paper_id in paper_ids:
                grouped.setdefault(paper_id, []).append((row[0], list(row[1]), row[2], row[3]))
        for row_list in grouped.values():
            row_list.sort(key=lambda r: r[3].get("position", 0))
        return grouped

    # -- writing -----------------------------------------------------------------------------
    @contextmanager
    def writer_lock(self) -> Iterator[None]:
        """One ingest at a time per index folder, or per Chroma server and prefix (a lease held in the server,
        ``rag.lease``); a second one fails at once with a clear message."""
        if self.settings.index.chroma_host:
            with server_lease(self.client, self.prefix, self.location):
                yield
            return
        import fcntl

        with open(self.settings.index.index_dir / ".ingest.lock", "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise RagError(f"another `rag ingest` is writing {self.location}; wait for it to finish") from exc
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def collection_names(self) -> list[str]:
        """Every collection's name (chromadb 1.x lists names, older versions collection objects)."""
        return [c if isinstance(c, str) else c.name for c in self.client.list_collections()]

    def drop_orphans(self) -> None:
        """Remove collections and files of generations that are not live (replaced, or an interrupted ingest)."""
        live = self.live_generation()
        keep = {self._name(k, live) for k in KINDS} if live is not None else set()
        for name in self.collection_names():
            if (name.startswith(f"{self.prefix}-") and name != self._manifest_name and name not in keep
                    and LEASE_SUFFIX not in name):  # the writer's lease is no generation
                self.client.delete_collection(name)
        root = self.files_root
        if root is not None and root.is_dir():
            # "<prefix>-gN" and the temporary folders written beside it ("<prefix>-gN.tmp-…", "….old-…").
            mine = re.compile(rf"^{re.escape(self.prefix)}-g(\d+)(?:\..*)?$")
            for path in root.iterdir():
                match = mine.match(path.name)
                if match and (path.name != f"{self.prefix}-g{live}"):
                    shutil.rmtree(path, ignore_errors=True)

    def new_generation(self, info: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A new, empty generation: its number and its collections by kind."""
        live = self.live_generation()
        generation = 1 if live is None else live + 1
        space = {"hnsw": {"space": "cosine"}}
        meta = {**info, "generation": generation}
        return generation, {kind: self.client.create_collection(self._name(kind, generation), configuration=space,
                                                                metadata=meta) for kind in KINDS}

    @property
    def batch_size(self) -> int:
        """Most records Chroma takes in one add (5,461 embedded); larger adds are split."""
        return self.client.get_max_batch_size()

    def add_rows(self, collection: Any, ids: list[str], embeddings: list[list[float]],
                 documents: list[str], metadatas: list[dict]) -> None:
        step = self.batch_size
        for start in range(0, len(ids), step):
            end = start + step
            collection.add(ids=ids[start:end], embeddings=embeddings[start:end],
                           documents=documents[start:end], metadatas=metadatas[start:end])

    def go_live(self, generation: int, info: dict[str, Any], paper_count: int) -> None:
        """The commit point: one manifest update makes the new generation the index."""
        previous = self.live_generation()
        meta = {**info, "generation": generation, "papers": paper_count,
                "updated": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        if previous is None:
            self.client.create_collection(self._manifest_name, metadata=meta)
        else:
            self.client.get_collection(self._manifest_name).modify(metadata=meta)
        self.drop_orphans()

    def abandon(self, generation: int) -> None:
        for kind in KINDS:
            try:
                self.client.delete_collection(self._name(kind, generation))
            except Exception:  # already gone
                pass
        files = self.files_dir(generation)
        if files is not None:
            shutil.rmtree(files, ignore_errors=True)
