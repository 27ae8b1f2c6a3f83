"""Retrieve stage: three rankings of papers fused by weighted reciprocal rank.

* BM25 over each paper's title and abstract (llama-index ``BM25Retriever`` on bm25s), with whole-token
  forms of names and numbers (``rag.lexical``);
* dense over chunks in Chroma (llama-index ``VectorIndexRetriever``), a paper scored by its best chunk;
* dense over single sentences (vectors stored at ingest, held in memory), a paper scored by its best
  sentence: a specific question often matches one sentence far better than a 200-token chunk.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from rag.lexical import lexical_text
from rag.query import QUESTION_WORDS, keyword_query, topic_query
from rag.settings import Settings
from rag.spelling import Speller
from rag.store import IndexStore, get_all
from rag.types import Hit, Paper

DISTINCTIVE_NAME_PAPERS = 3  # a name found in at most this many papers identifies them


def _bm25_retriever(papers: list[Paper], settings: Settings, top_k: int):
    import bm25s
    import Stemmer
    from llama_index.core.schema import NodeWithScore, TextNode
    from llama_index.core.vector_stores.utils import metadata_dict_to_node, node_to_metadata_dict
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

    # Title twice: a paper's name and topic words weigh more in its title than in passing in an abstract.
    nodes = [TextNode(id_=p.paper_id, text=lexical_text(f"{p.title}. {p.title}. {p.abstract}"),
                      metadata={"paper_id": p.paper_id}) for p in papers]
    stemmer = Stemmer.Stemmer("english")
    # bm25s is built here (not by BM25Retriever) to set k1/b; the SciFact train split chose them.
    bm25 = bm25s.BM25(k1=settings.bm25_k1, b=settings.bm25_b)
    bm25.index(bm25s.tokenize([n.text for n in nodes], stopwords="en", stemmer=stemmer, show_progress=False),
               show_progress=False)
    bm25.corpus = [node_to_metadata_dict(n) | {"node_id": n.node_id} for n in nodes]
    return StringQueryBM25Retriever(existing_bm25=bm25, stemmer=stemmer, similarity_top_k=min(top_k, len(nodes)))


@dataclass
class SentenceIndex:
    """All sentence (or title) vectors of the live generation, in memory (≈1.5 KB a row)."""

    vectors: Any  # float32 matrix, one row a sentence
    paper_ids: list[str]
    texts: list[str]
    positions: list[int]
    rows_of: dict[str, list[int]]

    @classmethod
    def load(cls, store: IndexStore, kind: str = "sentences") -> SentenceIndex:
        import numpy as np

        rows = get_all(store.collection(kind), ["embeddings", "documents", "metadatas"])
        paper_ids = [m["paper_id"] for m in rows["metadatas"]]
        rows_of: dict[str, list[int]] = {}
        for i, paper_id in enumerate(paper_ids):
            rows_of.setdefault(paper_id, []).append(i)
        vectors = np.asarray(rows["embeddings"], dtype=np.float32).reshape(len(paper_ids), -1)
        return cls(vectors, paper_ids, list(rows["documents"]), [m["position"] for m in rows["metadatas"]], rows_of)


@dataclass
class _Ranked:
    rank: int
    score: float


class HybridRetriever:
    def __init__(self, settings: Settings, store: IndexStore) -> None:
        from llama_index.core import VectorStoreIndex
        from llama_index.vector_stores.chroma import ChromaVectorStore

        from rag.embedding import load_embedder

        self.settings = settings
        self.papers: dict[str, Paper] = {pid: s.paper for pid, s in store.stored_papers().items()}
        self.embedder = load_embedder(settings, threads=settings.query_threads)
        index = VectorStoreIndex.from_vector_store(ChromaVectorStore(chroma_collection=store.chunks()),
                                                   embed_model=self.embedder)
        self.dense = index.as_retriever(similarity_top_k=settings.candidates)
        self.bm25 = _bm25_retriever(list(self.papers.values()), settings, settings.candidates)
        self.sentences = SentenceIndex.load(store)
        self.titles = SentenceIndex.load(store, "titles")  # multilingual-e5 vectors, for non-English questions
        # An index from before they read the first sentence holds titles only: no headline scores then.
        self.headlines = any(text != self.papers[pid].display_title
                             for pid, text in zip(self.titles.paper_ids, self.titles.texts) if pid in self.papers)
        self._mentions: dict[str, list[str]] = {}
        self._speller: Speller | None = None
        # Each paper's words without case or punctuation, for exact-name lookups (~1 s for 4,300 papers).
        self._words = {pid: _word_forms(f"{p.title} {p.search_text}") for pid, p in self.papers.items()}
        self.title_names, self.title_heads = _title_names(self.papers.values())

    def embed_query(self, query: str) -> Any:
        import numpy as np
        import torch

        torch.set_num_threads(self.settings.query_threads)  # an ingest in this process may have changed it
        return np.asarray(self.embedder.get_query_embedding(query), dtype=np.float32)

    def embed_texts(self, texts: list[str]) -> Any:
        """Unit vectors of passages (answer sentences to check), with the question-time thread count."""
        import numpy as np
        import torch

        torch.set_num_threads(self.settings.query_threads)
        vectors = np.asarray(self.embedder.get_text_embedding_batch(texts), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)

    def _dense_chunks(self, query: str, vector: Any) -> dict[str, _Ranked]:
        from llama_index.core.schema import QueryBundle

        results = self.dense.retrieve(QueryBundle(query_str=query, embedding=vector.tolist()))
        # ChromaVectorStore reports exp(-distance); the collections use cosine distance.
        return _by_paper((r.node.metadata["paper_id"], 1.0 + math.log(r.score)) for r in results if r.score)

    def _dense_sentences(self, vector: Any) -> dict[str, _Ranked]:
        import numpy as np

        scores = self.sentences.vectors @ vector
        top = np.argsort(-scores)[: self.settings.candidates * 4]
        return _by_paper((self.sentences.paper_ids[i], float(scores[i])) for i in top)

    def _lexical(self, query: str) -> dict[str, _Ranked]:
        return _by_paper((r.node.node_id, float(r.score)) for r in self.bm25.retrieve(keyword_query(query)))

    def _multilingual_titles(self, query: str) -> dict[str, _Ranked]:
        from rag.multilingual import embed_query

        scores = self.titles.vectors @ embed_query(query)
        order = scores.argsort()[::-1][: self.settings.candidates]
        return _by_paper((self.titles.paper_ids[i], float(scores[i])) for i in order)

    def embed_topic(self, query: str) -> Any:
        """The vector the dense rankings and the evidence stage compare with: the question without a frame
        asking for papers ("Which papers …" is not embedded; see ``query.topic_query``)."""
        return self.embed_query(topic_query(query))

    def rankings(self, query: str, vector: Any | None = None) -> dict[str, dict[str, _Ranked]]:
        """``vector``: ``embed_topic(query)``, if the caller has it already."""
        from rag.multilingual import needs_multilingual

        vector = self.embed_topic(query) if vector is None else vector
        views = {"bm25": self._lexical(query), "dense": self._dense_chunks(query, vector),
                 "sentence": self._dense_sentences(vector)}
        if needs_multilingual(query):
            views["titles"] = self._multilingual_titles(query)
        return views

    def search(self, query: str, top_k: int | None = None, vector: Any | None = None,
               only: set[str] | None = None) -> list[Hit]:
        """The best ``top_k`` papers; ``only``: restrict to these paper ids (a chat scoped to picked papers)."""
        top_k = top_k or self.settings.top_k
        views = self.rankings(query, vector)
        weights = {"bm25": self.settings.weight_bm25, "dense": self.settings.weight_dense,
                   "sentence": self.settings.weight_sentence, "titles": self.settings.weight_multilingual}
        if "titles" in views:  # MiniLM reads no Chinese: its rankings count for little next to e5's
            weights["dense"] *= 0.5
            weights["sentence"] *= 0.5
        # Weighted reciprocal-rank fusion over papers (Cormack et al. 2009, with per-ranking weights).
        # Written here rather than with QueryFusionRetriever: that fuses chunks with equal weights and
        # overwrites the scores the evidence stage needs.
        fused: dict[str, float] = {}
        for name, view in views.items():
            for paper_id, seen in view.items():
                fused[paper_id] = fused.get(paper_id, 0.0) + weights[name] / (self.settings.rrf_k + seen.rank + 1)
        # Exact-name matching: papers containing a name the question asks about ("TRIM-KV", "D2F") come
        # first, more names before fewer. A small embedding model blurs such tokens; the user does not.
        for name in self.distinctive_names(query):
            for paper_id in self.papers_mentioning(name):
                fused[paper_id] = fused.get(paper_id, 0.0) + 1.0
        for paper_id in self.named_in_title(query):
            fused[paper_id] = fused.get(paper_id, 0.0) + 1.0
        if only is not None:
            fused = {pid: fused.get(pid, 0.0) for pid in only if pid in self.papers}
        order = sorted(fused, key=lambda pid: fused[pid], reverse=True)[:top_k]
        return [Hit(paper=self.papers[pid], score=fused[pid],
                    dense_score=_score(views["dense"], pid), bm25_score=_score(views["bm25"], pid),
                    sentence_score=_score(views["sentence"], pid),
                    headline_score=_score(views["titles"], pid) if "titles" in views and self.headlines else None)
                for pid in order if pid in self.papers]


    def search_comparison(self, question: str, parts: list[str], top_k: int, vector: Any | None = None) -> list[Hit]:
        """Each compared piece's best paper first, in the question's order (so every named paper reaches the
        answer), then the rest.

        A piece is searched together with what the question asks about every piece: alone, "GtR" found the
        GTR-Bench paper before the GtR sampler of "ARPG vs GtR: how does each accelerate … generation?". That
        context can also pull a piece to another piece's paper ("Best-of-N vs OR-PRM: … process reward
        model …" to OR-PRM, which mentions Best-of-N), so the pieces whose names the fewest papers contain
        pick first, and unnamed pieces last."""
        from rag.question import comparison_context

        context = comparison_context(question)
        named = [self.distinctive_names(part) for part in parts]

        def ambiguity(i: int) -> int:
            counts = [len(self.papers_mentioning(name)) for name in named[i]]
            return min(counts) if counts else len(self.papers)

        winners: dict[int, Hit] = {}
        taken: set[str] = set()
        for i in sorted(range(len(parts)), key=ambiguity):  # stable: ties keep the question's order
            if named[i] and all(set(self.papers_mentioning(name)) <= taken for name in named[i]):
                continue  # what this piece names is in a paper already compared (the baseline it discusses)
            for hit in self.search(f"{parts[i]} {context}".strip(), 3):
                if hit.paper.paper_id not in taken:
                    hit.part = parts[i]
                    winners[i] = hit
                    taken.add(hit.paper.paper_id)
                    break
        ordered = [winners[i] for i in sorted(winners)]
        rest = [h for h in self.search(question, top_k + len(ordered), vector) if h.paper.paper_id not in taken]
        return (ordered + rest)[: max(top_k, len(ordered))]

    def papers_mentioning(self, name: str) -> list[str]:
        """Ids of the indexed papers that contain the name as whole words, ignoring case and hyphens
        ("TRIM-KV" finds "trim-KV" and "TRIMKV"; "D2F" does not find "… and 2 f…") (cached)."""
        if name not in self._mentions:
            keys = set(_word_forms(name).split("\n"))  # each padded with spaces: whole words only
            self._mentions[name] = [pid for pid, text in self._words.items() if any(k in text for k in keys)]
        return self._mentions[name]

    def named_in_title(self, query: str) -> set[str]:
        """Papers whose short title name ("Tactic: …", "Visual Jigsaw …:") the question uses as a name."""
        words = re.findall(r"[\w\-]+", query)
        found: set[str] = set()
        for size in range(1, _TITLE_NAME_WORDS + 1):
            for start in range(len(words) - size + 1):
                phrase = words[start:start + size]
                key = _squash(" ".join(phrase))
                # A common word ("tactic") counts only when written as a name (capitalised).
                if key in self.title_names and (phrase[0][:1].isupper() or not key.isalpha()):
                    found.update(self.title_names[key])
                # A title with no colon ("Visual Jigsaw Post-Training Improves MLLMs") does not say where its
                # name ends: its first words count when the question writes them all capitalised, not
                # after a question word ("Do Large …"), and hardly any abstract uses them (not "Large Language").
                elif (size >= 2 and key in self.title_heads and all(w[:1].isupper() for w in phrase)
                      and phrase[0].lower() not in QUESTION_WORDS
                      and self.is_distinctive(" ".join(phrase))):
                    found.update(self.title_heads[key])
        return found

    def is_distinctive(self, name: str) -> bool:
        """Only a handful of papers contain the name ("TRIM-KV", not "ImageNet")."""
        return 0 < len(self.papers_mentioning(name)) <= DISTINCTIVE_NAME_PAPERS

    def distinctive_names(self, query: str) -> list[str]:
        """Names in the question that only a handful of papers contain."""
        from rag.question import names_in

        return [n for n in names_in(query) if self.is_distinctive(n)]

    def _tokens(self, text: str) -> list[str]:
        import bm25s

        return bm25s.tokenize(lexical_text(text), stopwords="en", stemmer=self.bm25.stemmer,
                              return_ids=False, show_progress=False)[0]

    def missing_names(self, names: list[str]) -> list[str]:
        """The names (``HyperQuokka``) that no indexed paper mentions, as a whole token or part by part."""
        vocabulary = self.bm25.bm25.vocab_dict
        missing = []
        for name in names:
            tokens = self._tokens(name)
            whole, parts = tokens[-1:], tokens[:-1] if len(tokens) > 1 else tokens
            if tokens and not all(t in vocabulary for t in whole) and not all(t in vocabulary for t in parts):
                missing.append(name)
        return missing

    def spelling_fixes(self, words: list[str]) -> dict[str, str]:
        """The typos among ``unknown_words`` and the corpus word each was meant as (``rag.spelling``)."""
        if not words:
            return {}
        if self._speller is None:  # built on the first unknown word, not at load: most questions have none
            self._speller = Speller.from_texts(self._words.values())
        return {word: fix for word in words if (fix := self._speller.correction(word))}

    def unknown_words(self, query: str) -> list[str]:
        """The question's topic words (``monsoon``) that no indexed paper contains, even stemmed."""
        from rag.query import content_words

        vocabulary = self.bm25.bm25.vocab_dict
        return sorted(w for w in content_words(query)
                      if w.isalpha() and (tokens := self._tokens(w)) and not any(t in vocabulary for t in tokens))


