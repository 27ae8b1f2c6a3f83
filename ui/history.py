"""Conversations kept across page reloads and server restarts: one JSON file each, written atomically.

A stored turn keeps what the page needs to show it again and what a follow-up needs (the cited paper
ids): question, answer text, refusal, notice, citations, sources, the supporting sentences and, for a question
about the collection, its chart (papers per group).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.answer import spelling_note
from rag.errors import RagError
from rag.types import Answer, Citation, CollectionStats, Paper, Source

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
_ID = re.compile(r"^[a-z0-9]{8,32}$")


def scratch_dir(prefix: str) -> Path:
    """A private temporary folder for files handed to Gradio (exports, plots), removed when the server
    process exits (Gradio serves its own copies from its cache)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


class ConversationError(RagError):
    """A conversation file that cannot be read, or an id that names no conversation."""


@dataclass
class StoredTurn:
    """One question and its checked answer, as kept on disk."""

    question: str
    answer: str
    refused: bool
    notice: str = ""
    backend: str = ""
    citations: list[Citation] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    evidence_sentences: dict[str, list[str]] = field(default_factory=dict)
    compare_ids: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    chart: CollectionStats | None = None
    about: list[str] = field(default_factory=list)  # a refusal's papers (``Answer.about``)
    picked: str = ""  # a choice's pick (``Answer.picked``)

    @classmethod
    def from_answer(cls, answer: Answer, compare_ids: list[str] | None = None) -> StoredTurn:
        return cls(
            question=answer.question, answer=answer.text, refused=answer.refused, notice=answer.notice,
            backend=answer.backend, citations=list(answer.citations),
            sources=list(answer.sources),
            evidence_sentences={k: list(v) for k, v in answer.evidence_sentences.items()},
            compare_ids=list(compare_ids or []), corrections=dict(answer.corrections), chart=answer.chart,
            about=list(answer.about), picked=answer.picked,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question, "answer": self.answer, "refused": self.refused, "notice": self.notice,
            "backend": self.backend, "citations": [c.to_json() for c in self.citations],
            "sources": [s.to_json(abstract=False) for s in self.sources], "evidence_sentences": self.evidence_sentences,
            "compare_ids": self.compare_ids, "corrections": self.corrections,
        } | ({"chart": self.chart.to_json()} if self.chart else {}) | ({"about": self.about} if self.about else {}) | (
            {"picked": self.picked} if self.picked else {})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StoredTurn:
        return cls(
            question=str(data["question"]), answer=str(data["answer"]), refused=bool(data["refused"]),
            notice=str(data.get("notice") or ""), backend=str(data.get("backend") or ""),
            citations=[Citation(int(c["n"]), str(c["paper_id"]), str(c["title"])) for c in data.get("citations", [])],
            sources=[Source.from_json(s) for s in data.get("sources", [])],
            evidence_sentences={str(k): [str(s) for s in v] for k, v in (data.get("evidence_sentences") or {}).items()},
            compare_ids=[str(p) for p in data.get("compare_ids", [])],
            corrections={str(k): str(v) for k, v in (data.get("corrections") or {}).items()},
            chart=CollectionStats.from_json(data["chart"]) if data.get("chart") else None,
            about=[str(p) for p in data.get("about", [])], picked=str(data.get("picked") or ""),
        )

    def to_answer(self, papers: dict[str, Paper]) -> Answer:
        """The turn as an ``Answer`` again, for a ``ChatSession`` reopened from disk."""
        sources = [Source.from_json(s.to_json(abstract=False), papers) for s in self.sources]
        return Answer(question=self.question, text=self.answer, refused=self.refused, citations=list(self.citations),
                      sources=sources, backend=self.backend, notice=self.notice,
                      evidence_sentences={k: list(v) for k, v in self.evidence_sentences.items()},
                      corrections=dict(self.corrections), chart=self.chart, about=list(self.about),
                      picked=self.picked)


