"""Shared fixtures: one real index of the seeds, built once per session in a temp folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rag.settings import PROJECT_ROOT, Settings, apply_offline_env

apply_offline_env()
# Tests choose the LLM backend explicitly; everything else (and every `rag` subprocess) answers extractively.
os.environ["RAG_BACKEND"] = "extractive"

SEEDS = PROJECT_ROOT / "seeds"
SHARED = PROJECT_ROOT.parent / "shared"
CORPUS_4302 = SHARED / "data" / "iclr2026_accepted_4302.jsonl.gz"


@pytest.fixture(scope="session")
def seed_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real index (MiniLM + Chroma) of the 36 seed papers. Read-only: copy it to modify it."""
    from rag.index import ingest

    index_dir = tmp_path_factory.mktemp("seed-index")
    ingest(Settings(index_dir=index_dir), [SEEDS], progress=False)
    return index_dir


@pytest.fixture
def index_copy(seed_index: Path, tmp_path: Path) -> Path:
    """A private, writable copy of the seed index."""
    target = tmp_path / "index"
    shutil.copytree(seed_index, target)
    return target


@pytest.fixture(scope="session")
def engine(seed_index: Path):
    from rag.engine import Engine

    return Engine(Settings(index_dir=seed_index))
