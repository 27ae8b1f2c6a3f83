"""``rag bench typos FILE``: the answerable questions of a question file with one typing error each.

Three systems in one run, on one engine: the questions as written (the ceiling), misspelt with spelling
correction off (the baseline) and misspelt with it on. Each question gets one deterministic error
(seeded by its id) in one topic word of six or more letters: a letter dropped, doubled, swapped with
its neighbour or replaced by a keyboard neighbour, never the first letter, and never one that makes
another English or corpus word (that would not be a detectable typo).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag.evaluation.bench import _table, _write
from rag.evaluation.metrics import ItemResult, aggregate, score_item

_KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_WORD = re.compile(r"(?<![\w-])[a-z]{6,}(?![\w-])")  # lower-case topic words only: names stay as written


@dataclass
class Misspelt:
    question: str
    word: str
    typo: str


def _neighbours(letter: str) -> str:
    for row in _KEYBOARD:
        if letter in row:
            i = row.index(letter)
            return row[max(0, i - 1):i] + row[i + 1:i + 2]
    return ""


def _typos(word: str, rng: random.Random) -> list[str]:
    """Candidate one-error spellings of ``word``, in a seeded random order."""
    found = []
    for i in range(1, len(word)):
        found.append(word[:i] + word[i + 1:])  # dropped
        found.append(word[:i] + word[i] + word[i:])  # doubled
        if i + 1 < len(word) and word[i] != word[i + 1]:
            found.append(word[:i] + word[i + 1] + word[i] + word[i + 2:])  # swapped
        found += [word[:i] + n + word[i + 1:] for n in _neighbours(word[i])]  # keyboard neighbour
    rng.shuffle(found)
    return found


def misspell(item_id: str, question: str, known: Any) -> Misspelt | None:
    """One typing error in one topic word; ``known(word)``: True for English and corpus words."""
    from rag.tokens import QUESTION_WORDS

    rng = random.Random(item_id)
    words = [m.group(0) for m in _WORD.finditer(question) if m.group(0) not in QUESTION_WORDS]
    rng.shuffle(words)
    for word in words:
        for typo in _typos(word, rng):
            if not known(typo):
                return Misspelt(re.sub(rf"(?<![\w-]){word}(?![\w-])", typo, question, count=1), word, typo)
    return None


def bench_typos(engine: Any, path: Path, k: int = 5, out: Path | None = None) -> dict[str, Any]:
    from rag.evaluation.evalset import load_items, resolve_expectations
    from rag.spelling import english_words

    items = [i for i in load_items(path) if not i.expect_refusal and not i.history]
    resolve_expectations(items, engine.papers(), path)
    engine.ensure_index(progress=False)
    engine.warm("extractive")
    names = engine.retriever.names
    english = english_words()
    known = lambda word: word in english or bool(names.papers_mentioning(word))  # noqa: E731
    cases = [(item, m) for item in items if (m := misspell(item.id, item.question, known))]
    names.spelling_fixes(["warmup"])  # the corpus dictionary is built on first use: not timed
    systems: dict[str, list[ItemResult]] = {"as written (ceiling)": [], "misspelt, no correction (baseline)": [],
                                            "misspelt, corrected": []}
    restored = 0
    original = engine.settings.decision.spelling
    try:
        for item, typo in cases:
            for name, question, spelling in (("as written (ceiling)", item.question, True),
                                             ("misspelt, no correction (baseline)", typo.question, False),
                                             ("misspelt, corrected", typo.question, True)):
                engine.settings.decision.spelling = spelling
                answer = engine.ask(question, top_k=k, rank_depth=10, backend="extractive")
                result = ItemResult(item, answer.ranked_paper_ids, [], answer.refused, "", answer.timings_ms["retrieve"])
                result.scores = score_item(result, k, answered=False)
                systems[name].append(result)
                if name == "misspelt, corrected":
                    restored += answer.corrections.get(typo.typo) == typo.word
    finally:
        engine.settings.decision.spelling = original
    summaries = {name: aggregate(results) for name, results in systems.items()}
    columns = ["hit@1", f"hit@{k}", f"recall@{k}", "false_refusal"]
    rows = [("system", *columns, "retrieval p50 ms")]
    for name, summary in summaries.items():
        cells = [f"{summary[c]:.3f}" if c in summary else "—" for c in columns]  # no multi-paper items: no recall
        rows.append((name, *cells, f"{summary['latency_p50_ms']:.0f}"))
    print(_table(rows))
    print(f"{len(cases)} answerable questions, one typo each ({len(items) - len(cases)} had no word to misspell); "
          f"the typo was read back as the word meant in {restored} of {len(cases)}")
    summaries["restored"] = {"count": restored, "of": len(cases)}
    summaries["typos"] = {item.id: f"{m.word} -> {m.typo}" for item, m in cases}
    _write(summaries, out, "bench_typos")
    return summaries
