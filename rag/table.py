"""The comparison table: one row per compared paper; problem, method and key result, each cell a cited
excerpt of that paper's own sentences, so every cell is traceable whatever backend wrote the prose.

Sentences are sorted into the three columns by the cue words abstracts use ("however… suffer",
"we propose", "achieves 2.3x"); a cell with no fitting sentence says so instead of guessing.
"""

from __future__ import annotations

import re

from rag.settings import AnswerSettings
from rag.types import Evidence, EvidenceSentence

_CUES = {
    "problem": re.compile(r"\b(however|challeng\w*|limit\w*|suffer\w*|bottleneck\w*|costly|expensive|struggle\w*|"
                          r"fail\w*|lack\w*|problem|issue\w*|remain\w* (?:unclear|difficult|open)|difficult)\b", re.I),
    "method": re.compile(r"\b(we (?:propose|introduce|present|develop|design)|this (?:paper|work) "
                         r"(?:proposes|introduces|presents)|our (?:method|approach|framework)|"
                         r"propose\w*|introduce\w*)\b", re.I),
    "result": re.compile(r"(\d+(?:\.\d+)?\s*(?:x|×|%)|\b(?:outperform\w*|achiev\w*|improv\w*|speed\w*up|"
                         r"state-of-the-art|surpass\w*|reduc\w*|faster)\b)", re.I),
}
COLUMNS = ("problem", "method", "key result")


def _excerpt(sentence: str, max_words: int) -> str:
    words = sentence.replace("|", "/").split()
    text = " ".join(words[:max_words])
    return text + (" …" if len(words) > max_words else "")


def method_sentence(evidence: Evidence) -> EvidenceSentence | None:
    """The paper's first sentence saying what it proposes ("We propose TRIM-KV, …"), if any."""
    return next((s for s in sorted(evidence.sentences, key=lambda s: s.position) if _CUES["method"].search(s.text)),
                None)


def _pick(evidence: Evidence, cue: str, used: set[int]) -> str | None:
    """The paper's first sentence (in abstract order) showing the cue and not used by another column."""
    ordered = sorted(evidence.sentences, key=lambda s: s.position)
    for sentence in ordered:
        if sentence.position not in used and _CUES[cue].search(sentence.text):
            used.add(sentence.position)
            return sentence.text
    return None


def comparison_table(chosen: list[tuple[int, Evidence]], rules: AnswerSettings | None = None) -> str:
    """A Markdown table for the compared papers (``chosen``: source number n and its evidence; ``rules``: the
    ``table_*`` sizes, default the preset's)."""
    rules = rules or AnswerSettings()
    rows = ["| paper | " + " | ".join(COLUMNS) + " |", "|---|---|---|---|"]
    for n, evidence in chosen:
        used: set[int] = set()
        method = _pick(evidence, "method", used)
        result = _pick(evidence, "result", used)
        problem = _pick(evidence, "problem", used)
        if problem is None and evidence.sentences:  # the opening sentence usually states the problem
            first = min(evidence.sentences, key=lambda s: s.position)
            problem = first.text if first.position not in used else None
        cells = [f"{_excerpt(text, rules.table_max_words)} [{n}]" if text else "not stated in the abstract"
                 for text in (problem, method, result)]
        title = evidence.hit.paper.display_title.replace("|", "/")
        name = title.split(":")[0]
        short = name if ":" in title and len(name) <= rules.table_name_chars else title[: rules.table_title_chars]
        rows.append(f"| {short} [{n}] | " + " | ".join(cells) + " |")
    return "\n".join(rows)
