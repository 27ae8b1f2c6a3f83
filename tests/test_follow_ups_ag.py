"""Follow-ups that earlier rules got wrong, found with blind dialogue set AG: a pronoun beside a term another paper's
title holds, "vs the baselines" after a comparison, a gain asked as "how much did it help", a name offered as what a
thing was, chat shorthand, a return to a paper ("back to …, …"), a question after what sets it up typed in lower
case, and experiments named at a sentence's start. Whole conversations run on the real seed index; each test fails
without the rule it names."""

from __future__ import annotations

import pytest
from chats import ask_all as _chat, cited

from rag.alternatives import examples_in
from rag.asks import against_baselines
from rag.aspects import aspect
from rag.roles import Aspect
from rag.subject import without_calling
from rag.topic_words import own_topic_words

RGM, MCLM, METAMUSE, OR_PRM, AMLRIS = "tF56uyxdDy", "r2HG3xOMJI", "h25382f415cbb", "tFEAzYdz92", "tAfew5gRmm"
CATALYSTBENCH, TRIM_KV, VERIEQUIVBENCH = "h47cb2134ff1f", "qCaq3jGb0S", "tRRHVUwP2B"


def test_a_pronoun_stays_on_its_paper_when_another_title_holds_a_term_it_writes_too(engine) -> None:
    # "reward model" is in another paper's title, and in RGM's abstract: "they" are RGM's authors
    *_, then = _chat(engine, "is there a paper that gets o3-mini level reasoning by putting the policy and the process "
                             "reward model on one shared backbone?",
                     "how do they get around needing step-level labels for the reward model?")
    assert cited(then) == [RGM] and "outcome reward" in then.text


def test_versus_the_baselines_is_the_named_paper_against_its_own_not_a_comparison(engine) -> None:
    *_, back = _chat(engine, "How do ShapeGen4D and the temporal slowness paper make use of time in video differently?",
                     "the second paper, what data did they simulate the visual experience with?",
                     "back to ShapeGen4D, what Chamfer distance does it get vs the baselines?")
    assert back.refused and not cited(back)  # (the abstract gives no Chamfer distance)
    assert against_baselines("what FID does it get vs the baselines?", anywhere=True)
    assert not against_baselines("what FID does it get vs the baselines?")  # (at its start only, by default)


def test_how_much_did_it_help_asks_for_the_gain(engine) -> None:
    *_, gain = _chat(engine, "the OR process reward model paper - what was wrong with the existing training data?",
                     "and how much did it help in the end?")
    assert not gain.refused and cited(gain) == [OR_PRM] and "12.5%" in gain.text


def test_a_name_offered_as_what_the_thing_was_is_refused_when_no_abstract_holds_it(engine) -> None:
    *_, azure = _chat(engine, "which problems did MetaMuse test on?", "was that cloud provider Azure?")
    assert azure.refused and "“Azure”" in azure.text and "MetaMuse" in azure.text


def test_chat_shorthand_leans_on_the_paper_just_discussed(engine) -> None:
    *_, evals = _chat(engine, "is there a chemistry language model that tokenizes molecules into functional building "
                              "blocks instead of atoms?", "eval set?")
    assert cited(evals) == [MCLM] and "122 out-of-distribution medicines" in evals.text
    assert own_topic_words("eval set?") == {"set"}  # ("eval" is "evaluation", a generic word)


def test_a_return_to_a_paper_is_not_what_the_question_asks() -> None:
    assert without_calling("going back to the first one, what kind of applications do they pitch it for?") == (
        "what kind of applications do they pitch it for?")
    assert without_calling("back to ShapeGen4D - what goes in?") == "what goes in?"


def test_experiments_named_at_a_sentences_start_answer_a_question_for_data(engine) -> None:
    *_, data = _chat(engine, "what is AMLRIS?", "what datasets does the referring image segmentation one evaluate on")
    assert cited(data) == [AMLRIS] and data.text.split("[1]")[0].count("RefCOCO") == 1


