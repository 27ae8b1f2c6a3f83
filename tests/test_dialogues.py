"""Scripted dialogues in `rag eval`: parsing and validation, the corpus rule, per-turn scoring against a
scripted fake engine, and one real run of tests/data/dialogues_example.yaml on the seed index."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from rag.cli import main
from rag.errors import InputError
from rag.evaluation.dialogue_eval import run_dialogues, score_turn, summarise
from rag.evaluation.dialogues import Dialogue, DialogueTurn, resolve_dialogues, select_dialogues
from rag.evaluation.evalset import load_file, load_items
from rag.evaluation.evaluate import run_file, write_run
from rag.types import Answer, Citation, Paper, StreamEvent

EXAMPLE = Path(__file__).parent / "data" / "dialogues_example.yaml"
PAPERS = [Paper(paper_id=f"p{i}", title=title, abstract="x", source="s:1")
          for i, title in enumerate(["Alpha Net", "Beta Bench", "Gamma Model for Alpha"], start=1)]

DIALOGUE = """\
- id: d1
  corpus: seeds
  turns:
    - question: What is Alpha Net?
      need: standalone
      expect_papers: [p1]
      expect_answer_contains: [gate]
    - question: What does it add?
      need: pronoun
      expect_papers: [p1]
    - question: Capital of France?
      need: refusal
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def dialogue_yaml(turns: str, head: str = "- id: d1\n") -> str:
    return head + "  turns:\n" + turns


class TestDialogueFiles:
    def test_yaml_and_jsonl_read_the_same(self, tmp_path: Path) -> None:
        line = {"id": "d1", "corpus": "seeds", "turns": [
            {"question": "What is Alpha Net?", "need": "standalone", "expect_papers": ["p1"],
             "expect_answer_contains": ["gate"]},
            {"question": "What does it add?", "need": "pronoun", "expect_papers": "p1"},
            {"question": "Capital of France?", "need": "refusal"}]}
        from_yaml = load_file(write(tmp_path, "d.yaml", DIALOGUE))
        assert from_yaml == load_file(write(tmp_path, "d.jsonl", json.dumps(line) + "\n"))
        dialogue = from_yaml[1][0]
        assert [t.need for t in dialogue.turns] == ["standalone", "pronoun", "refusal"]
        assert dialogue.turns[1].id == "d1 turn 2" and dialogue.turns[1].index == 2
        assert dialogue.turns[2].expect_refusal is True  # need: refusal expects one

    def test_mixed_file_holds_both_and_load_items_keeps_the_questions(self, tmp_path: Path) -> None:
        path = write(tmp_path, "m.yaml", "- id: q1\n  question: What is Beta Bench?\n" + DIALOGUE)
        items, dialogues = load_file(path)
        assert [i.id for i in items] == ["q1"] and [d.id for d in dialogues] == ["d1"]
        assert [i.id for i in load_items(path)] == ["q1"]
        with pytest.raises(InputError, match="holds no questions. It holds 1 scripted dialogue"):
            load_items(write(tmp_path, "d.yaml", DIALOGUE))

    @pytest.mark.parametrize("text, message", [
        (dialogue_yaml("    - question: ok\n      need: standalone\n      expect_paper: [p1]\n"),
         r"d.yaml:3: dialogue 'd1' turn 1: unknown field\(s\) \['expect_paper'\]. Known turn fields"),
        ("- id: d1\n  question: hi\n  turns: []\n", r"d.yaml:1: item 1: unknown dialogue field\(s\) \['question'\]"),
        (dialogue_yaml("    - question: ok\n      need: standalone\n    - need: pronoun\n"),
         r"d.yaml:5: dialogue 'd1' turn 2: missing 'question'"),
        (dialogue_yaml("    - question: ok\n      need: followup\n"),
         r"turn 1: unknown need 'followup'. Use one of: standalone, pronoun"),
        (dialogue_yaml("    - question: ok\n"), r"turn 1: missing 'need'. Give one of"),
        ("- id: d1\n  turns: []\n", r"d.yaml:1: dialogue 'd1': 'turns' must be a non-empty list"),
        ("- id: d1\n  turns:\n", r"'turns' must be a non-empty list"),
        (dialogue_yaml("    - question: ok\n      need: standalone\n", "- id: d1\n  corpus: all\n"),
         r"dialogue 'd1': unknown corpus 'all'. Use seeds or full"),
        (dialogue_yaml("    - question: What does it do?\n      need: pronoun\n"),
         r"turn 1: need 'pronoun' refers back, but the first turn has nothing before it"),
        (dialogue_yaml("    - question: ok\n      need: standalone\n    - question: x\n      need: refusal\n"
                       "      expect_refusal: false\n"), r"d.yaml:5: dialogue 'd1' turn 2: need 'refusal' with"),
        (dialogue_yaml("    - question: ok\n      need: standalone\n      expect_refusal: true\n"
                       "      expect_papers: [p1]\n"), r"turn 1: expects a refusal and papers"),
        (dialogue_yaml("    - question: ok\n      need: standalone\n      expect_refusal: maybe\n"),
         r"turn 1: 'expect_refusal' must be true or false"),
        (dialogue_yaml("    - just a question\n"), r"turn 1: expected a mapping with 'question' and 'need'"),
        ("- id: d1\n  question: a question item\n" + dialogue_yaml("    - question: ok\n      need: standalone\n"),
         "duplicate id 'd1'"),
    ])
    def test_bad_dialogues(self, tmp_path: Path, text: str, message: str) -> None:
        with pytest.raises(InputError, match=message):
            load_file(write(tmp_path, "d.yaml", text))

    def test_jsonl_errors_name_the_line(self, tmp_path: Path) -> None:
        text = '{"id": "q", "question": "ok"}\n{"id": "d", "turns": [{"question": "x", "need": "later"}]}\n'
        with pytest.raises(InputError, match=r"d.jsonl:2: dialogue 'd' turn 1: unknown need 'later'"):
            load_file(write(tmp_path, "d.jsonl", text))


