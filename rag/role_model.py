"""The roles of a whole abstract's sentences: the cue rules' role (``roles.role``) of each sentence and of its two
neighbours, and its place, weighed by a logistic regression fitted on the blind development labels.

Why a model on top of the rules: the rules read one sentence at a time, but a sentence's role is mostly set by its
neighbours ("Our approach offers several advantages …" after a method is a result; "Large language models demand
extensive memory …" before "We propose" is a problem). The model has 19 inputs and no text features, so it cannot
learn the label sample's topics; it is applied with plain arithmetic (no scikit-learn at run time) and fitted by
``rag bench roles --fit`` (scikit-learn, a dependency of sentence-transformers). Blind held-out samples, rules →
rules and neighbours: 0.822 → 0.856 and 0.799 → 0.834 (docs/benchmarks.md, eleventh pass).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rag.roles import Role, role

WEIGHTS = Path(__file__).with_name("role_weights.json")
_INPUT_ROLES = (Role.BACKGROUND, Role.PROBLEM, Role.METHOD, Role.RESULT, Role.OTHER)  # one-hot order


def features(rule_roles: Sequence[Role], i: int) -> list[float]:
    """Sentence ``i``'s inputs: its rules' role, the previous and next sentences' (zeros at either end) and its
    place (share of the way through the abstract, first, last, the first five positions)."""

    def one_hot(j: int) -> list[float]:
        inside = 0 <= j < len(rule_roles)
        return [1.0 if inside and rule_roles[j] is r else 0.0 for r in _INPUT_ROLES]

    last = len(rule_roles) - 1
    return [*one_hot(i), *one_hot(i - 1), *one_hot(i + 1),
            i / max(1, last), float(i == 0), float(i == last), min(i, 5) / 5]


def _weights() -> dict[str, Any]:
    global _LOADED
    if _LOADED is None:
        _LOADED = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    return _LOADED


_LOADED: dict[str, Any] | None = None


def reload() -> None:
    """Read ``WEIGHTS`` again on next use (after ``rag bench roles --fit`` wrote them)."""
    global _LOADED
    _LOADED = None


def weigh(rule_roles: Sequence[Role]) -> list[Role]:
    """Each sentence's role given the rules' roles of the whole abstract, in order. A sentence that addresses a
    language model keeps that role (never quoted, whatever its neighbours)."""
    model = _weights()
    out = []
    for i, rule_role in enumerate(rule_roles):
        if rule_role is Role.INSTRUCTION:
            out.append(rule_role)
            continue
        x = features(rule_roles, i)
        scores = [b + sum(w * v for w, v in zip(row, x)) for row, b in zip(model["coef"], model["intercept"])]
        out.append(Role(model["classes"][max(range(len(scores)), key=scores.__getitem__)]))
    return out


def roles_of(texts: Sequence[str], name: str = "") -> list[Role]:
    """The roles of an abstract's sentences (``texts``, in order; ``name``: the paper's method name)."""
    return weigh([role(text, i, name) for i, text in enumerate(texts)])


def fit(abstracts: Sequence[tuple[Sequence[Role], Sequence[Role]]], c: float = 0.3) -> dict[str, Any]:
    """Weights from labelled abstracts (each: the rules' roles, the labelled roles), as ``WEIGHTS`` holds them."""
    from sklearn.linear_model import LogisticRegression

    x = [features(rules, i) for rules, _ in abstracts for i in range(len(rules))]
    y = [label.value for _, labels in abstracts for label in labels]
    model = LogisticRegression(C=c, max_iter=3000).fit(x, y)
    return {"classes": [str(k) for k in model.classes_], "C": c,
            "coef": [[round(float(v), 6) for v in row] for row in model.coef_],
            "intercept": [round(float(v), 6) for v in model.intercept_],
            "fitted_on": sum(len(labels) for _, labels in abstracts)}

