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
            from rag.retrieve import HybridRetriever

            self.store.check_compatible(manifest)
            self._retriever = HybridRetriever(self.settings, self.store)
            self._generation = manifest["generation"]

    def search(self, question: str, top_k: int | None = None):
        """The papers retrieval finds for a question, best first (no answer)."""
        self._ready()
        return self._retriever.search(question, top_k or self.settings.top_k)

    def ask(self, question: str, *, history: list[str] | None = None, top_k: int | None = None,
            backend: str | None = None, rank_depth: int = 0) -> Answer:
        """A cited answer. ``history``: earlier user turns, for follow-ups. ``rank_depth``: how many ranked
        paper ids to keep in ``answer.ranked_paper_ids`` (at least ``top_k``)."""
        from rag.answer import extractive_answer
        from rag.decide import decide
        from rag.evidence import gather_evidence
        from rag.followup import standalone_query
        from rag.question import analyse

        question = question.strip()
        if not question:
            raise RagError("the question is empty; ask something about the indexed papers")
        backend = backend or self.settings.backend
        if backend not in BACKENDS:
            raise RagError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
        top_k = top_k or self.settings.top_k
        started = time.perf_counter()
        query = standalone_query(question, history or [])
        shape = analyse(query)
        self._ready()
        retriever = self._retriever
        vector = retriever.embed_query(query)
        if shape.kind == "list":  # as many papers as pass the relevance cut, not a fixed k
            top_k = max(top_k, self.settings.max_list_papers)
        depth = max(top_k, rank_depth)
        if shape.kind == "comparison":
            ranked = retriever.search_comparison(query, shape.parts, depth, vector=vector)
        else:
            ranked = retriever.search(query, depth, vector=vector)
        hits = ranked[:top_k]
        retrieved = time.perf_counter()
        # The retriever already knows which papers contain each name: reuse its cached lookups.
        named_papers = {n: retriever.papers_mentioning(n) for n in retriever.distinctive_names(query)}
        evidence = gather_evidence(query, vector, hits, retriever.sentences, named_papers, shape.multilingual)
        large = len(retriever.papers) >= self.settings.unknown_word_min_papers > 0
        unknown = retriever.unknown_words(query) if large and not shape.multilingual else []
        decision = decide(shape, evidence, self.settings, retriever.missing_names(shape.names), unknown)
        answer = extractive_answer(question, evidence, decision, self.settings)
        done = time.perf_counter()
        answer.backend = backend
        answer.ranked_paper_ids = [h.paper.paper_id for h in ranked]
        answer.timings_ms = {"retrieve": (retrieved - started) * 1000, "answer": (done - retrieved) * 1000,
                             "total": (done - started) * 1000}
        return answer
