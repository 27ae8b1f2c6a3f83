"""The same index in a real Chroma server (`chroma run`) instead of the embedded client."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rag.engine import Engine
from rag.errors import RagError
from rag.settings import Settings

PAPERS = [
    {"id": "srv1", "title": "LumenGrad: Gradient Checkpointing for Photonic Accelerators",
     "abstract": "We propose LumenGrad, a gradient checkpointing scheme for photonic neural accelerators. "
                 "LumenGrad reduces activation memory by 4.2x with no loss in accuracy."},
    {"id": "srv2", "title": "TideBench: Evaluating Ocean Forecast Models",
     "abstract": "We introduce TideBench, a benchmark of 1,200 coastal stations for evaluating machine "
                 "learning ocean forecast models over 72-hour horizons."},
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_chroma(path: Path, port: int) -> subprocess.Popen:
    """`chroma run` on 127.0.0.1:port, once it answers its heartbeat."""
    chroma = Path(sys.executable).with_name("chroma")
    process = subprocess.Popen([str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("chroma server did not start")
            time.sleep(0.3)


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory):
    port = free_port()
    process = start_chroma(tmp_path_factory.mktemp("chroma-server"), port)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_server_stopped_mid_session_is_a_clear_error_then_recovers(tmp_path: Path) -> None:
    port, data = free_port(), tmp_path / "papers.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in PAPERS), encoding="utf-8")
    engine = Engine(Settings(chroma_host="127.0.0.1", chroma_port=port, collection_prefix="restart",
                             index_dir=tmp_path / "unused", backend="extractive"))
    process = start_chroma(tmp_path / "server", port)
    try:
        engine.ingest([data], progress=False)
        assert "4.2x" in engine.ask("How much memory does LumenGrad save?").text
        process.terminate()
        process.wait(timeout=10)
        with pytest.raises(RagError, match=r"lost the Chroma server at chroma://127.0.0.1:\d+/restart .*Connection "
                                           r"refused.*chroma run"):
            engine.ask("How much memory does LumenGrad save?")
        process = start_chroma(tmp_path / "server", port)  # the same data, the same port: the session goes on
        assert "4.2x" in engine.ask("How much memory does LumenGrad save?").text
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_ingest_and_ask_against_a_chroma_server(chroma_server: int, tmp_path: Path) -> None:
    data = tmp_path / "papers.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in PAPERS), encoding="utf-8")
    settings = Settings(chroma_host="127.0.0.1", chroma_port=chroma_server, collection_prefix="srvtest",
                        index_dir=tmp_path / "unused")
    engine = Engine(settings)
    assert engine.ingest([data], progress=False).added == 2
    assert engine.ingest([data], progress=False).embedded_papers == 0
    answer = engine.ask("How much memory does LumenGrad save?", top_k=2)
    assert not answer.refused and answer.citations[0].paper_id == "srv1" and "4.2x" in answer.text
    assert not (tmp_path / "unused").exists()  # nothing written locally


def test_unreachable_server_is_a_clear_error() -> None:
    settings = Settings(chroma_host="127.0.0.1", chroma_port=free_port())
    with pytest.raises(RagError, match=r"cannot reach the Chroma server at 127.0.0.1:\d+"):
        Engine(settings).papers()


def test_two_writers_on_one_server_queue_instead_of_destroying_each_other(chroma_server: int, tmp_path: Path) -> None:
    from rag.lease import LEASE_SUFFIX, acquire, release
    from rag.store import IndexStore

    data = tmp_path / "papers.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in PAPERS), encoding="utf-8")
    settings = Settings(chroma_host="127.0.0.1", chroma_port=chroma_server, collection_prefix="lease",
                        index_dir=tmp_path / "unused")
    first, second = Engine(settings), Engine(settings)
    assert first.ingest([data], progress=False).added == 2
    generation = first.store.live_generation()
    with first.store.writer_lock():  # the first writer is busy
        with pytest.raises(RagError, match=r"another `rag ingest` \(host .*, pid \d+, since .*\) is writing "
                                           r"chroma://127.0.0.1:\d+/lease; wait for it"):
            second.ingest([data], rebuild=True, progress=False)
        assert first.store.live_generation() == generation  # nothing of the first's was touched
    assert second.ingest([data], rebuild=True, progress=False).added == 2  # the lease was released
    store = IndexStore(settings)
    names = [c if isinstance(c, str) else c.name for c in store.client.list_collections()]
    assert not [n for n in names if LEASE_SUFFIX in n] and store.live_generation() == generation + 1

    dead = acquire(store.client, "lease", store.location, seconds=-1)  # a writer that died: its lease expired
    taken = acquire(store.client, "lease", store.location)
    assert taken["owner"] != dead["owner"]
    release(store.client, "lease", dead)  # the dead writer's release does not free the new owner's lease
    with pytest.raises(RagError, match="is writing"):
        acquire(store.client, "lease", store.location)
    release(store.client, "lease", taken)
    assert not (tmp_path / "unused").exists()  # nothing written locally


def test_the_token_goes_to_the_server_as_a_bearer_header(tmp_path: Path) -> None:
    """Against a stand-in server that records what it is sent (and answers nothing a client accepts)."""
    import http.server
    import threading

    seen: list[str | None] = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            seen.append(self.headers.get("Authorization"))
            self.send_response(401)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings = Settings(chroma_host="127.0.0.1", chroma_port=server.server_address[1], chroma_token="t0ken-42",
                            index_dir=tmp_path / "unused")
        with pytest.raises(RagError, match="cannot reach the Chroma server") as error:
            Engine(settings).papers()
        assert seen and set(seen) == {"Bearer t0ken-42"} and "t0ken-42" not in str(error.value)
    finally:
        server.shutdown()
