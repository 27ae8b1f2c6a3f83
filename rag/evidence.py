"""Evidence stage: the sentences of each retrieved paper ranked by how well they answer the question.

A sentence's score mixes embedding similarity (meaning) with the share of the question's content
words it contains (names, numbers and acronyms such as ``TRIM-KV`` or ``5.14x`` that a small
embedding model blurs).
"""

from __future__ import annotations

from collections import OrderedDict

from rag.clean import search_text
from rag.query import content_words
from rag.sentences import split_sentences
from rag.types import Evidence, EvidenceSentence, Hit, Paper

# Weight of word overlap against cosine similarity in a sentence's score.
LEXICAL_WEIGHT = 0.25


class EvidenceFinder:
    """Scores sentences with the shared embedding model; caches sentence vectors per paper."""

    def __init__(self, embedder, cache_size: int = 512) -> None:
        self.embedder = embedder
        self._cache: OrderedDict[str, tuple[list[str], list[list[float]]]] = OrderedDict()
        self._cache_size = cache_size

    def _sentences(self, paper: Paper) -> tuple[list[str], list[list[float]]]:
        key = paper.embed_hash
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        sentences = split_sentences(paper.text)
        vectors = self.embedder.get_text_embedding_batch([search_text(s) for s in sentences])
        self._cache[key] = (sentences, vectors)
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return sentences, vectors

    def gather(self, question: str, hits: list[Hit]) -> list[Evidence]:
        import numpy as np

        query = np.asarray(self.embedder.get_query_embedding(question), dtype=np.float32)
        wanted = content_words(question)
        evidence = []
        for hit in hits:
            sentences, vectors = self._sentences(hit.paper)
            cosines = np.asarray(vectors, dtype=np.float32) @ query if vectors else np.zeros(0)
            scored = []
            for position, (sentence, cosine) in enumerate(zip(sentences, cosines)):
                overlap = len(wanted & content_words(sentence)) / len(wanted) if wanted else 0.0
                score = (1 - LEXICAL_WEIGHT) * float(cosine) + LEXICAL_WEIGHT * overlap
                scored.append(EvidenceSentence(sentence, score, position))
            scored.sort(key=lambda s: s.score, reverse=True)
            evidence.append(Evidence(hit=hit, sentences=scored))
        return evidence
