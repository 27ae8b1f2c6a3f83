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


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory):
    port = free_port()
    chroma = Path(sys.executable).with_name("chroma")
    process = subprocess.Popen([str(chroma), "run", "--path", str(tmp_path_factory.mktemp("chroma-server")),
                                "--host", "127.0.0.1", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("chroma server did not start")
                time.sleep(0.3)
        yield port
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
