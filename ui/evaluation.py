"""The Evaluation tab: run a ``rag eval`` question file in the browser, show the metrics table, the plot,
and any item's answer and sources."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gradio as gr

from rag.errors import RagError
from rag.evaluation.evaluate import markdown_report, run_eval, write_plot
from rag.evaluation.metrics import ItemResult
from rag.settings import PROJECT_ROOT
from ui.catalog import Catalog
from ui.history import scratch_dir
from ui.render import LATEX_DELIMITERS, escape_html, escape_markdown, paper_markdown, title_text

if TYPE_CHECKING:
    from rag.engine import Engine

QUESTION_DIR = PROJECT_ROOT / "tests" / "data"
QUESTION_SUFFIXES = (".yaml", ".yml", ".jsonl")


def question_files(folder: Path = QUESTION_DIR) -> list[tuple[str, str]]:
    """(name, path) of the question files shipped with the project (chosen from a list: the page never
    reads a path typed by a visitor)."""
    if not folder.is_dir():
        return []
    return [(p.name, str(p)) for p in sorted(folder.iterdir()) if p.suffix.lower() in QUESTION_SUFFIXES and p.is_file()]


def run_question_file(engine: Engine, path: Path, *, backend: str, retrieval_only: bool, top_k: int,
                      plot_dir: Path) -> tuple[list[ItemResult], str, Path]:
    """Score a question file: the results, the Markdown report and the plot's path."""
    results, summary = run_eval(engine, path, top_k=top_k, retrieval_only=retrieval_only, progress=True,
                                backend=backend)
    mode = "retrieval only" if retrieval_only else backend
    report = markdown_report(results, summary, top_k, f"{path.name} ({mode}, k={top_k})")
    plot = Path(tempfile.mkstemp(dir=plot_dir, prefix="eval-", suffix=".png")[1])
    write_plot(results, summary, top_k, plot)
    return results, report, plot


def report_markdown(report: str) -> str:
    """``markdown_report`` for the page: escaped (questions are data) and its headings made smaller."""
    lines = []
    for line in escape_html(report).splitlines():
        if line.startswith("#"):
            line = "###" + line
        lines.append(line)
    return "\n".join(lines)


def item_choices(results: list[ItemResult]) -> list[tuple[str, str]]:
    """Dropdown entries, misses first marked ✗, so the interesting items are at hand."""
    def missed(r: ItemResult) -> bool:
        return r.scores.get("hit@1", 1.0) < 1.0 or r.scores.get("refusal_correct") == 0.0

    ordered = sorted(results, key=lambda r: not missed(r))
    return [(f"{'✗' if missed(r) else '✓'} {r.item.id}: {r.item.question[:70]}", r.item.id) for r in ordered]


def item_markdown(result: ItemResult, catalog: Catalog, top_k: int) -> str:
    """One item: the question, what was expected, the answer and the sources in rank order."""
    item = result.item
    expected = item.relevant_ids or item.expected_ids
    lines = [f"### {escape_markdown(item.id)} — {escape_markdown(item.question)}", ""]
    if item.history:
        lines += ["Earlier turns: " + " / ".join(escape_markdown(h) for h in item.history), ""]
    wanted = "a refusal" if item.expect_refusal else ", ".join(_title(catalog, p) for p in expected) or "—"
    lines += [f"**Expected:** {wanted}", "",
              f"**Outcome:** {'refused' if result.refused else 'answered'} · "
              f"{result.latency_ms:.0f} ms · " + " · ".join(f"{k} {v:.2f}" for k, v in sorted(result.scores.items())),
              ""]
    if result.answer:
        lines += ["**Answer:**", "", escape_html(result.answer), ""]
    lines += ["**Sources (retrieval order):**", ""]
    for rank, paper_id in enumerate(result.ranked_paper_ids[:top_k], start=1):
        marks = ("✓ expected " if paper_id in expected else "") + ("· cited" if paper_id in result.cited_paper_ids else "")
        lines.append(f"{rank}. {_title(catalog, paper_id)} <code>{escape_html(paper_id)}</code> {marks}".rstrip())
    return "\n".join(lines)


