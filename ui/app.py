"""The browser chat (``rag serve``): cited streaming answers, the papers behind them, comparisons,
saved conversations, settings and the evaluation runner, over one shared ``Engine``.

No ``from __future__ import annotations`` here: ``gr.api`` reads the type hints of ``/ask`` as objects.
"""

import logging
import signal
import threading
import sys
import time
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

import gradio as gr

from rag.backends import offered_backends
from rag.bounds import QuestionError, check_question
from rag.errors import RagError
from rag.settings import Settings, apply_offline_env
from rag.types import Source
from ui.catalog import Catalog
from ui import explore
from ui.conversations import Conversations, OpenConversation, answer_message, chat_messages, source_views
from ui.history import ConversationStore, StoredTurn, export_json, export_markdown, scratch_dir, write_atomic
from ui.layout import PANEL_HINT, ask_ready, build_layout
from ui.render import (answer_markdown, error_markdown, paper_markdown,
                       question_markdown, source_label)
from ui.users import is_loopback, login_check, user_dir

if TYPE_CHECKING:
    from rag.engine import Engine

log = logging.getLogger(__name__)

REDRAW_SECONDS = 0.08  # the page re-renders the whole answer per update: ~12 a second reads as live

# A citation link [n] → #cite-<turn>-<n>: remember which, and press the hidden button whose event
# opens that source (links in chat messages cannot call Python themselves).
CITE_JS = """
() => {
  if (window.__ragCiteInstalled) return;
  window.__ragCiteInstalled = true;
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href*="#cite-"]') : null;
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    const href = link.getAttribute("href");
    window.__ragCite = href.slice(href.indexOf("#cite-") + 6);
    const button = document.getElementById("cite-open");
    if (button) button.click();
    const panel = document.getElementById("paper-panel");
    if (panel) panel.scrollIntoView({behavior: "smooth", block: "nearest"});
  }, true);
}
"""
CSS = """
.rag-hidden { display: none !important; }
#sources .wrap { flex-direction: column; align-items: stretch; gap: 4px; }
#paper-panel mark { background: #fff3a3; color: inherit; padding: 0 2px; border-radius: 2px; }
#paper-panel { max-height: 620px; overflow-y: auto; }
#restrict-note p { margin: 0; }
#chat table { table-layout: auto; font-size: 0.92em; }
#chat .message-row:has(table) { max-width: 100% !important; }  /* a comparison table: the chat column's full width */
#chat th, #chat td { min-width: 6.5em; word-break: normal; overflow-wrap: normal; hyphens: auto; }
#chat td:first-child { min-width: 7.5em; font-weight: 600; }
#suggestions { flex-wrap: wrap; gap: 6px; }
#suggestions button.suggestion { flex: 0 1 auto; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
"""


def warm_engine(engine: "Engine") -> None:
    """Load retrieval and the default answer backend now (the local model takes seconds), not on the
    first question."""
    try:
        engine.warm()
    except RagError as exc:  # e.g. the local model is not fetched: say so; other backends still work
        log.warning("the %s backend is not ready: %s", engine.settings.llm.backend, exc)


