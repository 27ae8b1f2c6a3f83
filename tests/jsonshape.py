"""The shape of a JSON value (keys and types, list items merged) for golden-file contract tests."""

from __future__ import annotations

from typing import Any

_NAMES = {bool: "bool", int: "int", float: "float", str: "str", type(None): "null"}


def shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        merged: Any = None
        for item in value:
            merged = _merge(merged, shape(item))
        return [merged] if value else []
    return _NAMES[type(value)]


def _merge(a: Any, b: Any) -> Any:
    if a is None or b is None:  # an empty list contributes nothing
        return b if a is None else a
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: _merge(a.get(k), b.get(k)) if k in a and k in b else a.get(k, b.get(k)) for k in {**a, **b}}
    if isinstance(a, list) and isinstance(b, list):
        return [_merge(a[0] if a else None, b[0] if b else None)] if (a or b) else []
    if isinstance(a, str) and isinstance(b, str):
        return "|".join(sorted(set(a.split("|")) | set(b.split("|"))))
    return a if a == b else f"{a}|{b}"
