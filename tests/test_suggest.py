"""Suggested next questions: which follow-ups an answer offers (names, numbers, "it"; collection and refused
answers), and on the seed index that every one offered is answered with citations, not refused."""

from __future__ import annotations

import pytest

from rag.paper import Paper
from rag.suggest import AREAS, MAX_SUGGESTIONS, suggest
from rag.types import Answer, Citation, CollectionGroup, CollectionStats, Source


def paper(paper_id: str, title: str, abstract: str = "We study things.") -> Paper:
    return Paper(paper_id=paper_id, title=title, abstract=abstract, source="test")


TRIM = paper("trim", "Cache What Lasts: Token Retention for Memory-Bounded KV Cache in LLMs",
             "We propose TRIM-KV, a novel approach that learns each token's importance.")
TACTIC = paper("tactic", "Tactic: Adaptive Sparse Attention with Clustering and Distribution Fitting")
LONG = paper("long", "Decision Pre-Trained Transformer is a Scalable In-Context Reinforcement Learner")
LONGER = paper("longer", "Spectral Bellman Method Unifying Representation and Exploration in RL")


def answer(question: str, cited: list[Paper], others: list[Paper] = (), refused: bool = False,
           chart: CollectionStats | None = None) -> Answer:
    sources = [Source(n, p, 1.0 / n) for n, p in enumerate([*cited, *others], start=1)]
    citations = [] if refused else [Citation(s.rank, s.paper_id, s.title) for s in sources[:len(cited)]]
    return Answer(question=question, text="…", refused=refused, citations=citations, sources=sources, chart=chart)


class TestSuggest:
    def test_one_cited_paper_is_named_and_compared_with_the_next_source(self) -> None:
        assert suggest(answer("What is TRIM-KV?", [TRIM], [TACTIC])) == [
            "How does TRIM-KV work?", "Compare TRIM-KV and Tactic", "What results does TRIM-KV report?"]

    def test_one_cited_paper_without_a_short_name_is_it_not_a_number(self) -> None:
        # "[1]" would count in an earlier answer that listed several papers; "it" is this answer's paper
        assert suggest(answer("What is DPT?", [LONG], [TACTIC])) == ["How does it work?", "What results does it report?"]

    def test_a_list_compares_its_first_two_papers_by_name_or_number(self) -> None:
        assert suggest(answer("Which papers make inference faster?", [TACTIC, TRIM])) == [
            "Compare Tactic and TRIM-KV", "How does Tactic work?", "What results does TRIM-KV report?"]
        assert suggest(answer("Which papers are about RL?", [LONG, LONGER]))[0] == "Compare [1] and [2]"
        assert suggest(answer("Which papers are about RL?", [TACTIC, LONG])) == [
            "Compare [1] and [2]", "How does Tactic work?", "What results does [2] report?"]  # never "Tactic and [2]"

    def test_a_comparison_is_not_offered_again(self) -> None:
        offered = suggest(answer("Compare TRIM-KV and Tactic", [TRIM, TACTIC]))
        assert offered == ["How does TRIM-KV work?", "What results does Tactic report?"]

    def test_a_refusal_offers_a_broader_question(self) -> None:
        assert suggest(answer("What is FooBarNet?", [], [TRIM, TACTIC], refused=True)) == [AREAS]

    def test_questions_already_asked_are_not_offered(self) -> None:
        offered = suggest(answer("What is TRIM-KV?", [TRIM], [TACTIC]), asked=["how does trim-kv work"])
        assert "How does TRIM-KV work?" not in offered and len(offered) == 2
        assert suggest(answer(AREAS, [], [TRIM], refused=True)) == []  # never the question just asked

    def test_areas_offer_the_largest_plainly_named_area_and_an_example(self) -> None:
        groups = [CollectionGroup("foundation or frontier models, including LLMs", 11, ["a"] * 11),
                  CollectionGroup("generative models", 7, ["b"] * 7)]
        chart = CollectionStats("areas", 36, groups)
        assert suggest(answer("Which areas have the most papers?", [TRIM, TACTIC], chart=chart)) == [
            "What is new in generative models?", "Tell me more about [1]"]

    def test_a_topic_offers_the_other_collection_question_and_the_papers(self) -> None:
        group = [CollectionGroup("generative models", 2, ["trim", "tactic"])]
        count = CollectionStats("count", 36, group, topic="diffusion models", matched=["trim", "tactic"])
        trends = CollectionStats("trends", 36, group, topic="diffusion models", matched=["trim", "tactic"])
        assert suggest(answer("How many papers deal with diffusion models?", [TRIM], chart=count)) == [
            "What is new in diffusion models?", "Tell me more about [1]", "Which papers study diffusion models?"]
        assert suggest(answer("What is new in diffusion models?", [TRIM], chart=trends))[0] == \
            "How many papers deal with diffusion models?"
        nothing = CollectionStats("count", 36, [], topic="quantum gravity")
        assert suggest(answer("How many papers deal with quantum gravity?", [], chart=nothing)) == [AREAS]


CONVERSATIONS = [
    ["What is TRIM-KV?"],
    ["Which papers make LLM inference faster?"],
    ["Compare TRIM-KV and Tactic"],
    ["Which papers study test-time scaling for LLM reasoning?"],
    ["What is D2F?"],  # no short name: "it"
    ["Which papers are about reinforcement learning?"],  # long titles: "[1]", "[2]"
    ["Which papers make LLM inference faster?", "What is ARPG?"],  # a single answer after a list
    ["Which research areas have the most papers?"],
    ["How many papers deal with diffusion models?"],
    ["What is new in test-time scaling?"],
    ["What is FooBarNet?"],  # refused
]


@pytest.mark.slow
@pytest.mark.parametrize("turns", CONVERSATIONS, ids=lambda turns: " / ".join(turns))
def test_every_suggestion_is_answered_with_citations(engine, turns: list[str]) -> None:
    from rag.chat import ChatSession

    session = ChatSession(engine, backend="extractive")
    for question in turns:
        last = session.ask(question)
    offered = suggest(last, [t.question for t in session.turns])
    assert 1 <= len(offered) <= MAX_SUGGESTIONS
    for question in offered:
        branch = ChatSession(engine, backend="extractive", turns=list(session.turns))
        reply = branch.ask(question)
        assert not reply.refused and reply.citations and reply.text.strip(), (question, reply.text)
