"""Scripted dialogues through the engine: one ``ChatSession`` per dialogue, each turn scored, then aggregated.

Per-turn scores (absent where they do not apply, as for question items):

- ``refusal_correct``: refused exactly when ``expect_refusal`` (every turn).
- ``papers_cited``: answerable turns: not refused, and every expected paper cited (1.0 for an answered turn
  that expects no particular paper).
- ``fact_stated``: turns with ``expect_answer_contains``: the answer holds every string (ignoring case).
- ``pass``: refusal correct and, for answerable turns, papers cited and (when asked) the fact stated.
- ``wrong_carry``: ``topic_switch`` turns: a paper cited by an earlier turn and not expected now is cited.
- ``missed_carry``: pronoun / ordinal / ellipsis / partial_name / choice / comparison turns with an expected
  paper an earlier turn cited: one of those is not cited now.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rag.evaluation.dialogues import CARRY_NEEDS, NEEDS, Dialogue, DialogueTurn, Selection
from rag.evaluation.metrics import ItemResult, aggregate

if TYPE_CHECKING:
    from rag.engine import Engine

RANK_DEPTH = 10  # ranked papers recorded per turn (as many as the answer ranked, up to this)
_TABLE = (("pass", "turns passing"), ("refusal_correct", "refusal correct"),
          ("papers_cited", "expected papers cited"), ("fact_stated", "fact stated"),
          ("wrong_carry", "wrong carry (topic switch; lower is better)"),
          ("missed_carry", "missed carry (follow-up; lower is better)"))


@dataclass
class TurnResult(ItemResult):
    """One dialogue turn's outcome (``item`` is its ``DialogueTurn``); ``to_json`` is its results.json record."""

    def to_json(self) -> dict[str, Any]:
        turn = self.item
        assert isinstance(turn, DialogueTurn)
        return {
            "dialogue_id": turn.dialogue_id, "turn": turn.index, "question": turn.question, "need": turn.need,
            "expected_paper_ids": turn.expected_ids, "expect_refusal": turn.expect_refusal,
            "expect_answer_contains": turn.expect_answer_contains,
            "cited_paper_ids": self.cited_paper_ids, "ranked_paper_ids": self.ranked_paper_ids,
            "refused": self.refused, "answer": self.answer, "latency_ms": round(self.latency_ms, 1),
            "missing": self.missing, "scores": self.scores,
        }


def score_turn(turn: DialogueTurn, cited: list[str], refused: bool, answer: str,
               earlier_cited: set[str]) -> dict[str, float]:
    """The turn's scores; ``earlier_cited``: the papers the dialogue's earlier turns cited."""
    now, expected = set(cited), set(turn.expected_ids)
    scores = {"refusal_correct": float(refused == turn.expect_refusal)}
    if not turn.expect_refusal:
        scores["papers_cited"] = float(not refused and expected <= now)
    if turn.expect_answer_contains:
        text = answer.lower()
        scores["fact_stated"] = float(all(s.lower() in text for s in turn.expect_answer_contains))
    scores["pass"] = float(all(scores.get(name, 1.0) == 1.0
                               for name in ("refusal_correct", "papers_cited", "fact_stated")))
    if turn.need == "topic_switch":
        scores["wrong_carry"] = float(bool((earlier_cited - expected) & now))
    if turn.need in CARRY_NEEDS:
        should = expected & earlier_cited
        if should:
            scores["missed_carry"] = float(not should <= now)
    return scores


def run_dialogues(engine: Engine, dialogues: list[Dialogue], *, top_k: int | None = None, backend: Any = None,
                  progress: bool = True) -> list[TurnResult]:
    """Each dialogue as one conversation (a fresh ``ChatSession``), its turns asked in order."""
    from tqdm import tqdm

    from rag.chat import ChatSession

    results: list[TurnResult] = []
    bar = tqdm(total=sum(len(d.turns) for d in dialogues), desc="dialogue turns", unit="turn",
               disable=not progress)
    for dialogue in dialogues:
        session = ChatSession(engine, backend=backend, top_k=top_k)
        earlier: set[str] = set()
        for turn in dialogue.turns:
            answer = session.ask(turn.question)
            cited = list(dict.fromkeys(c.paper_id for c in answer.citations))
            result = TurnResult(item=turn, ranked_paper_ids=list(answer.ranked_paper_ids[:RANK_DEPTH]),
                                cited_paper_ids=cited, refused=answer.refused, answer=answer.text,
                                latency_ms=answer.timings_ms.get("total", 0.0),
                                first_token_ms=answer.timings_ms.get("first_token", 0.0),
                                missing=list(answer.missing))
            result.scores = score_turn(turn, cited, answer.refused, answer.text, earlier)
            earlier |= set(cited)
            results.append(result)
            bar.update()
    bar.close()
    return results


