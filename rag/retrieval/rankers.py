"""Rankers: each ranks papers for a question in one shape, ``rank(query, vector) -> Ranking``.

* ``BM25Ranker``: BM25 over each paper's title and abstract (llama-index ``BM25Retriever`` on bm25s), with
  whole-token forms of names and numbers (``tokens.lexical_text``);
* ``DenseChunkRanker``: dense over chunks in Chroma (llama-index ``VectorIndexRetriever``), a paper scored by
  its best chunk;
* ``DenseSentenceRanker``: dense over single sentences (vectors stored at ingest, held in memory), a paper
  scored by its best sentence: a specific question often matches one sentence far better than a chunk;
* ``MultilingualRanker``: multilingual-e5 over each title + first sentence (non-English questions).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rag.injection import addresses_model
from rag.roles import Role, stored_role
from rag.settings import RetrievalSettings
from rag.tokens import keyword_query, lexical_text
from rag.types import Paper

if TYPE_CHECKING:
    from llama_index.core.base.embeddings.base import BaseEmbedding
    import numpy as np

    from rag.store import IndexStore


@dataclass
class Ranked:
    rank: int  # 0 is best
    score: float


Ranking = dict[str, Ranked]  # paper id → its place in one ranking


class Ranker(Protocol):
    name: str  # the key of its fusion weight (``weight_<name>``)

    def rank(self, query: str, vector: np.ndarray) -> Ranking:
        """Papers for the question (``vector``: its embedding), best first."""
        ...


def by_paper(scored: Iterable[tuple[str, float]]) -> Ranking:
    """Best score per paper, papers ranked by it."""
    best: dict[str, float] = {}
    for paper_id, score in scored:
        if score > best.get(paper_id, -math.inf):
            best[paper_id] = score
    order = sorted(best, key=lambda pid: best[pid], reverse=True)
    return {pid: Ranked(rank, best[pid]) for rank, pid in enumerate(order)}


def score_of(view: Ranking | None, paper_id: str) -> float | None:
    return view[paper_id].score if view is not None and paper_id in view else None


def bm25_text(paper: Paper) -> str:
    """What BM25 indexes of a paper: its title twice (a paper's name weighs more in its title), then the abstract."""
    return lexical_text(f"{paper.title}. {paper.title}. {paper.abstract}")


def build_bm25(papers: list[Paper], settings: RetrievalSettings, stemmer: Any = None) -> Any:
    """A bm25s index of the papers, in their order; its corpus holds each paper's node (``node_id``: paper id)."""
    import bm25s
    import Stemmer
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    nodes = [TextNode(id_=p.paper_id, text=bm25_text(p), metadata={"paper_id": p.paper_id}) for p in papers]
    # bm25s is built here (not by BM25Retriever) to set k1/b; the SciFact train split chose them.
    bm25 = bm25s.BM25(k1=settings.bm25_k1, b=settings.bm25_b)
    bm25.index(bm25s.tokenize([n.text for n in nodes], stopwords="en", stemmer=stemmer or Stemmer.Stemmer("english"),
                              show_progress=False), show_progress=False)
    bm25.corpus = [node_to_metadata_dict(n) | {"node_id": n.node_id} for n in nodes]
    return bm25


class BM25Ranker:
    """BM25 over title (twice) and abstract; ``bm25``: an index of these papers already built (or loaded)."""

    name = "bm25"

    def __init__(self, papers: list[Paper], settings: RetrievalSettings, top_k: int | None = None,
                 bm25: Any = None) -> None:
        import Stemmer

        self.stemmer = Stemmer.Stemmer("english")
        if bm25 is None:
            bm25 = build_bm25(papers, settings, self.stemmer)
        self.vocabulary: dict[str, int] = bm25.vocab_dict
        self._bm25 = bm25
        self.retriever = _string_query_retriever(bm25, self.stemmer, min(top_k or settings.candidates, len(papers)))

    def rank(self, query: str, vector: np.ndarray | None = None) -> Ranking:
        return by_paper((r.node.node_id, float(r.score)) for r in self.retriever.retrieve(keyword_query(query)))

    def tokens(self, text: str) -> list[str]:
        """``text`` as BM25 reads it: stemmed tokens without stop words."""
        import bm25s

        return bm25s.tokenize(lexical_text(text), stopwords="en", stemmer=self.stemmer, return_ids=False,
                              show_progress=False)[0]

    def papers_with(self, token: str) -> set[str]:
        """Ids of the papers whose title or abstract holds the stemmed ``token`` (a column of bm25s's score matrix)."""
        column = self.vocabulary.get(token)
        if column is None:
            return set()
        start, end = self._bm25.scores["indptr"][column:column + 2]
        return {self._bm25.corpus[int(i)]["node_id"] for i in self._bm25.scores["indices"][start:end]}


def _string_query_retriever(bm25: Any, stemmer: Any, top_k: int) -> Any:
    import bm25s
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
            tokens = bm25s.tokenize(lexical_text(query_bundle.query_str), stopwords="en", stemmer=self.stemmer,
                                    token_pattern=self.token_pattern, return_ids=False, show_progress=False)
            if not any(t in self.bm25.vocab_dict for t in tokens[0]):
                return []
            indexes, scores = self.bm25.retrieve(tokens, k=self.similarity_top_k, show_progress=False)
            # bm25s returns corpus entries when it holds the corpus, else indexes into it.
            return [NodeWithScore(node=metadata_dict_to_node(i if isinstance(i, dict) else self.corpus[int(i)]),
                                  score=float(s)) for i, s in zip(indexes[0], scores[0]) if s > 0]

    return StringQueryBM25Retriever(existing_bm25=bm25, stemmer=stemmer, similarity_top_k=top_k)


class DenseChunkRanker:
    """MiniLM over ~200-token chunks in Chroma."""

    name = "dense"

    def __init__(self, store: IndexStore, embed_model: BaseEmbedding, top_k: int) -> None:
        from llama_index.core import VectorStoreIndex
        from llama_index.vector_stores.chroma import ChromaVectorStore

        # The index is only queried here. Without transformations of its own, llama-index would build its
        # default node parser (loading a tiktoken encoding, ~0.4 s) for inserts that never happen.
        index = VectorStoreIndex.from_vector_store(ChromaVectorStore(chroma_collection=store.chunks()),
                                                   embed_model=embed_model, transformations=[_read_only()])
        self.retriever = index.as_retriever(similarity_top_k=top_k)

    def rank(self, query: str, vector: np.ndarray) -> Ranking:
        from llama_index.core.schema import QueryBundle

        results = self.retriever.retrieve(QueryBundle(query_str=query, embedding=vector.tolist()))
        # ChromaVectorStore reports exp(-distance); the collections use cosine distance.
        return by_paper((r.node.metadata["paper_id"], 1.0 + math.log(r.score)) for r in results if r.score)


def _read_only() -> Any:
    from llama_index.core.schema import TransformComponent

    class ReadOnly(TransformComponent):
        def __call__(self, nodes: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the question-time chunk index is read-only; `rag ingest` writes the index")

    return ReadOnly()


@dataclass
class SentenceIndex:
    """All sentence (or title) vectors of the live generation, in memory (≈1.5 KB a row)."""

    vectors: np.ndarray  # float32, one unit row a sentence
    paper_ids: list[str]
    texts: list[str]
    positions: list[int]
    rows_of: dict[str, list[int]]
    roles: list[Role | None] = field(default_factory=list)  # stored at ingest (empty, or None: not current)

    @classmethod
    def of(cls, vectors: Any, paper_ids: list[str], texts: list[str], positions: list[int],
           roles: list[Role | None] | None = None) -> SentenceIndex:
        rows_of: dict[str, list[int]] = {}
        for i, paper_id in enumerate(paper_ids):
            rows_of.setdefault(paper_id, []).append(i)
        return cls(vectors, paper_ids, texts, positions, rows_of, list(roles or []))

    def role(self, row: int) -> Role | None:
        return self.roles[row] if row < len(self.roles) else None

    def quotable(self, row: int) -> bool:
        """Not a sentence addressing a language model (``rag.injection``): by its stored role, else checked now.
        Only quotable sentences are evidence, LLM input, or support for what an LLM writes."""
        stored = self.role(row)
        return stored is not Role.INSTRUCTION if stored is not None else not addresses_model(self.texts[row])

    def quotable_rows(self, paper_id: str) -> list[int]:
        """The paper's rows (stored order) that may be quoted, shown to an LLM or support a claim."""
        return [row for row in self.rows_of.get(paper_id, []) if self.quotable(row)]

    @classmethod
    def load(cls, store: IndexStore, kind: str = "sentences", generation: int | None = None) -> SentenceIndex:
        """Read from Chroma (the live generation, or ``generation``): every row, in stored order."""
        import numpy as np

        from rag.store import get_all

        rows = get_all(store.collection(kind, generation), ["embeddings", "documents", "metadatas"])
        paper_ids = [m["paper_id"] for m in rows["metadatas"]]
        vectors = np.asarray(rows["embeddings"], dtype=np.float32).reshape(len(paper_ids), -1)
        return cls.of(vectors, paper_ids, list(rows["documents"]), [m["position"] for m in rows["metadatas"]],
                      [stored_role(m) for m in rows["metadatas"]])


class DenseSentenceRanker:
    """MiniLM over single sentences: a paper scored by its best sentence."""

    name = "sentence"

    def __init__(self, sentences: SentenceIndex, top_k: int) -> None:
        self.sentences = sentences
        self.top_k = top_k

    def rank(self, query: str, vector: np.ndarray) -> Ranking:
        import numpy as np

        scores = self.sentences.vectors @ vector
        top = np.argsort(-scores)[: self.top_k]
        return by_paper((self.sentences.paper_ids[i], float(scores[i])) for i in top)


class MultilingualRanker:
    """multilingual-e5 over each paper's title + first sentence (the question is embedded with e5 too)."""

    name = "multilingual"

    def __init__(self, titles: SentenceIndex, top_k: int) -> None:
        self.titles = titles
        self.top_k = top_k

    def rank(self, query: str, vector: np.ndarray | None = None) -> Ranking:
        from rag.multilingual import embed_query

        scores = self.titles.vectors @ embed_query(query)
        order = scores.argsort()[::-1][: self.top_k]
        return by_paper((self.titles.paper_ids[i], float(scores[i])) for i in order)
