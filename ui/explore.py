"""What the chat offers under the latest answer: suggested next questions (``rag.suggest``), each asked like a
typed question when clicked, and for a question about the collection a chart of papers per group, where a click
on a bar lists that group's papers and a click on a title opens the paper.

No ``from __future__ import annotations``: Gradio reads handler type hints (``gr.SelectData``) as objects.
"""

from collections.abc import Callable
from typing import Any

import gradio as gr

from rag.suggest import MAX_SUGGESTIONS, suggest
from ui.chart import CHART_CSS, CHART_JS, chart_html, group_papers
from rag.types import Paper
from ui.history import Conversation, StoredTurn
from ui.render import paper_markdown

SUGGESTIONS = tuple(f"suggest_{i}" for i in range(MAX_SUGGESTIONS))
NAMES = ("chart_box", "chart", "chart_papers", "suggestions", *SUGGESTIONS)  # what a turn or a reload updates
SCROLL_TO_PANEL = "(...args) => { document.getElementById('paper-panel')?.scrollIntoView({block: 'nearest'}); return args; }"


def build(c: dict[str, Any]) -> None:
    """The suggestion buttons and the chart (hidden until an answer has them), under the question box."""
    with gr.Row(visible=False, elem_id="suggestions") as c["suggestions"]:
        for name in SUGGESTIONS:
            c[name] = gr.Button("", size="sm", variant="secondary", visible=False, elem_classes=["suggestion"],
                                scale=0, min_width=80)
    with gr.Column(visible=False, elem_id="chart-box") as c["chart_box"]:
        c["chart"] = gr.HTML("", js_on_load=CHART_JS, css_template=CHART_CSS, elem_id="collection-chart")
        c["chart_papers"] = gr.Radio([], label="Papers", visible=False, elem_id="chart-papers")


def updates(record: Conversation, papers: dict[str, Paper]) -> dict[str, Any]:
    """The suggestions and chart for the conversation's latest turn (all hidden when it has none); ``papers``
    gives the sources their abstracts, where short names come from."""
    last = record.turns[-1] if record.turns else None
    questions = suggest(last.to_answer(papers), [t.question for t in record.turns]) if last else []
    shown: dict[str, Any] = {"suggestions": gr.Row(visible=bool(questions))}
    for i, name in enumerate(SUGGESTIONS):
        shown[name] = gr.Button(questions[i], visible=True) if i < len(questions) else gr.Button("", visible=False)
    chart = last.chart if last and last.chart and last.chart.groups else None
    return shown | {"chart_box": gr.Column(visible=chart is not None),
                    "chart": chart_html(chart) if chart else "",
                    "chart_papers": gr.Radio(choices=[], value=None, visible=False)}


def hidden() -> dict[str, Any]:
    """While a question is being answered: the previous answer's offers go away."""
    return {"suggestions": gr.Row(visible=False), "chart_box": gr.Column(visible=False)}


def wire(app: Any, c: dict[str, Any], turn: Callable[..., Any], asking: list[Any], outputs: list[Any]) -> list[Any]:
    """Suggestion clicks ask through ``turn`` (the typed question's handler); bar and title clicks narrow the
    chart to papers. Returns the suggestion events, for Stop to cancel."""
    events = [c[name].click(lambda label: label, c[name], c["question"], api_visibility="private").then(
        turn, asking, outputs, api_visibility="private") for name in SUGGESTIONS]

    def last_turn(conversation_id: str | None, request: gr.Request) -> StoredTurn | None:
        turns = app.conversations(request).open(conversation_id).record.turns
        return turns[-1] if turns else None

    def narrow(conversation_id: str | None, event: gr.SelectData, request: gr.Request) -> tuple[Any, Any]:
        last = last_turn(conversation_id, request)
        if last is None or last.chart is None:
            return gr.skip(), gr.skip()
        index = int(event.index)
        heading, choices = group_papers(last.chart, index, app.catalog.by_id())
        return (chart_html(last.chart, selected=index),
                gr.Radio(choices=choices, value=None, label=heading, visible=bool(choices)))

    def open_paper(paper_id: str | None, conversation_id: str | None, request: gr.Request) -> Any:
        paper = app.catalog.get(paper_id) if paper_id else None
        if paper is None:
            return gr.skip()
        last = last_turn(conversation_id, request)
        source = next((s for s in last.sources if s.paper_id == paper_id), None) if last else None
        if source is not None:  # one of the answer's examples: with its number and quoted sentence
            turns = app.conversations(request).open(conversation_id).record.turns
            return app.paper_view(conversation_id, len(turns) - 1, source.rank, paper_id, request)
        return paper_markdown(paper)

    c["chart"].select(narrow, [c["conversation"]], [c["chart"], c["chart_papers"]], api_visibility="private")
    c["chart_papers"].input(open_paper, [c["chart_papers"], c["conversation"]], c["paper"], js=SCROLL_TO_PANEL,
                            api_visibility="private")
    return events
