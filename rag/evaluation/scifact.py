"""``rag bench scifact``: the project's retriever on BEIR SciFact, as an ablation beside published figures.

The corpus is ingested with the normal pipeline into its own index (kept, so re-runs embed nothing).
Every ranking is computed once per query; fusion variants are then recombined offline, so the
ablation and the weight search are cheap. Tuning sees ``qrels/train.tsv`` only; ``test.tsv`` is
reported for the configuration train chose.
"""

from __future__ import annotations

import csv
import itertools
import json
import statistics
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.settings import Settings

if TYPE_CHECKING:
    from rag.retrieval.rankers import Ranking

DEPTH = 100  # recall@100 needs at least this many papers per ranking
RRF_KS = (10, 30, 60)
WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0)
BM25_PARAMS = ((1.5, 0.75), (1.2, 0.75), (0.9, 0.4), (1.2, 0.4), (0.9, 0.75))


def load_qrels(path: Path) -> dict[str, set[str]]:
    qrels: dict[str, set[str]] = {}
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if int(row["score"]) > 0:
                qrels.setdefault(row["query-id"], set()).add(row["corpus-id"])
    return qrels


def load_queries(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as handle:
        return {q["_id"]: q["text"] for q in map(json.loads, handle)}


def ndcg_recall(ranked: dict[str, list[str]], qrels: dict[str, set[str]]) -> tuple[float, float]:
    """Mean nDCG@10 and recall@100 (llama-index metrics; binary relevance, ≤ 5 relevant per query)."""
    from llama_index.core.evaluation.retrieval.metrics import NDCG, Recall

    ndcg, recall = NDCG(), Recall()
    n = [ndcg.compute(expected_ids=list(qrels[q]), retrieved_ids=ranked[q][:10] or [""]).score for q in qrels]
    r = [recall.compute(expected_ids=list(qrels[q]), retrieved_ids=ranked[q][:100] or [""]).score for q in qrels]
    return statistics.fmean(n), statistics.fmean(r)


def fuse(views: dict[str, Ranking], weights: dict[str, float], rrf_k: int) -> list[str]:
    """The pipeline's fusion (``retrieval.fusion``), to the depth recall@100 reads."""
    from rag.retrieval.fusion import best_first, weighted_rrf

    return best_first(weighted_rrf(views, weights, rrf_k), DEPTH)


def _ranked_only(view: dict[str, Any]) -> list[str]:
    return sorted(view, key=lambda pid: view[pid].rank)[:DEPTH]


def bench_scifact(settings: Settings, data: Path, work: Path, out: Path | None = None) -> dict[str, Any]:
    import numpy as np

    from rag.index import ingest
    from rag.retrieval import HybridRetriever
    from rag.retrieval.rankers import BM25Ranker
    from rag.store import IndexStore
    from rag.tokens import topic_query

    bench_settings = settings.with_overrides(index_dir=work, candidates=DEPTH)
    report = ingest(bench_settings, [data / "corpus.jsonl.gz"], progress=True)
    print(f"SciFact index at {work}: {report.summary()}")
    retriever = HybridRetriever(bench_settings, IndexStore(bench_settings))
    queries = load_queries(data / "queries.jsonl")
    splits = {name: load_qrels(data / "qrels" / f"{name}.tsv") for name in ("train", "test")}
    wanted = sorted(set(splits["train"]) | set(splits["test"]))
    texts = [topic_query(queries[q]) for q in wanted]  # what ``rankings`` expects its vector to embed
    vectors = retriever.encoder.embed_queries(texts)
    views = {q: retriever.rankings(queries[q], np.asarray(v, dtype=np.float32)) for q, v in zip(wanted, vectors)}

    # BM25 k1/b: chosen on train.
    papers = list(retriever.papers.values())
    bm25_scores: dict[tuple[float, float], dict[str, float]] = {}
    for k1, b in BM25_PARAMS:
        bm25 = BM25Ranker(papers, bench_settings.with_overrides(bm25_k1=k1, bm25_b=b).retrieval, DEPTH)
        bm25_views = {q: bm25.rank(queries[q]) for q in wanted}
        scores = {split: ndcg_recall({q: _ranked_only(bm25_views[q]) for q in qrels}, qrels)[0]
                  for split, qrels in splits.items()}
        bm25_scores[(k1, b)] = scores
        if (k1, b) == max(bm25_scores, key=lambda key: bm25_scores[key]["train"]):
            for q in wanted:
                views[q]["bm25"] = bm25_views[q]
    best_bm25 = max(bm25_scores, key=lambda key: bm25_scores[key]["train"])

    def evaluate(make_ranking) -> dict[str, tuple[float, float]]:
        return {split: ndcg_recall({q: make_ranking(views[q]) for q in qrels}, qrels) for split, qrels in splits.items()}

    rows: list[tuple[str, dict[str, tuple[float, float]]]] = [
        (f"BM25 (title+abstract, k1={best_bm25[0]}, b={best_bm25[1]})", evaluate(lambda v: _ranked_only(v["bm25"]))),
        ("dense: MiniLM over chunks", evaluate(lambda v: _ranked_only(v["dense"]))),
        ("dense: MiniLM over sentences", evaluate(lambda v: _ranked_only(v["sentence"]))),
        ("hybrid: RRF(BM25, dense chunks), k=60", evaluate(lambda v: fuse(v, {"bm25": 1, "dense": 1}, 60))),
        ("+ sentence ranking, RRF k=60", evaluate(lambda v: fuse(v, {"bm25": 1, "dense": 1, "sentence": 1}, 60))),
    ]
    grid = []
    for wb, wd, ws, rrf_k in itertools.product(WEIGHTS, WEIGHTS, WEIGHTS, RRF_KS):
        if wb + wd + ws == 0:
            continue
        weights = {"bm25": wb, "dense": wd, "sentence": ws}
        train = ndcg_recall({q: fuse(views[q], weights, rrf_k) for q in splits["train"]}, splits["train"])[0]
        grid.append((train, weights, rrf_k))
    _, best_weights, best_k = max(grid, key=lambda g: g[0])
    rows.append((f"+ weights tuned on train {best_weights}, RRF k={best_k}",
                 evaluate(lambda v: fuse(v, best_weights, best_k))))
    result = _report(rows, data.parent / "reference_ndcg10.csv", best_weights, best_k, best_bm25, bm25_scores)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench_scifact.json").write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {out / 'bench_scifact.json'}")
    return result


def _report(rows, reference_csv: Path, weights, rrf_k, bm25, bm25_scores) -> dict[str, Any]:
    print("| system | nDCG@10 test | recall@100 test | nDCG@10 train |")
    print("|---|---|---|---|")
    for name, scores in rows:
        print(f"| {name} | {scores['test'][0]:.4f} | {scores['test'][1]:.4f} | {scores['train'][0]:.4f} |")
    if reference_csv.exists():
        print("\nPublished (reference_ndcg10.csv):\n\n| system | nDCG@10 test |\n|---|---|")
        with reference_csv.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if row["dataset"] == "SciFact":
                    print(f"| {row['system']} | {float(row['ndcg_at_10']):.4f} |")
    print("\nBM25 k1/b on train (nDCG@10):", {f"{k}": round(v["train"], 4) for k, v in bm25_scores.items()})
    return {"rows": [{"system": name, "ndcg10_test": s["test"][0], "recall100_test": s["test"][1],
                      "ndcg10_train": s["train"][0]} for name, s in rows],
            "tuned": {"weights": weights, "rrf_k": rrf_k, "bm25_k1": bm25[0], "bm25_b": bm25[1]}}
