"""Follow-up questions: when a question leans on the conversation, its deterministic standalone form, and
the acceptance rules of an LLM rewrite (with a fake LLM of queued replies)."""

from __future__ import annotations

import pytest
from fakes import FakeLLM

from rag.followup import llm_rewrite, refers_back, standalone_query
from rag.settings import Settings

FIRST = "How does TRIM-KV compress the KV cache?"
FOLLOW_UP = "What speedup does it claim?"


@pytest.mark.parametrize("question", [
    "What speedup does it claim?",  # a pronoun
    "What does the paper propose?",  # "the paper"
    "How fast is that?",
    "Why?",  # too little of its own
    "And the results?",  # one topic word, no name
    "它的速度如何？",  # a Chinese pronoun
])
def test_questions_that_refer_back(question: str) -> None:
    assert refers_back(question)


@pytest.mark.parametrize("question", [
    FIRST,
    "What is TRIM-KV?",  # a name is enough on its own
    "What about GraphLens?",
    "How do graph neural networks explain predictions?",
    "Are there papers on mixture of experts routing?",
])
def test_questions_that_stand_alone(question: str) -> None:
    assert not refers_back(question)


def test_a_standalone_question_is_searched_as_asked() -> None:
    assert standalone_query(FIRST, ["What is GraphLens?"]) == FIRST


def test_a_follow_up_without_history_is_searched_as_asked() -> None:
    assert standalone_query(FOLLOW_UP, []) == FOLLOW_UP


def test_a_follow_up_is_preceded_by_the_latest_standalone_turn() -> None:
    history = ["What is GraphLens?", FIRST]
    assert standalone_query(FOLLOW_UP, history) == f"{FIRST} {FOLLOW_UP}"


def test_a_chain_of_follow_ups_goes_back_to_the_latest_standalone_turn() -> None:
    history = ["What is GraphLens?", FIRST, "What does it learn?", "How fast is that?"]
    assert standalone_query(FOLLOW_UP, history) == f"{FIRST} What does it learn? How fast is that? {FOLLOW_UP}"


def test_a_history_of_follow_ups_only_is_used_whole() -> None:
    history = ["Why?", "What does it learn?"]
    assert standalone_query(FOLLOW_UP, history) == f"Why? What does it learn? {FOLLOW_UP}"


def _rewrite(reply: str, question: str = FOLLOW_UP, history: list[str] | None = None) -> str | None:
    return llm_rewrite(FakeLLM(reply), question, [FIRST] if history is None else history, Settings())


def test_a_rewrite_keeping_the_topic_is_joined_to_the_deterministic_query() -> None:
    rewritten = "What speedup does TRIM-KV claim?"
    assert _rewrite(rewritten) == f"{rewritten} {FIRST} {FOLLOW_UP}"


def test_quotes_around_a_rewrite_are_removed() -> None:
    assert _rewrite('"What speedup does TRIM-KV claim?"') == f"What speedup does TRIM-KV claim? {FIRST} {FOLLOW_UP}"


def test_a_rewrite_changing_the_subject_is_rejected() -> None:
    assert _rewrite("How does GraphLens explain graph predictions?") is None


def test_a_rewrite_whose_first_line_is_garbage_is_rejected() -> None:
    assert _rewrite("Sure! Here is the rewritten question:\nWhat speedup does TRIM-KV claim?") is None


def test_only_the_first_line_of_a_multi_line_rewrite_is_used() -> None:
    reply = "What speedup does TRIM-KV claim?\nTRIM-KV claims a 5x speedup on long context benchmarks."
    assert _rewrite(reply) == f"What speedup does TRIM-KV claim? {FIRST} {FOLLOW_UP}"


def test_a_rewrite_too_long_is_rejected() -> None:
    long = "What speedup does TRIM-KV claim " + "on long context benchmarks " * 12 + "?"
    assert len(long) > 300 and _rewrite(long) is None
    short = "What speedup does TRIM-KV claim " + "on long context benchmarks " * 9 + "?"
    assert len(short) <= 300 and _rewrite(short) == f"{short} {FIRST} {FOLLOW_UP}"


def test_an_empty_rewrite_is_rejected() -> None:
    assert _rewrite("") is None
    assert _rewrite('  ""  ') is None


def test_a_question_without_topic_words_accepts_any_single_line() -> None:
    # "What about it?" has no topic word of its own, so nothing can show a change of subject.
    rewritten = _rewrite("What about GraphLens?", question="What about it?")
    assert rewritten == f"What about GraphLens? {FIRST} What about it?"


def test_a_question_that_does_not_refer_back_is_not_rewritten_or_sent() -> None:
    llm = FakeLLM("What speedup does TRIM-KV claim?")
    assert llm_rewrite(llm, "What is GraphLens?", [FIRST], Settings()) is None
    assert llm.requests == []


def test_a_failing_llm_gives_none() -> None:
    llm = FakeLLM(fail=RuntimeError("server down"))
    assert llm_rewrite(llm, FOLLOW_UP, [FIRST], Settings()) is None
    assert len(llm.requests) == 1


def test_the_llm_sees_the_question_and_the_last_three_turns() -> None:
    llm = FakeLLM("What speedup does TRIM-KV claim?")
    history = ["Oldest turn about GraphLens?", "What is DiffNPO?", FIRST, "What does it learn?"]
    llm_rewrite(llm, FOLLOW_UP, history, Settings())
    [messages] = llm.requests
    sent = "\n".join(m.content for m in messages)
    assert FOLLOW_UP in sent and FIRST in sent and "DiffNPO" in sent and "What does it learn?" in sent
    assert "Oldest turn" not in sent
