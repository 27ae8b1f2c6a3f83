"""``rag bench roles``: sentence roles (``rag.roles``) against blind labels, per role and per half.

The labels file is JSON lines ``{"sentence", "position", "name", "role", "half"}``: a sentence of an abstract, its
place there, the paper's short name, the role a labeller gave it without seeing the rules' output, and ``dev``/``dev2``
or ``test``/``test2``. Rules were only ever revised by reading the ``dev`` halves' errors, and the neighbour model
(``rag.role_model``) is fitted on them alone, so the ``test`` halves are the figures to quote.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from rag.errors import InputError
from rag.evaluation.bench import _table, _write
from rag import role_model
from rag.roles import Role, role

_FIELDS = ("sentence", "position", "role")


def load_labels(path: Path) -> list[dict[str, Any]]:
    labels = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"not JSON ({exc.msg})", "One JSON object per line", line=line_no) from exc
        if not isinstance(item, dict) or any(f not in item for f in _FIELDS) or item["role"] not in {
                r.value for r in Role}:
            raise InputError(path, f"needs {', '.join(_FIELDS)} with a role of {', '.join(r.value for r in Role)}",
                             line=line_no)
        labels.append(item)
    return labels


def _abstracts(labels: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The labelled sentences grouped by abstract (``paper_id``, else one abstract per sentence), in order."""
    papers: dict[str, list[dict[str, Any]]] = {}
    for i, item in enumerate(labels):
        papers.setdefault(str(item.get("paper_id", f"#{i}")), []).append(item)
    return [sorted(items, key=lambda item: int(item["position"])) for items in papers.values()]


def bench_roles(paths: list[Path], out: Path | None = None, fit: bool = False) -> dict[str, Any]:
    """Rules alone and rules with neighbours (``role_model``) against the labels, per half. ``fit``: first refit
    the neighbour model on the ``dev*`` halves and write its weights (``role_model.WEIGHTS``)."""
    labels = [item for path in paths for item in load_labels(path)]
    abstracts = _abstracts(labels)
    rules = {id(item): role(item["sentence"], int(item["position"]), item.get("name", ""))
             for items in abstracts for item in items}
    if fit:
        dev = [items for items in abstracts if str(items[0].get("half", "")).startswith("dev")]
        role_model.WEIGHTS.write_text(json.dumps(role_model.fit(
            [([i["sentence"] for i in items], [rules[id(i)] for i in items], [Role(i["role"]) for i in items])
             for items in dev])) + "\n")
        role_model.reload()
        print(f"fitted on {sum(map(len, dev))} dev sentences, wrote {role_model.WEIGHTS}")
    weighed = {id(item): r for items in abstracts
               for item, r in zip(items, role_model.weigh([rules[id(i)] for i in items],
                                                                [i["sentence"] for i in items]))}
    result: dict[str, Any] = {}
    for half in ("all", *sorted({str(item.get("half", "all")) for item in labels} - {"all"})):
        chosen = [item for item in labels if half == "all" or item.get("half") == half]
        gold = Counter(item["role"] for item in chosen)
        right = Counter(item["role"] for item in chosen if weighed[id(item)].value == item["role"])
        result[half] = {"sentences": len(chosen), "accuracy": sum(right.values()) / max(1, len(chosen)),
                        "rules_alone": sum(rules[id(i)].value == i["role"] for i in chosen) / max(1, len(chosen)),
                        "per_role": {r: right[r] / gold[r] for r in sorted(gold)}}
    rows = [("half", "sentences", "rules alone", "accuracy", *(r.value for r in Role))]
    for half, figures in result.items():
        rows.append((half, str(figures["sentences"]), f"{figures['rules_alone']:.3f}", f"{figures['accuracy']:.3f}",
                     *(f"{figures['per_role'][r.value]:.3f}" if r.value in figures["per_role"] else "-" for r in Role)))
    print(f"Sentence roles vs blind labels ({', '.join(map(str, paths))}): accuracy of the stored roles (rules and "
          "neighbours), of the rules alone; per role: share of that role's sentences given it\n")
    print(_table(rows))
    _write(result, out, "roles")
    return result
