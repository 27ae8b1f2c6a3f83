"""The local LLM at run time: a GGUF chat model run in-process by llama.cpp (``xllamacpp``), streaming.

``rag.models`` fetches and verifies the weights; this module only loads and runs them.
"""

from __future__ import annotations

import atexit
import gc
import queue
import secrets
import threading
import time
import weakref
from collections.abc import Generator
from pathlib import Path
from typing import Any

from rag.errors import RagError
from rag.models import MODELS, fetch_hint, verify_model

SEED = 42
_END = object()
_servers: dict[tuple[str, int, int], Any] = {}
_servers_lock = threading.Lock()
_instances: weakref.WeakSet[LocalLLM] = weakref.WeakSet()  # every LocalLLM, to drop its server at exit
# Replies being generated: (stop flag, llama.cpp thread). Python's exit kills a daemon thread that is
# inside llama.cpp by unwinding it through C++ frames, which aborts the process ("FATAL: exception not
# rethrown", exit 134): a `rag serve` stopped by SIGTERM mid-answer did exactly that.
_running: set[tuple[threading.Event, threading.Thread]] = set()
_STOP_WAIT_S = 10.0  # llama.cpp notices the stop flag at its next token; a long prompt may take seconds


@atexit.register
def _stop_running_replies() -> None:
    """At exit, ask llama.cpp to drop every reply in progress and wait for its threads to leave it."""
    for stop, _ in list(_running):
        stop.set()
    deadline = time.monotonic() + _STOP_WAIT_S
    for _, thread in list(_running):
        thread.join(max(0.0, deadline - time.monotonic()))
    if any(thread.is_alive() for _, thread in _running):
        return  # a reply is still inside llama.cpp: freeing its server now would pull memory from under it
    # Free the servers while the interpreter is whole: left alive into the process's exit, llama.cpp's own
    # threads ran on into freed memory (a segfault at exit, about 1 run in 10 under CPU load).
    for llm in list(_instances):
        llm._server = None
    with _servers_lock:
        _servers.clear()
    gc.collect()


class LocalLLM:
    """A chat model run in-process by llama.cpp (xllamacpp); loads once per (path, n_ctx, threads).

    Safe to share between threads: llama.cpp queues concurrent requests and, with one slot, runs
    them one after another, each with the whole context.
    """

    def __init__(self, path: Path, n_ctx: int = 4096, threads: int = 2) -> None:
        self.path, self.n_ctx, self.threads = Path(path), n_ctx, threads
        spec = next((spec for spec in MODELS.values() if spec.filename == self.path.name), None)
        # A GGUF we have no spec for is the user's own choice: it only has to exist.
        if not (verify_model(self.path, spec) if spec else self.path.is_file()):
            raise RagError(f"local model files missing or corrupted ({self.path}): "
                           f"{fetch_hint(spec.name if spec else '0.5b')}")
        self._server = _server_for(self.path, n_ctx, threads)
        _instances.add(self)

    def stream_chat(self, messages: list[dict[str, Any]], max_tokens: int, temperature: float = 0.0,
                    schema: dict[str, Any] | None = None) -> Generator[str, None, None]:
        """Yield the reply's text deltas as llama.cpp produces them; closing the generator early cancels.
        ``schema``: a JSON schema the reply must follow (llama.cpp turns it into a grammar: constrained decoding)."""
        request = {"messages": messages, "max_tokens": max_tokens, "temperature": temperature,
                   "seed": SEED, "stream": True} | ({"json_schema": schema} if schema else {})
        chunks: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            chunks.put(chunk)
            return stop.is_set()  # True makes llama.cpp drop the request

        def generate() -> None:
            try:  # blocks until the reply is complete, calling on_chunk for every chunk
                self._server.handle_chat_completions(request, on_chunk)
            except BaseException as error:  # handed to the consumer, raised there
                chunks.put(error)
            finally:
                _running.discard(running)
                chunks.put(_END)

        running = (stop, threading.Thread(target=generate, name="local-llm", daemon=True))
        _running.add(running)
        running[1].start()
        try:
            while (item := chunks.get()) is not _END:
                if isinstance(item, BaseException):
                    raise RagError(f"the local model failed: {item}") from item
                if text := _delta_text(item):
                    yield text
        finally:
            stop.set()


def _delta_text(chunk: dict[str, Any]) -> str:
    """Text of one streamed chunk (an OpenAI-style dict); the first and last chunks carry none."""
    if error := chunk.get("error"):
        message = error.get("message", error) if isinstance(error, dict) else error
        raise RagError(f"the local model refused the request: {message}")
    choices = chunk.get("choices") or [{}]
    return (choices[0].get("delta") or {}).get("content") or ""


def _server_for(path: Path, n_ctx: int, threads: int) -> Any:
    key = (str(path.resolve()), n_ctx, threads)
    with _servers_lock:
        if key not in _servers:
            _servers[key] = _load_server(*key)
        return _servers[key]


def server_params(path: str, n_ctx: int, threads: int, port: int = 0) -> Any:
    """llama.cpp server settings for one model: one slot, quiet, and a random API key (returned in
    ``api_keys``), since the server also listens on 127.0.0.1 (``port`` 0: a random one)."""
    try:
        import xllamacpp
    except ImportError as error:
        raise RagError("the local LLM needs xllamacpp: pip install xllamacpp") from error
    params = xllamacpp.CommonParams()
    params.model.path = path
    params.n_ctx = n_ctx
    params.n_parallel = 1  # one slot with the whole context (llama.cpp's "auto" would split it 4 ways)
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.verbosity = 0  # otherwise llama.cpp logs every request to stderr
    params.hostnames = ["127.0.0.1"]
    params.port = port
    # An unknown key keeps other processes out of the listener.
    params.api_keys = [secrets.token_urlsafe(24)]
    return params


def _load_server(path: str, n_ctx: int, threads: int) -> Any:
    import xllamacpp

    params = server_params(path, n_ctx, threads)
    try:
        return xllamacpp.Server(params)
    except Exception as error:
        raise RagError(f"llama.cpp could not load {path} ({error}); "
                       f"delete it and run `rag models fetch`") from error
