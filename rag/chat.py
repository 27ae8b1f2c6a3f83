"""Conversations: turns remembered so follow-ups work, for the terminal chat, scripts and the UI.

Kept as a small list of turns rather than llama-index's ``ChatMemoryBuffer`` because a follow-up needs
what each turn *cited* (paper ids), not just its text, and the buffer stores messages only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rag.answer import spelling_note
from rag.errors import RagError
from rag.types import Answer, Shown, StreamEvent, final_answer

if TYPE_CHECKING:
    from rag.engine import Engine


@dataclass
class Exchange:
    """One question of a conversation and its answer (what the next turn's follow-up refers to)."""

    question: str
    answer: Answer


@dataclass
class ChatSession:
    engine: Engine
    backend: str | None = None
    top_k: int | None = None
    paper_ids: list[str] | None = None  # restrict the conversation to these papers
    turns: list[Exchange] = field(default_factory=list)

    def stream(self, question: str, compare_ids: list[str] | None = None) -> Iterator[StreamEvent]:
        """The engine's event stream for this turn, with the conversation so far as context."""
        history = [t.question for t in self.turns]
        last = self.turns[-1].answer if self.turns else None
        carried = [c.paper_id for c in last.citations] if last and not last.refused else None
        table = [Shown.of(t.answer) for t in self.turns]
        for event in self.engine.stream(question, history=history, top_k=self.top_k, backend=self.backend,
                                        carried=carried, paper_ids=self.paper_ids, compare_ids=compare_ids,
                                        table=table):
            if event.kind == "done":
                self.turns.append(Exchange(question, event.answer))
            yield event

    def ask(self, question: str) -> Answer:
        return final_answer(self.stream(question))


def format_sources(answer_or_sources: Any, refused: bool = False) -> str:
    sources = getattr(answer_or_sources, "sources", answer_or_sources)
    if not sources:
        return ""
    head = "Closest papers (not used):" if refused else "Sources:"
    return "\n".join([head] + [f"  [{s.rank}] {s.paper.title}  ({s.paper.paper_id}, score {s.score:.4f})"
                               for s in sources])


def print_streamed(events: Iterator[StreamEvent], out: TextIO | None = None) -> Answer:
    """Sources first, then the answer as it is written; then the checked answer if checking changed it."""
    out = out or sys.stdout
    streamed: list[str] = []
    answer = None
    for event in events:
        if event.kind == "sources" and event.sources:
            print(format_sources(event.sources, event.refused) + "\n", file=out, flush=True)
        elif event.kind == "token":
            streamed.append(event.text)
            print(event.text, end="", file=out, flush=True)
        elif event.kind == "done":
            answer = event.answer
    assert answer is not None
    written = "".join(streamed)
    if " ".join(written.split()) != " ".join(answer.text.split()):
        label = "Checked against the sources" if not answer.notice else "Answer"
        print(f"\n\n{label}:\n{answer.text}", file=out)
    for note in (spelling_note(answer.corrections), answer.notice):
        if note:
            print(f"\n{note}", file=out)
    print(file=out, flush=True)
    return answer


def run_chat(session: ChatSession, script: Path | None = None, as_json: bool = False) -> None:
    """``rag chat``: turns typed at the prompt (empty line or Ctrl-D ends) or read from ``script``, one a line;
    each answer streamed, or printed as one ``rag ask --json`` object a turn."""
    if script:
        if not script.is_file():
            raise RagError(f"{script}: no such file; give a text file with one question per line")
        turns: Iterable[str] = [t.strip() for t in script.read_text(encoding="utf-8").splitlines() if t.strip()]
    else:
        if not as_json:
            print("Ask about the indexed ICLR 2026 papers; follow-ups refer to earlier answers. "
                  "Empty line or Ctrl-D to quit.")
        turns = _typed_turns(as_json)
    for question in turns:
        try:
            if as_json:
                print(json.dumps(session.ask(question).to_json(), ensure_ascii=False), flush=True)
            else:
                print(f"\nyou> {question}" if script else "", end="\n" if script else "")
                print_streamed(session.stream(question))
        except RagError as exc:
            if script:
                raise
            print(f"error: {exc}")


def _typed_turns(quiet: bool) -> Iterator[str]:
    while True:
        try:
            question = input("" if quiet else "\nyou> ").strip()
        except EOFError:
            print()
            return
        if not question or question.lower() in {"exit", "quit", ":q"}:
            return
        yield question
