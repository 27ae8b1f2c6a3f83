"""The page: a sidebar (conversations, settings), and the Chat, Papers and Evaluation tabs, wired to
``ChatApp``'s handlers. Handlers return updates keyed by name; ``_keyed`` maps names to components.

No ``from __future__ import annotations``: Gradio reads handler type hints (``gr.SelectData``) as objects.
"""

import inspect
from collections.abc import Callable
from typing import Any

import gradio as gr

from ui import explore
from ui.catalog import Catalog
from ui.conversations import source_views
from ui.evaluation import build_eval_tab
from ui.history import valid_id
from ui.render import LATEX_DELIMITERS

EXAMPLES = ["What is TRIM-KV?", "Compare TRIM-KV and Tactic",
            "Which papers study test-time scaling for LLM reasoning?", "有没有关于视频扩散模型水印的论文？"]
COMPARE_QUESTION = "Compare the problem, method and key results of"
PANEL_HINT = ("*Sources appear here as soon as retrieval finishes. Click a source, or a citation [n] "
              "in an answer, to read the paper with its supporting sentences highlighted.*")


def ask_ready() -> Any:
    """The question box between answers: an Ask button (a Stop button shows while answering)."""
    return gr.Textbox(submit_btn="Ask", stop_btn=False)


SHOWN = ("chat", "conversation", "sources", "paper", "selector", "export_md", "export_json", *explore.NAMES)
TURN = SHOWN + ("question",)