def _title(catalog: Catalog, paper_id: str) -> str:
    paper = catalog.get(paper_id)
    return title_text(paper.title) if paper else f"<code>{escape_html(paper_id)}</code>"


def source_choices(result: ItemResult, catalog: Catalog, top_k: int) -> list[tuple[str, str]]:
    return [(f"[{rank}] {catalog.get(pid).display_title if catalog.get(pid) else pid}", pid)
            for rank, pid in enumerate(result.ranked_paper_ids[:top_k], start=1)]


def build_eval_tab(engine: Engine, catalog: Catalog, backends: list[str], default_backend: str) -> None:
    """The tab's components and events (call inside a ``gr.Tab``)."""
    plot_dir = scratch_dir("iclr-rag-eval-")
    files = question_files()
    paths = [path for _, path in files]
    default = str(QUESTION_DIR / "questions.yaml")
    results_state = gr.State([])
    k_state = gr.State(engine.settings.retrieval.top_k)
    with gr.Row():
        with gr.Column(scale=2):
            chosen = gr.Dropdown(files, value=default if default in paths else (paths[0] if paths else None),
                                 label="Question file (rag eval format)", elem_id="eval-file")
            upload = gr.File(label="…or upload one (.yaml / .jsonl)", file_types=list(QUESTION_SUFFIXES),
                             type="filepath", height=130)
        with gr.Column(scale=1):
            backend = gr.Dropdown(backends, value=default_backend, label="Backend")
            retrieval_only = gr.Checkbox(True, label="Retrieval only (fast: no answers written)")
            top_k = gr.Slider(1, 20, step=1, value=engine.settings.retrieval.top_k, label="k (papers per question)")
            run = gr.Button("Run evaluation", variant="primary", elem_id="eval-run")
    report = gr.Markdown("Choose a question file and press **Run evaluation**.", elem_id="eval-report")
    plot = gr.Image(label="Metrics", type="filepath", interactive=False, visible=False, height=420)
    with gr.Row():
        with gr.Column(scale=3):
            item = gr.Dropdown([], label="Open an item (misses first)", interactive=True, elem_id="eval-item")
            detail = gr.Markdown(latex_delimiters=LATEX_DELIMITERS)
        with gr.Column(scale=2):
            sources = gr.Radio([], label="Sources of this item", elem_id="eval-sources")
            paper = gr.Markdown(latex_delimiters=LATEX_DELIMITERS)

    def on_run(choice: str | None, uploaded: str | None, backend_name: str, only_retrieval: bool, k: float,
               progress: gr.Progress = gr.Progress(track_tqdm=True)) -> tuple[Any, ...]:
        path = Path(uploaded) if uploaded else Path(choice) if choice else None
        if path is None:
            raise gr.Error("Choose or upload a question file first.")
        try:
            results, text, image = run_question_file(engine, path, backend=backend_name, retrieval_only=only_retrieval,
                                                     top_k=int(k), plot_dir=plot_dir)
        except RagError as exc:
            raise gr.Error(str(exc)) from exc
        return (results, int(k), report_markdown(text), gr.Image(value=str(image), visible=True),
                gr.Dropdown(choices=item_choices(results), value=None), "", gr.Radio(choices=[], value=None), "")

    def on_item(item_id: str | None, results: list[ItemResult], k: int) -> tuple[Any, ...]:
        result = next((r for r in results if r.item.id == item_id), None)
        if result is None:
            return "", gr.Radio(choices=[], value=None), ""
        return item_markdown(result, catalog, k), gr.Radio(choices=source_choices(result, catalog, k), value=None), ""

    def on_source(paper_id: str | None) -> str:
        found = catalog.get(paper_id) if paper_id else None
        return paper_markdown(found) if found else ""

    run.click(on_run, [chosen, upload, backend, retrieval_only, top_k],
              [results_state, k_state, report, plot, item, detail, sources, paper],
              concurrency_limit=1, api_visibility="private")
    item.input(on_item, [item, results_state, k_state], [detail, sources, paper], api_visibility="private")
    sources.input(on_source, [sources], [paper], api_visibility="private")
