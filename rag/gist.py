"""The local model's one job in an answer: after the plan (shown at once, every sentence the sources' own), one
sentence in its own words, written under a JSON schema and checked like any other sentence.

Measured on 2 cores, the 0.5B reads its prompt at ~70 tokens/s and writes at ~16: leading with its free text put the
first checked sentence 4 s after the question, and 3 of 141 dialogue answers kept any of it (docs/benchmarks.md). So
the answer no longer waits for it: the plan leads, and the model fills one small, checkable slot, for a question
about one paper (over several, its one sentence joins what they say, which no source states). The schema
(llama.cpp turns it into a grammar: constrained decoding) keeps the reply to one sentence and its source numbers to
those of the sources shown; ``rag.checked_stream`` then drops it unless a cited source supports it and it is not a
copy of a sentence already shown.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from rag import prompts
from rag.backends import BackendError, Constrained
from rag.checked_stream import CheckedStream
from rag.sentences import split_sentences
from rag.types import Answer, StreamEvent, Turn
from rag.tokens import content_words, stems
from rag.verify import markers, repeats, strip_markers

MAX_CHARS = 300  # one sentence
MAX_TOKENS = 120
# Of the sentence's words the question does not hold, the share one sentence of a cited source must hold. The
# citation check reads support against the whole abstract, so a sentence that joins words of two of its sentences
# passes: of 28 such sentences of the 0.5B shown in the seed dialogues, 13 were wrong or empty ("Implicit reward
# models … because they apply a dedicated linear head", which the abstract says of explicit ones). All 13 hold
# under 0.81 of their words in one sentence; 7 of the 15 good ones hold 0.85 or more (docs/benchmarks.md).
ONE_SENTENCE = 0.85


def gist_schema(turn: Turn) -> dict[str, Any]:
    """One sentence and the sources it rests on, which can only be the sources given ([1]…[n])."""
    numbers = [n for n, _ in turn.decision.chosen]
    return {"type": "object", "required": ["sentence", "sources"], "additionalProperties": False,
            "properties": {"sentence": {"type": "string", "minLength": 10, "maxLength": MAX_CHARS},
                           "sources": {"type": "array", "items": {"type": "integer", "enum": numbers},
                                       "minItems": 1, "maxItems": min(3, len(numbers))}}}


def cited_sentence(reply: str) -> str:
    """The reply as one sentence with its [n] markers after its stop ("" when it is not the JSON asked for)."""
    try:
        data = json.loads(reply)
        sentence = " ".join(strip_markers(str(data["sentence"])).split())
        numbers = list(dict.fromkeys(int(n) for n in data["sources"]))
    except (ValueError, KeyError, TypeError):
        return ""
    sentence = re.sub(r"[\s,;:]+$", "", next(iter(split_sentences(sentence)), ""))  # the first, if it wrote more
    if not sentence or not numbers:
        return ""
    end = "" if sentence[-1] in ".!?" else "."
    return f"{sentence}{end} " + " ".join(f"[{n}]" for n in numbers)


def gist_part(turn: Turn, llm: Constrained, messages: list, checked: CheckedStream, fallback: Answer,
              show: Callable[[str], StreamEvent]) -> Iterator[StreamEvent]:
    """Ask for the sentence, check it, and show it (after the plan, already shown) if it holds up. A failing backend
    costs only that sentence (``fallback.notice`` says why). Returns the generation speed in tokens/s (0: unknown)."""
    pieces: list[str] = []
    first = last = 0.0
    try:
        for piece in llm.stream_json(messages, gist_schema(turn), MAX_TOKENS):
            last = time.perf_counter()
            first = first or last
            pieces.append(piece)
    except Exception as exc:  # any backend failure: one line (the plan shown stays the answer)
        reason = str(exc) if isinstance(exc, BackendError) else f"the local model failed: {exc}"
        fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=reason.rstrip("."))
        return 0.0
    if sentence := cited_sentence("".join(pieces)):
        checked.feed(sentence)
        checked.finish()
    if checked.shown and not _within_one_sentence(checked.text, turn, checked):
        checked.checked.removed.append(checked.text)  # counted as written and not supported
        checked.shown = []
    if checked.shown:
        yield show("\n\n" + prompts.GIST.format(sentence=checked.text))
    return (len(pieces) - 1) / (last - first) if last > first else 0.0


def _within_one_sentence(text: str, turn: Turn, checked: CheckedStream) -> bool:
    """The sentence's own words (not the question's) are nearly all (``ONE_SENTENCE``) in one sentence of a source
    it cites; a sentence with no words of its own restates the question and says nothing."""
    own = stems(content_words(strip_markers(text))) - stems(content_words(turn.question))
    by_n = dict(turn.decision.chosen)
    cited = [by_n[n].hit.paper for n in markers(text) if n in by_n]
    texts = [checked.sentences.texts[row] for paper in cited for row in checked.sentences.quotable_rows(paper.paper_id)]
    return any(repeats(own, stems(content_words(t)), ONE_SENTENCE) for t in [*texts, *(p.title for p in cited)])