def dialogue(name: str, corpus: str, *expect: list[str]) -> Dialogue:
    turns = [DialogueTurn(id=f"{name} turn {i}", question="q", expect_papers=e, dialogue_id=name, index=i,
                          need="standalone" if i == 1 else "pronoun") for i, e in enumerate(expect, start=1)]
    return Dialogue(id=name, corpus=corpus, turns=turns)


class TestCorpusAndExpectations:
    def test_turn_expectations_resolve_like_question_items(self, tmp_path: Path) -> None:
        d = dialogue("d", "", ["p2"], ["gamma model"])
        resolve_dialogues([d], PAPERS, tmp_path / "d.yaml")
        assert [t.expected_ids for t in d.turns] == [["p2"], ["p3"]]

    def test_an_expected_paper_the_index_lacks_is_named(self, tmp_path: Path) -> None:
        with pytest.raises(InputError, match=r"item d turn 2: expected paper 'Delta' matches no indexed paper"):
            resolve_dialogues([dialogue("d", "seeds", ["p1"], ["Delta"])], PAPERS, tmp_path / "d.yaml")
        with pytest.raises(InputError, match=r"'Delta' matches no .*written for corpus 'full'.*holds 3 papers"):
            resolve_dialogues([dialogue("d", "full", ["Delta"])], PAPERS, tmp_path / "d.yaml")

    @pytest.mark.parametrize("papers, run_all, ran", [(36, False, ["s", "any"]), (100, False, ["s", "any"]),
                                                      (101, False, ["f", "any"]), (36, True, ["s", "f", "any"])])
    def test_which_dialogues_run(self, papers: int, run_all: bool, ran: list[str]) -> None:
        selection = select_dialogues([dialogue("s", "seeds", []), dialogue("f", "full", []),
                                      dialogue("any", "", [])], papers, run_all=run_all)
        assert [d.id for d in selection.run] == ran
        assert len(selection.skipped) == 3 - len(ran)
        if selection.skipped:
            other = {"s": "seeds", "f": "full"}[selection.skipped[0].id]
            assert f"1 dialogue(s) skipped: written for corpus '{other}'" in selection.note
            assert f"holds {papers} papers" in selection.note and "--all-dialogues" in selection.note
        else:
            assert selection.note == ""


def turn(need: str, expected: list[str], refuse: bool = False, contains: list[str] | None = None,
         index: int = 2) -> DialogueTurn:
    return DialogueTurn(id="d turn", question="q", expected_ids=expected, expect_refusal=refuse,
                        expect_answer_contains=contains or [], dialogue_id="d", index=index, need=need)