def snapshot(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    """A copy of the chat to hand out: the list goes on changing after a yield."""
    return [dict(m) for m in messages]


class ChatApp:
    """The state shared by every visitor (engine, catalog, conversations) and the event handlers."""

    def __init__(self, engine: "Engine") -> None:
        self.engine = engine
        self.settings: Settings = engine.settings
        self.catalog = Catalog(engine)
        self.store = ConversationStore(self.settings.ui.ui_history_dir)
        self._people: dict[str, Conversations] = {"": Conversations(engine, self.store, self.catalog)}
        self._people_lock = threading.Lock()
        self.export_dir = scratch_dir("iclr-rag-export-")

    def conversations(self, request: gr.Request | None = None) -> Conversations:
        """The conversations of whoever sent ``request``: a logged-in user's own folder, else (no login) the
        history folder. A user can neither list, open, append to nor export another's."""
        user = (getattr(request, "username", None) or "") if request is not None else ""
        with self._people_lock:
            if user not in self._people:
                store = ConversationStore(user_dir(self.settings.ui.ui_history_dir, user))
                self._people[user] = Conversations(self.engine, store, self.catalog)
            return self._people[user]

    # -- views ------------------------------------------------------------------------------
    def dropdown(self, current: OpenConversation) -> Any:
        saved = current.owner.saved()
        choices = [(c.label(), c.id) for c in saved]
        if current.id not in {c.id for c in saved}:
            choices.insert(0, ("New conversation", current.id))
        return gr.Dropdown(choices=choices, value=current.id)

    def sources_radio(self, views: list[Source], turn: int, show_scores: bool, refused: bool = False,
                      selected: int | None = None) -> Any:
        label = "Closest papers (not used: no answer)" if refused else "Sources"
        choices = [(source_label(v, show_scores), f"{turn}:{v.rank}:{v.paper_id}") for v in views]
        value = next((c[1] for c in choices if c[1].split(":")[1] == str(selected)), None)
        return gr.Radio(choices=choices, value=value, label=label)

    def exports(self, conversation: OpenConversation) -> tuple[Any, Any]:
        """Markdown and JSON downloads of the conversation (disabled while it has no turns)."""
        if not conversation.record.turns:
            return gr.DownloadButton(value=None, interactive=False), gr.DownloadButton(value=None, interactive=False)
        folder = self.export_dir / conversation.id
        markdown_path, json_path = folder / f"conversation-{conversation.id}.md", folder / f"conversation-{conversation.id}.json"
        write_atomic(markdown_path, export_markdown(conversation.record, self.catalog.by_id()))
        write_atomic(json_path, export_json(conversation.record))
        return (gr.DownloadButton(value=str(markdown_path), interactive=True),
                gr.DownloadButton(value=str(json_path), interactive=True))

    def paper_view(self, conversation_id: str | None, turn: int, rank: int, paper_id: str,
                   request: gr.Request | None = None) -> str:
        paper = self.catalog.get(paper_id)
        if paper is None:
            return error_markdown(f"paper {paper_id} is not in the index any more")
        stored = self._stored_turn(conversation_id, turn, request)
        score = next((s.score for s in stored.sources if s.rank == rank), None) if stored else None
        highlights = stored.evidence_sentences.get(paper_id, []) if stored else []
        return paper_markdown(paper, rank=rank, score=score, highlights=highlights)

    def _stored_turn(self, conversation_id: str | None, turn: int, request: gr.Request | None) -> StoredTurn | None:
        turns = self.conversations(request).open(conversation_id).record.turns
        return turns[turn] if 0 <= turn < len(turns) else None

    def show(self, conversation: OpenConversation, show_scores: bool) -> dict[str, Any]:
        """Everything the chat shows for a conversation: messages, last sources, exports, selector."""
        turns = conversation.record.turns
        last = len(turns) - 1
        radio = (self.sources_radio(source_views(turns[last]), last, show_scores, turns[last].refused)
                 if turns else gr.Radio(choices=[], value=None, label="Sources"))
        markdown_file, json_file = self.exports(conversation)
        return {"chat": chat_messages(conversation.record), "conversation": conversation.id, "sources": radio,
                "paper": PANEL_HINT, "selector": self.dropdown(conversation), "export_md": markdown_file,
                "export_json": json_file} | explore.updates(conversation.record, self.catalog.by_id())

    # -- a turn -----------------------------------------------------------------------------
    def turn(self, question: str, conversation_id: str | None, backend: str, top_k: float, show_scores: bool,
             restrict: bool, picked: list[str] | None, compare_ids: list[str] | None = None,
             request: gr.Request | None = None) -> Iterator[dict[str, Any]]:
        """One question answered live: sources as soon as retrieval ends, tokens as they are written,
        then the checked answer (with its notice) replaces the streamed text and the turn is saved."""
        if not (question or "").strip():
            return
        try:  # said beside the box: a 100 KB paste is not echoed into the chat
            question = check_question(question, self.engine.settings.retrieval.max_question_chars)
        except QuestionError as exc:
            gr.Warning(str(exc))
            return
        conversation = self.conversations(request).open(conversation_id)
        if not conversation.lock.acquire(blocking=False):
            gr.Warning("Still answering the previous question in this conversation.")
            return
        try:
            final = yield from self._answer(conversation, question, backend, int(top_k), show_scores,
                                            picked if restrict and picked else None, compare_ids)
        finally:
            conversation.lock.release()
        # Sent after the release: a suggestion clicked the moment it shows is not "still answering".
        yield (final or {}) | {"question": ask_ready()}

    def _answer(self, conversation: OpenConversation, question: str, backend: str, top_k: int, show_scores: bool,
                paper_ids: list[str] | None, compare_ids: list[str] | None) -> Generator[dict[str, Any], None, dict | None]:
        """The turn's updates as it goes; returns the last one (the checked answer), for ``turn`` to send."""
        session, index = conversation.session, len(conversation.record.turns)
        session.backend, session.top_k, session.paper_ids = backend, top_k, paper_ids
        messages = chat_messages(conversation.record) + [
            {"role": "user", "content": question_markdown(question)},
            {"role": "assistant", "content": "*Searching the papers…*"}]
        yield {"chat": snapshot(messages), "question": gr.Textbox(value="", submit_btn=False, stop_btn="Stop"),
               "conversation": conversation.id, "paper": PANEL_HINT,
               "sources": gr.Radio(choices=[], value=None, label="Sources")} | explore.hidden()
        streamed, ranks, shown_at = "", [], 0.0
        try:
            for event in session.stream(question, compare_ids=compare_ids):
                if event.kind == "sources":
                    views = list(event.sources)
                    self.catalog.remember([s.paper for s in event.sources])
                    ranks = [] if event.refused else [v.rank for v in views]
                    messages[-1]["content"] = f"*Found {len(views)} papers; writing the answer…*"
                    yield {"chat": snapshot(messages), "sources": self.sources_radio(views, index, show_scores, event.refused)}
                elif event.kind == "token":
                    streamed += event.text
                    if time.monotonic() - shown_at >= REDRAW_SECONDS:  # fewer redraws, same text
                        shown_at = time.monotonic()
                        messages[-1]["content"] = answer_markdown(streamed, index, ranks)
                        yield {"chat": snapshot(messages)}
                elif event.kind == "done" and event.answer is not None:
                    turn = conversation.owner.record(conversation, event.answer, compare_ids)
                    messages[-1]["content"] = answer_message(turn, index)
                    markdown_file, json_file = self.exports(conversation)
                    return {"chat": snapshot(messages), "selector": self.dropdown(conversation), "export_md": markdown_file,
                            "export_json": json_file,
                            "sources": self.sources_radio(source_views(turn), index, show_scores, turn.refused)
                            } | explore.updates(conversation.record, self.catalog.by_id())
        except RagError as exc:
            messages[-1]["content"] = error_markdown(str(exc))
            yield {"chat": snapshot(messages)}
        except Exception as exc:  # a bug: keep the page usable and say so
            log.exception("answering %r failed", question)
            messages[-1]["content"] = error_markdown(f"unexpected {type(exc).__name__}: {exc}")
            yield {"chat": snapshot(messages)}

    # -- the HTTP API ---------------------------------------------------------------------------
    def ask_api(self, question: str, conversation_id: str = "", backend: str = "", top_k: int = 0,
                request: gr.Request = None) -> dict:
        """Answer one question; returns the answer JSON (as `rag ask --json`) plus the supporting sentences.
        conversation_id "new" starts a saved conversation (its id is in the reply); a returned id continues it
        (follow-ups work); without one nothing is stored. Ids are the server's, and only the caller's own open;
        top_k 0 means the default."""
        try:
            if not conversation_id:
                answer = self.engine.ask(question, backend=backend or None, top_k=top_k or None)
                return answer.to_json() | {"evidence_sentences": answer.evidence_sentences, "conversation_id": ""}
            people = self.conversations(request)
            if conversation_id != "new" and not people.known(conversation_id):
                raise RagError(f"no conversation {conversation_id[:40]!r} of yours; pass \"new\" to start one")
            conversation = people.new() if conversation_id == "new" else people.open(conversation_id)
            with conversation.lock:
                conversation.session.backend, conversation.session.top_k = backend or None, top_k or None
                conversation.session.paper_ids = None
                answer = conversation.session.ask(question)
                people.record(conversation, answer, None)
            return answer.to_json() | {"evidence_sentences": answer.evidence_sentences,
                                       "conversation_id": conversation.id}
        except RagError as exc:  # the caller's mistake or a missing model: a message, not a traceback
            raise gr.Error(str(exc)) from None
        except Exception:  # a bug: logged here, not handed to the caller
            log.exception("API question %r failed", question[:200] if isinstance(question, str) else question)
            raise gr.Error("unexpected server error answering this question (the server log has the details)") from None


def build_app(engine: "Engine", warm: bool = True) -> gr.Blocks:
    """The whole page as a ``gr.Blocks`` (queued, not launched); ``warm`` loads retrieval up front so
    the first visitor does not wait for the models."""
    apply_offline_env()
    app = ChatApp(engine)
    if warm:
        warm_engine(engine)
    demo = build_layout(app, offered_backends(app.settings))
    demo.queue(default_concurrency_limit=app.settings.ui.ui_concurrency)
    return demo


def launch_options() -> dict[str, Any]:
    """The ``launch()`` arguments that style the page (Gradio 6 takes theme, css and js there)."""
    return {"theme": gr.themes.Default(primary_hue="indigo"), "css": CSS, "js": CITE_JS,
            "footer_links": ["api"], "share": False, "show_error": True}


def check_serving(settings: Settings) -> Callable[[str, str], bool] | None:
    """The login check to require (``ui.users``); refuses to listen beyond this machine without one."""
    check = login_check(settings.ui.ui_auth, settings.ui.ui_users)
    if check is None and not is_loopback(settings.ui.ui_host):
        raise RagError(f"refusing to serve on {settings.ui.ui_host} without a login: anyone on the network could "
                       "use it. Set RAG_UI_AUTH=user:password or RAG_UI_USERS=PATH, or listen on 127.0.0.1")
    return check


def _exit_on_sigterm(*_: Any) -> None:
    """A stop by SIGTERM (kill, systemd) ends like Ctrl+C, so exit handlers remove the scratch folders;
    a second SIGTERM during that clean-up is ignored."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(0)


def serve(engine: "Engine") -> None:
    """``rag serve``: the chat on settings.ui.ui_host:ui_port until interrupted (no share link, no analytics)."""
    settings = engine.settings
    auth = check_serving(settings)
    demo = build_app(engine)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    print(f"iclr-rag chat on http://{settings.ui.ui_host}:{settings.ui.ui_port}"
          + (" (login required)" if auth else ""), flush=True)
    demo.launch(server_name=settings.ui.ui_host, server_port=settings.ui.ui_port, auth=auth, quiet=True,
                **launch_options())
