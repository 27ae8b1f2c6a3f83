"""Retrieve stage: the rankers' views of a question fused into one ranking of papers, then the papers the
question names put first.

``HybridRetriever`` owns the query encoder, the rankers (``rankers``), the name index (``names``) and the
sentence vectors the evidence stage reads; ``search`` is the one place their scores meet.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from rag.embedding import QueryEncoder
from rag.persisted import GenerationFiles
from rag.retrieval.acronyms import AcronymExpander
from rag.retrieval.fusion import best_first, weighted_rrf
from rag.retrieval.names import NameIndex
from rag.retrieval.rankers import (BM25Ranker, DenseChunkRanker, DenseSentenceRanker, MultilingualRanker, Ranker,
                                   Ranking, SentenceIndex, score_of)
from rag.settings import Settings
from rag.store import IndexStore
from rag.tokens import topic_query
from rag.types import Hit, Paper

if TYPE_CHECKING:
    import numpy as np


class HybridRetriever:
    def __init__(self, settings: Settings, store: IndexStore) -> None:
        self.settings = settings.retrieval
        self.papers: dict[str, Paper] = {pid: s.paper for pid, s in store.stored_papers().items()}
        self.encoder = QueryEncoder(settings)
        # Saved at ingest beside the index when it can be (see rag.persisted); else read from Chroma / rebuilt.
        files = GenerationFiles.open(store)
        self.sentences = _matrix(store, files, "sentences")
        self.titles = _matrix(store, files, "titles")  # multilingual-e5 vectors, for non-English questions
        candidates = self.settings.candidates
        papers = list(self.papers.values())
        self.bm25 = BM25Ranker(papers, self.settings, bm25=files.bm25(papers, self.settings) if files else None)
        self.dense = DenseChunkRanker(store, self.encoder.model, candidates)
        self.sentence = DenseSentenceRanker(self.sentences, candidates * self.settings.sentence_candidates_factor)
        self.rankers: list[Ranker] = [self.bm25, self.dense, self.sentence]
        self.multilingual = MultilingualRanker(self.titles, candidates)
        # An index from before they read the first sentence holds titles only: no headline scores then.
        self.headlines = any(text != self.papers[pid].display_title
                             for pid, text in zip(self.titles.paper_ids, self.titles.texts) if pid in self.papers)
        self.names = NameIndex(self.papers, self.bm25, self.settings, settings.decision,
                               words=files.words(self.papers) if files else None)

    @cached_property
    def acronyms(self) -> AcronymExpander:
        """Acronyms spelled out for the evidence stage, and for the ranking only of a list asked by little more than
        an acronym ("any RL papers?"): beside other words, "LLMs with RL" spelled out pulled in papers on any large
        language model and cost the right one its first place (docs/benchmarks.md)."""
        return AcronymExpander([p.abstract for p in self.papers.values()])

    def embed_topic(self, query: str) -> np.ndarray:
        """The vector the dense rankings and the evidence stage compare with: the question without a frame
        asking for papers ("Which papers …" is not embedded; see ``tokens.topic_query``)."""
        return self.encoder.embed_query(topic_query(query))

    def rankings(self, query: str, vector: np.ndarray | None = None) -> dict[str, Ranking]:
        """Every ranker's view of the question; ``vector``: ``embed_topic(query)``, if the caller has it."""
        from rag.multilingual import needs_multilingual

        vector = self.embed_topic(query) if vector is None else vector
        views = {ranker.name: ranker.rank(query, vector) for ranker in self.rankers}
        if needs_multilingual(query):
            views[self.multilingual.name] = self.multilingual.rank(query)
        return views

    def weights(self, multilingual: bool) -> dict[str, float]:
        s = self.settings
        weights = {"bm25": s.weight_bm25, "dense": s.weight_dense, "sentence": s.weight_sentence,
                   "multilingual": s.weight_multilingual}
        if multilingual:  # MiniLM reads no Chinese: its rankings count for little next to e5's
            weights["dense"] *= s.multilingual_dense_factor
            weights["sentence"] *= s.multilingual_dense_factor
        return weights

    def search(self, query: str, top_k: int | None = None, vector: np.ndarray | None = None,
               only: set[str] | None = None) -> list[Hit]:
        """The best ``top_k`` papers; ``only``: restrict to these paper ids (a chat scoped to picked papers)."""
        views = self.rankings(query, vector)
        fused = weighted_rrf(views, self.weights("multilingual" in views), self.settings.rrf_k)
        # Exact-name matching: papers containing a name the question asks about ("TRIM-KV", "D2F") come
        # first, more names before fewer. A small embedding model blurs such tokens; the user does not.
        for name in self.names.distinctive_names(query):
            for paper_id in self.names.papers_mentioning(name):
                fused[paper_id] = fused.get(paper_id, 0.0) + self.settings.name_boost
        for paper_id in self.names.named_in_title(query):
            fused[paper_id] = fused.get(paper_id, 0.0) + self.settings.title_name_boost
        if only is not None:
            fused = {pid: fused.get(pid, 0.0) for pid in only if pid in self.papers}
        headline = views.get("multilingual") if self.headlines else None
        return [Hit(paper=self.papers[pid], score=fused[pid], dense_score=score_of(views["dense"], pid),
                    bm25_score=score_of(views["bm25"], pid), sentence_score=score_of(views["sentence"], pid),
                    headline_score=score_of(headline, pid))
                for pid in best_first(fused, top_k or self.settings.top_k) if pid in self.papers]


def _matrix(store: IndexStore, files: GenerationFiles | None, kind: str) -> SentenceIndex:
    """The saved matrix if it has the collection's rows, else every row read from Chroma."""
    saved = files.matrix(kind, store.collection(kind).count()) if files is not None else None
    return saved if saved is not None else SentenceIndex.load(store, kind)
