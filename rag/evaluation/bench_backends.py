"""``rag bench backends``: the question set answered by each backend in one run, side by side.

``openai`` is measured against a real OpenAI-compatible HTTP server on 127.0.0.1: llama.cpp's own
server (inside ``xllamacpp``) serving the local 0.5B model, so no network or key is needed.
"""

from __future__ import annotations

import json
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rag.settings import Settings

DEFAULT = ("extractive", "local-0.5b", "local-1.5b", "openai")
COLUMNS = ("first_token_p50_ms", "tokens_per_s", "citation_precision", "citation_recall", "supported_share",
           "llm_answer_kept", "refusal_correct", "false_refusal", "hit@1", "latency_p50_ms")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def openai_compatible_server(settings: Settings):
    """llama.cpp's OpenAI-compatible HTTP server for the local model; yields (base_url, api_key)."""
    import xllamacpp

    from rag.local_llm import server_params
    from rag.models import fetch_model

    path = fetch_model(settings.llm.models_dir, settings.llm.llm_model, progress=False)
    params = server_params(str(path), settings.llm.llm_ctx, settings.llm.llm_threads, port=_free_port())
    key = params.api_keys[0]
    server = xllamacpp.Server(params)
    try:
        yield f"http://127.0.0.1:{params.port}/v1", key
    finally:
        del server


def _settings_for(name: str, base: Settings, server: tuple[str, str] | None) -> tuple[str, Settings]:
    """A registered backend or variant ("local-1.5b") and its settings; ``openai`` against ``server``."""
    from rag.backends import spec_for

    spec, overrides = spec_for(name)
    if spec.name == "openai" and server is not None:
        url, key = server
        return "openai", base.with_overrides(openai_base_url=url, openai_api_key=key,
                                              openai_model=f"qwen2.5-coder-{base.llm.llm_model}")
    return spec.name, base.with_overrides(**overrides)


def bench_backends(settings: Settings, path: Path, names: list[str], out: Path | None = None) -> dict[str, Any]:
    from rag.evaluation.bench import _table
    from rag.engine import Engine
    from rag.evaluation.evaluate import run_eval

    summaries: dict[str, dict[str, float]] = {}
    for name in names:
        with (openai_compatible_server(settings) if name == "openai" and not settings.llm.openai_base_url
              else _no_server()) as server:
            backend, chosen = _settings_for(name, settings, server)
            engine = Engine(chosen.with_overrides(backend=backend))
            if backend != "extractive":  # run_eval loads retrieval and the model; one answer warms llama.cpp too
                engine.ask("warm up the model", backend=backend)
            _, summaries[name] = run_eval(engine, path, progress=False)
        if out:  # after each backend: a long run that is stopped keeps what it measured
            out.mkdir(parents=True, exist_ok=True)
            (out / "bench_backends.json").write_text(json.dumps(summaries, indent=2))
    rows = [("backend", *COLUMNS)]
    for name, summary in summaries.items():
        rows.append((name, *(f"{summary[c]:.3f}" if c in summary else "—" for c in COLUMNS)))
    print(_table(rows))
    print(f"{path.name}: latencies in ms; citation precision/recall over answered items; supported_share = "
          "answer sentences a cited source supports; llm_answer_kept = answers not replaced by the extractive one")
    return summaries


@contextmanager
def _no_server():
    yield None
