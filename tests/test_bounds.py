"""Input bounds (rag.bounds, the corpus reader's caps): a clear one-line error for what cannot be answered or read,
nothing lost; nothing from an abstract drives the terminal or becomes a non-http link."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from rag.bounds import QuestionError, TerminalSafe, check_question, check_top_k, without_controls
from rag.clean import display_text
from rag.corpus import Limits, load_corpus, merge_papers
from rag.errors import InputError
from rag.types import Paper

from conftest import SEEDS
from test_cli import run_cli

ESCAPES = "\x1b[2J\x1b]0;HACKED-TITLE\x07\x9b31m\x07\x00"


class TestQuestion:
    def test_invalid_unicode_is_refused_with_where(self) -> None:
        with pytest.raises(QuestionError, match=r"invalid text at character 16 \(not valid Unicode\)"):
            check_question("What is TRIM-KV\udcff?", 2000)

    def test_too_long_says_the_length_the_limit_and_the_setting(self) -> None:
        with pytest.raises(QuestionError, match=r"100,000 characters long; the limit is 2,000 .*RAG_MAX_QUESTION_CHARS"):
            check_question("x" * 100_000, 2000)
        assert check_question("x" * 2000, 2000) == "x" * 2000

    def test_controls_are_dropped_and_empty_is_refused(self) -> None:
        assert check_question(f"  What is{ESCAPES} TRIM-KV?\n", 2000) == "What is TRIM-KV?"
        with pytest.raises(QuestionError, match="the question is empty"):
            check_question(ESCAPES, 2000)
        with pytest.raises(QuestionError, match="must be text"):
            check_question(None, 2000)

    @pytest.mark.parametrize("top_k", [0, -1, 51, 100_000, True, "5", 2.0])
    def test_top_k_outside_1_to_50_is_refused(self, top_k: object) -> None:
        with pytest.raises(QuestionError, match="top_k must be a whole number from 1 to 50"):
            check_top_k(top_k)

    def test_the_engine_checks_every_question(self, engine) -> None:
        with pytest.raises(QuestionError, match="the limit is 2,000"):
            engine.ask("What is TRIM-KV? " * 200, backend="extractive")
        with pytest.raises(QuestionError, match="top_k"):
            engine.ask("What is TRIM-KV?", top_k=-1, backend="extractive")
        answer = engine.ask("What is TRIM-KV?\x1b[2J", top_k=50, backend="extractive")
        assert answer.question == "What is TRIM-KV?" and not answer.refused


class TestCommandLine:
    @pytest.mark.parametrize("k", ["0", "-1", "100000", "two"])
    def test_top_k_flag_is_checked(self, seed_index: Path, k: str, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_:
            run_cli(capsys, "ask", "-k", k, "--index", str(seed_index), "What is TRIM-KV?")
        assert exit_.value.code == 2 and "must be a whole number from 1 to 50" in capsys.readouterr().err

    def test_invalid_text_is_a_one_line_error(self, seed_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run_cli(capsys, "ask", "--backend", "extractive", "--index", str(seed_index), "TRIM-KV\udcff")
        assert code == 2 and out == "" and err.startswith("error: the question holds invalid text")
        assert "unexpected" not in err and err.count("\n") == 1

    def test_escape_codes_in_an_abstract_never_reach_the_terminal(self, index_copy: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
        planted = tmp_path / "planted.jsonl"
        planted.write_text(json.dumps({"id": "planted1", "title": f"Glimmer{ESCAPES}: frog acoustics",
                                       "abstract": f"We propose Glimmer{ESCAPES}, a model of frog choruses that "
                                                   "counts calls [see](javascript:alert(1)) in swamp recordings."}))
        assert run_cli(capsys, "ingest", "--index", str(index_copy), str(SEEDS), str(planted))[0] == 0
        _, listed, _ = run_cli(capsys, "papers", "--index", str(index_copy))
        code, out, err = run_cli(capsys, "ask", "--backend", "extractive", "--index", str(index_copy),
                                 "What is Glimmer?")
        assert code == 0 and "Glimmer" in out and "frog" in out and "Glimmer: frog acoustics" in listed
        for text in (listed, out, err):
            assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text and "HACKED" not in text
        assert "javascript:" not in out and "counts calls see in swamp" in out

    def test_the_terminal_wrapper_drops_what_slipped_through(self) -> None:
        stream = io.StringIO()
        TerminalSafe(stream).write(f"answer{ESCAPES} [1]\r\n")
        assert stream.getvalue() == "answer [1]\r\n"


def test_markdown_links_keep_only_their_text() -> None:
    raw = "See [code](https://x.org/a_(b)), [bad](javascript:alert(1)), [file](file:///etc/passwd); f(x) [0,1](2)."
    assert display_text(raw) == "See code, bad, file; f(x) [0,1](2)."
    assert without_controls("a\x1b[31mb\rc", keep="\r") == "ab\rc"


class TestCorpusCaps:
    def test_a_file_over_the_size_cap_names_the_file_and_the_setting(self, tmp_path: Path) -> None:
        big = tmp_path / "big.txt"
        big.write_text("Header\n" + "We study frogs. " * 200 + "\n")
        with pytest.raises(InputError, match=r"big\.txt: is 0\.0 MB; the limit is 0\.001 MB.*RAG_MAX_FILE_MB"):
            load_corpus([big], Limits(file_mb=0.001))
        assert len(load_corpus([big]).papers) == 1

    def test_a_gzip_that_unpacks_past_the_cap_is_refused_unread(self, tmp_path: Path) -> None:
        bomb = tmp_path / "bomb.jsonl.gz"
        line = json.dumps({"title": "T", "abstract": "We propose a frog model. " * 40}) + "\n"
        bomb.write_bytes(gzip.compress(line.encode() * 3000))  # ~3 MB unpacked, a few KB packed
        with pytest.raises(InputError, match=r"bomb\.jsonl\.gz: unpacks to more than 1 MB.*RAG_MAX_UNPACKED_MB"):
            load_corpus([bomb], Limits(unpacked_mb=1))
        report = load_corpus([bomb])
        assert (len(report.papers), report.duplicates) == (1, 2999)

    def test_duplicates_fold_into_one_paper_listing_every_other_record_once(self) -> None:
        papers = [Paper("p1", "T", "We propose frogs.", "a.jsonl:1", also_in=("old.txt:9",))]
        papers += [Paper(f"x{i}", "T", "We propose frogs.", f"b.jsonl:{i}") for i in range(1, 5001)]
        papers += [Paper("x7", "T", "We propose frogs.", "c.jsonl:1", also_in=("a.jsonl:1", "b.jsonl:3"))]
        (paper,) = merge_papers(papers).papers
        assert paper.source == "a.jsonl:1" and paper.paper_id == "p1"
        assert paper.also_in == ("old.txt:9", *(f"b.jsonl:{i}" for i in range(1, 5001)), "c.jsonl:1")
