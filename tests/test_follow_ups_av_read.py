"""Turns that earlier rules got wrong, found when blind seed set AV was read in the thirty-fourth pass: a benchmark
named as benchmarks are ("LiveCodeBench"), "the kind of data" two papers model, where a paper with no figure shows its
gains, what they ran it on ("Experiments on 430 FDA-approved drugs …"), a count asked after a preface, papers that "put an actual number on a
speedup" (set AW), and a choice for the paper that "doesn't need any training". Whole conversations run on the real
seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.aspects import aspect
from rag.cues import names_data
from rag.roles import Aspect
from rag.tokens import content_words

REVEAL, BELLMAN, GTR = "q56ZI1Co43", "tHmiydOQhn", "qIujRzzWnd"
MCLM, TACTIC, SCSF, ARPG = "r2HG3xOMJI", "tJod11fK1A", "h1e8e4225be0d", "rJdGst0W8s"


def test_a_benchmark_named_as_benchmarks_are_is_data(engine) -> None:
    assert names_data("… evolve code for 20+ turns on LiveCodeBench despite training on only three.")
    assert names_data("results on SWE-bench and AlpacaEval") and not names_data("across three PDE benchmarks")
    assert not names_data("We introduce CatalystBench, a benchmark …", own="CatalystBench")  # (the paper's own)
    *_, bench = _chat(engine, "looking for an RL paper on code generation where the model is trained to check its own "
                              "code. what's it called?", "eval benchmark?")
    assert cited(bench) == [REVEAL] and "LiveCodeBench" in bench.text


def test_the_kind_of_data_two_papers_model_is_the_data(engine) -> None:
    assert aspect("how do the temporal slowness paper and the multi-channel biological diffusion one differ in the "
                  "kind of data they're modeling?") is Aspect.DATA


def test_where_a_paper_without_figures_shows_gains(engine) -> None:
    *_, gains = _chat(engine, "the spectral bellman paper - what is it?", "where do they actually show gains?")
    # (it had shown what the method is, twice over: the abstract gives no figure, only where it improves)
    assert cited(gains) == [BELLMAN] and "hard-exploration" in gains.text


def test_each_sentence_saying_what_they_ran_it_on(engine) -> None:
    *_, ran = _chat(engine, "Tell me about mCLM.", "eval set?")
    assert cited(ran) == [MCLM] and "430 FDA-approved drugs" in ran.text and "122 out-of-distribution" in ran.text


def test_a_choice_for_the_one_that_does_not_need_training(engine) -> None:
    # "doesn't" leaves no word "doesn" to read as a topic, or to correct as a typo of "does"
    assert content_words("which of the two doesn't need any training?") == {"two", "need", "training"}
    *_, free = _chat(engine, "compare ARPG and GtR", "which of the two doesn't need any training?")
    assert cited(free)[0] == GTR and "training-free" in free.text


def test_papers_that_put_a_number_on_a_speedup(engine) -> None:
    *_, numbered = _chat(engine, "across the whole set, which papers put an actual number on a speedup (like 'Nx "
                                 "faster')?")
    # (it had been refused: "put", "actual" and "number" ask how the speedup is given, not what it is of)
    assert not numbered.refused and {TACTIC, GTR, SCSF, ARPG} <= set(cited(numbered))


def test_a_count_asked_after_a_preface_leads(engine) -> None:
    *_, drugs = _chat(engine, "There's a chemical language model that tokenizes molecules into functional building "
                              "blocks instead of atoms. How many FDA-approved drugs did they test it on?")
    # (the preface's "building blocks" had made it ask for the model's parts: "When tested on 122 …" led)
    assert cited(drugs) == [MCLM] and "430 FDA-approved drugs" in drugs.text.split("[1]")[0]
