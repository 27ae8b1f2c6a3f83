"""`rag bench ask`: cold runs measured beside a bare sentence-transformers import, and their ratio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.evaluation import bench
from rag.settings import Settings


def test_cold_asks_are_measured_beside_the_bare_import(seed_index: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    commands: list[list[str]] = []

    def timed(command: list[str]) -> float:  # no subprocesses: their order and arguments are what is tested
        commands.append(command)
        return 2.0 if command[1] == "-c" else 2.5

    monkeypatch.setattr(bench, "_seconds", timed)
    result = bench.bench_ask(Settings(index_dir=seed_index), list(bench.DEFAULT_QUESTIONS[:4]), out=tmp_path)
    assert [c[-1] for c in commands] == ["import sentence_transformers", bench.DEFAULT_QUESTIONS[0],
                                         "import sentence_transformers", bench.DEFAULT_QUESTIONS[1],
                                         "import sentence_transformers", bench.DEFAULT_QUESTIONS[2]]
    assert commands[1][1:] == ["-m", "rag.cli", "ask", "--json", "--backend", "extractive", "--index",
                               str(seed_index), bench.DEFAULT_QUESTIONS[0]]
    assert result["cold_over_baseline"] == pytest.approx(1.25)
    assert result["query_encoder"] == "onnx" and result["saved_generation_files"] is True
    assert json.loads((tmp_path / "bench_ask.json").read_text())["cold_process_p50_s"] == 2.5
    assert "| 1.25" in capsys.readouterr().out
