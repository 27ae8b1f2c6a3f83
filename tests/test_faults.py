"""The fault and bad-input matrix: each case gives a clear one-line error (no traceback, no "unexpected") and leaves
the index exactly as it was (`rag papers --json` byte for byte); a killed ingest, at any phase, is finished by a
re-run. (Hosted backends down, slow and garbled: test_backends.py; a Chroma server stopped and restarted:
test_chroma_server.py; two browsers logged in as two people: test_ui_browser.py.)"""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rag.index import ingest
from rag.settings import PROJECT_ROOT, Settings
from rag.store import IndexStore
from rag.tidy import status

from conftest import SEEDS
from test_cli import run_cli
from test_index import NEW_PAPER, write_jsonl


def papers_checksum(capsys: pytest.CaptureFixture[str], index: Path) -> str:
    code, out, _ = run_cli(capsys, "papers", "--json", "--index", str(index))
    assert code == 0
    return hashlib.sha256(out.encode()).hexdigest()


def _bad_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """name → (input, what the error must say)."""
    folder.mkdir(exist_ok=True)
    made: dict[str, tuple[Path, str]] = {}

    def add(name: str, filename: str, content: bytes | None, message: str) -> None:
        path = folder / name / filename
        path.parent.mkdir(exist_ok=True)
        if content is not None:
            path.write_bytes(content)
        made[name] = (path, message)

    add("missing", "gone.jsonl", None, "no such file")
    add("empty", "empty.jsonl", b"", "is empty")
    add("binary", "blob.jsonl", b"\x00\x01\x02binary", "binary file")
    add("malformed-json", "bad.jsonl", b'{"title": "a", "abstract": "b"}\n{broken\n', ":2: malformed JSON")
    add("not-utf8", "latin.txt", "Header\nWe propose caf\xe9 nets.\n".encode("latin-1"), ":2: is not valid UTF-8")
    add("no-abstract", "noabs.jsonl", b'{"title": "only a title"}\n', ":1: record has no 'abstract'")
    add("not-an-object", "list.jsonl", b'["a", "b"]\n', ":1: expected an object")
    add("csv-no-abstract", "table.csv", b"title,year\nA paper,2026\n", "abstract")
    add("truncated-gzip", "cut.jsonl.gz", gzip.compress(b'{"abstract": "We propose x."}\n' * 50)[:40],
        "cannot read file")
    add("gzip-bomb", "bomb.jsonl.gz", gzip.compress(b'{"abstract": "We propose a frog model."}\n' * 60000),
        "unpacks to more than 1 MB")
    add("too-large", "big.jsonl", b'{"abstract": "We propose a large model."}\n' * 40000, "the limit is 1 MB")
    add("unsupported", "paper.pdf", b"%PDF-1.4", "Supported inputs")
    add("empty-folder", "nothing/", None, "Supported inputs")
    (folder / "empty-folder" / "nothing").mkdir(parents=True, exist_ok=True)
    return made