def _turn(result: ItemResult) -> DialogueTurn:
    assert isinstance(result.item, DialogueTurn)
    return result.item


def by_need(results: list[TurnResult]) -> dict[str, dict[str, float]]:
    """``aggregate`` of the turns of each need, in the order of ``NEEDS``."""
    groups: dict[str, list[ItemResult]] = {}
    for result in results:
        groups.setdefault(_turn(result).need, []).append(result)
    return {need: aggregate(groups[need]) for need in NEEDS if need in groups}


def summarise(results: list[TurnResult], selection: Selection) -> dict[str, Any]:
    """Aggregate (summary.json's ``dialogues``): each score's mean over the turns it applies to, with
    ``<score>.n``; ``turns``; ``dialogues`` run, ``dialogues_passed`` (share with every turn passing),
    ``dialogues_skipped`` and ``skipped_note``; latency p50 / p95; and ``by_need``."""
    scores = aggregate(list(results))
    passed: dict[str, bool] = {}
    for result in results:
        name = _turn(result).dialogue_id
        passed[name] = passed.get(name, True) and result.scores.get("pass") == 1.0
    return {"dialogues": float(len(passed)), "turns": scores.pop("items"),
            "dialogues_passed": statistics.fmean(passed.values()) if passed else 0.0,
            "dialogues_skipped": float(len(selection.skipped)), "skipped_note": selection.note,
            **scores, "by_need": by_need(results)}


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def dialogue_report(results: list[TurnResult], summary: dict[str, Any], backend: str = "") -> str:
    """The Markdown section for the dialogues: overall table, per-need table, failed turns."""
    lines = ["## Scripted dialogues", "",
             f"{int(summary['dialogues'])} dialogue(s), {int(summary['turns'])} turn(s)"
             + (f", answered by {backend}" if backend else "") + "; each dialogue is one conversation."]
    if summary["skipped_note"]:
        lines.append(f"{summary['skipped_note']}.")
    lines += ["", "| metric | value | turns |", "|---|---|---|"]
    for name, label in _TABLE:
        if name in summary:
            lines.append(f"| {label} | {_fmt(summary[name])} | {int(summary[name + '.n'])} |")
    lines.append(f"| dialogues fully passing | {_fmt(summary['dialogues_passed'])} | "
                 f"{int(summary['dialogues'])} dialogues |")
    lines.append(f"| latency p50 / p95 ms | {summary['latency_p50_ms']:.0f} / {summary['latency_p95_ms']:.0f} "
                 f"| {int(summary['turns'])} |")
    names = [n for n, _ in _TABLE]
    lines += ["", "### By need", "", "| need | turns | " + " | ".join(names) + " |",
              "|---|---|" + "---|" * len(names)]
    for need, stats in summary["by_need"].items():
        lines.append(f"| {need} | {int(stats['items'])} | " + " | ".join(_fmt(stats.get(n)) for n in names) + " |")
    failed = [r for r in results if r.scores.get("pass") != 1.0 or r.scores.get("wrong_carry")
              or r.scores.get("missed_carry")]
    if failed:
        lines += ["", "### Failed turns (not passing, or a wrong or missed carry)", ""]
        for r in failed:
            turn = _turn(r)
            wrong = [n for n in ("refusal_correct", "papers_cited", "fact_stated") if r.scores.get(n) == 0.0]
            wrong += [n for n in ("wrong_carry", "missed_carry") if r.scores.get(n) == 1.0]
            lines.append(f"- `{turn.dialogue_id}` turn {turn.index} ({turn.need}) {turn.question} — expected "
                         f"{turn.expected_ids or ('refusal' if turn.expect_refusal else 'an answer')}, cited "
                         f"{r.cited_paper_ids}{' (refused)' if r.refused else ''}; failed: {', '.join(wrong)}")
    return "\n".join(lines) + "\n"
