"""Evaluation metrics per item and in aggregate. Ranking metrics come from llama-index's evaluation module."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from rag.evaluation.evalset import EvalItem


def _ranking_metrics():
    from llama_index.core.evaluation.retrieval.metrics import MRR, NDCG, HitRate, Recall

    return HitRate(), MRR(), Recall(), NDCG()


@dataclass
class ItemResult:
    """One question's outcome; ``to_json`` is the results.json record outside scripts recompute from."""

    item: EvalItem
    ranked_paper_ids: list[str]
    cited_paper_ids: list[str]
    refused: bool
    answer: str
    latency_ms: float
    first_token_ms: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # the answer's near-miss qualifiers (Answer.missing)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.item.id, "question": self.item.question, "category": self.item.category,
            "expected_paper_ids": self.item.expected_ids,
            "relevant_paper_ids": self.item.relevant_ids or self.item.expected_ids,
            "expect_refusal": self.item.expect_refusal,
            "ranked_paper_ids": self.ranked_paper_ids, "cited_paper_ids": self.cited_paper_ids,
            "refused": self.refused, "answer": self.answer, "latency_ms": round(self.latency_ms, 1),
            "first_token_ms": round(self.first_token_ms, 1), "missing": self.missing,
            "scores": self.scores,
        }


def score_item(result: ItemResult, k: int, answered: bool) -> dict[str, float]:
    """The metrics that apply to this item (others are absent, not zero)."""
    hit, mrr, recall, _ = _ranking_metrics()
    item, ranked = result.item, result.ranked_paper_ids
    expected = item.relevant_ids or item.expected_ids
    # Recall is capped at min(k, #relevant) (BEIR's R_cap@k): a broad list question may have more
    # relevant papers in a large corpus than fit in the top k.
    cap = min(k, len(expected))
    scores: dict[str, float] = {"refusal_correct": float(result.refused == item.expect_refusal)}
    if item.expect_refusal:
        scores["ooc_refused"] = float(result.refused)  # out-of-corpus questions refused
    else:
        scores["false_refusal"] = float(result.refused)  # answerable questions refused
    if expected and not item.expect_refusal:
        scores["hit@1"] = hit.compute(expected_ids=expected, retrieved_ids=ranked[:1] or [""]).score
        scores[f"hit@{k}"] = hit.compute(expected_ids=expected, retrieved_ids=ranked[:k] or [""]).score
        scores["mrr"] = mrr.compute(expected_ids=expected, retrieved_ids=ranked or [""]).score
        if len(expected) > 1:
            found = recall.compute(expected_ids=expected, retrieved_ids=ranked[:k] or [""]).score
            scores[f"recall@{k}"] = found * len(expected) / cap
        if answered and not result.refused:
            cited = set(result.cited_paper_ids)
            scores["citation_recall"] = min(1.0, len(cited & set(expected)) / cap)
            if cited:
                scores["citation_precision"] = len(cited & set(expected)) / len(cited)
    if answered and item.expect_answer_contains:
        text = result.answer.lower()
        scores["answer_contains"] = float(all(s.lower() in text for s in item.expect_answer_contains))
    if answered:
        scores.update(near_miss_scores(item.expect_missing, item.expect_refusal, result.refused, result.missing))
    return scores


def near_miss_scores(expected: list[str] | None, expect_refusal: bool, refused: bool,
                     missing: list[str]) -> dict[str, float]:
    """``near_miss_said``: a near-miss question whose answer says first that one of its qualifiers is missing (a
    plain refusal does not say it; "No: no indexed abstract mentions …" to "Is there a paper on …?" does);
    ``near_miss_false``: any other answered question whose answer says something is."""
    said = " ".join(missing).lower()
    if expected:
        return {"near_miss_said": float(any(w.lower() in said for w in expected))}
    if expect_refusal or refused:
        return {}
    return {"near_miss_false": float(bool(missing))}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def aggregate(results: list[ItemResult]) -> dict[str, float]:
    """Mean of each metric over the items it applies to, plus latency percentiles."""
    names: list[str] = []
    for result in results:
        names += [n for n in result.scores if n not in names]
    summary: dict[str, float] = {"items": float(len(results))}
    for name in names:
        values = [r.scores[name] for r in results if name in r.scores]
        summary[name] = statistics.fmean(values)
        summary[f"{name}.n"] = float(len(values))
    latencies = [r.latency_ms for r in results]
    summary["latency_p50_ms"] = statistics.median(latencies) if latencies else 0.0
    summary["latency_p95_ms"] = percentile(latencies, 95)
    first = [r.first_token_ms for r in results if r.first_token_ms]
    if first:
        summary["first_token_p50_ms"] = statistics.median(first)
        summary["first_token_p95_ms"] = percentile(first, 95)
    return summary


def by_category(results: list[ItemResult]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[ItemResult]] = {}
    for result in results:
        groups.setdefault(result.item.category or "-", []).append(result)
    return {name: aggregate(group) for name, group in sorted(groups.items())}