def _keyed(components: dict[str, Any], names: tuple[str, ...], fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` returning (or yielding) ``{name: value}`` as a Gradio handler over ``components[names]``; ``fn`` gets
    the request (Gradio fills a leading ``gr.Request`` parameter: whose conversations these are) as ``request=``."""
    if inspect.isgeneratorfunction(fn):
        def stream(request: gr.Request, *args: Any) -> Any:
            for update in fn(*args, request=request):
                yield {components[k]: v for k, v in update.items() if k in names}
        return stream

    def call(request: gr.Request, *args: Any) -> Any:
        return {components[k]: v for k, v in fn(*args, request=request).items() if k in names}
    return call


def _outputs(components: dict[str, Any], names: tuple[str, ...]) -> list[Any]:
    return [components[n] for n in names]


def _sidebar(app: Any, c: dict[str, Any], backends: list[str]) -> None:
    with gr.Sidebar(open=True, width=300):
        gr.Markdown("### Conversations")
        c["selector"] = gr.Dropdown([], label="Conversation", interactive=True, elem_id="conversation-select")
        with gr.Row():
            c["new"] = gr.Button("New", size="sm", elem_id="new-conversation")
            c["delete"] = gr.Button("Delete", size="sm", elem_id="delete-conversation")
        with gr.Row():
            c["export_md"] = gr.DownloadButton("Export .md", size="sm", interactive=False, elem_id="export-md")
            c["export_json"] = gr.DownloadButton("Export .json", size="sm", interactive=False, elem_id="export-json")
        gr.Markdown("### Settings")
        c["backend"] = gr.Radio(backends, value=app.settings.llm.backend if app.settings.llm.backend in backends else backends[0],
                                label="Answer backend", elem_id="backend")
        c["top_k"] = gr.Slider(1, 20, step=1, value=app.settings.retrieval.top_k, label="Number of papers (top k)",
                               elem_id="top-k")
        c["show_scores"] = gr.Checkbox(False, label="Show source scores", elem_id="show-scores")


def _chat_tab(c: dict[str, Any], examples: list[str], hint: str) -> None:
    c["restrict_note"] = gr.Markdown("", elem_id="restrict-note")
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            c["chat"] = gr.Chatbot(
                label="Answers cite the papers they rest on: click a [n]", height=600, elem_id="chat",
                latex_delimiters=[], feedback_options=None, buttons=["copy"],
                examples=[{"text": e} for e in examples],
                placeholder="### Ask about the indexed ICLR 2026 papers\nAnswers cite their sources; click a citation [n] to read the paper. "
                            "Follow-ups refer to earlier answers.")
            c["question"] = gr.Textbox(placeholder="Ask a question, e.g. What is TRIM-KV?", show_label=False,
                                       submit_btn="Ask", elem_id="question", autofocus=True, max_lines=4)
            explore.build(c)
        with gr.Column(scale=3, min_width=320):
            c["sources"] = gr.Radio([], label="Sources", elem_id="sources")
            c["paper"] = gr.Markdown(hint, latex_delimiters=LATEX_DELIMITERS, elem_id="paper-panel",
                                     sanitize_html=True)
    c["cite_key"] = gr.Textbox(visible=False)
    c["cite_open"] = gr.Button("open citation", elem_id="cite-open", elem_classes=["rag-hidden"])


def _papers_tab(c: dict[str, Any], catalog: Catalog) -> None:
    choices, summary = catalog.choices("", [])
    with gr.Row():
        c["search"] = gr.Textbox(label="Search papers (title, area, venue or id)", scale=3, elem_id="paper-search")
        c["compare"] = gr.Button("Compare picked papers", variant="primary", scale=1, elem_id="compare")
    with gr.Row():
        c["restrict"] = gr.Checkbox(False, label="Restrict chat to the picked papers", elem_id="restrict")
        c["clear"] = gr.Button("Clear picks", size="sm", scale=0)
    c["count"] = gr.Markdown(summary)
    c["picked"] = gr.CheckboxGroup(choices, value=[], label="Pick two or more papers to compare",
                                   elem_id="paper-list")


def build_layout(app: Any, backends: list[str]) -> gr.Blocks:
    c: dict[str, Any] = {}
    with gr.Blocks(title="ICLR 2026 papers · cited answers", fill_width=True) as demo:
        c["conversation"] = gr.BrowserState(None, storage_key="iclr-rag-conversation", secret=app.store.secret())
        _sidebar(app, c, backends)
        with gr.Tabs() as tabs:
            with gr.Tab("Chat", id="chat"):
                _chat_tab(c, EXAMPLES, PANEL_HINT)
            with gr.Tab("Papers", id="papers"):
                _papers_tab(c, app.catalog)
            with gr.Tab("Evaluation", id="eval"):
                build_eval_tab(app.engine, app.catalog, backends, c["backend"].value)
        c["tabs"] = tabs
        _wire_chat(app, c)
        _wire_conversations(demo, app, c)
        _wire_papers(app, c)
        gr.api(app.ask_api, api_name="ask")
    return demo


def _wire_chat(app: Any, c: dict[str, Any]) -> None:
    asking = [c["question"], c["conversation"], c["backend"], c["top_k"], c["show_scores"], c["restrict"], c["picked"]]
    turn = _keyed(c, TURN, app.turn)
    asked = c["question"].submit(turn, asking, _outputs(c, TURN), api_visibility="private")

    def example(event: gr.SelectData) -> str:
        return event.value["text"] if isinstance(event.value, dict) else str(event.value)

    picked = c["chat"].example_select(example, None, c["question"], api_visibility="private").then(
        turn, asking, _outputs(c, TURN), api_visibility="private")
    c["answering"] = [asked, picked, *explore.wire(app, c, turn, asking, _outputs(c, TURN))]

    def open_source(value: str | None, conversation_id: str | None, request: gr.Request) -> str:
        if not value:
            return gr.skip()
        turn_index, rank, paper_id = value.split(":", 2)
        return app.paper_view(conversation_id, int(turn_index), int(rank), paper_id, request)

    c["sources"].input(open_source, [c["sources"], c["conversation"]], c["paper"], api_visibility="private")

    def open_citation(key: str, conversation_id: str | None, show_scores: bool, request: gr.Request) -> tuple[Any, Any]:
        try:
            turn_index, rank = (int(part) for part in (key or "").split("-"))
        except ValueError:
            return gr.skip(), gr.skip()
        turns = app.conversations(request).open(conversation_id).record.turns
        if not 0 <= turn_index < len(turns):
            return gr.skip(), gr.skip()
        views = source_views(turns[turn_index])
        view = next((v for v in views if v.rank == rank), None)
        if view is None:
            return gr.skip(), gr.skip()
        return (app.sources_radio(views, turn_index, show_scores, turns[turn_index].refused, selected=rank),
                app.paper_view(conversation_id, turn_index, rank, view.paper_id, request))

    c["cite_open"].click(open_citation, [c["cite_key"], c["conversation"], c["show_scores"]], [c["sources"], c["paper"]],
                         js="(key, conversation, scores) => [window.__ragCite || key, conversation, scores]",
                         api_visibility="private")

    def rescore(conversation_id: str | None, show_scores: bool, request: gr.Request) -> Any:
        turns = app.conversations(request).open(conversation_id).record.turns
        if not turns:
            return gr.skip()
        return app.sources_radio(source_views(turns[-1]), len(turns) - 1, show_scores, turns[-1].refused)

    c["show_scores"].change(rescore, [c["conversation"], c["show_scores"]], c["sources"], api_visibility="private")


def _wire_conversations(demo: gr.Blocks, app: Any, c: dict[str, Any]) -> None:
    shown = _outputs(c, SHOWN)

    def on_load(conversation_id: str | None, show_scores: bool, request: gr.Request) -> dict[str, Any]:
        people = app.conversations(request)  # this browser's last conversation, if it is this user's
        if not (valid_id(conversation_id) and people.known(conversation_id)):
            conversation_id = people.latest_id()
        return app.show(people.open(conversation_id), show_scores)

    def switch(conversation_id: str | None, show_scores: bool, request: gr.Request) -> dict[str, Any]:
        return app.show(app.conversations(request).open(conversation_id), show_scores)

    def new(show_scores: bool, request: gr.Request) -> dict[str, Any]:
        return app.show(app.conversations(request).new(), show_scores)

    def delete(conversation_id: str | None, show_scores: bool, request: gr.Request) -> dict[str, Any]:
        people = app.conversations(request)
        if conversation_id:
            people.delete(conversation_id)
        latest = people.latest_id()
        return app.show(people.open(latest) if latest else people.new(), show_scores)

    demo.load(_keyed(c, SHOWN, on_load), [c["conversation"], c["show_scores"]], shown,
                         api_visibility="private")
    c["chat"].clear(_keyed(c, SHOWN, new), [c["show_scores"]], shown, api_visibility="private")
    c["selector"].input(_keyed(c, SHOWN, switch), [c["selector"], c["show_scores"]], shown, api_visibility="private")
    c["new"].click(_keyed(c, SHOWN, new), [c["show_scores"]], shown, api_visibility="private")
    c["delete"].click(_keyed(c, SHOWN, delete), [c["conversation"], c["show_scores"]], shown, api_visibility="private")


def _wire_papers(app: Any, c: dict[str, Any]) -> None:
    def narrow(query: str, picked: list[str] | None) -> tuple[Any, str]:
        choices, summary = app.catalog.choices(query or "", picked or [])
        return gr.CheckboxGroup(choices=choices, value=picked or []), summary

    def note(picked: list[str] | None, restrict: bool) -> str:
        if not restrict:
            return ""
        if not picked:
            return "🔒 *Restrict is on, but no papers are picked: answers search all papers.*"
        return f"🔒 **Answers use only the {len(picked)} picked paper(s)** (Papers tab)."

    c["search"].change(narrow, [c["search"], c["picked"]], [c["picked"], c["count"]], api_visibility="private")
    c["clear"].click(lambda: [], None, c["picked"], api_visibility="private")
    for trigger in (c["picked"].change, c["restrict"].change):
        trigger(note, [c["picked"], c["restrict"]], c["restrict_note"], api_visibility="private")

    def check(picked: list[str] | None) -> Any:
        if not picked or len(picked) < 2:
            raise gr.Error("Pick at least two papers to compare.")
        return gr.Tabs(selected="chat")

    def compare(conversation_id: str | None, backend: str, top_k: float, show_scores: bool, picked: list[str],
                request: gr.Request) -> Any:
        yield from app.turn(_compare_question(app.catalog, picked), conversation_id, backend, top_k, show_scores,
                            False, None, compare_ids=list(picked), request=request)

    compared = c["compare"].click(check, [c["picked"]], c["tabs"], api_visibility="private").success(
        _keyed(c, TURN, compare), [c["conversation"], c["backend"], c["top_k"], c["show_scores"], c["picked"]],
        _outputs(c, TURN), api_visibility="private")
    # Stop: cancel whichever answer is being written (the conversation keeps only finished turns).
    c["question"].stop(ask_ready, None, c["question"], cancels=c["answering"] + [compared],
                       api_visibility="private")


def _compare_question(catalog: Catalog, picked: list[str]) -> str:
    names = [catalog.get(pid).display_title.split(":")[0] for pid in picked if catalog.get(pid)]
    return f"{COMPARE_QUESTION}: {'; '.join(names)}" if names else COMPARE_QUESTION
