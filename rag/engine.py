"""The façade every front end uses: ingest, list papers, ask. Nothing outside ``rag`` touches Chroma."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from rag import prompts
from rag.errors import IndexMissingError
from rag.settings import Settings, apply_offline_env
from rag.types import Answer, Hit, Paper, Shown, StreamEvent, Turn, final_answer

if TYPE_CHECKING:
    from rag.backends import LLMBackend
    from rag.retrieval import HybridRetriever


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
        if not self.settings.index.seeds_dir.is_dir():
            raise IndexMissingError(f"no index at {self.store.location} and no seeds folder at "
                                    f"{self.settings.index.seeds_dir}; run `rag ingest PATH…`")
        return self.ingest([self.settings.index.seeds_dir], progress=progress)

    def papers(self) -> list[Paper]:
        self.store.require_manifest()
        return sorted((s.paper for s in self.store.stored_papers().values()), key=lambda p: p.source)

    # -- questions ---------------------------------------------------------------------------
    @property
    def retriever(self) -> HybridRetriever:
        """Retrieval over the live generation, loaded on first use; reloaded when another process ingested."""
        manifest = self.store.require_manifest()
        if self._retriever is None or manifest["generation"] != self._generation:
            from rag.retrieval import HybridRetriever

            self.store.check_compatible(manifest)
            self._retriever = HybridRetriever(self.settings, self.store)
            self._generation = manifest["generation"]
        return self._retriever

    def warm(self, backend: str | None = None) -> None:
        """Load retrieval (models, BM25, sentence vectors) and the answer backend now, not on the first
        question. A backend that cannot load (e.g. the local model is not fetched) raises its RagError."""
        from rag.backends import make_backend

        self.retriever.encoder.embed_query("warm up")
        make_backend(backend or self.settings.llm.backend, self.settings)

    def search(self, question: str, top_k: int | None = None) -> list[Hit]:
        """The papers retrieval finds for a question, best first (no answer)."""
        return self.retriever.search(question, top_k or self.settings.retrieval.top_k)

    def prepare(self, question: str, *, history: list[str] | None = None, top_k: int | None = None,
                rank_depth: int = 0, carried: list[str] | None = None, paper_ids: list[str] | None = None,
                compare_ids: list[str] | None = None, query: str | None = None,
                started: float | None = None, table: list[Shown] | None = None) -> Turn:
        """The turn up to the refuse-or-answer decision (understand → retrieve → evidence → decide).

        ``history``: earlier user turns; ``carried``: papers cited in the last turn, kept in the sources of a
        follow-up that refers back; ``table``: what every earlier turn showed and cited (``Shown``), for
        references to papers on the table ("the second one", "both", "which of them …"); ``paper_ids``: search
        only these papers; ``compare_ids``: compare exactly these papers; ``query``: a standalone rewrite of a
        follow-up (else a deterministic one is made);
        ``started``: when the question arrived, if an LLM rewrite or translation came first (it counts in
        the time to the sources)."""
        from chromadb.errors import NotFoundError

        from rag import pipeline

        question, top_k = self._bounded(question, top_k)

        def once() -> Turn:
            turn = Turn(question, history=list(history or []), carried=list(carried or []), table=list(table or []),
                        paper_ids=paper_ids,
                        compare_ids=compare_ids, rank_depth=rank_depth, rewrite=query, top_k=top_k or 0)
            if started is not None:
                turn.started = started
            return pipeline.prepare(turn, self.retriever, self.settings)

        try:
            return once()
        except NotFoundError:  # an ingest went live mid-question and removed the generation it read:
            self._retriever = None  # once more, on the new live generation
            return once()

    def stream(self, question: str, *, history: list[str] | None = None, top_k: int | None = None,
               backend: str | LLMBackend | None = None, rank_depth: int = 0, carried: list[str] | None = None,
               paper_ids: list[str] | None = None, compare_ids: list[str] | None = None,
               table: list[Shown] | None = None) -> Iterator[StreamEvent]:
        """The answer as events: ``sources`` first (before any token), then ``token`` pieces, then ``done``
        with the checked ``Answer``. Front ends render tokens live and replace them with the final text."""
        from rag.answer import sources_for
        from rag.asides import without_aside
        from rag.backends import make_backend
        from rag.generate import generate
        from rag.followup import llm_query

        started = time.perf_counter()
        question, top_k = self._bounded(question, top_k)
        backend = backend or self.settings.llm.backend
        if isinstance(backend, str):
            llm = make_backend(backend, self.settings)  # fails fast (unknown name, model not fetched)
        else:  # an LLMBackend object (tests, embedding applications)
            llm, backend = backend, backend.name
        asked, note = question, ""
        question = without_aside(question)  # ("…? i think it's even in their titles": searched without the aside)
        if not compare_ids and not paper_ids:
            # "these papers" in a first question, "them" after an overview of the areas: the whole collection
            collection = self._collection_answer(question, started, not history or self._after_overview(table), [
                p for shown in table or [] if len(shown.cited) <= 4 for p in shown.cited])  # (a turn's focus)
            if collection is not None and collection.chart and collection.chart.method == "none":
                # "How many papers are about making LLM inference faster?": no abstract words it so; the papers
                # retrieval finds for it, listed (a count of words as written would miss them all)
                question, note = prompts.COUNT_AS_LIST.format(topic=collection.chart.topic), collection.text
            elif collection is not None:  # about the collection itself: counts and examples from the index
                yield StreamEvent("sources", sources=collection.sources)
                yield StreamEvent("token", text=collection.text)
                yield StreamEvent("done", answer=collection)
                return
        query = llm_query(question, history or [], llm, self.settings) if llm is not None else None
        turn = self.prepare(question, history=history, top_k=top_k, rank_depth=rank_depth, carried=carried,
                            paper_ids=paper_ids, compare_ids=compare_ids, query=query, started=started, table=table)
        yield StreamEvent("sources", sources=sources_for(turn.evidence), refused=turn.decision.refused)
        events = generate(turn, llm, backend, self.settings, self.retriever.sentences,
                          self.retriever.encoder.embed_texts)
        events = _as_asked(events, asked)
        yield from (_noted(events, note) if note else events)

    def _bounded(self, question: object, top_k: object) -> tuple[str, int | None]:
        """The question and ``top_k`` within bounds (``rag.bounds``), or ``QuestionError`` saying what to change."""
        from rag.bounds import check_question, check_top_k

        return (check_question(question, self.settings.retrieval.max_question_chars),
                None if top_k is None else check_top_k(top_k))

    def _after_overview(self, table: list[Shown] | None) -> bool:
        """The last turn surveyed the collection's areas ("What research areas does this collection span?")."""
        from rag.collection_intent import collection_intent

        last = table[-1] if table else None
        return bool(last and not last.refused and (intent := collection_intent(last.question, self.retriever))
                    and intent.kind == "areas")

    def _collection_answer(self, question: str, started: float, first: bool = False,
                           discussed: list[str] | None = None) -> Answer | None:
        """The answer to a question about the collection as a whole ("Which areas have the most papers?"), or
        None for a question about papers (``rag.collection``); ``discussed``: the papers the chat was about."""
        from rag.collection import answer_collection
        from rag.collection_intent import collection_intent

        intent = collection_intent(question, self.retriever, first)
        if intent is None:
            return None
        answer = answer_collection(question, intent, self.retriever, self.settings, discussed or []).answer
        total = (time.perf_counter() - started) * 1000
        answer.timings_ms = {"retrieve": total, "first_token": total, "answer": 0.0, "total": total}
        return answer

    def ask(self, question: str, **options) -> Answer:
        """A cited answer (``stream`` run to the end); the same options as ``stream``."""
        return final_answer(self.stream(question, **options))


def _as_asked(events: Iterator[StreamEvent], question: str) -> Iterator[StreamEvent]:
    """The events, the answer recording the question as the user asked it (with any aside)."""
    for event in events:
        if event.kind == "done" and event.answer is not None:
            event.answer.question = question
        yield event


def _noted(events: Iterator[StreamEvent], note: str) -> Iterator[StreamEvent]:
    """The answer to the question asked in its place, after ``note`` (what the user's own question found); the note
    alone when that is refused too."""
    prefix, first = f"{note} {prompts.COUNT_CLOSEST}\n\n", True
    for event in events:
        if event.kind == "token" and first:
            event.text, first = prefix + event.text, False
        if event.kind == "done" and event.answer is not None:
            event.answer.text = note if event.answer.refused else prefix + event.answer.text
        yield event
