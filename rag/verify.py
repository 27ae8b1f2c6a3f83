"""Citation checking: every sentence an LLM wrote is matched against the sources' own sentences.

A citation ``[n]`` stays only if source n supports the sentence; a supported sentence the model left
uncited gets the right ``[n]``; numbers that point at no source are dropped; sentences nothing supports
are removed. Support mixes the best sentence-embedding cosine with the share of the sentence's topic
words found in the source, and a sentence whose figures ("5.14x", "40%") are not in a source is not
supported by it: small models invent numbers. Written here because no llama-index evaluator checks
per-sentence attribution offline without an LLM judge.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rag.evidence import blend
from rag.sentences import split_sentences
from rag.settings import AnswerSettings
from rag.tokens import content_words, stems
from rag.types import Evidence

if TYPE_CHECKING:
    from rag.retrieval.rankers import SentenceIndex

# A sentence's own topic words (stemmed) must be in its source (``min_coverage``): a sentence close in meaning
# but made of words the source never uses ("covers model selection and deployment") is invented. With fewer
# than ``min_own_words`` of them a sentence mostly restates the question: meaning decides.
_MARKER = re.compile(r"\s*\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PREFIX = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_MIN_WORDS = 3
# A sentence whose topic words are nearly all (``repeat_share``) in one sentence already kept, citing no other
# source, says nothing new: small models loop, and every copy is supported. The same words citing another paper
# ("It studies test-time scaling [2]") are kept.


@dataclass
class Checked:
    text: str  # the answer rebuilt from supported sentences, each ending with its [n] markers
    cited: list[int] = field(default_factory=list)  # source numbers cited, in order of first use
    supported: int = 0
    total: int = 0  # sentences with at least a few words (greetings and fragments are not counted)
    removed: list[str] = field(default_factory=list)  # unsupported sentences, as written
    support: list[tuple[str, float]] = field(default_factory=list)  # each counted sentence and its best support
    attached: int = 0  # citations added where the model left them out
    dropped: int = 0  # citations removed (pointing at no source, or at one that does not support it)
    repeated: int = 0  # sentences dropped as repeats of a kept one (neither counted nor kept)

    @property
    def share(self) -> float:
        return self.supported / self.total if self.total else 0.0


def markers(sentence: str) -> list[int]:
    return [int(n) for group in _MARKER.findall(sentence) for n in re.split(r"[,;]", group)]


def strip_markers(sentence: str) -> str:
    return _MARKER.sub("", sentence).strip()


def _without_title(text: str, numbered: list[tuple[int, Evidence]]) -> str:
    """"Tactic: Adaptive…: However, these methods…" → "However, these methods…": a title echoed as a lead-in."""
    for _, item in numbered:
        title = item.hit.paper.display_title
        if text.lower().startswith(title.lower()) and text[len(title):].lstrip().startswith(":"):
            rest = text[len(title):].lstrip()[1:].strip()
            return rest[:1].upper() + rest[1:] if rest else text
    return text


def _bare(text: str) -> str:
    return " ".join(text.lower().strip(" :.").split())


def _numbers(text: str) -> set[str]:
    """Figures worth checking: any decimal, or an integer of two or more digits ("3 stages" is not one)."""
    return {n for n in _NUMBER.findall(text) if "." in n or len(n) > 1}


_TRAILING = re.compile(r"([.!?])\s*((?:\[\d+(?:\s*[,;]\s*\d+)*\]\s*)+)")


def _markers_inside(text: str) -> str:
    """"… claims X. [1]" → "… claims X [1]." so the sentence splitter keeps the marker with its sentence."""
    return _TRAILING.sub(lambda m: f" {m.group(2).strip()}{m.group(1)} ", text)


def repeats(words: set[str], earlier: set[str], share: float) -> bool:
    """A sentence (its stemmed topic words ``words``) says again what one said ``earlier`` does: ``share`` of its
    words are there (the check drops such repeats; the LLM's lead drops what copies an abstract sentence)."""
    return bool(words) and len(words & earlier) >= share * len(words)


def check_citations(answer: str, question: str, numbered: list[tuple[int, Evidence]], sentences: SentenceIndex,
                    embed: Callable[[list[str]], Any], min_support: float,
                    rules: AnswerSettings | None = None) -> Checked:
    """``numbered``: the sources the model saw, with their numbers n; ``sentences``: the retriever's
    ``SentenceIndex``; ``embed``: texts → unit vectors (the embedding model of the index); ``rules``: the
    answer settings (default: the preset's). Figures the question itself states may be repeated without a
    source holding them."""
    import numpy as np

    rules = rules or AnswerSettings()

    lines = [line for line in answer.splitlines() if line.strip()]
    pieces: list[tuple[int, str, str]] = []  # (line number, prefix, sentence as written)
    for i, line in enumerate(lines):
        prefix = _PREFIX.match(line)
        body = _markers_inside(line[prefix.end():] if prefix else line)
        for sentence in split_sentences(body):
            pieces.append((i, prefix.group(0) if prefix else "", sentence))
    plain = [_without_title(strip_markers(s), numbered) for _, _, s in pieces]
    titles = {_bare(e.hit.paper.display_title) for _, e in numbered}
    # Too short to claim anything, or a source's title echoed as a heading: neither counted nor kept.
    counted = [len(p.split()) >= _MIN_WORDS and _bare(p) not in titles for p in plain]
    vectors = embed([p for p, ok in zip(plain, counted) if ok]) if any(counted) else []
    numbers = [n for n, _ in numbered]
    source_rows = [sentences.quotable_rows(e.hit.paper.paper_id) for _, e in numbered]
    source_text = [f"{e.hit.paper.title} {' '.join(sentences.texts[r] for r in rows)}".lower()
                   for (_, e), rows in zip(numbered, source_rows)]
    source_words = [stems(content_words(t)) for t in source_text]
    asked = stems(content_words(question))

    checked = Checked(text="")
    out_lines: dict[int, list[str]] = {}
    prefixes: dict[int, str] = {}
    v = iter(vectors)
    said: list[tuple[set[str], set[int]]] = []  # each kept sentence's topic words and the sources it cites
    for (line, prefix, written), text, ok in zip(pieces, plain, counted):
        prefixes.setdefault(line, prefix)
        wanted = markers(written)
        if not ok:
            continue
        vector = np.asarray(next(v))
        words = stems(content_words(text))
        if any(repeats(words, earlier, rules.repeat_share) and set(wanted) <= sources for earlier, sources in said):
            checked.repeated += 1
            continue
        checked.total += 1
        own = words - asked  # words the question itself uses may be restated freely; the rest need the source
        figures = _numbers(text) - _numbers(question)
        support = []
        for rows, words_n, text_n in zip(source_rows, source_words, source_text):
            if not rows or (figures and not figures <= _numbers(text_n)):
                support.append(0.0)
                continue
            cosine = float(np.max(sentences.vectors[rows] @ vector))
            overlap = len(words & words_n) / len(words) if words else 0.0
            score = blend(cosine, overlap, rules.lexical_weight)
            coverage = len(own & words_n) / len(own) if own else 1.0
            invented = len(own) >= rules.min_own_words and coverage < rules.min_coverage
            support.append(min(score, coverage) if invented else score)
        checked.support.append((text, max(support, default=0.0)))
        kept = [n for n in dict.fromkeys(wanted) if n in numbers and support[numbers.index(n)] >= min_support]
        checked.dropped += len(set(wanted)) - len(kept)
        if not kept and support:
            best = int(np.argmax(support))
            if support[best] >= min_support:
                kept = [numbers[best]]
                checked.attached += 1
        if not kept:
            checked.removed.append(written)
            continue
        checked.supported += 1
        said.append((words, set(kept)))
        checked.cited += [n for n in kept if n not in checked.cited]
        out_lines.setdefault(line, []).append(text.rstrip() + " " + "".join(f"[{n}]" for n in kept))
    checked.text = "\n".join(prefixes[i] + " ".join(parts) for i, parts in sorted(out_lines.items()))
    return checked
