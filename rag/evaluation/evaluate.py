"""``rag eval``: run scripted questions (and scripted dialogues, ``dialogue_eval.py``) through the engine, score
them, write report.md / plot.png / results.json."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.evaluation.dialogue_eval import TurnResult, dialogue_report, run_dialogues, summarise
from rag.evaluation.dialogues import resolve_dialogues, select_dialogues
from rag.evaluation.evalset import EvalItem, load_file, load_items, resolve_expectations
from rag.evaluation.metrics import ItemResult, aggregate, by_category, score_item

if TYPE_CHECKING:
    from rag.engine import Engine

# Ranking depth recorded per item, so outside scripts can compute hit@10 / MRR themselves.
RANK_DEPTH = 10

_HEADLINE = ("hit@1", "hit@{k}", "mrr", "recall@{k}", "citation_precision", "citation_recall",
             "refusal_correct", "ooc_refused", "false_refusal", "answer_contains", "supported_share",
             "llm_answer_kept", "tokens_per_s", "near_miss_said", "near_miss_false")


def run_eval(engine: Engine, path: Path, *, top_k: int | None = None, retrieval_only: bool = False,
             progress: bool = True, backend: str | None = None) -> tuple[list[ItemResult], dict[str, float]]:
    """Score every item of a question file; ``backend``: answer with this one (default: the engine's).
    Scripted dialogues in the file are left out (``run_file`` runs them too)."""
    k = top_k or engine.settings.retrieval.top_k
    items = load_items(path)
    resolve_expectations(items, engine.papers(), path)
    _warm(engine, backend, retrieval_only)
    results = _ask_items(engine, items, k, retrieval_only, progress, backend)
    return results, aggregate(results)


def _warm(engine: Engine, backend: Any, retrieval_only: bool) -> None:
    # Load the index, the embedding model and the answer backend before the clock starts: otherwise the
    # first item's latency is the ~20 s load, and it alone sets the p95 of a short file.
    named = backend if backend is None or isinstance(backend, str) else "extractive"  # an LLM object: no load
    engine.warm("extractive" if retrieval_only else named)


def _ask_items(engine: Engine, items: list[EvalItem], k: int, retrieval_only: bool, progress: bool,
               backend: Any) -> list[ItemResult]:
    from tqdm import tqdm

    results = []
    for item in tqdm(items, desc="questions", unit="q", disable=not progress):
        answer = engine.ask(item.question, history=item.history, top_k=k, rank_depth=RANK_DEPTH,
                            backend="extractive" if retrieval_only else backend)
        result = ItemResult(
            item=item, ranked_paper_ids=answer.ranked_paper_ids,
            cited_paper_ids=[] if retrieval_only else [c.paper_id for c in answer.citations],
            refused=answer.refused, answer="" if retrieval_only else answer.text,
            latency_ms=answer.timings_ms["retrieve"] if retrieval_only else answer.timings_ms["total"],
            first_token_ms=answer.timings_ms.get("first_token", 0.0), missing=list(answer.missing),
        )
        result.scores = score_item(result, k, answered=not retrieval_only)
        if answer.tokens_per_s:
            result.scores["tokens_per_s"] = answer.tokens_per_s
        if not retrieval_only and not answer.refused:
            if answer.total_sentences:
                result.scores["supported_share"] = answer.supported_sentences / answer.total_sentences
            if answer.backend != "extractive":  # the model's own sentences survived the citation check
                result.scores["llm_answer_kept"] = float(bool(answer.model_sentences) or (
                    answer.backend != "local" and not answer.notice))
        results.append(result)
    return results


@dataclass
class EvalRun:
    """``rag eval`` of a file: its question items and its scripted dialogues (either part may be empty)."""

    results: list[ItemResult] = field(default_factory=list)
    summary: dict[str, float] = field(default_factory=dict)
    turns: list[TurnResult] = field(default_factory=list)
    dialogues: dict[str, Any] | None = None  # dialogue_eval.summarise; None when the file has no dialogues
    backend: str = ""  # what answered the dialogues

    def report(self, k: int, title: str) -> str:
        parts = [markdown_report(self.results, self.summary, k, title)] if self.results else [f"# {title}\n"]
        if self.dialogues is not None:
            parts.append(dialogue_report(self.turns, self.dialogues, self.backend))
        return "\n".join(parts)


def run_file(engine: Engine, path: Path, *, top_k: int | None = None, retrieval_only: bool = False,
             progress: bool = True, backend: Any = None, all_dialogues: bool = False) -> EvalRun:
    """Questions and scripted dialogues of a file. Dialogues run only when written for this index's corpus
    (or for any), unless ``all_dialogues``; with ``retrieval_only`` they are answered extractively (a follow-up
    needs the papers the previous answer cited)."""
    k = top_k or engine.settings.retrieval.top_k
    items, dialogues = load_file(path)
    papers = engine.papers()
    resolve_expectations(items, papers, path)
    selection = select_dialogues(dialogues, len(papers), run_all=all_dialogues)
    resolve_dialogues(selection.run, papers, path)
    _warm(engine, backend, retrieval_only)
    run = EvalRun()
    if items:
        run.results = _ask_items(engine, items, k, retrieval_only, progress, backend)
        run.summary = aggregate(run.results)
    if dialogues:
        answerer = "extractive" if retrieval_only else backend
        run.backend = getattr(answerer, "name", answerer) or engine.settings.llm.backend
        run.turns = run_dialogues(engine, selection.run, top_k=k, backend=answerer, progress=progress)
        run.dialogues = summarise(run.turns, selection)
    return run


def write_run(run: EvalRun, k: int, out: Path, title: str) -> list[str]:
    """report.md, results.json (question items, then dialogue turns), summary.json (the question metrics, and
    the dialogue summary under ``dialogues``) and, for question items, plot.png. Returns the names written.
    A file of questions only writes exactly what ``write_outputs`` writes."""
    if run.dialogues is None:
        write_outputs(run.results, run.summary, k, out, title)
        return ["report.md", "plot.png", "results.json", "summary.json"]
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.md").write_text(run.report(k, title), encoding="utf-8")
    records = [r.to_json() for r in run.results] + [t.to_json() for t in run.turns]
    (out / "results.json").write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    summary = {**run.summary, "dialogues": run.dialogues}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    written = ["report.md", "results.json", "summary.json"]
    if run.results:
        write_plot(run.results, run.summary, k, out / "plot.png")
        written.append("plot.png")
    return written


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def markdown_report(results: list[ItemResult], summary: dict[str, float], k: int, title: str) -> str:
    names = [n.format(k=k) for n in _HEADLINE]
    lines = [f"# {title}", "", "| metric | value | items |", "|---|---|---|"]
    for name in names:
        if name in summary:
            lines.append(f"| {name} | {_fmt(summary[name])} | {int(summary[name + '.n'])} |")
    lines.append(f"| latency p50 / p95 ms | {summary['latency_p50_ms']:.0f} / {summary['latency_p95_ms']:.0f} "
                 f"| {int(summary['items'])} |")
    if summary.get("first_token_p50_ms"):
        lines.append(f"| first token p50 / p95 ms | {summary['first_token_p50_ms']:.0f} / "
                     f"{summary['first_token_p95_ms']:.0f} | {int(summary['items'])} |")
    lines += ["", f"recall@{k} and citation recall are over multi-paper items, capped at min({k}, #relevant); "
              "relevant = expect_papers plus any also_relevant papers the index holds."]
    categories = by_category(results)
    if len(categories) > 1:
        shown = [n for n in ("hit@1", f"hit@{k}", f"recall@{k}", "refusal_correct", "citation_precision")
                 if n in summary]
        lines += ["", "## By category", "", "| category | items | " + " | ".join(shown) + " |",
                  "|---|---|" + "---|" * len(shown)]
        for name, stats in categories.items():
            cells = [_fmt(stats.get(n)) for n in shown]
            lines.append(f"| {name} | {int(stats['items'])} | " + " | ".join(cells) + " |")
    misses = [r for r in results if r.scores.get("hit@1", 1.0) < 1.0 or r.scores.get("refusal_correct") == 0.0]
    if misses:
        lines += ["", "## Misses (hit@1 = 0 or wrong refusal decision)", ""]
        for r in misses:
            lines.append(f"- `{r.item.id}` {r.item.question} — expected {r.item.relevant_ids or r.item.expected_ids or 'refusal'}, "
                         f"got {r.ranked_paper_ids[:3]}{' (refused)' if r.refused else ''}")
    return "\n".join(lines) + "\n"


def write_plot(results: list[ItemResult], summary: dict[str, float], k: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n.format(k=k) for n in _HEADLINE if n.format(k=k) in summary]
    categories = by_category(results)
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    left.barh(names[::-1], [summary[n] for n in names[::-1]], color="#4C72B0")
    left.set_xlim(0, 1)
    left.set_title("All questions")
    cats = list(categories)
    left_metric = f"hit@{k}"
    right.bar(cats, [categories[c].get(left_metric, categories[c].get("refusal_correct", 0.0)) for c in cats],
              color="#55A868")
    right.set_ylim(0, 1)
    right.set_title(f"{left_metric} by category (refusal accuracy where nothing is expected)")
    right.tick_params(axis="x", rotation=30)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_outputs(results: list[ItemResult], summary: dict[str, float], k: int, out: Path, title: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.md").write_text(markdown_report(results, summary, k, title), encoding="utf-8")
    (out / "results.json").write_text(json.dumps([r.to_json() for r in results], indent=1, ensure_ascii=False)
                                      + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    write_plot(results, summary, k, out / "plot.png")