BAD = ["missing", "empty", "binary", "malformed-json", "not-utf8", "no-abstract", "not-an-object", "csv-no-abstract",
       "truncated-gzip", "gzip-bomb", "too-large", "unsupported", "empty-folder"]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    return _bad_files(tmp_path_factory.mktemp("bad"))


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_one_clear_line_and_the_index_is_unchanged(case: str, bad_files: dict, seed_copy: Path,
                                                                capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path, message = bad_files[case]
    monkeypatch.setenv("RAG_MAX_FILE_MB", "1")
    monkeypatch.setenv("RAG_MAX_UNPACKED_MB", "1")
    before = papers_checksum(capsys, seed_copy)
    code, out, err = run_cli(capsys, "ingest", "-q", "--index", str(seed_copy), str(SEEDS), str(path))
    assert code == 2 and out == "" and message in err, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err and "unexpected" not in err
    assert papers_checksum(capsys, seed_copy) == before


@pytest.mark.parametrize(("argv", "message"), [
    (["ask", "  "], "the question is empty"),
    (["ask", "What is TRIM-KV? " * 150], "the limit is 2,000"),
    (["ask", "TRIM-KV\udcff?"], "invalid text"),
    (["ask", "-k", "0", "What is TRIM-KV?"], "from 1 to 50"),
    (["ask", "-k", "51", "What is TRIM-KV?"], "from 1 to 50"),
    (["ask", "--backend", "gpt9", "What is TRIM-KV?"], "invalid choice"),
    (["ingest"], "nothing to ingest"),
])
def test_bad_questions_and_options_are_one_clear_line(argv: list[str], message: str, seed_copy: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    before = papers_checksum(capsys, seed_copy)
    backend = ["--backend", "extractive"] if argv[0] == "ask" and "--backend" not in argv else []
    try:
        code, _, err = run_cli(capsys, *argv, *backend, "--index", str(seed_copy))
    except SystemExit as exit_:  # argparse: usage and the reason, exit 2
        code, err = exit_.code, capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err and "unexpected" not in err
    assert papers_checksum(capsys, seed_copy) == before


def test_other_settings_than_the_index_was_built_with(seed_copy: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    before = papers_checksum(capsys, seed_copy)
    monkeypatch.setenv("RAG_CHUNK_SIZE", "120")
    code, _, err = run_cli(capsys, "ask", "--backend", "extractive", "--index", str(seed_copy), "What is TRIM-KV?")
    assert code == 2 and "rag ingest --rebuild" in err and err.count("\n") == 1
    monkeypatch.delenv("RAG_CHUNK_SIZE")
    assert papers_checksum(capsys, seed_copy) == before


# Where an ingest can die, by the step it is in: each is made to SIGKILL its own process on entering it.
PHASES = {"chunks": "rag.index.embed_nodes", "sentences": "rag.index.sentence_rows", "titles": "rag.index.title_rows",
          "derived files": "rag.index.persisted.write", "going live": "rag.store.IndexStore.go_live"}
_KILLER = """
import os, signal, sys
from importlib import import_module
module, name = sys.argv[1].rsplit(".", 1)
try:
    owner = import_module(module)
except ImportError:
    module, cls = module.rsplit(".", 1)
    owner = getattr(import_module(module), cls)
setattr(owner, name, lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL))
from rag.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("phase", list(PHASES))
def test_an_ingest_killed_in_any_phase_leaves_the_index_and_a_rerun_finishes(phase: str, index_copy: Path,
                                                                             tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
    before = papers_checksum(capsys, index_copy)
    killed = subprocess.run([sys.executable, "-c", _KILLER, PHASES[phase], "ingest", "-q", "--index", str(index_copy),
                             str(SEEDS), str(extra)], env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
                            capture_output=True, timeout=300)
    assert killed.returncode == -9
    assert papers_checksum(capsys, index_copy) == before  # the live index is as it was
    report = ingest(Settings(index_dir=index_copy), [SEEDS, extra], progress=False)
    assert report.added == 1 and report.total_papers == 37
    left = status(IndexStore(Settings(index_dir=index_copy)))
    assert left["unfinished_generations"] == [] and left["leftover_vector_folders"] == 0
    assert left["vectors_kept_for_a_rerun"] == 0


def test_questions_keep_being_answered_during_an_ingest(index_copy: Path, tmp_path: Path) -> None:
    from rag.engine import Engine

    serving = Engine(Settings(index_dir=index_copy, backend="extractive"))
    assert serving.ask("What is TRIM-KV?").citations
    extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
    done = threading.Event()
    writer = threading.Thread(target=lambda: (ingest(Settings(index_dir=index_copy), [SEEDS, extra],
                                                     progress=False), done.set()))
    writer.start()
    answered = 0
    while not done.is_set() or answered < 3:
        answer = serving.ask("What is TRIM-KV?")
        assert not answer.refused and answer.citations[0].paper_id == "qCaq3jGb0S"
        answered += 1
    writer.join()
    assert answered >= 3 and IndexStore(Settings(index_dir=index_copy)).require_manifest()["papers"] == 37


@pytest.fixture(scope="module")
def seed_copy(seed_index: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the seed index for the cases that must leave it unchanged."""
    import shutil

    target = tmp_path_factory.mktemp("faults") / "index"
    shutil.copytree(seed_index, target)
    return target
