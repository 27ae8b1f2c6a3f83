"""The comparison table: one row per compared paper; problem, method and key result, each cell a cited
excerpt of that paper's own sentences, so every cell is traceable whatever backend wrote the prose.

Sentences are sorted into the three columns by their role (``rag.roles``: the cue words abstracts use, "however…
suffer", "we propose", "achieves 2.3x"); a cell with no fitting sentence says so instead of guessing.
"""

from __future__ import annotations

from rag.roles import Role, proposes, role_of
from rag.standalone import rewrite
from rag.types import Evidence, Paper

COLUMNS = ("problem", "method", "key result")
# No sentence of the abstract was read as having the column's role. Not "not stated": roles are cue-word rules,
# and a result they miss is still in the abstract (graded unsupported when the table said it was not).
NOT_STATED = "—"
_HEAD_WORDS = 6  # "Cache What Lasts: …" → "Cache What Lasts"; a longer part before the colon is no name


def _pick(evidence: Evidence, wanted: Role, used: set[int]) -> str | None:
    """The paper's first sentence (in abstract order) of the role, not used by another column; for the method, the
    first that says what the paper proposes, if one does (not prior work's method, "recent studies have …")."""
    name = evidence.hit.paper.short_name
    ordered = sorted(evidence.sentences, key=lambda s: s.position)
    if wanted is Role.METHOD:
        ordered.sort(key=lambda s: not proposes(s.text))
    for sentence in ordered:
        if sentence.position not in used and role_of(sentence, name) is wanted:
            used.add(sentence.position)
            return rewrite(sentence.text).replace("|", "/")
    return None


def label(paper: Paper) -> str:
    """A row's name: the paper's own short name ("TRIM-KV", "SIGMark"), else its title's part before a colon when
    that is short, else the whole title; never cut (the cell wraps)."""
    if paper.given_name:
        return paper.given_name.replace("|", "/")
    head, colon, _ = paper.display_title.partition(":")
    return (head if colon and len(head.split()) <= _HEAD_WORDS else paper.display_title).strip().replace("|", "/")


def comparison_table(chosen: list[tuple[int, Evidence]]) -> str:
    """A Markdown table for the compared papers (``chosen``: source number n and its evidence). Cells hold whole
    sentences (they wrap in the browser; a cut sentence lost the figure or the name at its end)."""
    rows = ["| paper | " + " | ".join(COLUMNS) + " |", "|---|---|---|---|"]
    for n, evidence in chosen:
        used: set[int] = set()
        method = _pick(evidence, Role.METHOD, used)
        result = _pick(evidence, Role.RESULT, used)
        problem = _pick(evidence, Role.PROBLEM, used) or _pick(evidence, Role.BACKGROUND, used)
        cells = [f"{text} [{n}]" if text else NOT_STATED for text in (problem, method, result)]
        rows.append(f"| {label(evidence.hit.paper)} [{n}] | " + " | ".join(cells) + " |")
    return "\n".join(rows)
