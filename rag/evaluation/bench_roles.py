"""``rag bench roles``: sentence roles (``rag.roles``) against blind labels, per role and per half.

The labels file is JSON lines ``{"sentence", "position", "name", "role", "half"}``: a sentence of an abstract, its
place there, the paper's short name, the role a labeller gave it without seeing the rules' output, and ``dev`` or
``test``. Rules were only ever revised by reading the ``dev`` half's errors, so ``test`` is the figure to quote.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from rag.errors import InputError
from rag.evaluation.bench import _table, _write
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


def bench_roles(path: Path, out: Path | None = None) -> dict[str, Any]:
    labels = load_labels(path)
    result: dict[str, Any] = {}
    for half in ("all", *sorted({str(item.get("half", "all")) for item in labels} - {"all"})):
        chosen = [item for item in labels if half == "all" or item.get("half") == half]
        gold = Counter(item["role"] for item in chosen)
        right = Counter(item["role"] for item in chosen
                        if role(item["sentence"], int(item["position"]), item.get("name", "")).value == item["role"])
        result[half] = {"sentences": len(chosen), "accuracy": sum(right.values()) / max(1, len(chosen)),
                        "per_role": {r: right[r] / gold[r] for r in sorted(gold)}}
    rows = [("half", "sentences", "accuracy", *(r.value for r in Role))]
    for half, figures in result.items():
        rows.append((half, str(figures["sentences"]), f"{figures['accuracy']:.3f}",
                     *(f"{figures['per_role'][r.value]:.3f}" if r.value in figures["per_role"] else "-" for r in Role)))
    print(f"Sentence roles vs blind labels ({path}); per role: share of that role's sentences given it\n")
    print(_table(rows))
    _write(result, out, "roles")
    return result
