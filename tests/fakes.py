"""A small deterministic stand-in for an LLM backend: queued replies, streamed in word-sized pieces."""

from __future__ import annotations

from collections.abc import Iterator

from rag.backends import Message


class FakeLLM:
    def __init__(self, *replies: str, fail: Exception | None = None, name: str = "fake") -> None:
        self.replies = list(replies)
        self.fail = fail
        self.name = name
        self.requests: list[list[Message]] = []

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        self.requests.append(messages)
        if self.fail is not None:
            raise self.fail
        reply = self.replies.pop(0) if self.replies else ""
        words = reply.split(" ")
        for i, word in enumerate(words):
            yield word if i == len(words) - 1 else word + " "


class FakeJSONLLM(FakeLLM):
    """A backend held to a JSON schema, as the local model is (``rag.gist``): its replies are the JSON it writes."""

    def __init__(self, *replies: str, fail: Exception | None = None, name: str = "fake-json") -> None:
        super().__init__(*replies, fail=fail, name=name)
        self.schemas: list[dict] = []

    def stream_json(self, messages: list[Message], schema: dict, max_tokens: int) -> Iterator[str]:
        self.schemas.append(schema)
        yield from self.stream(messages, max_tokens)
