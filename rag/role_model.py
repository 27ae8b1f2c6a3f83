"""The roles of a whole abstract's sentences: the cue rules' role (``roles.role``) and cue patterns (``roles.cues``) of
each sentence and of its two neighbours, and its place, weighed by a logistic regression fitted on the blind
development labels.

Why a model on top of the rules: the rules read one sentence at a time and keep only the winning cue, but a sentence's
role is mostly set by its neighbours ("Our approach offers several advantages …" after a method is a result; "Large
language models demand extensive memory …" before "We propose" is a problem) and by cues the winner hides (a
"However, … fail" sentence with a figure). The model has 61 inputs and no words of the text, so it cannot learn the
label samples' topics; it is applied with plain arithmetic (no scikit-learn at run time) and fitted by ``rag bench
roles --fit`` (scikit-learn, a dependency of sentence-transformers). Blind held-out samples: rules alone 0.822 and
0.799; rules and neighbours' roles (19 inputs, two development samples) 0.856 and 0.834; with the cue patterns
(three development samples) 0.873 and 0.838 (docs/benchmarks.md, fourteenth pass); refitted on four development
samples with more result cues, 0.877, 0.860 and 0.908 on the three held-out samples (nineteenth pass).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rag.roles import Role, cues, role

WEIGHTS = Path(__file__).with_name("role_weights.json")
_INPUT_ROLES = (Role.BACKGROUND, Role.PROBLEM, Role.METHOD, Role.RESULT, Role.OTHER)  # one-hot order
_CUE_COUNT = len(cues(""))


def features(rule_roles: Sequence[Role], cue_rows: Sequence[list[float]], i: int) -> list[float]:
    """Sentence ``i``'s inputs: its rules' role, the previous and next sentences' (zeros at either end), its place
    (share of the way through the abstract, first, last, the first five positions), then the cue patterns of the
    sentence and of its two neighbours (``cue_rows``: ``roles.cues`` of each sentence, worked out once per abstract;
    zeros at either end): 19 + 3 × 14 = 61."""

    def one_hot(j: int) -> list[float]:
        inside = 0 <= j < len(rule_roles)
        return [1.0 if inside and rule_roles[j] is r else 0.0 for r in _INPUT_ROLES]

    def cue(j: int) -> list[float]:
        return cue_rows[j] if 0 <= j < len(cue_rows) else [0.0] * _CUE_COUNT

    last = len(rule_roles) - 1
    return [*one_hot(i), *one_hot(i - 1), *one_hot(i + 1),
            i / max(1, last), float(i == 0), float(i == last), min(i, 5) / 5, *cue(i), *cue(i - 1), *cue(i + 1)]


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


def weigh(rule_roles: Sequence[Role], texts: Sequence[str]) -> list[Role]:
    """Each sentence's role given the rules' roles and the texts of the whole abstract, in order. A sentence that
    addresses a language model keeps that role (never quoted, whatever its neighbours)."""
    model = _weights()
    cue_rows = [cues(text) for text in texts]
    out = []
    for i, rule_role in enumerate(rule_roles):
        if rule_role is Role.INSTRUCTION:
            out.append(rule_role)
            continue
        x = features(rule_roles, cue_rows, i)
        scores = [b + sum(w * v for w, v in zip(row, x)) for row, b in zip(model["coef"], model["intercept"])]
        out.append(Role(model["classes"][max(range(len(scores)), key=scores.__getitem__)]))
    return out


def roles_of(texts: Sequence[str], name: str = "") -> list[Role]:
    """The roles of an abstract's sentences (``texts``, in order; ``name``: the paper's method name)."""
    return weigh([role(text, i, name) for i, text in enumerate(texts)], texts)


def fit(abstracts: Sequence[tuple[Sequence[str], Sequence[Role], Sequence[Role]]], c: float = 0.3) -> dict[str, Any]:
    """Weights from labelled abstracts (each: the sentences, the rules' roles, the labelled roles), as ``WEIGHTS``
    holds them. ``c``: chosen by grouped 5-fold cross-validation on the four development samples (0.882 at 0.3;
    0.881 at 0.1 and 1.0, 0.879 at 0.05)."""
    from sklearn.linear_model import LogisticRegression

    x: list[list[float]] = []
    for texts, rules, _ in abstracts:
        rows = [cues(text) for text in texts]
        x += [features(rules, rows, i) for i in range(len(rules))]
    y = [label.value for _, _, labels in abstracts for label in labels]
    model = LogisticRegression(C=c, max_iter=3000).fit(x, y)
    return {"classes": [str(k) for k in model.classes_], "C": c,
            "coef": [[round(float(v), 6) for v in row] for row in model.coef_],
            "intercept": [round(float(v), 6) for v in model.intercept_],
            "fitted_on": sum(len(labels) for _, _, labels in abstracts)}

