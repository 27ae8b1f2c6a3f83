"""Comparison search: one paper per compared piece of the question ("ARPG vs GtR"), then the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rag.retrieval.hybrid import HybridRetriever
from rag.types import Hit

if TYPE_CHECKING:
    import numpy as np


def search_comparison(retriever: HybridRetriever, question: str, parts: list[str], top_k: int,
                      vector: np.ndarray | None = None) -> list[Hit]:
    """Each compared piece's best paper first, in the question's order (so every named paper reaches the
    answer), then the rest.

    A piece is searched together with what the question asks about every piece: alone, "GtR" found the
    GTR-Bench paper before the GtR sampler of "ARPG vs GtR: how does each accelerate … generation?". That
    context can also pull a piece to another piece's paper ("Best-of-N vs OR-PRM: … process reward
    model …" to OR-PRM, which mentions Best-of-N), so the pieces whose names the fewest papers contain
    pick first, and unnamed pieces last."""
    from rag.question import comparison_context

    names = retriever.names
    context = comparison_context(question)
    named = [names.distinctive_names(part) for part in parts]

    def ambiguity(i: int) -> int:
        counts = [len(names.papers_mentioning(name)) for name in named[i]]
        return min(counts) if counts else len(retriever.papers)

    winners: dict[int, Hit] = {}
    taken: set[str] = set()
    for i in sorted(range(len(parts)), key=ambiguity):  # stable: ties keep the question's order
        if named[i] and all(set(names.papers_mentioning(name)) <= taken for name in named[i]):
            continue  # what this piece names is in a paper already compared (the baseline it discusses)
        query = f"{parts[i]} {context}".strip()
        # ("… compare with the DPT scaling paper …": the one paper defining that short acronym, which ``names_in``
        # leaves out, before the papers its other words find)
        own = {pid for name in names.own_acronyms(parts[i]) for pid in names.papers_mentioning(name)} - taken
        for hit in [*(retriever.search(query, 1, only=own) if own else []), *retriever.search(query, 3)]:
            if hit.paper.paper_id not in taken:
                hit.part = parts[i]
                winners[i] = hit
                taken.add(hit.paper.paper_id)
                break
    ordered = [winners[i] for i in sorted(winners)]
    rest = [h for h in retriever.search(question, top_k + len(ordered), vector) if h.paper.paper_id not in taken]
    return (ordered + rest)[: max(top_k, len(ordered))]


def hits_for(retriever: HybridRetriever, paper_ids: list[str]) -> list[Hit]:
    """Exactly these papers, to compare (the Papers tab's "Compare")."""
    from rag.errors import RagError

    missing = [pid for pid in paper_ids if pid not in retriever.papers]
    if missing:
        raise RagError(f"unknown paper id(s) to compare: {', '.join(missing)}; see `rag papers`")
    return [Hit(retriever.papers[pid], 1.0, part=retriever.papers[pid].title) for pid in paper_ids]
