"""The command line and its JSON contracts (golden shapes in tests/golden/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag.cli import main
from rag.settings import PROJECT_ROOT

from conftest import SEEDS
from jsonshape import shape

GOLDEN = Path(__file__).parent / "golden"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def golden(name: str) -> object:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


class TestAsk:
    def test_json_contract(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "ask", "--json", "--index", str(seed_index), "What is TRIM-KV?")
        assert code == 0
        result = json.loads(out)
        assert shape(result) == golden("ask.shape.json")
        assert result["question"] == "What is TRIM-KV?" and result["refused"] is False
        assert result["citations"][0] == {"n": 1, "paper_id": "qCaq3jGb0S",
                                          "title": "Cache What Lasts: Token Retention for Memory-Bounded KV Cache in LLMs"}
        assert [s["rank"] for s in result["sources"]] == [1, 2, 3, 4, 5]

    def test_refusal_json(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "ask", "--json", "-k", "3", "--index", str(seed_index),
                               "How do I bake sourdough bread?")
        result = json.loads(out)
        assert code == 0 and result["refused"] is True and result["citations"] == []
        assert len(result["sources"]) == 3

    def test_text_output_lists_sources(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "ask", "--index", str(seed_index), "What is SIGMark?")
        assert code == 0
        assert "[1]" in out and "Sources:" in out and "SIGMark: Scalable In-Generation Watermark" in out

    def test_backend_flag_checks_its_value(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "ask", "--backend", "extractive", "--json", "--index", str(seed_index), "TRIM-KV")
        assert code == 0 and json.loads(out)["citations"] and json.loads(out)["backend"] == "extractive"
        with pytest.raises(SystemExit):
            main(["ask", "--backend", "gpt-9", "--index", str(seed_index), "TRIM-KV"])

    def test_a_local_model_not_fetched_names_the_fetch_command(self, seed_index: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("RAG_MODELS_DIR", str(tmp_path / "no-models"))
        code, _, err = run_cli(capsys, "ask", "--backend", "local", "--index", str(seed_index), "TRIM-KV")
        assert code == 2 and "rag models fetch --model 0.5b" in err and "Traceback" not in err

    def test_empty_question_is_a_clear_error(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run_cli(capsys, "ask", "--index", str(seed_index), "  ")
        assert code == 2 and out == "" and err.startswith("error: the question is empty")


class TestPapers:
    def test_json_lists_every_paper_with_real_titles(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "papers", "--json", "--index", str(seed_index))
        papers = json.loads(out)
        assert code == 0 and len(papers) == 36
        assert shape(papers) == golden("papers.shape.json")
        assert not any(p["title_derived"] for p in papers)
        assert any(p["title"].startswith("TikZilla") for p in papers)

    def test_no_index_is_a_clear_error(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = run_cli(capsys, "papers", "--index", str(tmp_path / "none"))
        assert code == 2 and "no index at" in err and "rag ingest" in err


class TestIngest:
    def test_summary_line(self, index_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_cli(capsys, "ingest", "-q", "--index", str(index_copy), str(SEEDS))
        assert code == 0
        assert out.startswith("0 added, 0 updated, 36 unchanged, 0 removed; 0 papers embedded")
        assert "papers/s" in out

    @pytest.mark.parametrize("content, message", [
        (None, "no such file"), (b"", "is empty"), (b"\x00\x01binary\x00", "binary file"),
        (b'{"title": "a", "abstract": "b"}\n{broken\n', ":2: malformed JSON"),
    ])
    def test_bad_input_exits_2_and_keeps_the_index(self, index_copy: Path, tmp_path: Path, content: bytes | None,
                                                    message: str, capsys: pytest.CaptureFixture[str]) -> None:
        bad = tmp_path / "input.jsonl"
        if content is not None:
            bad.write_bytes(content)
        before = sorted(p.name for p in index_copy.rglob("*"))
        code, out, err = run_cli(capsys, "ingest", "-q", "--index", str(index_copy), str(SEEDS), str(bad))
        assert code == 2 and out == ""
        assert err.startswith(f"error: {bad}") and message in err and "Traceback" not in err
        assert sorted(p.name for p in index_copy.rglob("*")) == before


class TestProcess:
    """The installed console script, as a user runs it."""

    def run(self, *args: str, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        rag = Path(sys.executable).with_name("rag")
        return subprocess.run([str(rag), *args], input=stdin, capture_output=True, text=True, timeout=300,
                              env={**os.environ, **env}, cwd=PROJECT_ROOT)

    def test_ask_builds_the_index_from_seeds_then_prints_one_json_object(self, tmp_path: Path) -> None:
        seeds = tmp_path / "seeds"
        seeds.mkdir()
        lines = (SEEDS / "003_df0dbfb272cbdab2.txt").read_text(encoding="utf-8").splitlines()
        (seeds / "few.txt").write_text("\n".join(lines[:9]), encoding="utf-8")  # header + 4 abstracts
        env = {"RAG_INDEX_DIR": str(tmp_path / "index"), "RAG_SEEDS_DIR": str(seeds)}
        result = self.run("ask", "--json", "What is VeriEquivBench?", env=env)
        assert result.returncode == 0, result.stderr
        answer = json.loads(result.stdout)  # exactly one JSON document on stdout
        assert answer["citations"][0]["title"].startswith("VeriEquivBench")
        assert "built the index" in result.stderr

    def test_chat_script_json_gives_one_object_per_turn_and_follows_up(self, seed_index: Path,
                                                                       tmp_path: Path) -> None:
        script = tmp_path / "turns.txt"
        script.write_text("What is TRIM-KV?\n\nHow does it differ from Tactic?\n", encoding="utf-8")
        result = self.run("chat", "--script", str(script), "--json", "--index", str(seed_index), env={})
        assert result.returncode == 0, result.stderr
        turns = [json.loads(line) for line in result.stdout.splitlines()]
        assert [shape(t) for t in turns] == [golden("ask.shape.json")] * 2
        assert turns[0]["citations"][0]["paper_id"] == "qCaq3jGb0S"
        assert {"qCaq3jGb0S", "tJod11fK1A"} <= {c["paper_id"] for c in turns[1]["citations"]}

    def test_chat_answers_each_line(self, seed_index: Path) -> None:
        result = self.run("chat", "--index", str(seed_index), env={},
                          stdin="What is TRIM-KV?\nWhat is the capital of France?\n")
        assert result.returncode == 0, result.stderr
        assert "Cache What Lasts" in result.stdout and "[1]" in result.stdout
        assert "I could not find an answer" in result.stdout
