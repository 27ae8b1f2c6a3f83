"""Open conversations shared by every browser tab: each a stored record plus the ``ChatSession`` that
makes follow-ups work, rebuilt from disk when a conversation is reopened after a reload or restart."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rag.answer import spelling_note
from rag.chat import ChatSession, Exchange
from rag.types import Answer, Source
from ui.catalog import Catalog
from ui.history import Conversation, ConversationStore, StoredTurn, new_conversation_id, valid_id
from ui.render import answer_markdown, notice_markdown, question_markdown

if TYPE_CHECKING:
    from rag.engine import Engine


@dataclass
class OpenConversation:
    record: Conversation
    session: ChatSession
    owner: Conversations  # whose it is: where it is saved and listed
    lock: threading.Lock = field(default_factory=threading.Lock)  # one question at a time per conversation

    @property
    def id(self) -> str:
        return self.record.id


class Conversations:
    """The conversations in memory (least recently used dropped beyond ``capacity``; they reopen
    from disk), over a ``ConversationStore``."""

    def __init__(self, engine: Engine, store: ConversationStore, catalog: Catalog, capacity: int = 128) -> None:
        self.engine = engine
        self.store = store
        self.catalog = catalog
        self.capacity = capacity
        self._open: OrderedDict[str, OpenConversation] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, conversation_id: str | None) -> OpenConversation:
        """The conversation with this id: in memory, else from disk, else a new empty one (with an id the server
        makes: a caller cannot pick the name of a conversation)."""
        with self._lock:
            if conversation_id in self._open:
                self._open.move_to_end(conversation_id)
                return self._open[conversation_id]
            if valid_id(conversation_id) and self.store.exists(conversation_id):
                record = self.store.load(conversation_id)
            else:
                record = Conversation(id=new_conversation_id())
            return self._remember(OpenConversation(record, self._session_for(record), self))

    def known(self, conversation_id: str | None) -> bool:
        """Whether the id names a conversation in memory or on disk."""
        return conversation_id in self._open or (valid_id(conversation_id) and self.store.exists(conversation_id))

    def new(self) -> OpenConversation:
        return self.open(None)

    def latest_id(self) -> str | None:
        saved = self.store.conversations()
        return saved[0].id if saved else None

    def saved(self) -> list[Conversation]:
        return self.store.conversations()

    def delete(self, conversation_id: str) -> None:
        with self._lock:
            self._open.pop(conversation_id, None)
        if valid_id(conversation_id):
            self.store.delete(conversation_id)

    def record(self, conversation: OpenConversation, answer: Answer, compare_ids: list[str] | None) -> StoredTurn:
        """Keep a finished turn: append it to the record and write the record to disk."""
        turn = StoredTurn.from_answer(answer, compare_ids)
        self.catalog.remember([s.paper for s in answer.sources])
        conversation.record.add(turn)
        self.store.save(conversation.record)
        return turn

    def _session_for(self, record: Conversation) -> ChatSession:
        papers = self.catalog.by_id()
        session = ChatSession(self.engine)
        session.turns = [Exchange(t.question, t.to_answer(papers)) for t in record.turns]
        return session

    def _remember(self, conversation: OpenConversation) -> OpenConversation:
        self._open[conversation.id] = conversation
        while len(self._open) > self.capacity:
            self._open.popitem(last=False)
        return conversation


def source_views(turn: StoredTurn) -> list[Source]:
    return list(turn.sources)


def answer_message(turn: StoredTurn, index: int) -> str:
    """A finished turn's answer as chat Markdown: a spelling note if any, linked citations, then the notice."""
    known = [s.rank for s in turn.sources] if not turn.refused else []
    parts = [notice_markdown(spelling_note(turn.corrections)), answer_markdown(turn.answer, index, known),
             notice_markdown(turn.notice)]
    return "\n\n".join(part for part in parts if part)


def chat_messages(record: Conversation) -> list[dict[str, str]]:
    """The conversation as Chatbot messages (role/content dicts, content escaped Markdown)."""
    messages: list[dict[str, str]] = []
    for index, turn in enumerate(record.turns):
        messages.append({"role": "user", "content": question_markdown(turn.question)})
        messages.append({"role": "assistant", "content": answer_message(turn, index)})
    return messages
