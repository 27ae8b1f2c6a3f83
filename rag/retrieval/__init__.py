"""Retrieve stage: rankers, their fusion, name lookups and comparison search (see ``hybrid``)."""

from rag.retrieval.hybrid import HybridRetriever
from rag.retrieval.rankers import SentenceIndex

__all__ = ["HybridRetriever", "SentenceIndex"]
