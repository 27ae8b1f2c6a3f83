"""The façade every front end uses: ingest, list papers, ask. Nothing outside ``rag`` touches Chroma."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag.errors import IndexMissingError, RagError
from rag.settings import Settings, apply_offline_env
from rag.types import Answer, Paper, StreamEvent, final_answer


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

    def warm(self, backend: str | None = None) -> None:
        """Load retrieval (models, BM25, sentence vectors) and the answer backend now, not on the first
        question. A backend that cannot load (e.g. the local model is not fetched) raises its RagError."""
        from rag.llm import make_backend

        self._ready()
        self._retriever.embed_query("warm up")
        make_backend(backend or self.settings.backend, self.settings)

    def search(self, question: str, top_k: int | None = None):
        """The papers retrieval finds for a question, best first (no answer)."""
        self._ready()
        return self._retriever.search(question, top_k or self.settings.top_k)

    def prepare(self, question: str, *, history: list[str] | None = None, top_k: int | None = None,
                rank_depth: int = 0, carried: list[str] | None = None, paper_ids: list[str] | None = None,
                compare_ids: list[str] | None = None, query: str | None = None, started: float | None = None):
        """Retrieval, evidence and the refuse-or-answer decision: everything but the wording.

        ``history``: earlier user turns; ``carried``: papers cited in the last turn, kept in the sources of a
        follow-up that refers back; ``paper_ids``: search only these papers; ``compare_ids``: compare exactly
        these papers; ``query``: a standalone rewrite of a follow-up (else a deterministic one is made);
        ``started``: when the question arrived, if an LLM rewrite or translation came first (it counts in
        the time to the sources)."""
        from rag.decide import decide
        from rag.evidence import gather_evidence
        from rag.followup import refers_back, standalone_query
        from rag.generate import Prepared
        from rag.multilingual import needs_multilingual
        from rag.question import analyse, comparison_parts, wants_comparison
        from rag.spelling import apply_corrections

        question = question.strip()
        if not question:
            raise RagError("the question is empty; ask something about the indexed papers")
        top_k = top_k or self.settings.top_k
        started = time.perf_counter() if started is None else started
        said = standalone_query(question, history or [])  # the user's own words
        query = query or said
        self._ready()
        retriever = self._retriever
        # A word of the user's that no abstract of a large index contains: a typo is read as the corpus word it
        # almost spells; any other such word makes an English question a refusal (decided below). Words an
        # LLM chose (a translation, a follow-up rewrite) are never refused: measured on Chinese questions the
        # 0.5B's "punish" or "bezier" refused 3 of 24 answerable ones.
        large = len(retriever.papers) >= self.settings.unknown_word_min_papers > 0
        unknown = retriever.unknown_words(said) if large and not compare_ids else []
        corrections = retriever.spelling_fixes(unknown) if self.settings.spelling else {}
        if corrections:
            query = apply_corrections(query, corrections)
        unknown = [] if needs_multilingual(said) else [w for w in unknown if w not in corrections]
        # The shape comes from the user's words: an LLM rewrite of a follow-up ("How much bigger is the new
        # dataset than the previous version?" → "… compared to the previous version?") must not make it a
        # comparison of papers. A translation is the only English there is, so a Chinese question uses it.
        rewritten = bool(history) and query != said and not needs_multilingual(question)
        shape = analyse(apply_corrections(said, corrections) if rewritten else query)
        # One vector for the dense rankings and the evidence: scoring a list question's sentences against
        # "Which papers …" too picked fewer of its relevant papers (measured: see README).
        vector = retriever.embed_topic(query)
        only = set(paper_ids) if paper_ids else None
        carried = [pid for pid in carried or [] if only is None or pid in only]  # a scoped chat stays scoped
        follow_up = bool(carried and history and refers_back(question))
        if follow_up and shape.kind != "comparison" and wants_comparison(question):
            # "How does it differ from Tactic?": the last answer's papers against what this turn names.
            titles = [retriever.papers[pid].title for pid in carried if pid in retriever.papers]
            parts = titles + comparison_parts(question)
            if len(parts) >= 2:
                shape.kind, shape.parts = "comparison", parts
        if shape.kind == "list":  # as many papers as pass the relevance cut, not a fixed k
            top_k = max(top_k, self.settings.max_list_papers)
        depth = max(top_k, rank_depth)
        if compare_ids:
            ranked = _comparison_hits(retriever, compare_ids)
            shape.kind = "comparison"
            top_k = max(top_k, len(ranked))
        elif shape.kind == "comparison" and only is None:
            ranked = retriever.search_comparison(query, shape.parts, depth, vector=vector)
        else:
            ranked = retriever.search(query, depth, vector=vector, only=only)
        if follow_up:
            ranked = _pin(retriever, ranked, carried)
        hits = ranked[:top_k]
        # The retriever already knows which papers contain each name: reuse its cached lookups.
        named_papers = {n: retriever.papers_mentioning(n) for n in retriever.distinctive_names(query)}
        evidence = gather_evidence(query, vector, hits, retriever.sentences, named_papers, shape.multilingual)
        if shape.kind == "comparison":  # each compared paper's sentences ranked for its own piece of the question
            for i, item in enumerate(evidence):
                if item.hit.part is not None and not shape.multilingual:
                    own = f"{item.hit.part} {apply_corrections(question, corrections)}"
                    evidence[i] = gather_evidence(own, retriever.embed_query(own), [item.hit], retriever.sentences,
                                                  named_papers)[0]
        decision = decide(shape, evidence, self.settings, retriever.missing_names(shape.names), unknown)
        retrieve_ms = (time.perf_counter() - started) * 1000
        return Prepared(question, query, shape, evidence, decision, [h.paper.paper_id for h in ranked],
                        started, retrieve_ms, corrections)

    def stream(self, question: str, *, history: list[str] | None = None, top_k: int | None = None,
               backend: Any = None, rank_depth: int = 0, carried: list[str] | None = None,
               paper_ids: list[str] | None = None, compare_ids: list[str] | None = None) -> Iterator[StreamEvent]:
        """The answer as events: ``sources`` first (before any token), then ``token`` pieces, then ``done``
        with the checked ``Answer``. Front ends render tokens live and replace them with the final text."""
        from rag.answer import sources_for
        from rag.generate import generate
        from rag.llm import make_backend
        from rag.multilingual import needs_multilingual

        started = time.perf_counter()
        backend = backend or self.settings.backend
        if isinstance(backend, str):
            llm = make_backend(backend, self.settings)  # fails fast (unknown name, model not fetched)
        else:  # an LLMBackend object (tests, embedding applications)
            llm, backend = backend, backend.name
        query = None
        if llm is not None and self.settings.llm_translate and needs_multilingual(question):
            from rag.followup import standalone_query
            from rag.translate import llm_translate

            english = llm_translate(llm, question)
            query = standalone_query(english, history or []) if english else None
        elif llm is not None and history and self.settings.llm_rewrite_followups:
            from rag.followup import llm_rewrite

            query = llm_rewrite(llm, question, history, self.settings)
        prepared = self.prepare(question, history=history, top_k=top_k, rank_depth=rank_depth, carried=carried,
                                paper_ids=paper_ids, compare_ids=compare_ids, query=query, started=started)
        yield StreamEvent("sources", sources=sources_for(prepared.evidence), refused=prepared.decision.refused)
        yield from generate(prepared, llm, backend, self.settings, self._retriever.sentences,
                            self._retriever.embed_texts)

    def ask(self, question: str, **options) -> Answer:
        """A cited answer (``stream`` run to the end); the same options as ``stream``."""
        return final_answer(self.stream(question, **options))


def _pin(retriever, ranked: list, carried: list[str]) -> list:
    """A follow-up that refers back keeps the papers the last answer cited at the top of its sources."""
    from rag.types import Hit

    top = ranked[0].score if ranked else 1.0
    pinned = [next((h for h in ranked if h.paper.paper_id == pid), None) or Hit(retriever.papers[pid], top)
              for pid in carried if pid in retriever.papers]
    ids = {h.paper.paper_id for h in pinned}
    return pinned + [h for h in ranked if h.paper.paper_id not in ids]


def _comparison_hits(retriever, compare_ids: list[str]) -> list:
    from rag.types import Hit

    missing = [pid for pid in compare_ids if pid not in retriever.papers]
    if missing:
        raise RagError(f"unknown paper id(s) to compare: {', '.join(missing)}; see `rag papers`")
    return [Hit(retriever.papers[pid], 1.0, part=retriever.papers[pid].title) for pid in compare_ids]
