"""Citation checking on a hand-made sentence index with a bag-of-words embedder: no model, no LLM."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rag.retrieval.rankers import SentenceIndex
from rag.settings import AnswerSettings
from rag.types import Evidence, EvidenceSentence, Hit, Paper
from rag.verify import Checked, check_citations, markers, strip_markers

MIN_SUPPORT = AnswerSettings().min_support

_STOP = frozenset("a an and the of is are it its by to with while each at that this for in on".split())
_DIM = 256


# Words the embedder reads as meaning the same as a source's word: a sentence made of them is close in meaning
# to the source while using words it never does.
_SYNONYMS = {"light": "lightweight", "keeping": "retention", "valve": "gate", "ranks": "scores", "piece": "token",
             "birth": "creation", "moment": "time", "every": "each"}


class WordEmbedder:
    """Texts → unit vectors: one dimension per content word (assigned on first sight, so never colliding)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), _DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                word = _SYNONYMS.get(word, word)
                if word not in _STOP:
                    out[i, self.index.setdefault(word, len(self.index))] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


PAPERS = {
    "p1": ("RetainGate: Learned Token Retention", [
        "Long context inference suffers from a growing key value cache.",
        "We propose RetainGate, a lightweight retention gate that scores each token at creation time.",
        "RetainGate reduces cache memory by 40% while keeping accuracy.",
        "Test-time scaling improves reasoning accuracy.",
    ]),
    "p2": ("GraphLens: Explaining Graph Networks", [
        "Graph neural networks are hard to interpret.",
        "GraphLens explains node predictions with sparse subgraph masks.",
        "Test-time scaling improves reasoning accuracy.",
    ]),
}
GATE = "RetainGate is a lightweight retention gate that scores each token at creation time"
LENS = "GraphLens explains node predictions with sparse subgraph masks"
QUESTION = "How do these papers work?"


def _setup() -> tuple[list[tuple[int, Evidence]], SentenceIndex, WordEmbedder]:
    embed = WordEmbedder()
    texts, paper_ids, positions = [], [], []
    numbered = []
    for n, (paper_id, (title, sentences)) in enumerate(PAPERS.items(), start=1):
        for position, sentence in enumerate(sentences):
            texts.append(sentence)
            paper_ids.append(paper_id)
            positions.append(position)
        paper = Paper(paper_id, title, " ".join(sentences), f"test:{n}")
        numbered.append((n, Evidence(Hit(paper, 1.0), [EvidenceSentence(s, 0.5, i) for i, s in enumerate(sentences)])))
    index = SentenceIndex.of(embed(texts), paper_ids, texts, positions)
    return numbered, index, embed


def check(answer: str, question: str = QUESTION) -> Checked:
    numbered, index, embed = _setup()
    return check_citations(answer, question, numbered, index, embed, MIN_SUPPORT)


def test_markers_reads_single_and_grouped_numbers() -> None:
    assert markers("A claim [1]. Another [2, 3] and [4; 5].") == [1, 2, 3, 4, 5]
    assert markers("No citation here.") == []


def test_strip_markers_removes_every_marker_and_its_space() -> None:
    assert strip_markers("A claim [1][2, 3].") == "A claim."
    assert strip_markers("  Plain sentence.  ") == "Plain sentence."


def test_a_supported_sentence_keeps_its_citation() -> None:
    checked = check(f"{GATE} [1].")
    assert checked.text == f"{GATE}. [1]"
    assert checked.cited == [1]
    assert (checked.supported, checked.total, checked.share) == (1, 1, 1.0)
    assert (checked.attached, checked.dropped, checked.removed) == (0, 0, [])
    assert checked.support[0][0] == f"{GATE}." and checked.support[0][1] >= MIN_SUPPORT


def test_a_marker_after_the_full_stop_stays_with_its_sentence() -> None:
    checked = check(f"{GATE}. [1] {LENS}. [2]")
    assert checked.text == f"{GATE}. [1] {LENS}. [2]"
    assert checked.cited == [1, 2] and (checked.supported, checked.total) == (2, 2)


def test_a_citation_to_a_source_that_does_not_support_it_is_replaced() -> None:
    checked = check(f"{GATE} [2].")
    assert checked.text == f"{GATE}. [1]"
    assert checked.cited == [1]
    assert (checked.dropped, checked.attached, checked.supported) == (1, 1, 1)


def test_an_uncited_supported_sentence_gets_its_source() -> None:
    checked = check(f"{LENS}.")
    assert checked.text == f"{LENS}. [2]"
    assert (checked.dropped, checked.attached, checked.cited) == (0, 1, [2])


def test_a_marker_pointing_at_no_source_is_dropped() -> None:
    checked = check(f"{GATE} [1, 9].")
    assert checked.text == f"{GATE}. [1]"
    assert (checked.dropped, checked.attached, checked.cited) == (1, 0, [1])


def test_only_a_marker_pointing_at_no_source_is_replaced_by_the_supporting_one() -> None:
    checked = check(f"{GATE} [7].")
    assert checked.text == f"{GATE}. [1]" and (checked.dropped, checked.attached) == (1, 1)


