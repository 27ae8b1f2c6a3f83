"""Benchmarks: each prints a table with its baseline measured in the same run and writes JSON beside it.

* ``ingest``: full ingest of PATHs into a fresh index vs. a bare ``SentenceTransformer.encode()`` of
  the very same chunk texts (the floor: pure embedding), then a re-ingest of the unchanged input.
* ``ask``: question latency, cold (a new ``rag ask`` process, beside a bare ``import sentence_transformers``) and
  warm (one process, many questions).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rag.errors import RagError
from rag.evaluation.metrics import percentile
from rag.settings import Settings

DEFAULT_QUESTIONS = (
    "What is TRIM-KV?",
    "What is SIGMark and what problem does it solve?",
    "How does Tactic choose which tokens to attend to?",
    "Which papers speed up autoregressive image generation?",
    "What FID does ARPG reach on ImageNet?",
    "How can the reward model in RL fine-tuning be made more reliable?",
    "Which benchmark evaluates research agents on replicating papers?",
    "What is the capital of France?",
)


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _write(result: dict[str, Any], out: Path | None, name: str) -> None:
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {out / (name + '.json')}")


def bench_ingest(settings: Settings, paths: list[Path], out: Path | None = None,
                 keep_index: Path | None = None) -> dict[str, Any]:
    """``keep_index``: build into this new folder and keep it (default: a temp folder, deleted)."""
    from llama_index.core.schema import MetadataMode
    from sentence_transformers import SentenceTransformer

    from rag.clean import search_text
    from rag.corpus import load_corpus
    from rag.sentences import split_sentences
    from rag.embedding import load_embedder, model_path
    from rag.index import chunk_papers, ingest

    load_embedder(settings)  # model load is not what either side measures
    started = time.perf_counter()
    papers = load_corpus(paths).papers
    nodes = chunk_papers(papers, settings)
    # The same texts ingest embeds: every chunk (with its title) and every sentence.
    texts = [n.get_content(metadata_mode=MetadataMode.EMBED) for n in nodes]
    texts += [search_text(s) for p in papers for s in split_sentences(p.text)]
    prepare_s = time.perf_counter() - started

    model = SentenceTransformer(str(model_path(settings.index.embed_model)), device="cpu")
    started = time.perf_counter()
    model.encode(texts, batch_size=settings.index.embed_batch_size, normalize_embeddings=True)
    encode_s = time.perf_counter() - started

    if keep_index is not None and keep_index.exists() and any(keep_index.iterdir()):
        raise RagError(f"{keep_index} is not empty; bench ingest builds a fresh index (name a new folder)")
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as tmp:
        fresh = settings.with_overrides(index_dir=keep_index or Path(tmp))
        first = ingest(fresh, paths, progress=False)
        again = ingest(fresh, paths, progress=False)
    result = {
        "papers": len(papers), "chunks": len(nodes), "texts_embedded": len(texts), "parse_and_chunk_s": prepare_s,
        "bare_encode_s": encode_s, "ingest_s": first.seconds, "reingest_unchanged_s": again.seconds,
        "ingest_over_encode": first.seconds / encode_s if encode_s else None,
        "reingest_embedded_papers": again.embedded_papers,
    }
    print(_table([
        ("step", "seconds", "ratio to bare encode"),
        ("bare SentenceTransformer.encode (baseline)", f"{encode_s:.1f}", "1.00"),
        ("rag ingest, fresh index", f"{first.seconds:.1f}", f"{result['ingest_over_encode']:.2f}"),
        ("rag ingest again, unchanged", f"{again.seconds:.2f}", f"{again.seconds / encode_s:.3f}"),
    ]))
    print(f"{len(papers)} papers, {len(nodes)} chunks + {len(texts) - len(nodes)} sentences embedded; "
          f"re-ingest embedded {again.embedded_papers} papers")
    _write(result, out, "bench_ingest")
    return result


def _seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def bench_ask(settings: Settings, questions: list[str], cold_runs: int = 3,
              out: Path | None = None) -> dict[str, Any]:
    """Cold: a new ``rag ask --json --backend extractive`` process per question, each run next to a bare
    ``python -c "import sentence_transformers"`` (the baseline: what importing the embedding stack alone
    costs on this machine right now), p50 of ``cold_runs`` each, and their ratio. Warm: one process, many
    questions. All extractive: the LLM backends are measured by ``bench backends``."""
    from rag.engine import Engine

    engine = Engine(settings)
    engine.ensure_index(progress=False)  # the cold runs must not build it
    baseline, cold = [], []
    for question in (questions * cold_runs)[:cold_runs]:  # interleaved: both see the same machine load
        baseline.append(_seconds([sys.executable, "-c", "import sentence_transformers"]))
        cold.append(_seconds([sys.executable, "-m", "rag.cli", "ask", "--json", "--backend", "extractive",
                              "--index", str(settings.index.index_dir), question]))

    started = time.perf_counter()
    engine.ask(questions[0], backend="extractive")  # first question loads models and BM25: reported, then excluded
    first_ms = (time.perf_counter() - started) * 1000
    retrieve, total = [], []
    for question in questions[1:]:
        answer = engine.ask(question, backend="extractive")
        retrieve.append(answer.timings_ms["retrieve"])
        total.append(answer.timings_ms["total"])
    base_s, cold_s = statistics.median(baseline), statistics.median(cold)
    result = {
        "questions": len(questions), "baseline_import_s": baseline, "cold_process_s": cold,
        "baseline_import_p50_s": base_s, "cold_process_p50_s": cold_s, "cold_over_baseline": cold_s / base_s,
        "query_encoder": getattr(engine.retriever.encoder, "kind", "torch"),  # a tree from before it: torch
        "saved_generation_files": _has_generation_files(engine),
        "first_in_process_ms": first_ms,
        "warm_retrieve_p50_ms": statistics.median(retrieve), "warm_retrieve_p95_ms": percentile(retrieve, 95),
        "warm_total_p50_ms": statistics.median(total), "warm_total_p95_ms": percentile(total, 95),
    }
    print(_table([
        ("measure (extractive)", "p50", "max", "ratio to baseline"),
        ("bare `python -c \"import sentence_transformers\"` (baseline)", f"{base_s:.2f} s", f"{max(baseline):.2f} s",
         "1.00"),
        ("cold: new `rag ask --json --backend extractive` process", f"{cold_s:.2f} s", f"{max(cold):.2f} s",
         f"{result['cold_over_baseline']:.2f}"),
        ("first question in a process", f"{first_ms:.0f} ms", "", ""),
        ("warm: retrieval", f"{result['warm_retrieve_p50_ms']:.0f} ms", f"{max(retrieve):.0f} ms", ""),
        ("warm: total (retrieve + evidence + answer)", f"{result['warm_total_p50_ms']:.0f} ms", f"{max(total):.0f} ms",
         ""),
    ]))
    print(f"{cold_runs} cold runs, each beside one baseline run; question encoder: {result['query_encoder']}; "
          f"saved generation files: {'yes' if result['saved_generation_files'] else 'no'}")
    _write(result, out, "bench_ask")
    return result


def _has_generation_files(engine: Any) -> bool:
    try:
        from rag.persisted import GenerationFiles
    except ImportError:  # a tree from before them
        return False
    files = GenerationFiles.open(engine.store)
    return files is not None and files.bm25_current(engine.settings.retrieval)


def bench_questions(engine: Any, path: Path, k: int = 5, out: Path | None = None) -> dict[str, Any]:
    """The question set three ways in one run: plain BM25, plain dense, and the full pipeline."""
    from rag.evaluation.evalset import load_items, resolve_expectations
    from rag.followup import standalone_query
    from rag.evaluation.metrics import ItemResult, aggregate, score_item

    items = load_items(path)
    resolve_expectations(items, engine.papers(), path)
    engine.ensure_index(progress=False)
    engine.warm("extractive")  # load models and indexes outside the timings
    retriever = engine.retriever
    systems: dict[str, list[ItemResult]] = {"plain BM25": [], "plain dense (MiniLM chunks)": [], "pipeline": []}
    for item in items:
        query = standalone_query(item.question, item.history)
        for name, channel in (("plain BM25", "bm25"), ("plain dense (MiniLM chunks)", "dense")):
            started = time.perf_counter()
            vector = retriever.encoder.embed_query(query) if channel == "dense" else None
            ranker = retriever.dense if channel == "dense" else retriever.bm25
            view = ranker.rank(query, vector)
            elapsed = (time.perf_counter() - started) * 1000
            ranked = sorted(view, key=lambda pid: view[pid].rank)[:10]
            systems[name].append(ItemResult(item, ranked, [], False, "", elapsed))
        # Retrieval as `rag eval --retrieval-only` ranks it: no LLM rewrite of follow-ups, so deterministic.
        answer = engine.ask(item.question, history=item.history, top_k=k, rank_depth=10, backend="extractive")
        systems["pipeline"].append(ItemResult(item, answer.ranked_paper_ids, [], answer.refused, "",
                                              answer.timings_ms["retrieve"]))
    summaries = {}
    for name, results in systems.items():
        for result in results:
            result.scores = score_item(result, k, answered=False)
        summaries[name] = aggregate(results)
        chinese = [r for r in results if r.item.category == "chinese"]
        summaries[name]["chinese_hit@5"] = aggregate(chinese).get(f"hit@{k}", 0.0) if chinese else 0.0
    columns = ["hit@1", f"hit@{k}", "mrr", f"recall@{k}", "ooc_refused", "false_refusal", "chinese_hit@5"]
    rows = [("system", *columns, "retrieval p50 / p95 ms")]
    for name, summary in summaries.items():
        refusals = name == "pipeline"
        cells = [f"{summary.get(c, 0.0):.3f}" if refusals or c not in ("ooc_refused", "false_refusal") else "—"
                 for c in columns]
        rows.append((name, *cells, f"{summary['latency_p50_ms']:.0f} / {summary['latency_p95_ms']:.0f}"))
    print(_table(rows))
    print(f"{len(items)} questions; recall@{k} over multi-paper items; ooc_refused over out-of-corpus items; "
          "baselines never refuse")
    _write(summaries, out, "bench_questions")
    return summaries
