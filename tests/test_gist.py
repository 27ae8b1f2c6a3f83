"""The local model's one job (``rag.gist``): the plan is streamed at once, then one sentence written under a JSON
schema is shown after it only if it holds up. A fake schema-held backend on the real seed index."""

from __future__ import annotations

import json

from fakes import FakeJSONLLM

from rag.chat import ChatSession
from rag.gist import cited_sentence
from rag.prompts import GIST, REFUSAL
from rag.verify import markers

TRIM_KV, TACTIC = "qCaq3jGb0S", "tJod11fK1A"
QUESTION = "What is TRIM-KV?"
# Supported by the TRIM-KV abstract, in other words than any of its sentences, but joining words of three of them.
GATE = "TRIM-KV keeps the tokens that a lightweight retention gate, learned per token, scores as important"
EVICTS = "How does TRIM-KV decide which tokens to evict?"
# An answer in other words than its one source sentence ("Tokens with low scores are evicted when …").
LOW = "TRIM-KV evicts tokens with low scores when the memory budget is exceeded"


def reply(sentence: str, *sources: int) -> str:
    return json.dumps({"sentence": sentence, "sources": list(sources)})


def tokens(events) -> list[str]:
    return [e.text for e in events if e.kind == "token"]


def test_the_plan_is_shown_first_and_the_models_checked_sentence_after_it(engine) -> None:
    plan = engine.ask(EVICTS, backend="extractive")
    n = next(c.n for c in plan.citations if c.paper_id == TRIM_KV)
    events = list(engine.stream(EVICTS, backend=FakeJSONLLM(reply(LOW, n))))
    answer = events[-1].answer
    shown = tokens(events)
    assert shown[0] == plan.text  # the answer's plan, before the model has written a word
    assert shown[1] == "\n\n" + GIST.format(sentence=f"{LOW}. [{n}]")
    assert "".join(shown) == answer.text and answer.model_sentences == 1
    assert answer.supported_sentences == answer.total_sentences == plan.total_sentences + 1


def test_a_sentence_joining_words_of_several_source_sentences_is_not_shown(engine) -> None:
    plan = engine.ask(QUESTION, backend="extractive")  # (the citation check alone would pass it)
    answer = engine.ask(QUESTION, backend=FakeJSONLLM(reply(GATE, 1)))
    assert answer.text == plan.text and answer.model_sentences == 0
    assert answer.total_sentences == plan.total_sentences + 1


def test_an_unsupported_sentence_is_never_shown_and_counts_against_the_answer(engine) -> None:
    plan = engine.ask(QUESTION, backend="extractive")
    llm = FakeJSONLLM(reply("TRIM-KV was trained on LibriSpeech with 512 GPUs for three weeks", 1))
    answer = engine.ask(QUESTION, backend=llm)
    assert answer.text == plan.text and "LibriSpeech" not in answer.text and answer.model_sentences == 0
    assert answer.total_sentences == plan.total_sentences + 1 and answer.notice == ""


def test_a_copy_of_a_shown_sentence_is_not_said_twice(engine) -> None:
    plan = engine.ask(QUESTION, backend="extractive")
    first = plan.text.split(" [")[0]
    answer = engine.ask(QUESTION, backend=FakeJSONLLM(reply(first, 1)))
    assert answer.text == plan.text and answer.model_sentences == 0


def test_the_schema_allows_only_the_sources_given_and_several_papers_never_ask_the_model(engine) -> None:
    llm = FakeJSONLLM(reply(GATE, 1), reply(GATE, 1))
    for question in (QUESTION, "Compare TRIM-KV and Tactic", "Which papers make LLM inference faster?"):
        engine.ask(question, backend=llm)
    (schema,) = llm.schemas  # a comparison or a list: the plan alone (one sentence over several papers is a join)
    sources = schema["properties"]["sources"]
    assert sources["items"]["enum"] == [n for n, _ in engine.prepare(QUESTION).decision.chosen]
    assert sources["minItems"] == 1 and schema["properties"]["sentence"]["maxLength"] == 300


def test_a_failing_backend_costs_only_its_sentence(engine) -> None:
    plan = engine.ask(QUESTION, backend="extractive")
    answer = engine.ask(QUESTION, backend=FakeJSONLLM(fail=RuntimeError("boom")))
    assert answer.text == plan.text and "boom" in answer.notice


def test_a_refusal_and_a_choice_never_ask_the_model(engine) -> None:
    llm = FakeJSONLLM(reply(GATE, 1), reply(GATE, 1))
    refused = engine.ask("What is the capital of France?", backend=llm)
    assert refused.refused and refused.text == REFUSAL and not llm.requests
    chat = ChatSession(engine, backend=llm)
    for question in (QUESTION, "And Tactic?"):
        chat.ask(question)
    asked = len(llm.requests)
    choice = chat.ask("Which of the two needs less memory?")
    assert len(llm.requests) == asked and not choice.refused and choice.model_sentences == 0


def test_the_reply_is_read_as_one_sentence_with_its_sources() -> None:
    assert cited_sentence(reply("GtR is fast. It also works [2]", 1, 1, 2)) == "GtR is fast. [1] [2]"
    assert cited_sentence(reply("GtR is fast,", 3)) == "GtR is fast. [3]"
    assert markers(cited_sentence(reply("A [4] claim", 2))) == [2]  # its own markers are not trusted
    for bad in ('{"sentence": "GtR is', reply("GtR is fast", ), "[]", reply("", 1)):
        assert cited_sentence(bad) == ""