@dataclass
class Conversation:
    id: str
    title: str = ""
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    turns: list[StoredTurn] = field(default_factory=list)

    def add(self, turn: StoredTurn) -> None:
        self.turns.append(turn)
        self.title = self.title or _short(turn.question)
        self.updated = time.time()

    def label(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.updated))
        return f"{self.title or 'New conversation'} · {when}"

    def to_json(self) -> dict[str, Any]:
        return {"version": FORMAT_VERSION, "id": self.id, "title": self.title, "created": self.created,
                "updated": self.updated, "turns": [t.to_json() for t in self.turns]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conversation:
        return cls(id=str(data["id"]), title=str(data.get("title") or ""), created=float(data["created"]),
                   updated=float(data["updated"]), turns=[StoredTurn.from_json(t) for t in data["turns"]])


def _short(question: str, words: int = 10) -> str:
    parts = question.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def new_conversation_id() -> str:
    return secrets.token_hex(8)


def valid_id(conversation_id: str | None) -> bool:
    return bool(conversation_id) and bool(_ID.match(conversation_id or ""))


class ConversationStore:
    """One ``<id>.json`` per conversation under ``root``; ids are checked, so none can name another path."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, conversation_id: str) -> Path:
        if not valid_id(conversation_id):
            raise ConversationError(f"not a conversation id: {conversation_id!r}")
        return self.root / f"{conversation_id}.json"

    def save(self, conversation: Conversation) -> Path:
        """Write to a temporary file beside the target, then rename: a reader never sees half a file."""
        target = self.path(conversation.id)
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.root, 0o700)  # one person's questions: only they (the server's user) read them
        write_atomic(target, json.dumps(conversation.to_json(), ensure_ascii=False, indent=1) + "\n", mode=0o600)
        return target

    def load(self, conversation_id: str) -> Conversation:
        path = self.path(conversation_id)
        if not path.is_file():
            raise ConversationError(f"no saved conversation {conversation_id} in {self.root}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            conversation = Conversation.from_json(data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConversationError(f"{path}: unreadable conversation file ({type(exc).__name__}: {exc}); "
                                    "delete it or restore it from a backup") from exc
        if conversation.id != conversation_id:
            raise ConversationError(f"{path}: holds conversation {conversation.id!r}, not {conversation_id!r}")
        return conversation

    def exists(self, conversation_id: str) -> bool:
        return valid_id(conversation_id) and self.path(conversation_id).is_file()

    def conversations(self) -> list[Conversation]:
        """Every readable conversation, latest first; unreadable files are skipped with a warning."""
        if not self.root.is_dir():
            return []
        found = []
        for path in self.root.glob("*.json"):
            if not valid_id(path.stem):
                continue
            try:
                found.append(self.load(path.stem))
            except ConversationError as exc:
                log.warning("skipped a conversation: %s", exc)
        return sorted(found, key=lambda c: c.updated, reverse=True)

    def delete(self, conversation_id: str) -> None:
        self.path(conversation_id).unlink(missing_ok=True)

    def secret(self) -> str:
        """A key kept beside the conversations, so the browser's pointer to its conversation (encrypted
        in localStorage by Gradio) still opens after a server restart."""
        path = self.root / ".browser-secret"
        if path.is_file():
            text = path.read_text(encoding="utf-8").strip()
            if len(text) >= 16:
                return text
        text = secrets.token_urlsafe(24)
        write_atomic(path, text + "\n", mode=0o600)
        return text


def write_atomic(target: Path, text: str, mode: int = 0o644) -> None:
    """``text`` into ``target`` via a temporary file in the same folder and ``os.replace``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def export_markdown(conversation: Conversation, papers: dict[str, Paper]) -> str:
    """The conversation as a Markdown document: each question, its answer, notice and sources."""
    lines = [f"# {conversation.title or 'Conversation'}", "",
             f"Exported {time.strftime('%Y-%m-%d %H:%M')} from iclr-rag ({len(conversation.turns)} turns).", ""]
    for i, turn in enumerate(conversation.turns, start=1):
        lines += [f"## {i}. {turn.question}", ""]
        if turn.corrections:
            lines += [f"> {spelling_note(turn.corrections)}", ""]
        lines += [turn.answer, ""]
        if turn.notice:
            lines += [f"> {turn.notice}", ""]
        if turn.sources:
            lines += ["Closest papers (not used):" if turn.refused else "Sources:", ""]
            for source in turn.sources:
                paper = papers.get(source.paper_id)
                url = (paper.url or (f"https://openreview.net/forum?id={paper.openreview_id}"
                                     if paper.openreview_id else None)) if paper else None
                title = f"[{source.title}]({url})" if url else source.title
                lines.append(f"{source.rank}. {title} (`{source.paper_id}`, score {source.score:.3f})")
            lines.append("")
    return "\n".join(lines)


def export_json(conversation: Conversation) -> str:
    return json.dumps(conversation.to_json(), ensure_ascii=False, indent=1) + "\n"