class TestTurnScores:
    def test_answerable_turn(self) -> None:
        scores = score_turn(turn("standalone", ["a", "b"], contains=["Gate"]), ["b", "a", "c"], False,
                            "a retention gate", set())
        assert scores == {"refusal_correct": 1.0, "papers_cited": 1.0, "fact_stated": 1.0, "pass": 1.0}
        missing = score_turn(turn("standalone", ["a", "b"]), ["a"], False, "", set())
        assert missing == {"refusal_correct": 1.0, "papers_cited": 0.0, "pass": 0.0}  # no fact asked: absent

    def test_refusals(self) -> None:
        assert score_turn(turn("refusal", [], refuse=True), [], True, "", {"a"}) == {"refusal_correct": 1.0,
                                                                                   "pass": 1.0}
        wrongly = score_turn(turn("refusal", [], refuse=True), ["a"], False, "", set())
        assert wrongly == {"refusal_correct": 0.0, "pass": 0.0}
        false_refusal = score_turn(turn("standalone", []), [], True, "", set())
        assert false_refusal == {"refusal_correct": 0.0, "papers_cited": 0.0, "pass": 0.0}
        # Nothing particular expected and answered: the papers part holds.
        assert score_turn(turn("collection", []), ["x"], False, "", set())["papers_cited"] == 1.0

    def test_fact_needs_every_string(self) -> None:
        scores = score_turn(turn("pronoun", ["a"], contains=["1.51x", "5.14x"]), ["a"], False, "up to 5.14X", set())
        assert scores["fact_stated"] == 0.0 and scores["papers_cited"] == 1.0 and scores["pass"] == 0.0

    def test_wrong_carry_on_a_topic_switch(self) -> None:
        earlier = {"a", "b"}
        assert score_turn(turn("topic_switch", ["c"]), ["c", "a"], False, "", earlier)["wrong_carry"] == 1.0
        assert score_turn(turn("topic_switch", ["c"]), ["c"], False, "", earlier)["wrong_carry"] == 0.0
        # A paper expected again is no wrong carry; other needs get no wrong_carry at all.
        assert score_turn(turn("topic_switch", ["a", "c"]), ["a", "c"], False, "", earlier)["wrong_carry"] == 0.0
        assert "wrong_carry" not in score_turn(turn("pronoun", ["c"]), ["a"], False, "", earlier)

    @pytest.mark.parametrize("need", ["pronoun", "ordinal", "ellipsis", "partial_name", "choice", "comparison"])
    def test_missed_carry_on_follow_ups(self, need: str) -> None:
        assert score_turn(turn(need, ["a", "c"]), ["c"], False, "", {"a", "b"})["missed_carry"] == 1.0
        assert score_turn(turn(need, ["a", "c"]), ["a", "c"], False, "", {"a"})["missed_carry"] == 0.0
        assert score_turn(turn(need, ["a"]), [], True, "", {"a"})["missed_carry"] == 1.0  # refused
        # Only papers an earlier turn cited can be carried.
        assert "missed_carry" not in score_turn(turn(need, ["c"]), [], False, "", {"a"})
        assert "missed_carry" not in score_turn(turn("standalone", ["a"]), [], False, "", {"a"})


@dataclass
class FakeEngine:
    """Answers from a script (question -> cited ids, or None to refuse); records what each turn carried."""

    script: dict[str, list[str] | None]
    papers_held: list[Paper] = field(default_factory=lambda: list(PAPERS))
    carried: list[list[str] | None] = field(default_factory=list)
    settings: SimpleNamespace = field(default_factory=lambda: SimpleNamespace(
        retrieval=SimpleNamespace(top_k=5), llm=SimpleNamespace(backend="extractive")))

    def papers(self) -> list[Paper]:
        return self.papers_held

    def warm(self, backend: str | None = None) -> None:
        pass

    def stream(self, question: str, **options) -> Iterator[StreamEvent]:
        self.carried.append(options.get("carried"))
        cited = self.script[question]
        text = "I could not find an answer." if cited is None else f"{question} retention gate [1]."
        answer = Answer(question=question, text=text, refused=cited is None,
                        citations=[Citation(n, pid, pid) for n, pid in enumerate(cited or [], start=1)],
                        sources=[], timings_ms={"total": 10.0 * len(self.carried)},
                        ranked_paper_ids=(cited or []) + [f"r{i}" for i in range(12)])
        yield StreamEvent("done", answer=answer)

    def ask(self, question: str, **options) -> Answer:
        return next(iter(self.stream(question, **options))).answer  # type: ignore[return-value]


SCRIPT = {"What is Alpha Net?": ["p1"], "What does it add?": ["p2"], "Capital of France?": None,
          "What is Beta Bench?": ["p2"]}


