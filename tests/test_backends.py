"""Hosted backends against a real local HTTP server speaking the OpenAI chat API (streamed SSE), and
their failures: unreachable, too slow, garbage. Each must end in one line and the extractive answer."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from rag.engine import Engine
from rag.settings import Settings

QUESTION = "What is TRIM-KV?"
GATE = "TRIM-KV keeps the tokens that a lightweight retention gate, learned per token, scores as important"


class _Handler(BaseHTTPRequestHandler):
    mode = "ok"
    reply = f"{GATE} [1]."
    requests: list[dict] = []

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body})
        if self.mode == "slow":
            time.sleep(5)
        if self.mode == "garbage":
            self._send(200, "text/html", b"<html>502 upstream gone</html>")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for i, word in enumerate(self.reply.split(" ")):
            delta = {"role": "assistant", "content": ("" if i == 0 else " ") + word}
            chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                     "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")

    def _send(self, status: int, kind: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _QuietServer(ThreadingHTTPServer):
    """The slow mode's client hangs up on purpose (its timeout is the test): the broken pipe that follows is not
    printed, where it would land in whichever later test captures stderr (a CLI test saw it once)."""

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        pass


@pytest.fixture
def server():
    httpd = _QuietServer(("127.0.0.1", 0), _Handler)
    _Handler.mode, _Handler.requests = "ok", []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def engine_for(seed_index, url: str, timeout: float = 3.0) -> Engine:
    return Engine(Settings(index_dir=seed_index, backend="openai", openai_base_url=url, openai_model="test-model",
                           openai_api_key="none", llm_timeout=timeout))


def test_openai_compatible_server_streams_a_checked_answer(seed_index, server) -> None:
    engine = engine_for(seed_index, f"http://127.0.0.1:{server.server_port}/v1")
    events = list(engine.stream(QUESTION))
    answer = events[-1].answer
    tokens = [e.text for e in events if e.kind == "token"]
    assert [e.kind for e in events][0] == "sources" and tokens[0] == f"{GATE}. [1]"  # one checked sentence
    assert "".join(tokens) == answer.text  # nothing streamed is replaced
    assert answer.backend == "openai" and answer.notice == ""
    assert answer.text.startswith(f"{GATE}. [1]\n\nFrom the abstracts:") and answer.citations[0].paper_id == "qCaq3jGb0S"
    request = _Handler.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["body"]["model"] == "test-model"
    assert request["body"]["stream"] is True and "[1] Cache What Lasts" in request["body"]["messages"][-1]["content"]


@pytest.mark.parametrize("mode, words", [("slow", "Timeout"), ("garbage", "returned no text")])
def test_a_slow_or_garbled_server_gives_one_line_and_the_extractive_answer(seed_index, server, mode, words) -> None:
    _Handler.mode = mode
    engine = engine_for(seed_index, f"http://127.0.0.1:{server.server_port}/v1", timeout=1.0)
    started = time.perf_counter()
    answer = engine.ask(QUESTION)
    assert time.perf_counter() - started < 4.5  # the 5 s server delay is cut off by the 1 s timeout
    assert answer.citations[0].paper_id == "qCaq3jGb0S" and answer.notice and "\n" not in answer.notice
    assert words.lower() in answer.notice.lower() or "did not hold up" in answer.notice


def test_an_unreachable_server_gives_one_line_and_the_extractive_answer(seed_index) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    answer = engine_for(seed_index, f"http://127.0.0.1:{port}/v1").ask(QUESTION)
    assert "openai" in answer.notice and "Connection" in answer.notice and "\n" not in answer.notice
    assert answer.citations[0].paper_id == "qCaq3jGb0S"


def test_openai_without_a_server_url_is_a_clear_error(seed_index) -> None:
    from rag.errors import RagError

    with pytest.raises(RagError, match="RAG_OPENAI_BASE_URL"):
        Engine(Settings(index_dir=seed_index, backend="openai", openai_base_url=None)).ask(QUESTION)


class TestRegistry:
    """One registry names every backend: the CLI's choices, the browser's list and the benches' variants."""

    def test_the_cli_offers_exactly_the_registered_backends(self) -> None:
        from rag.backends import REGISTRY
        from rag.cli import build_parser

        ask = build_parser()._subparsers._group_actions[0].choices["ask"]
        backend = next(a for a in ask._actions if a.dest == "backend")
        assert list(backend.choices) == list(REGISTRY) == ["local", "extractive", "openai", "ollama"]

    def test_a_variant_names_its_backend_and_the_settings_it_changes(self) -> None:
        from rag.backends import spec_for

        spec, overrides = spec_for("local-1.5b")
        assert spec.name == "local" and overrides == {"llm_model": "1.5b"}
        assert spec_for("ollama")[1] == {}

    def test_an_unknown_backend_lists_the_known_ones(self) -> None:
        from rag.backends import make_backend
        from rag.errors import RagError

        with pytest.raises(RagError, match="unknown backend 'gpt5'.*extractive.*local-0.5b"):
            make_backend("gpt5", Settings())

    def test_openai_is_offered_and_ready_only_with_a_server(self) -> None:
        from rag.backends import REGISTRY, offered_backends

        bare, configured = Settings(backend="local"), Settings(backend="local", openai_base_url="http://127.0.0.1:1/v1")
        assert offered_backends(bare) == ["local", "extractive", "ollama"]
        assert offered_backends(configured) == ["local", "extractive", "openai", "ollama"]
        assert "RAG_OPENAI_BASE_URL" in REGISTRY["openai"].unavailable(bare)
        assert REGISTRY["openai"].unavailable(configured) is None

    def test_the_local_backend_says_how_to_fetch_a_missing_model(self, tmp_path) -> None:
        from rag.backends import REGISTRY

        assert "rag models fetch --model 0.5b" in REGISTRY["local"].unavailable(Settings(models_dir=tmp_path))

    def test_rag_backends_lists_them_as_json(self, capsys) -> None:
        from rag.cli import main

        assert main(["backends", "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)
        assert [r["name"] for r in rows] == ["local", "extractive", "openai", "ollama"]
        assert all({"description", "variants", "settings", "unavailable", "default"} <= set(r) for r in rows)
