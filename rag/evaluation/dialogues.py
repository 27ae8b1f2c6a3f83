"""Scripted dialogues (``rag eval`` input): conversations of several turns, each turn scored like a question.

An entry with ``turns`` in a question file is a dialogue. Here: its record, parsing and validation, which
dialogues fit the index (``corpus``), and resolving each turn's expected papers. Running and scoring are in
``dialogue_eval.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.errors import InputError
from rag.evaluation.evalset import EvalItem, _strings, resolve_expectations
from rag.types import Paper

# The kinds of turn ("need": what the turn asks of the conversation).
NEEDS = ("standalone", "pronoun", "ordinal", "ellipsis", "partial_name", "choice", "comparison", "topic_switch",
         "collection", "refusal")
# Turns that refer back to papers an earlier answer cited: an expected paper cited before must be cited again.
CARRY_NEEDS = frozenset({"pronoun", "ordinal", "ellipsis", "partial_name", "choice", "comparison"})
# Turns that cannot open a dialogue: they lean on an earlier turn.
_NOT_FIRST = frozenset({"pronoun", "ordinal", "ellipsis", "choice", "topic_switch"})
CORPORA = {"seeds": "the 36 seed papers", "full": "the seeds + the 4,302-paper corpus"}
SEEDS_MAX_PAPERS = 100  # an index of at most this many papers runs `seeds` dialogues, a larger one `full` ones

_DIALOGUE_KEYS = {"id", "corpus", "turns"}
_TURN_KEYS = {"question", "need", "expect_papers", "expect_refusal", "expect_answer_contains"}


@dataclass
class DialogueTurn(EvalItem):
    """One turn: a question item (``id`` is "<dialogue id> turn <n>") that belongs to a conversation."""

    dialogue_id: str = ""
    index: int = 0  # 1-based position in the dialogue
    need: str = "standalone"


@dataclass
class Dialogue:
    id: str
    turns: list[DialogueTurn]
    corpus: str = ""  # "seeds", "full", or "" (runs on any index)


def is_dialogue(raw: Any) -> bool:
    return isinstance(raw, dict) and "turns" in raw


def _turn(raw: Any, path: Path, dialogue: str, index: int, line: int | None) -> DialogueTurn:
    where = f"dialogue {dialogue!r} turn {index}"
    if not isinstance(raw, dict):
        raise InputError(path, f"{where}: expected a mapping with 'question' and 'need'", line=line)
    unknown = set(raw) - _TURN_KEYS
    if unknown:
        raise InputError(path, f"{where}: unknown field(s) {sorted(unknown)}",
                         f"Known turn fields: {', '.join(sorted(_TURN_KEYS))}", line=line)
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InputError(path, f"{where}: missing 'question'", "Give the user's words as a string", line=line)
    need = raw.get("need")
    if need is None:
        raise InputError(path, f"{where}: missing 'need'", f"Give one of: {', '.join(NEEDS)}", line=line)
    if need not in NEEDS:
        raise InputError(path, f"{where}: unknown need {need!r}", f"Use one of: {', '.join(NEEDS)}", line=line)
    if index == 1 and need in _NOT_FIRST:
        raise InputError(path, f"{where}: need {need!r} refers back, but the first turn has nothing before it",
                         "Start the dialogue with a standalone turn", line=line)
    expect_refusal = raw.get("expect_refusal", need == "refusal")
    if not isinstance(expect_refusal, bool):
        raise InputError(path, f"{where}: 'expect_refusal' must be true or false", line=line)
    if need == "refusal" and not expect_refusal:
        raise InputError(path, f"{where}: need 'refusal' with expect_refusal: false",
                         "Drop expect_refusal or give the turn another need", line=line)
    expect_papers = _strings(raw.get("expect_papers"), "expect_papers", where, path, line)
    if expect_refusal and expect_papers:
        raise InputError(path, f"{where}: expects a refusal and papers", "Drop one of them", line=line)
    return DialogueTurn(
        id=f"{dialogue} turn {index}", question=question.strip(), expect_papers=expect_papers,
        expect_refusal=expect_refusal,
        expect_answer_contains=_strings(raw.get("expect_answer_contains"), "expect_answer_contains", where, path,
                                        line),
        category=need, dialogue_id=dialogue, index=index, need=need)


def parse_dialogue(raw: dict[str, Any], path: Path, where: str, line: int | None,
                   turn_lines: list[int] | None = None) -> Dialogue:
    """A dialogue entry; ``line`` is the entry's, ``turn_lines`` each turn's (YAML), for the error messages."""
    unknown = set(raw) - _DIALOGUE_KEYS
    if unknown:
        raise InputError(path, f"{where}: unknown dialogue field(s) {sorted(unknown)}",
                         f"Known dialogue fields: {', '.join(sorted(_DIALOGUE_KEYS))} (questions go in turns)",
                         line=line)
    name = str(raw.get("id") or where)
    corpus = raw.get("corpus") or ""
    if corpus and corpus not in CORPORA:
        raise InputError(path, f"dialogue {name!r}: unknown corpus {corpus!r}",
                         "Use seeds or full, or leave it out to run on any index", line=line)
    turns = raw["turns"]
    if not isinstance(turns, list) or not turns:
        raise InputError(path, f"dialogue {name!r}: 'turns' must be a non-empty list",
                         "Give one entry (question, need, expectations) per user turn", line=line)
    lines = turn_lines if turn_lines and len(turn_lines) == len(turns) else [line] * len(turns)
    return Dialogue(id=name, corpus=corpus,
                    turns=[_turn(t, path, name, i, lines[i - 1]) for i, t in enumerate(turns, start=1)])


def index_corpus(paper_count: int) -> str:
    """Which dialogues an index of this many papers is for: ``seeds`` (≤ 100 papers) or ``full``."""
    return "seeds" if paper_count <= SEEDS_MAX_PAPERS else "full"


@dataclass
class Selection:
    run: list[Dialogue]
    skipped: list[Dialogue] = field(default_factory=list)
    note: str = ""  # why dialogues were skipped (empty when none were)


def select_dialogues(dialogues: list[Dialogue], paper_count: int, run_all: bool = False) -> Selection:
    """The dialogues to run on an index of ``paper_count`` papers: those for its corpus and those without
    ``corpus`` (all of them with ``run_all``)."""
    corpus = index_corpus(paper_count)
    if run_all:
        return Selection(run=list(dialogues))
    run = [d for d in dialogues if d.corpus in ("", corpus)]
    skipped = [d for d in dialogues if d.corpus not in ("", corpus)]
    note = ""
    if skipped:
        other = "full" if corpus == "seeds" else "seeds"
        size = "≤" if corpus == "seeds" else ">"
        note = (f"{len(skipped)} dialogue(s) skipped: written for corpus '{other}' ({CORPORA[other]}), but the "
                f"index holds {paper_count} papers ({size} {SEEDS_MAX_PAPERS}, corpus '{corpus}'); "
                "--all-dialogues runs them")
    return Selection(run=run, skipped=skipped, note=note)


def resolve_dialogues(dialogues: list[Dialogue], papers: list[Paper], path: Path) -> None:
    """Each turn's expected papers to ids, as for question items; an expected paper the index lacks is an error
    naming it (and the dialogue's corpus when the index is not the one it was written for)."""
    corpus = index_corpus(len(papers))
    for dialogue in dialogues:
        turns: list[EvalItem] = list(dialogue.turns)
        try:
            resolve_expectations(turns, papers, path)
        except InputError as exc:
            if dialogue.corpus and dialogue.corpus != corpus:
                raise InputError(path, exc.problem,
                                 f"Dialogue {dialogue.id!r} is written for corpus '{dialogue.corpus}' "
                                 f"({CORPORA[dialogue.corpus]}) and the index holds {len(papers)} papers: "
                                 "run without --all-dialogues") from exc
            raise