class TestRunWithAFakeEngine:
    def test_one_conversation_per_dialogue(self, tmp_path: Path) -> None:
        path = write(tmp_path, "d.yaml", DIALOGUE + DIALOGUE.replace("id: d1", "id: d2").replace("p1]", "p2]"))
        _, dialogues = load_file(path)
        resolve_dialogues(dialogues, PAPERS, path)
        engine = FakeEngine(SCRIPT)
        results = run_dialogues(engine, dialogues, top_k=5, backend="extractive", progress=False)  # type: ignore[arg-type]
        # Each dialogue starts afresh; a follow-up carries what the previous answer cited.
        assert engine.carried == [None, ["p1"], ["p2"], None, ["p1"], ["p2"]]
        first = [r.scores for r in results[:3]]
        assert first[0]["pass"] == 1.0
        assert first[1] == {"refusal_correct": 1.0, "papers_cited": 0.0, "pass": 0.0, "missed_carry": 1.0}
        assert first[2] == {"refusal_correct": 1.0, "pass": 1.0}
        record = results[1].to_json()
        assert record["dialogue_id"] == "d1" and record["turn"] == 2 and record["need"] == "pronoun"
        assert record["cited_paper_ids"] == ["p2"] and len(record["ranked_paper_ids"]) == 10
        summary = summarise(results, select_dialogues(dialogues, 3))
        assert summary["dialogues"] == 2 and summary["turns"] == 6 and summary["dialogues_passed"] == 0.0
        assert summary["pass"] == pytest.approx(4 / 6)
        assert summary["missed_carry"] == 1.0 and summary["missed_carry.n"] == 1  # d2's turn 2 carried nothing
        assert summary["fact_stated"] == 1.0 and summary["fact_stated.n"] == 2
        assert summary["by_need"]["pronoun"]["pass"] == 0.5 and summary["latency_p50_ms"] == 35.0

    def test_mixed_file_reports_both_and_skips_other_corpora(self, tmp_path: Path) -> None:
        full = "- id: d-full\n  corpus: full\n  turns:\n    - question: Unknown?\n      need: standalone\n" \
               "      expect_papers: [not-indexed]\n"
        path = write(tmp_path, "m.yaml", "- id: q1\n  question: What is Beta Bench?\n  expect_papers: [p2]\n"
                     + DIALOGUE + full)
        run = run_file(FakeEngine(SCRIPT), path, top_k=5, progress=False)  # type: ignore[arg-type]
        report = run.report(5, "mixed")
        assert report.startswith("# mixed\n") and "| hit@1 | 1.000 | 1 |" in report
        assert "## Scripted dialogues" in report and "| pronoun | 1 |" in report
        assert "1 dialogue(s) skipped: written for corpus 'full'" in report
        written = write_run(run, 5, tmp_path / "out", "mixed")
        assert sorted(written) == ["plot.png", "report.md", "results.json", "summary.json"]
        records = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
        assert records[0]["id"] == "q1" and [r["turn"] for r in records[1:]] == [1, 2, 3]
        summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
        assert summary["hit@1"] == 1.0 and summary["dialogues"]["dialogues_skipped"] == 1
        with pytest.raises(InputError, match="'not-indexed' matches no indexed paper"):
            run_file(FakeEngine(SCRIPT), path, progress=False, all_dialogues=True)  # type: ignore[arg-type]


TURN_FIELDS = {"dialogue_id", "turn", "question", "need", "expected_paper_ids", "expect_refusal",
               "expect_answer_contains", "cited_paper_ids", "ranked_paper_ids", "refused", "answer", "latency_ms",
               "missing", "scores"}


def test_example_dialogues_on_the_seed_index(seed_index: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["eval", str(EXAMPLE), "--index", str(seed_index), "--backend", "extractive", "-q",
                 "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert "## Scripted dialogues" in printed and "### By need" in printed
    assert "| need | turns | pass |" in printed and "| pronoun | 1 |" in printed
    assert "wrote" in printed and "plot.png" not in printed  # no question items: no plot
    records = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [(r["dialogue_id"], r["turn"]) for r in records] == [
        ("dlg-seeds-trimkv", 1), ("dlg-seeds-trimkv", 2), ("dlg-seeds-trimkv", 3),
        ("dlg-seeds-image-ar", 1), ("dlg-seeds-image-ar", 2), ("dlg-seeds-image-ar", 3)]
    for record in records:
        assert set(record) == TURN_FIELDS
        assert {"refusal_correct", "pass"} <= set(record["scores"]) and len(record["ranked_paper_ids"]) <= 10
    assert records[0]["expected_paper_ids"] == ["qCaq3jGb0S"] and "qCaq3jGb0S" in records[0]["cited_paper_ids"]
    assert records[2]["expected_paper_ids"] == ["tJod11fK1A"] and "wrong_carry" in records[2]["scores"]
    assert records[5]["refused"] is True and records[5]["scores"]["refusal_correct"] == 1.0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))["dialogues"]
    assert summary["turns"] == 6 and summary["dialogues"] == 2 and summary["dialogues_skipped"] == 0
    assert (out / "report.md").read_text(encoding="utf-8") in printed
