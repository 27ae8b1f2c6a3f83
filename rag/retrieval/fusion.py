"""One fusion for every ranking: weighted reciprocal-rank fusion over papers (Cormack et al. 2009, with
per-ranking weights). Used by the pipeline and by ``rag bench scifact``.

Written here rather than with llama-index's ``QueryFusionRetriever``: that fuses chunks with equal weights
and overwrites the per-ranking scores the evidence stage needs.
"""

from __future__ import annotations

from collections.abc import Mapping

from rag.retrieval.rankers import Ranking


def weighted_rrf(views: Mapping[str, Ranking], weights: Mapping[str, float], rrf_k: int) -> dict[str, float]:
    """Each paper's fused score: the sum over rankings of ``weight / (rrf_k + rank + 1)`` (rank 0 is best).
    A ranking without a weight, or with weight 0, does not count."""
    fused: dict[str, float] = {}
    for name, view in views.items():
        weight = weights.get(name, 0.0)
        if weight:
            for paper_id, seen in view.items():
                fused[paper_id] = fused.get(paper_id, 0.0) + weight / (rrf_k + seen.rank + 1)
    return fused


def best_first(scores: Mapping[str, float], top_k: int) -> list[str]:
    return sorted(scores, key=lambda pid: scores[pid], reverse=True)[:top_k]
