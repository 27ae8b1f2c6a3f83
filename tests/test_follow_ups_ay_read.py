"""Turns that earlier rules got wrong, found when blind seed set AY was read in the thirty-sixth pass: a paper called
by three words of its title, "the trick" asked for (how it works, not its speed), what each paper "blames", a
comparison whose second piece describes a paper not yet shown, a choice one abstract's rare word decides, a compound
no abstract writes as what a paper is compared with, "anything on A or B?", a list asking for one rare word, and ways
of using a thing listed after a dash.
Whole conversations run on the real seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.aspects import aspect
from rag.roles import Aspect
from rag.tokens import topic_asked

DPT, SPECTRAL, IMRM, SIGMARK, FUTUREFILL = "t6roJiPN6Y", "tHmiydOQhn", "qW05yhm3Zo", "tKyAD2LhnI", "t5GUEuIsxR"
ARPG, PROVENANCE, TRIMKV, RAINPRO, MOH = "rJdGst0W8s", "qYu4wj7O3z", "qCaq3jGb0S", "hfed3db123a90", "haaf5fb9e8ea5"


def test_a_paper_called_by_three_words_of_its_title(engine) -> None:
    *_, called = _chat(engine, "which papers use flow matching?",
                       "the decision pretrained transformer one - which earlier method does it scale up?")
    # (two words at most were read as a name: "it" had pointed at the first paper listed, PBFM)
    assert cited(called) == [DPT] and "Algorithm Distillation" in called.text


def test_the_trick_asks_how_and_blame_asks_why() -> None:
    assert aspect("what's the trick that makes it faster than autoregressive decoding?") is Aspect.METHOD
    assert aspect("pictures come out blurry - is there a trick to sharpen them without retraining?") is not (
        Aspect.METHOD)  # (asks for a paper)
    assert aspect("what do the authors blame for the gap?") is Aspect.WHY


def test_a_comparison_piece_describing_a_paper_not_shown_yet(engine) -> None:
    *_, pair = _chat(engine, "the spectral Bellman paper: what condition is it derived from?",
                     "Spectral Bellman and the paper on language models as poor implicit reward models - what "
                     "does each one say causes the problem it studies?")
    # (the described piece was not searched for: refused, as if "LMs" were asked of Spectral Bellman)
    assert not pair.refused and cited(pair) == [SPECTRAL, IMRM]


def test_a_choice_one_abstracts_rare_word_decides(engine) -> None:
    *_, pick = _chat(engine, "FutureFill vs SIGMark: what does each store, and how do they keep it small?",
                     "of these two, which one is framed as a safety matter?")
    lead = pick.text.split("\n\n")[0]
    # (the sentences' fit left it unsettled: "The abstracts do not settle this")
    assert cited(pick)[0] == SIGMARK and "AI safety" in lead


def test_compared_with_a_compound_no_abstract_writes(engine) -> None:
    *_, against = _chat(engine, "ARPG - how does it generate images in random order?",
                        "and how does it compare with next-scale prediction models?")
    # (it had answered with ARPG's sentences, as if they compared it with such models)
    assert against.refused and "next-scale" in against.text and cited(against) == []


def test_anything_on_one_topic_or_another_lists_both(engine) -> None:
    found, = _chat(engine, "anything in here on watermarking or otherwise tracing where AI-generated images or "
                           "videos came from?")
    # (read as a question for one paper: the video watermarking paper alone)
    assert {SIGMARK, PROVENANCE} <= set(cited(found))


def test_a_list_asking_for_one_word_only_a_noun(engine) -> None:
    found, = _chat(engine, "which papers here say something about interpretability?")
    # (one word was no list term, nor searched for: only the paper whose sentence fit best was listed; MoH writes
    # "interpretable")
    assert {TRIMKV, RAINPRO, MOH} <= set(cited(found))


def test_ways_of_using_a_thing_after_a_dash_are_not_its_topic() -> None:
    assert topic_asked("which papers work with the KV cache - reading it, pruning it or sharing it?") == (
        "which papers work with the KV cache?")
