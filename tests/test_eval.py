"""`rag eval`: question files, metrics (against hand-computed values) and a real run on the seed index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.errors import InputError
from rag.evaluation.evalset import EvalItem, load_items, resolve_expectations
from rag.evaluation.metrics import ItemResult, aggregate, score_item
from rag.types import Paper

PAPERS = [Paper(paper_id=f"p{i}", title=title, abstract="x", source="s:1")
          for i, title in enumerate(["Alpha Net", "Beta Bench", "Gamma Model for Alpha"], start=1)]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


class TestQuestionFiles:
    def test_yaml_and_jsonl_read_the_same(self, tmp_path: Path) -> None:
        yaml_file = write(tmp_path, "q.yaml", "- id: a\n  question: What is Alpha Net?\n  expect_papers: [p1]\n"
                                              "- id: b\n  question: Capital of France?\n  expect_refusal: true\n")
        jsonl_file = write(tmp_path, "q.jsonl", json.dumps({"id": "a", "question": "What is Alpha Net?",
                                                            "expect_papers": ["p1"]}) + "\n\n"
                           + json.dumps({"id": "b", "question": "Capital of France?", "expect_refusal": True}))
        assert load_items(yaml_file) == load_items(jsonl_file)

    def test_expectations_resolve_by_id_or_unique_title_substring(self, tmp_path: Path) -> None:
        items = [EvalItem(id="a", question="q", expect_papers=["p2", "gamma model"])]
        resolve_expectations(items, PAPERS, tmp_path / "q.yaml")
        assert items[0].expected_ids == ["p2", "p3"]

    def test_also_relevant_counts_only_papers_the_index_holds(self, tmp_path: Path) -> None:
        items = [EvalItem(id="a", question="q", expect_papers=["p1"], also_relevant=["p3", "not-indexed"])]
        resolve_expectations(items, PAPERS, tmp_path / "q.yaml")
        assert items[0].expected_ids == ["p1"] and items[0].relevant_ids == ["p1", "p3"]

    @pytest.mark.parametrize("wanted, problem", [("alpha", "matches 2 papers"), ("Delta", "matches no indexed paper")])
    def test_ambiguous_or_unknown_expectation_is_an_error(self, tmp_path: Path, wanted: str, problem: str) -> None:
        with pytest.raises(InputError, match=f"item a: expected paper '{wanted}' {problem}"):
            resolve_expectations([EvalItem(id="a", question="q", expect_papers=[wanted])], PAPERS, tmp_path / "q.yaml")

    @pytest.mark.parametrize("name, text, message", [
        ("q.jsonl", '{"id": "a", "question": "ok"}\n{"id": "b", "question": \n', r"q.jsonl:2: malformed JSON"),
        ("q.jsonl", '{"id": "a"}\n', r"q.jsonl:1: line 1: missing 'question'"),
        ("q.yaml", "- id: a\n  question: ok\n  expect_paper: [p1]\n", r"unknown field\(s\) \['expect_paper'\]"),
        ("q.yaml", "- id: a\n  question: ok\n- id: a\n  question: again\n", "duplicate id 'a'"),
        ("q.yaml", "- id: a\n  question: [unclosed\n", r"q.yaml:\d+: invalid YAML"),
        ("q.yaml", "- id: a\n  question: ok\n  expect_refusal: maybe\n", "'expect_refusal' must be true or false"),
        ("q.txt", "What?\n", "unsupported question file type"),
        ("q.yaml", "", "must be a YAML list"),
    ])
    def test_bad_question_files(self, tmp_path: Path, name: str, text: str, message: str) -> None:
        with pytest.raises(InputError, match=message):
            load_items(write(tmp_path, name, text))


def result(expected: list[str], ranked: list[str], cited: list[str], refused: bool = False,
           expect_refusal: bool = False, contains: list[str] | None = None, answer: str = "") -> ItemResult:
    item = EvalItem(id="x", question="q", expect_refusal=expect_refusal, expect_answer_contains=contains or [],
                    expected_ids=expected)
    return ItemResult(item=item, ranked_paper_ids=ranked, cited_paper_ids=cited, refused=refused,
                      answer=answer, latency_ms=10.0)


class TestMetrics:
    def test_recall_is_capped_at_k_when_more_papers_are_relevant(self) -> None:
        relevant = [f"r{i}" for i in range(8)]
        scores = score_item(result(relevant, ["r0", "x", "r1", "r2", "r3", "r4"], ["r0", "r1", "r5"]), k=5,
                            answered=True)
        assert scores["recall@5"] == pytest.approx(4 / 5)  # 4 of the 5 places hold relevant papers
        assert scores["citation_recall"] == pytest.approx(3 / 5)

    def test_single_paper_item(self) -> None:
        scores = score_item(result(["p2"], ["p1", "p2", "p3"], ["p2", "p1"]), k=5, answered=True)
        assert scores["hit@1"] == 0.0 and scores["hit@5"] == 1.0 and scores["mrr"] == pytest.approx(0.5)
        assert scores["citation_precision"] == 0.5 and scores["citation_recall"] == 1.0
        assert "recall@5" not in scores  # only for multi-paper items
        assert scores["refusal_correct"] == 1.0 and scores["false_refusal"] == 0.0

    def test_multi_paper_item_recall_at_k(self) -> None:
        scores = score_item(result(["p1", "p4", "p9"], ["p1", "p2", "p4", "p5", "p6", "p9"], ["p1"]), k=5,
                            answered=True)
        assert scores["recall@5"] == pytest.approx(2 / 3)
        assert scores["citation_recall"] == pytest.approx(1 / 3) and scores["citation_precision"] == 1.0

    def test_refusals(self) -> None:
        right = score_item(result([], ["p1"], [], refused=True, expect_refusal=True), k=5, answered=True)
        assert right == {"refusal_correct": 1.0, "ooc_refused": 1.0}
        wrong = score_item(result(["p1"], ["p1"], [], refused=True), k=5, answered=True)
        assert wrong["refusal_correct"] == 0.0 and wrong["false_refusal"] == 1.0
        assert "citation_precision" not in wrong

    def test_answer_contains_is_case_insensitive_and_needs_all(self) -> None:
        ok = score_item(result(["p1"], ["p1"], ["p1"], contains=["FID", "1.83"], answer="an fid of 1.83"), 5, True)
        partial = score_item(result(["p1"], ["p1"], ["p1"], contains=["FID", "2.0"], answer="fid 1.83"), 5, True)
        assert ok["answer_contains"] == 1.0 and partial["answer_contains"] == 0.0
        retrieval_only = score_item(result(["p1"], ["p1"], [], contains=["FID"]), 5, answered=False)
        assert "answer_contains" not in retrieval_only and "citation_recall" not in retrieval_only

    def test_aggregate_averages_only_where_a_metric_applies(self) -> None:
        results = [result(["p1"], ["p1"], ["p1"]), result(["p2"], ["p1", "p2"], ["p1"]),
                   result([], ["p1"], [], refused=True, expect_refusal=True)]
        for r in results:
            r.scores = score_item(r, k=5, answered=True)
        summary = aggregate(results)
        assert summary["hit@1"] == 0.5 and summary["hit@1.n"] == 2
        assert summary["refusal_correct"] == 1.0 and summary["refusal_correct.n"] == 3
        assert summary["latency_p50_ms"] == 10.0
