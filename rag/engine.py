"""The façade every front end uses: ingest, list papers, ask. Nothing outside ``rag`` touches Chroma."""

from __future__ import annotations

import time
from pathlib import Path

from rag.errors import IndexMissingError, RagError
from rag.settings import Settings, apply_offline_env
from rag.types import Answer, Paper

BACKENDS = ("extractive",)


class Engine:
    def __init__(self, settings: Settings | None = None) -> None:
        apply_offline_env()
        self.settings = settings or Settings()
        self._store = None
        self._retriever = None
        self._evidence = None
        self._generation: int | None = None

    # -- the index ---------------------------------------------------------------------------
    @property
    def store(self):
        if self._store is None:
            from rag.store import IndexStore

            self._store = IndexStore(self.settings)
        return self._store

    def ingest(self, paths: list[Path | str], *, prune: bool = False, rebuild: bool = False,
               progress: bool = True):
        from rag.index import ingest

        report = ingest(self.settings, paths, prune=prune, rebuild=rebuild, progress=progress, store=self.store)
        return report

    def ensure_index(self, progress: bool = True):
        """Build the index from the seeds if there is none yet; returns the report, or None."""
        if self.store.manifest() is not None:
            return None
        if not self.settings.seeds_dir.is_dir():
            raise IndexMissingError(f"no index at {self.store.location} and no seeds folder at "
                                    f"{self.settings.seeds_dir}; run `rag ingest PATH…`")
        return self.ingest([self.settings.seeds_dir], progress=progress)

    def papers(self) -> list[Paper]:
        self.store.require_manifest()
        return sorted((s.paper for s in self.store.stored_papers().values()), key=lambda p: p.source)

    # -- questions ---------------------------------------------------------------------------
    def _ready(self) -> None:
        """Load retrieval over the live generation; reload when another process ingested since."""
        manifest = self.store.require_manifest()
        if self._retriever is None or manifest["generation"] != self._generation:
            from rag.evidence import EvidenceFinder
            from rag.retrieve import HybridRetriever

            self.store.check_compatible(manifest)
            self._retriever = HybridRetriever(self.settings, self.store)
            self._generation = manifest["generation"]
            if self._evidence is None:
                self._evidence = EvidenceFinder(self._retriever.embedder)

    def search(self, question: str, top_k: int | None = None):
        """The papers retrieval finds for a question, best first (no answer)."""
        self._ready()
        return self._retriever.search(question, top_k or self.settings.top_k)

    def ask(self, question: str, *, top_k: int | None = None, backend: str | None = None) -> Answer:
        from rag.answer import extractive_answer

        question = question.strip()
        if not question:
            raise RagError("the question is empty; ask something about the indexed papers")
        backend = backend or self.settings.backend
        if backend not in BACKENDS:
            raise RagError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
        started = time.perf_counter()
        hits = self.search(question, top_k)
        retrieved = time.perf_counter()
        evidence = self._evidence.gather(question, hits)
        answer = extractive_answer(question, evidence, self.settings)
        done = time.perf_counter()
        answer.backend = backend
        answer.timings_ms = {"retrieve": (retrieved - started) * 1000, "answer": (done - retrieved) * 1000,
                             "total": (done - started) * 1000}
        return answer