_TITLE_NAME_WORDS = 4


def _squash(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _word_forms(text: str) -> str:
    """The text's lower-case words space-separated, twice: as written, and with hyphenated words joined."""
    lower = text.lower()
    joined = re.sub(r"(?<=[0-9a-z])[-‐–](?=[0-9a-z])", "", lower)
    return "\n".join(" " + " ".join(re.findall(r"[0-9a-z]+", form)) + " " for form in (lower, joined))


def _title_names(papers: Any) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Short names that titles give their method before a colon ("SIGMark: Scalable …" → sigmark), and the
    first 2–4 words of titles without a colon, any of which may be the name."""
    names: dict[str, list[str]] = {}
    heads: dict[str, list[str]] = {}
    for paper in papers:
        head, colon, _ = paper.display_title.partition(":")
        if colon and 0 < len(head.split()) <= _TITLE_NAME_WORDS and len(_squash(head)) >= 2:
            names.setdefault(_squash(head), []).append(paper.paper_id)
        elif not colon:
            words = head.split()
            for size in range(2, min(_TITLE_NAME_WORDS, len(words)) + 1):
                heads.setdefault(_squash(" ".join(words[:size])), []).append(paper.paper_id)
    return names, heads


def _by_paper(scored: Any) -> dict[str, _Ranked]:
    """Best score per paper, papers ranked by it."""
    best: dict[str, float] = {}
    for paper_id, score in scored:
        if score > best.get(paper_id, -math.inf):
            best[paper_id] = score
    order = sorted(best, key=lambda pid: best[pid], reverse=True)
    return {pid: _Ranked(rank, best[pid]) for rank, pid in enumerate(order)}


def _score(view: dict[str, _Ranked], paper_id: str) -> float | None:
    return view[paper_id].score if paper_id in view else None
