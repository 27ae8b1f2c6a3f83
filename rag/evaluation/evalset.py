"""Scripted test questions (``rag eval`` input): YAML or JSON lines, validated, expectations resolved to ids.

A file may also hold scripted dialogues (entries with ``turns``; parsed in ``dialogues.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.errors import InputError
from rag.types import Paper

if TYPE_CHECKING:
    from rag.evaluation.dialogues import Dialogue

_KNOWN_KEYS = {"id", "question", "history", "expect_papers", "also_relevant", "expect_refusal",
               "expect_answer_contains", "expect_missing", "category"}


@dataclass
class EvalItem:
    id: str
    question: str
    history: list[str] = field(default_factory=list)
    expect_papers: list[str] = field(default_factory=list)  # as written: ids or title substrings
    # Paper ids also judged relevant in a larger corpus (pooled judgments for broad "which papers…"
    # questions); they count as relevant when the evaluated index holds them and are ignored otherwise.
    also_relevant: list[str] = field(default_factory=list)
    expect_refusal: bool = False
    expect_answer_contains: list[str] = field(default_factory=list)
    category: str = ""
    # A near-miss: the question's qualifiers no indexed abstract holds (["speech"]); [] for a question that must not
    # be read as one; None when not checked.
    expect_missing: list[str] | None = None
    expected_ids: list[str] = field(default_factory=list)  # resolved against the index
    relevant_ids: list[str] = field(default_factory=list)  # expected_ids + also_relevant present in the index


def _strings(value: Any, name: str, where: str, path: Path, line: int | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InputError(path, f"{where}: '{name}' must be a string or a list of strings", line=line)


def _item(raw: Any, path: Path, where: str, line: int | None) -> EvalItem:
    if not isinstance(raw, dict):
        raise InputError(path, f"{where}: expected a mapping with 'id' and 'question'", line=line)
    unknown = set(raw) - _KNOWN_KEYS
    if unknown:
        raise InputError(path, f"{where}: unknown field(s) {sorted(unknown)}",
                         f"Known fields: {', '.join(sorted(_KNOWN_KEYS))}", line=line)
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InputError(path, f"{where}: missing 'question'", line=line)
    expect_refusal = raw.get("expect_refusal", False)
    if not isinstance(expect_refusal, bool):
        raise InputError(path, f"{where}: 'expect_refusal' must be true or false", line=line)
    return EvalItem(
        id=str(raw.get("id") or where),
        question=question.strip(),
        history=_strings(raw.get("history"), "history", where, path, line),
        expect_papers=_strings(raw.get("expect_papers"), "expect_papers", where, path, line),
        also_relevant=_strings(raw.get("also_relevant"), "also_relevant", where, path, line),
        expect_refusal=expect_refusal,
        expect_answer_contains=_strings(raw.get("expect_answer_contains"), "expect_answer_contains", where,
                                        path, line),
        category=str(raw.get("category") or ""),
        expect_missing=(_strings(raw["expect_missing"], "expect_missing", where, path, line)
                        if "expect_missing" in raw else None),
    )


@dataclass
class _Record:
    """One entry of a question file, before parsing: where it is (``where``, the file line when known)."""

    raw: Any
    where: str
    line: int | None
    yaml: bool = False
    turn_lines: list[int] = field(default_factory=list)  # YAML: the line of each entry of a dialogue's turns


def _yaml_lines(text: str) -> list[tuple[int, list[int]]]:
    """Each YAML list entry's line, and the lines of its ``turns`` entries (for dialogue errors)."""
    import yaml

    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.SequenceNode):
        return []
    lines = []
    for node in root.value:
        turns: list[int] = []
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == "turns" and isinstance(value, yaml.SequenceNode):
                    turns = [t.start_mark.line + 1 for t in value.value]
        lines.append((node.start_mark.line + 1, turns))
    return lines


def _records(path: Path) -> list[_Record]:
    if not path.is_file():
        raise InputError(path, "no such file", "Give a .yaml or .jsonl question file")
    text = path.read_text(encoding="utf-8")
    records: list[_Record] = []
    if path.suffix.lower() in {".yaml", ".yml"}:
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise InputError(path, f"invalid YAML ({getattr(exc, 'problem', exc)})",
                             line=mark.line + 1 if mark else None) from exc
        if not isinstance(data, list):
            raise InputError(path, "must be a YAML list of question items")
        lines = _yaml_lines(text)
        for i, raw in enumerate(data, start=1):
            line, turns = lines[i - 1] if len(lines) == len(data) else (None, [])
            records.append(_Record(raw, f"item {i}", line, yaml=True, turn_lines=turns))
    elif path.suffix.lower() == ".jsonl":
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    raw = json.loads(line)
                except ValueError as exc:
                    raise InputError(path, "malformed JSON", line=number) from exc
                records.append(_Record(raw, f"line {number}", number))
    else:
        raise InputError(path, f"unsupported question file type {path.suffix!r}", "Use .yaml or .jsonl")
    return records


def load_file(path: Path) -> tuple[list[EvalItem], list[Dialogue]]:
    """Read a ``.yaml``/``.yml`` list or ``.jsonl`` file of question items and scripted dialogues (an entry
    with ``turns``), in file order; errors name the file, the line or item, and what to fix."""
    from rag.evaluation.dialogues import is_dialogue, parse_dialogue

    items: list[EvalItem] = []
    dialogues: list[Dialogue] = []
    for record in _records(path):
        if is_dialogue(record.raw):
            dialogues.append(parse_dialogue(record.raw, path, record.where, record.line, record.turn_lines))
        else:  # question errors name the YAML item, as they always have; JSONL ones the line
            items.append(_item(record.raw, path, record.where, None if record.yaml else record.line))
    if not items and not dialogues:
        raise InputError(path, "holds no questions")
    seen: set[str] = set()
    for name in [i.id for i in items] + [d.id for d in dialogues]:
        if name in seen:
            raise InputError(path, f"duplicate id {name!r}")
        seen.add(name)
    return items, dialogues


def load_items(path: Path) -> list[EvalItem]:
    """The question items of a file (``load_file`` without its dialogues); errors name file, line or item."""
    items, dialogues = load_file(path)
    if not items:
        raise InputError(path, "holds no questions",
                         f"It holds {len(dialogues)} scripted dialogue(s): run it with 'rag eval'")
    return items


def resolve_expectations(items: list[EvalItem], papers: list[Paper], path: Path) -> None:
    """Map each expected paper (an id, or a case-insensitive title substring) to exactly one paper id.

    ``also_relevant`` ids are kept only when the index holds them: a question judged against the
    4,302 corpus stays valid on the seeds alone."""
    ids = {p.paper_id for p in papers}
    for item in items:
        item.expected_ids = []
        for wanted in item.expect_papers:
            if wanted in ids:
                item.expected_ids.append(wanted)
                continue
            matches = [p.paper_id for p in papers if wanted.lower() in p.title.lower()]
            if len(matches) != 1:
                problem = "matches no indexed paper" if not matches else f"matches {len(matches)} papers"
                raise InputError(path, f"item {item.id}: expected paper {wanted!r} {problem}",
                                 "Use the paper id or a longer title substring")
            item.expected_ids.append(matches[0])
        extra = [pid for pid in item.also_relevant if pid in ids and pid not in item.expected_ids]
        item.relevant_ids = item.expected_ids + extra