@pytest.mark.parametrize(("question", "asked"), [
    ("what did they evaluate it on?", Aspect.DATA),
    ("FutureFill vs ARPG: both pitch faster generation. whats the actual mechanism in each", Aspect.METHOD),
    ("the latter - what does it buy you empirically?", Aspect.RESULT),
    ("eval set?", Aspect.DATA),
    # a search for a paper, whatever it asks the paper to have done (not "… why …?": what they found)
    ("has anyone looked at the trade-off between physical accuracy and distributional accuracy?", Aspect.WHICH),
    ("looking for flow matching work that enforces physical constraints", Aspect.WHICH),
    ("unrelated: any work that tokenizes molecules into building blocks?", Aspect.WHICH),
])
def test_what_the_question_asks(question: str, asked: Aspect) -> None:
    assert aspect(question) is asked


def test_a_question_asking_nothing_the_aspects_name_leads_with_a_sentence_holding_its_word(engine) -> None:
    *_, pitched = _chat(engine, "Tactic - how does it decide how many tokens to attend to?",
                        "Tactic and GtR both spend compute unevenly across tokens - how does each one pick which "
                        "tokens matter?", "going back to the first one, what kind of applications do they pitch it for?")
    assert "accuracy-sensitive applications" in pitched.text.split("[1]")[0]


def test_the_examples_a_list_gives_in_brackets_are_searched_for_too(engine) -> None:
    assert examples_in("which papers work on operations-research style problems (routing, packing, that sort of "
                       "thing)?") == ["routing", "packing"]
    assert examples_in("which papers use RL (not RL fine-tuning of LLMs, or RLHF)?") == []
    listed = _chat(engine, "which papers tackle combinatorial optimization or operations-research type problems (TSP, "
                           "bin packing, LP/MIP modeling, that sort of thing)?")[0]
    assert METAMUSE in cited(listed)  # ("online bin packing": MetaMuse's alone, low in the whole question's ranking)


def test_a_search_for_a_paper_leads_with_what_it_proposes_not_its_background(engine) -> None:
    found = _chat(engine, "has anyone looked at the trade-off between physical accuracy and distributional accuracy in "
                          "generative models?")[0]
    # (after the paper's title, which names a paper the question did not: thirty-first pass)
    assert found.text.startswith("**Physics vs Distributions") and found.text.split("**: ", 1)[1].startswith(
        "Based on the insight of inherently conflicting objectives, the authors introduce Physics-Based Flow Matching "
        "(PBFM)")


def test_the_questions_own_words_order_the_sentences_but_add_none(engine) -> None:
    # "mCLM" is in every sentence of its abstract: it orders nothing, and shows no more sentences than without it
    angels = _chat(engine, "what are the 'fallen angels' mCLM tries to rescue?")[0]
    assert angels.text.startswith("mCLM can also reason on multiple functions") and angels.text.count("[1]") == 3


def test_it_beside_they_is_one_paper_and_its_authors(engine) -> None:
    _, tasks = _chat(engine, "anything on LLMs for catalysis?",
                     "what tasks does it cover, and what fine-tuning method do they propose?")
    assert cited(tasks) == [CATALYSTBENCH] and "Multi-head Full-task" in tasks.text


def test_an_ordinal_the_user_corrects_is_the_one_settled_on_and_a_question_for_data_its_abstract_names(engine) -> None:
    *_, latter = _chat(engine, "FutureFill vs TRIM-KV: how does each keep memory small during generation?",
                       "For the first one... no wait, I meant the latter. What did they evaluate it on? any math stuff?")
    # (TRIM-KV alone; not refused as a detail its abstract lacks: it names GSM8K and MATH-500)
    assert cited(latter) == [TRIM_KV] and "GSM8K" in latter.text.split("[1]")[0]


def test_a_paper_called_by_the_turn_that_found_it(engine) -> None:
    *_, back = _chat(engine, "Is there a benchmark for Dafny code generation that avoids reference specs?",
                     "VeriEquivBench and OR-PRM both say the existing datasets are bad. What's the problem in each case?",
                     "2nd one: how did they produce and then check the step-by-step solutions?",
                     "back to the benchmark from my first question - how many problems does it have?")
    assert cited(back) == [VERIEQUIVBENCH] and "2,389" in back.text
    # (all the papers of that turn when the question counts them or chooses among them)
    *_, three = _chat(engine, "what papers here explicitly talk about test-time scaling for LLMs?",
                      "the tool-verification one: why can't small models just verify on their own?",
                      "of the three from my first question, which one trains the model with multi-turn RL?")
    assert len(cited(three)) == 3
