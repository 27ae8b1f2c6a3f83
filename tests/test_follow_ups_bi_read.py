"""Turns that earlier rules got wrong, found when seed set BI was read in the forty-fifth pass: details no abstract
writes asked as "is there a dedicated subset on …?", "could it generate …, like …?" or "did they report … for …?"
answered from the paper's nearest sentences; "whichever" and "whatever" taken as topic words (a near-miss lead on
"whichever", and "…, whatever they emphasize?" refused as a name offered); "apart from the segmentation scores, what
else …?" searched as a question of its own; "which one says it's going to make its model publicly available?" not
read as asking about a release; "which vanilla ones?" after an answer on one paper refused; a paper among a refused
turn's closest ones called by a benchmark its abstract mentions ("… its best ImageNet result"); "heavy or light?"
refused as two names offered; and "they break down on certain kinds of checks - which ones?" read as a list of papers.
Whole conversations run on the real seed index; each test fails without its rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.question import analyse
from rag.tokens import content_words
from rag.types import QuestionKind

CATALYST, TACTIC, MCLM, MCD, D2F, ARPG = "h47cb2134ff1f", "tJod11fK1A", "r2HG3xOMJI", "h46b75c8bd2fb", "t5uLZSRjhF", \
    "rJdGst0W8s"
RAIN, AML, T1, OR_PRM, OMNI = "hfed3db123a90", "tAfew5gRmm", "tBkLWfmugI", "tFEAzYdz92", "pDu6u9cnEB"


def test_details_no_abstract_writes_are_refused(engine) -> None:
    *_, subset = _chat(engine, "CatalystBench - what stages of catalyst development do the tasks span?",
                       "is there a dedicated subset on platinum-group metal catalysts?")
    assert subset.refused and "“platinum”" in subset.text
    *_, reported = _chat(engine, "mCLM: how many FDA-approved drugs did they test on?",
                         "did they report antibiotic activity for any of the molecules it designed?")
    assert reported.refused and "antibiotic" in reported.text
    *_, able = _chat(engine, "Which diffusion model fills in missing channels of imaging mass cytometry data?",
                     "could it generate time-lapse sequences, like live-cell imaging over several hours?")
    assert able.refused and "time-lapse" in able.text


def test_whichever_and_whatever_name_no_topic(engine) -> None:
    assert not {"whichever", "whatever"} & content_words("whichever channels, whatever they emphasize")
    asked, = _chat(engine, "Is there a diffusion model that fills in missing channels from whichever channels were "
                           "observed?")
    assert cited(asked) == [MCD] and "whichever" not in asked.text
    *_, compared = _chat(engine, "has anyone built a process reward model for operations research problems?",
                         "OR-PRM vs Omni-View: how is training set up in each - data pipeline, schedule, whatever they "
                         "emphasize?")
    assert not compared.refused and {OR_PRM, OMNI} <= set(cited(compared))


def test_what_the_user_sets_aside_leaves_a_follow_up_leaning_on_the_last_turn(engine) -> None:
    *_, asked = _chat(engine, "For referring image segmentation, is there a training strategy that ignores pixels "
                              "poorly aligned with the text?",
                      "apart from the segmentation scores, what else do they say it improves?")
    assert not asked.refused and cited(asked) == [AML] and "robustness" in asked.text


def test_a_choice_asking_who_is_going_to_release_takes_a_promise(engine) -> None:
    *_, choice = _chat(engine, "CatalystBench and Tactic: what does each one argue against?",
                       "Of those two, which one says it's going to make its model publicly available?")
    assert cited(choice)[0] == CATALYST and "publicly release" in choice.text and "do not settle" not in choice.text


def test_which_ones_of_a_thing_the_last_answer_named(engine) -> None:
    *_, asked = _chat(engine, "PBFM vs D2F - what training trick makes each of them work?",
                      "the latter - how much faster than vanilla diffusion LLMs?", "which vanilla ones?")
    assert not asked.refused and cited(asked) == [D2F] and "LLaDA" in asked.text
    assert not asked.text.startswith("- ")  # (one paper's answer, not a list of one)


def test_a_refused_turns_closest_papers_are_not_called_by_the_names_they_mention(engine) -> None:
    *_, asked = _chat(engine, "PBFM: how does it enforce the physics without balancing loss terms?",
                      "side question - are there any astronomy papers in here, e.g. galaxy classification?",
                      "Back to images: is there an autoregressive image model that can generate tokens in random "
                      "order and several at once? How many sampling steps does its best ImageNet result take?")
    assert cited(asked) == [ARPG] and "32 sampling steps" in asked.text


def test_a_scale_offered_is_for_the_answer(engine) -> None:
    *_, asked = _chat(engine, "Is there a deep learning rainfall forecasting model that goes beyond short nowcasting "
                              "lead times?", "and the model itself - heavy or light?")
    assert not asked.refused and cited(asked) == [RAIN] and "compact architecture" in asked.text


def test_which_ones_of_things_just_named_is_no_list(engine) -> None:
    assert analyse("there are several diffusion papers - which ones?").kind is QuestionKind.LIST
    question = ("Can small language models serve as verifiers when you scale test-time compute? I remember a paper "
                "saying they break down on certain kinds of checks - which ones?")
    assert analyse(question).kind is QuestionKind.SINGLE
    asked, = _chat(engine, question)
    assert cited(asked) == [T1] and "fact-checking" in asked.text


def test_a_paper_looked_for_is_answered_with_what_it_found(engine) -> None:
    asked, = _chat(engine, "for referring image segmentation, is there a training trick that drops the pixels that "
                           "don't match the text well?")
    assert cited(asked) == [AML] and "RefCOCO" in asked.text  # (what it does, and what it achieved)
