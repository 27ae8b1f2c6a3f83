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


def test_roles_are_scored_against_labels_per_half(tmp_path: Path, capsys) -> None:
    from rag.evaluation.bench_roles import bench_roles

    labels = tmp_path / "labels.jsonl"
    rows = [{"sentence": "We propose Foo, a new cache.", "position": 2, "role": "method", "half": "dev"},
            {"sentence": "Foo is 3x faster than the baseline.", "position": 5, "role": "result", "half": "test"},
            {"sentence": "Code is available at https://x.org.", "position": 6, "role": "method", "half": "test"}]
    labels.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    result = bench_roles([labels], out=tmp_path)
    assert result["all"]["accuracy"] == pytest.approx(2 / 3) and result["dev"]["accuracy"] == 1.0
    assert result["test"]["per_role"] == {"method": 0.0, "result": 1.0}  # the release sentence is "other"
    assert json.loads((tmp_path / "roles.json").read_text())["test"]["sentences"] == 2
    assert "| test | 2" in capsys.readouterr().out


def test_a_bad_labels_line_names_the_file_and_line(tmp_path: Path) -> None:
    from rag.errors import InputError
    from rag.evaluation.bench_roles import load_labels

    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"sentence": "x", "position": 0, "role": "method"}\n{"sentence": "y", "role": "finding"}\n')
    with pytest.raises(InputError, match="line 2|:2"):
        load_labels(labels)


def test_the_shipped_role_labels_load_and_are_blind_halves() -> None:
    from rag.evaluation.bench_roles import load_labels
    from rag.settings import PROJECT_ROOT

    labels = load_labels(PROJECT_ROOT / "tests" / "data" / "role_labels.jsonl")
    assert len(labels) >= 300 and {item["half"] for item in labels} == {"dev", "test"}
