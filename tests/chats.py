"""Helpers for tests that run whole conversations on the real seed index with the extractive backend."""

from __future__ import annotations

from rag.chat import ChatSession


def ask_all(engine, *questions: str):
    """Each question asked in turn in one conversation; their answers."""
    chat = ChatSession(engine, backend="extractive")
    return [chat.ask(q) for q in questions]


def cited(answer) -> list[str]:
    """The paper ids the answer cites, in citation order, each once."""
    return list(dict.fromkeys(c.paper_id for c in answer.citations))
