"""Retrieve stage: BM25 + dense retrieval over chunks, fused per paper by reciprocal rank."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rag.query import keyword_query
from rag.settings import Settings
from rag.store import IndexStore
from rag.types import Hit, Paper


def _bm25_class():
    import bm25s
    import numpy as np
    from llama_index.core.schema import NodeWithScore
    from llama_index.core.vector_stores.utils import metadata_dict_to_node
    from llama_index.retrievers.bm25 import BM25Retriever

    class StringQueryBM25Retriever(BM25Retriever):
        """BM25Retriever with the query passed to bm25s as token strings.

        bm25s 0.3.16 scores the ids of a ``Tokenized`` query as if they were the index's ids, and
        llama-index-retrievers-bm25 0.8.0 passes exactly that, returning unrelated papers. Token strings
        are mapped through the index vocabulary instead (see shared/STACK.md).
        """

        def _retrieve(self, query_bundle: Any) -> list[NodeWithScore]:
            tokens = bm25s.tokenize(
                query_bundle.query_str, stopwords="en", token_pattern=self.token_pattern,
                stemmer=None if self.skip_stemming else self.stemmer, return_ids=False, show_progress=False,
            )
            if not any(t in self.bm25.vocab_dict for t in tokens[0]):
                return []
            mask = np.array(self.corpus_weight_mask) if self.corpus_weight_mask else None
            indexes, scores = self.bm25.retrieve(tokens, k=self.similarity_top_k, show_progress=False,
                                                 weight_mask=mask)
            return [NodeWithScore(node=metadata_dict_to_node(self.corpus[int(i)]), score=float(s))
                    for i, s in zip(indexes[0], scores[0]) if s > 0]

    return StringQueryBM25Retriever


@dataclass
class _Ranked:
    """One retriever's view of a paper: its rank, best score and best chunk."""

    rank: int
    score: float
    chunk: str


class HybridRetriever:
    """Dense (Chroma) and BM25 retrievers over the same chunks; papers ranked by fused reciprocal rank."""

    def __init__(self, settings: Settings, store: IndexStore) -> None:
        from llama_index.core import VectorStoreIndex
        from llama_index.core.schema import TextNode
        from llama_index.vector_stores.chroma import ChromaVectorStore

        from rag.embedding import load_embedder

        self.settings = settings
        chunks = store.chunks()
        self.papers: dict[str, Paper] = {pid: s.paper for pid, s in store.stored_papers().items()}
        vector_store = ChromaVectorStore(chroma_collection=chunks)
        self.embedder = load_embedder(settings)
        index = VectorStoreIndex.from_vector_store(vector_store, embed_model=self.embedder)
        self.dense = index.as_retriever(similarity_top_k=settings.candidates)
        # With Chroma as the store the docstore is empty: BM25 is built from the stored chunks.
        rows = chunks.get(include=["documents", "metadatas"])
        nodes = [
            TextNode(id_=cid, text=f"{meta.get('title', '')}\n\n{doc}", metadata={"paper_id": meta["paper_id"]})
            for cid, doc, meta in zip(rows["ids"], rows["documents"], rows["metadatas"])
        ]
        self.bm25 = _bm25_class().from_defaults(
            nodes=nodes, similarity_top_k=min(settings.candidates, len(nodes)), language="en")

    def _by_paper(self, results: list[Any], cosine: bool) -> dict[str, _Ranked]:
        """Collapse chunk hits to papers: best chunk per paper, papers ranked by it."""
        import math

        ranked: dict[str, _Ranked] = {}
        for result in sorted(results, key=lambda r: r.score or 0.0, reverse=True):
            paper_id = result.node.metadata["paper_id"]
            if paper_id in ranked or paper_id not in self.papers:
                continue
            # ChromaVectorStore reports exp(-distance); the collection uses cosine distance.
            score = 1.0 + math.log(result.score) if cosine and result.score else float(result.score or 0.0)
            ranked[paper_id] = _Ranked(len(ranked), score, result.node.get_content())
        return ranked

    def search(self, query: str, top_k: int | None = None) -> list[Hit]:
        top_k = top_k or self.settings.top_k
        dense = self._by_paper(self.dense.retrieve(query), cosine=True)
        lexical = self._by_paper(self.bm25.retrieve(keyword_query(query)), cosine=False)
        # Fusion at paper level, not chunk level: two chunks of one paper must not compete with each
        # other, and the raw dense score survives for the evidence stage. (llama-index's
        # QueryFusionRetriever fuses chunks and overwrites scores, hence this small RRF.)
        k = self.settings.rrf_k
        fused: dict[str, float] = {}
        for view in (dense, lexical):
            for paper_id, seen in view.items():
                fused[paper_id] = fused.get(paper_id, 0.0) + 1.0 / (k + seen.rank + 1)
        order = sorted(fused, key=lambda pid: fused[pid], reverse=True)[:top_k]
        hits = []
        for paper_id in order:
            best = dense.get(paper_id) or lexical[paper_id]
            hits.append(Hit(
                paper=self.papers[paper_id], score=fused[paper_id], best_chunk=best.chunk,
                dense_score=dense[paper_id].score if paper_id in dense else None,
                bm25_score=lexical[paper_id].score if paper_id in lexical else None,
            ))
        return hits
