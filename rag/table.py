"""The comparison table: one row per compared paper; problem, method and key result, each cell a cited
excerpt of that paper's own sentences, so every cell is traceable whatever backend wrote the prose.

Sentences are sorted into the three columns by their role (``rag.roles``: the cue words abstracts use, "however…
suffer", "we propose", "achieves 2.3x"); a cell with no fitting sentence says so instead of guessing.
"""

from __future__ import annotations

from rag.roles import Role, role
from rag.settings import AnswerSettings
from rag.standalone import rewrite
from rag.types import Evidence

COLUMNS = ("problem", "method", "key result")


def _excerpt(sentence: str, max_words: int) -> str:
    words = sentence.replace("|", "/").split()
    text = " ".join(words[:max_words])
    return text + (" …" if len(words) > max_words else "")


def _pick(evidence: Evidence, wanted: Role, used: set[int]) -> str | None:
    """The paper's first sentence (in abstract order) of the role, not used by another column."""
    for sentence in sorted(evidence.sentences, key=lambda s: s.position):
        if sentence.position not in used and role(sentence.text, sentence.position) is wanted:
            used.add(sentence.position)
            return rewrite(sentence.text)
    return None


def comparison_table(chosen: list[tuple[int, Evidence]], rules: AnswerSettings | None = None) -> str:
    """A Markdown table for the compared papers (``chosen``: source number n and its evidence; ``rules``: the
    ``table_*`` sizes, default the preset's)."""
    rules = rules or AnswerSettings()
    rows = ["| paper | " + " | ".join(COLUMNS) + " |", "|---|---|---|---|"]
    for n, evidence in chosen:
        used: set[int] = set()
        method = _pick(evidence, Role.METHOD, used)
        result = _pick(evidence, Role.RESULT, used)
        problem = _pick(evidence, Role.PROBLEM, used) or _pick(evidence, Role.BACKGROUND, used)
        cells = [f"{_excerpt(text, rules.table_max_words)} [{n}]" if text else "not stated in the abstract"
                 for text in (problem, method, result)]
        title = evidence.hit.paper.display_title.replace("|", "/")
        name = title.split(":")[0]
        short = name if ":" in title and len(name) <= rules.table_name_chars else title[: rules.table_title_chars]
        rows.append(f"| {short} [{n}] | " + " | ".join(cells) + " |")
    return "\n".join(rows)
