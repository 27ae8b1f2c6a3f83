"""The real Gradio app on a free loopback port for the UI tests, a ``gradio_client`` for it, and the
headless Chromium flags (Debian's chromium; no network: every host but 127.0.0.1 fails to resolve)."""

from __future__ import annotations

import json
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rag.settings import Settings, apply_offline_env

apply_offline_env()

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
TRIM_KV = "qCaq3jGb0S"
TACTIC = "tJod11fK1A"


@dataclass
class RunningApp:
    url: str
    engine: Any
    history_dir: Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_app(index_dir: Path, history_dir: Path, auth: Any = None, **settings: Any) -> Iterator[RunningApp]:
    """``build_app`` over ``index_dir`` launched in this process (``prevent_thread_lock``), closed after; ``auth``:
    Gradio's login check, if any."""
    from rag.engine import Engine
    from ui.app import build_app, launch_options

    engine = Engine(Settings(index_dir=index_dir, ui_history_dir=history_dir, backend="extractive", **settings))
    demo = build_app(engine)
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, auth=auth,
                **launch_options())
    try:
        yield RunningApp(f"http://127.0.0.1:{port}/", engine, history_dir)
    finally:
        demo.close()


def client(url: str, auth: tuple[str, str] | None = None) -> Any:
    """A gradio_client with telemetry off (it ignores GRADIO_ANALYTICS_ENABLED unless told too)."""
    from gradio_client import Client

    return Client(url, analytics_enabled=False, verbose=False, download_files=False, auth=auth)


@pytest.fixture(scope="module")
def seed_app(seed_index: Path) -> Iterator[RunningApp]:
    """The app over the seed index, with its own empty conversation folder."""
    with tempfile.TemporaryDirectory(prefix="ui-history-") as history, running_app(seed_index, Path(history)) as app:
        yield app


def seed_questions(count: int) -> list[tuple[str, str]]:
    """("What is <name>?", paper id) for seed papers with an OpenReview id; <name> is the short name
    before a title's colon when there is one, else the whole title."""
    from rag.settings import PROJECT_ROOT

    titles = json.loads((PROJECT_ROOT / "seeds" / "titles.json").read_text(encoding="utf-8"))
    questions = []
    for entry in titles:
        if not entry.get("openreview_id"):
            continue
        title = entry["title"]
        head = title.split(":")[0]
        name = head if ":" in title and len(head.split()) <= 4 else title
        questions.append((f"What is {name}?", entry["openreview_id"]))
    return questions[:count]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def wait_until(predicate: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False
