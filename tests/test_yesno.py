"""Yes-no questions: the verdict a paper's own sentence gives, said first, only where the sentence settles it."""

from __future__ import annotations

import pytest

from rag.chat import ChatSession
from rag.types import EvidenceSentence
from rag.yesno import verdict

SENTENCES = [EvidenceSentence(t, 0.5, i) for i, t in enumerate([
    "Sparse attention is widely used for long contexts.",
    "We propose GateKV, a calibration-free method that keeps tokens by a learned retention gate.",
    "Experiments on LongBench show a 2.1x speedup with distillation from a frozen model.",
    "It distils a video model into 3D, eliminating the need for multi-view training data.",
    "We remove noisy data points before training.",
])]


@pytest.mark.parametrize("question, word, position", [
    ("Does GateKV require calibration?", "No", 1),  # "calibration-free"
    ("Does it need recalibration?", "No", 1),  # a "re-" of repetition: answered by "calibration-free"
    ("Does it use distillation?", "Yes", 2),  # a result sentence holding every word of it
    ("Does it show a speedup on LongBench?", "Yes", 2),
    ("Does it need multi-view data?", "No", 3),  # "eliminating the need for multi-view training data"
    ("Does it use noisy data points?", "Yes", 4),  # "removes noisy data", and the need for other data is no "No"
])
def test_a_sentence_that_settles_it_gives_the_verdict(question: str, word: str, position: int) -> None:
    found = verdict(question, "GateKV", SENTENCES)
    assert found is not None and (found[0], found[1].position) == (word, position)


@pytest.mark.parametrize("question", [
    "Does it run on phones?",  # nothing says so either way: no verdict
    "Does it work without calibration?",  # a negative question: "No" would be ambiguous
    "Is there a paper on sparse attention?",  # asks for papers, not a verdict
    "Is sparse attention widely used?",  # only the field's background holds it
    "What does GateKV do?",
])
def test_no_verdict_where_the_sentences_do_not_settle_it(question: str) -> None:
    assert verdict(question, "GateKV", SENTENCES) is None


def test_the_answer_says_the_verdict_first_and_quotes_the_sentence(engine) -> None:
    answer = ChatSession(engine, backend="extractive").ask("Does GtR need retraining?")
    assert answer.text.startswith("No — ") and "training-free" in answer.text.split("[1]")[0]