def test_a_number_no_source_holds_makes_the_sentence_unsupported() -> None:
    good = check("RetainGate reduces cache memory by 40% while keeping accuracy [1].")
    assert (good.supported, good.total) == (1, 1) and "40%" in good.text
    invented = f"{GATE}. RetainGate reduces cache memory by 75% while keeping accuracy [1]."
    checked = check(invented)
    assert "75%" not in checked.text and checked.text == f"{GATE}. [1]"
    assert checked.removed == ["RetainGate reduces cache memory by 75% while keeping accuracy [1]."]
    assert (checked.supported, checked.total, checked.share) == (1, 2, 0.5)
    assert checked.support[1][1] == 0.0


def test_a_number_the_question_states_may_be_repeated() -> None:
    sentence = "RetainGate reduces cache memory by 75% while keeping accuracy [1]."
    assert check(sentence).supported == 0
    checked = check(sentence, question="Does RetainGate reduce memory by 75%?")
    assert checked.supported == 1 and "75%" in checked.text


def test_a_single_digit_is_not_a_figure_to_check() -> None:
    checked = check("RetainGate reduces cache memory by 40% in 3 stages while keeping accuracy [1].")
    assert checked.supported == 1


def test_an_unrelated_sentence_is_removed_and_counted() -> None:
    checked = check(f"{GATE} [1]. Paris is the capital city of France [1].")
    assert checked.text == f"{GATE}. [1]"
    assert checked.removed == ["Paris is the capital city of France [1]."]
    assert (checked.supported, checked.total) == (1, 2)
    assert checked.support[1][1] < MIN_SUPPORT


def test_nothing_supported_gives_empty_text() -> None:
    checked = check("Paris is the capital city of France [1].")
    assert checked.text == "" and checked.cited == [] and (checked.supported, checked.total) == (0, 1)
    assert checked.share == 0.0


def test_short_fragments_are_neither_counted_nor_kept() -> None:
    checked = check(f"Hello there! {GATE} [1].")
    assert checked.text == f"{GATE}. [1]" and checked.total == 1 and checked.removed == []


def test_a_repeated_sentence_is_dropped_once_and_not_counted() -> None:
    checked = check(f"{GATE} [1]. {GATE} [1].")
    assert checked.text == f"{GATE}. [1]"
    assert (checked.repeated, checked.total, checked.supported) == (1, 1, 1)
    assert len(checked.support) == 1


def test_the_same_words_citing_another_source_are_kept() -> None:
    same = "Test-time scaling improves reasoning accuracy"
    checked = check(f"{same} [1]. {same} [1]. {same} [2].")
    assert checked.text == f"{same}. [1] {same}. [2]"
    assert (checked.repeated, checked.total, checked.supported) == (1, 2, 2)
    assert checked.cited == [1, 2]


def test_a_title_echoed_as_a_heading_is_not_counted() -> None:
    checked = check(f"RetainGate: Learned Token Retention\n{GATE} [1].")
    assert checked.text == f"{GATE}. [1]"
    assert (checked.total, checked.supported, checked.removed) == (1, 1, [])


def test_a_title_echoed_as_a_lead_in_is_cut_from_the_sentence() -> None:
    checked = check("RetainGate: Learned Token Retention: it scores each token at creation time with "
                    "a lightweight retention gate [1].")
    assert checked.text == "It scores each token at creation time with a lightweight retention gate. [1]"
    assert checked.supported == 1


def test_list_prefixes_are_kept_line_by_line() -> None:
    checked = check(f"- {GATE} [1].\n- {LENS} [2].\n\n- Paris is the capital city of France [1].")
    assert checked.text == f"- {GATE}. [1]\n- {LENS}. [2]"
    assert (checked.supported, checked.total) == (2, 3)


def test_numbered_list_prefixes_are_kept() -> None:
    checked = check(f"1. {GATE} [1].\n2) {LENS} [2].")
    assert checked.text == f"1. {GATE}. [1]\n2) {LENS}. [2]"


def test_cited_lists_sources_in_order_of_first_use() -> None:
    checked = check(f"{LENS} [2]. {GATE} [1]. GraphLens explains predictions with subgraph masks [2].")
    assert checked.cited == [2, 1]


def test_a_sentence_close_in_meaning_but_in_words_the_source_never_uses_is_not_supported() -> None:
    reworded = "RetainGate is a light keeping valve that ranks every piece at birth moment"
    embed = WordEmbedder()
    assert float(embed([reworded])[0] @ embed([GATE])[0]) > 0.99  # the same meaning to the embedder
    checked = check(f"{GATE} [1]. {reworded} [1].")
    assert checked.text == f"{GATE}. [1]" and checked.removed == [f"{reworded} [1]."]
    assert checked.support[1][1] < MIN_SUPPORT


def test_words_the_question_uses_need_no_source() -> None:
    reworded = "RetainGate is a light keeping valve that ranks every piece at birth moment"
    checked = check(f"{reworded} [1].", question=f"Is {reworded}?")
    assert checked.text == f"{reworded}. [1]" and checked.supported == 1


@pytest.mark.parametrize("min_support, kept", [(0.0, True), (1.01, False)])
def test_min_support_is_the_threshold(min_support: float, kept: bool) -> None:
    numbered, index, embed = _setup()
    checked = check_citations(f"{GATE} [1].", QUESTION, numbered, index, embed, min_support)
    assert (checked.supported == 1) is kept
