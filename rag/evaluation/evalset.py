"""Scripted test questions (``rag eval`` input): YAML or JSON lines, validated, expectations resolved to ids."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.errors import InputError
from rag.types import Paper

_KNOWN_KEYS = {"id", "question", "history", "expect_papers", "also_relevant", "expect_refusal",
               "expect_answer_contains", "category"}


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
    )


def load_items(path: Path) -> list[EvalItem]:
    """Read a ``.yaml``/``.yml`` list or ``.jsonl`` file of questions; errors name file, line or item."""
    if not path.is_file():
        raise InputError(path, "no such file", "Give a .yaml or .jsonl question file")
    text = path.read_text(encoding="utf-8")
    items: list[EvalItem] = []
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
        items = [_item(raw, path, f"item {i}", None) for i, raw in enumerate(data, start=1)]
    elif path.suffix.lower() == ".jsonl":
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    raw = json.loads(line)
                except ValueError as exc:
                    raise InputError(path, "malformed JSON", line=number) from exc
                items.append(_item(raw, path, f"line {number}", number))
    else:
        raise InputError(path, f"unsupported question file type {path.suffix!r}", "Use .yaml or .jsonl")
    if not items:
        raise InputError(path, "holds no questions")
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise InputError(path, f"duplicate id {item.id!r}")
        seen.add(item.id)
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
