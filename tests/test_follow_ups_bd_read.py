"""Turns that earlier rules got wrong, found when seed set BD was read in the fortieth pass: "what in this collection
deals with …?" not read as a list, "Different area entirely:" not read as a switch, "OOD" not read as
"out-of-distribution", a shared term ("test time") taken for another paper's title, "is there an X
that …? … it" not read as a search when X was an agent or a trick, "why not just …?" answered with the
method, "the X benchmark - what …?" read as a question for data, "… also on Y, or only on Z?" not refused when Y is in
no abstract, and a list asking for released code. Whole conversations run on the real seed index; each test fails
without its rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.aspects import aspect
from rag.list_intent import asks_for_list
from rag.references import without_switch
from rag.released import asks_only_release, out_now
from rag.roles import Aspect
from rag.tried_on import unfit
from rag.why_not import alternative

IMRM, AMLRIS, RCPU, AUTOEXP, PBFM = "qW05yhm3Zo", "tAfew5gRmm", "t6xiPRvynD", "qBcHWGBnIb", "hfebd26d11d8c"
MCLM, CATALYST = "r2HG3xOMJI", "h47cb2134ff1f"


def test_what_in_the_collection_does_something_asks_for_a_list(engine) -> None:
    assert asks_for_list("ok - what in this collection deals with catalysis?")
    assert asks_for_list("Over the whole collection, which papers report FID?")  # (four words before the comma)
    assert not asks_for_list("Is there anything here on vision-centric post-training?")  # (is there one)
    *_, listed = _chat(engine, "is there a paper on masked generation for combinatorial optimization?",
                       "switching gears - what in this collection deals with chemistry?")
    assert {MCLM, CATALYST} <= set(cited(listed))  # (it was refused: read as a question about one paper)


def test_a_different_area_is_a_new_subject(engine) -> None:
    assert without_switch("Different area entirely: any papers on rainfall?") == "any papers on rainfall?"
    assert without_switch("A different field: what about proteins?") == "what about proteins?"
    *_, other = _chat(engine, "which papers report a concrete speedup factor?",
                      "Different area entirely: which papers do earthquake forecasting?")
    assert "RainPro-8" in other.text and "speedup" not in other.text  # (it answered with the speedup papers)


def test_ood_is_out_of_distribution(engine) -> None:
    *_, fragment = _chat(engine, "why does a language model used as an implicit reward model generalize worse than "
                         "an explicit one?", "in-distribution too, or just OOD?")
    # (it was refused: "does not mention “OOD”", although the abstract writes "out-of-distribution")
    assert not fragment.refused and cited(fragment) == [IMRM] and "in-distribution" in fragment.text


def test_a_term_several_papers_share_does_not_take_it_elsewhere(engine) -> None:
    *_, overhead = _chat(engine, "for referring image segmentation, is there a training trick that drops pixels "
                         "where image and text don't line up?", "is it any slower when you run it at test time?")
    # ("test time" is in one other paper's title, and T1's and ReVeal's abstracts: not a call for one of them)
    assert cited(overhead) == [AMLRIS] and "no inference overhead" in overhead.text


def test_is_there_a_thing_of_any_kind_that_is_a_search(engine) -> None:
    *_, trick = _chat(engine, "what does Tactic do?", "is there a training trick that drops pixels where image and "
                      "text don't line up, and does it cost anything at inference?")
    # ("it" is the trick searched for, not Tactic: "trick" was not among the kinds of thing a search names)
    assert cited(trick) == [AMLRIS]


def test_why_not_the_obvious_alternative_leads_with_what_is_wrong_with_it(engine) -> None:
    for why in ("why not simply least-squares fit the pruned layer to the original outputs?",
                "so why not just fit the pruned layer to the original outputs with least squares?"):  # (hyphen or not)
        *_, why_not = _chat(engine, "is there a paper on structured pruning of LLMs that fixes the errors afterwards?",
                            why)
        assert cited(why_not) == [RCPU] and "overfit" in why_not.text.split("[1]")[0]  # (it led with the method)
    assert not alternative("what's wrong with the data people used before?")  # (a question for the problem)
    *_, plain = _chat(engine, "is there a diffusion model for multi-channel biological data?",
                      "why can't they just use a regular conditional image diffusion model?")
    # (the alternative's own words, "regular conditional image", not the paper's title words: "diffusion" had led to
    # what the paper proposes)
    assert plain.text.split("[1]")[0].count("RGB images") == 1


def test_calling_a_paper_a_benchmark_is_not_a_question_for_data(engine) -> None:
    assert aspect("the AutoExperiment benchmark - what is an agent given in each task?") is Aspect.ANY
    assert aspect("the DPT one - which benchmarks?") is Aspect.DATA
    answer, = _chat(engine, "the AutoExperiment benchmark - what exactly is an agent given in each task?")
    # (read as a question for data, it quoted the evaluation and never said what an agent is given)
    assert cited(answer) == [AUTOEXP] and "key functions masked out" in answer.text


def test_one_more_thing_the_abstract_never_names_is_refused() -> None:
    texts = ["FutureFill is a fast generation method for convolutional sequence prediction models.",
             "We apply a rotation constraint to compensate errors of structured pruning.",
             "The Spectral Bellman Method is directly suited for value-based RL."]
    # (the words after "or only" are what the user already knows the paper did)
    assert unfit("Did they also try it on state space models, or only on convolutional ones?", texts) == [
        "state space"]
    assert unfit("does the update also work for unstructured pruning?", texts) == ["unstructured"]  # (structured: the
    assert unfit("does the update also work for structured pruning?", texts) == []  # opposite of what it does)
    assert unfit("Did they plug it into an actor-critic method too, or only value-based ones?", texts) == [
        "actor-critic"]


def test_a_list_asking_for_released_code_holds_the_papers_that_say_where(engine) -> None:
    assert out_now("Code and datasets available at https://github.com/tum-pbs/PBFM.")
    assert not out_now("Code will be available.") and not out_now("Video results: https://example.org/lyra")
    assert asks_only_release("Which papers here give a link to their code?")
    assert not asks_only_release("which watermarking papers release code?")  # (the topic decides)
    answer, = _chat(engine, "Which papers here give an actual link to their code?")
    # (it listed GtR's "will be released on Github" and RGM's "Code will be available.", and missed PBFM)
    assert set(cited(answer)) == {AUTOEXP, RCPU, PBFM}
