"""Turns that earlier rules got wrong, found when seed set BL was read in the forty-eighth pass (and a new user's
variants of them): a position said as the order the user named the papers in ("the one I brought up second", "No. 2",
"the one after the 'vs'"), by place ("the top one", "the middle one") or as an option ("option 2", "paper two") not
read as one; "Totally unrelated:", a bare "Switching:" and other ways of changing the subject not read so; "did they
apply it to graph coloring?", "was it ever applied to protein folding?" and "do they also look at verbosity bias in
the rewards?" answered from the closest sentences instead of saying the abstract does not mention it; "on how many
PDE problems was it tested?" refused although the abstract counts "three representative PDE benchmarks"; "number of
problems?" not led by the count; a quote opening on "Thereby, it …" shown without the sentence it leans on; a
fragment ("step-level labels required?") after an answer about three papers searched for anew, where another paper's
loose match won, and one calling another paper by its title's words stayed on the last; "the third one" after a turn
about two of three listed papers read as the last one discussed; a pick led by what earlier work does ("Existing
in-generation approaches are non-blind …"); "How does SIGMark embed its watermark?" after another paper read as
asking about that paper ("its"), "… compare with its baselines?" as a comparison with it; and "What are its
limitations?" answered with what the paper does, although no abstract states its own; and "do you have anything on
…?" finding one paper answered as a list of one (found by the blind grades). Whole conversations run on the real seed
index; each test fails without its rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.asks import asks_existence, count_written, uncounted
from rag.own_limits import unlimited
from rag.paper import Paper
from rag.positions import ordinal, source_numbers
from rag.references import ReferenceKind, resolve
from rag.sentences import split_sentences
from rag.standalone import leans_back, rewrite
from rag.tried_on import unfit
from rag.types import Evidence, EvidenceSentence, Hit, Shown

RGM, SIGMARK, TACTIC = "tF56uyxdDy", "tKyAD2LhnI", "tJod11fK1A"
TRIM, SCSF, AMLRIS, RCPU = "qCaq3jGb0S", "h1e8e4225be0d", "tAfew5gRmm", "t6xiPRvynD"
TABLE = [Shown("How does SIGMark watermark videos?", [SIGMARK], [SIGMARK])]


def test_a_position_in_the_order_the_user_named_the_papers() -> None:
    two = ["a", "b"]
    assert ordinal("the one I brought up second — how does it work?", two) == ["b"]
    assert ordinal("the paper you listed first: what data?", two) == ["a"]
    assert ordinal("The one after the 'vs': how does it estimate which tokens matter?", two) == ["b"]
    assert ordinal("the one before the vs - what does it do?", two) == ["a"]
    assert source_numbers("No. 2 — what kinds of data is it built for?") == [2]
    assert source_numbers("no problems with it?") == [] and ordinal("the one I like", two) == []
    three = ["a", "b", "c"]  # (and said by place, or as an option or item: the same positions)
    assert ordinal("the top one - what does it do?", three) == ["a"] and ordinal("the bottom one?", three) == ["c"]
    assert ordinal("the middle one: what data?", three) == ["b"] and ordinal("what is the top speedup?", three) == []
    assert ordinal("first of those two, how fast?", three) == ["a"] and ordinal("first, what is X?", three) == []
    assert source_numbers("option 2: how does it work?") == [2] and source_numbers("paper two: what data?") == [2]


def test_the_second_named_paper_is_answered(engine) -> None:
    *_, second = _chat(engine, "ReVeal vs SIGMark: what's the main complaint each one has about existing approaches?",
                       "the one I brought up second — how does it pull the watermark back out without storing a key "
                       "for every message?")
    assert cited(second) == [SIGMARK]
    *_, after = _chat(engine, "Omni-View vs Tactic: what's the central idea each design rests on?",
                      "The one after the 'vs': how does it estimate which tokens matter without adding much overhead?")
    assert cited(after) == [TACTIC]


def test_totally_unrelated_changes_the_subject(engine) -> None:
    *_, switched = _chat(engine, "Omni-View vs Tactic: what's the central idea each design rests on?",
                         "Totally unrelated: neural eigenvalue solvers need lots of labeled operator/eigenvalue pairs, "
                         "and producing those with classical solvers is slow. Has anyone sped up that step?")
    assert cited(switched) == [SCSF]


def test_more_ways_of_changing_the_subject() -> None:
    for said in ("Totally unrelated:", "Switching:", "Off on a tangent:", "Shifting gears -", "Change of topic:",
                 "Also, unrelated:", "Random question:", "Let me ask about something else:"):
        assert resolve(f"{said} which papers study watermarking?", TABLE, lambda _: set()).kind is ReferenceKind.SWITCH
    assert resolve("Random forests - do they use them?", TABLE, lambda _: set()).kind is not ReferenceKind.SWITCH


def test_a_thing_it_was_applied_to_or_looked_at_that_no_abstract_holds() -> None:
    text = ["Experiments on classic COPs demonstrate that MoH constructs an effective meta-optimizer. The implicit "
            "biases of reward models."]
    assert unfit("Did they apply it to graph coloring?", text) == ["graph coloring"]
    unknown = lambda words, *_: [w for w in words.split() if w == "verbosity"]  # (the word no abstract writes)
    assert unfit("Do they also look at verbosity bias in the rewards?", text, unknown) == ["verbosity"]
    assert unfit("Did they apply it to COPs?", text) == []
    assert unfit("Was it ever applied to protein folding?", text) == ["protein folding"]
    assert unfit("Can it be used for scheduling in hospitals?", text) == ["scheduling", "hospitals"]


def test_problems_it_was_tested_on_are_counted_as_benchmarks() -> None:
    text = ["The authors benchmark their method across three representative PDE benchmarks."]
    assert uncounted("on how many PDE problems was it tested?", text) == []
    assert uncounted("how many PDE problems does it solve?", text) == ["problems"]
    counted = count_written("number of problems?")  # (said as "number of": the sentence giving the count leads)
    assert counted is not None and counted.search("a new benchmark with 2,389 complex algorithmic problems")


def test_a_quote_opening_on_thereby_brings_what_it_leans_on() -> None:
    said = "Thereby, it is applicable in contexts where prior watermarking methods cannot be used."
    assert leans_back(said) and rewrite(said).startswith("It is applicable")


def test_a_fragment_stays_on_the_papers_just_shown(engine) -> None:
    *_, fragment = _chat(engine, "How can one network serve as both the policy and the process reward model for "
                                 "test-time scaling, without bolting on a separate big reward model?",
                         "step-level labels required?")
    assert cited(fragment)[0] == RGM and "process-level annotation" in fragment.text.split("[1]")[0]
    *_, cost = _chat(engine, "How does AMLRIS decide which pixels to throw out during training?",
                     "any cost at inference time?")  # (TRIM-KV's sentences fit it better, by less than the margin)
    assert cited(cost) == [AMLRIS]
    *_, titled = _chat(engine, "How does Tactic select tokens?", "token retention for memory-bounded KV caches?")
    assert cited(titled) == [TRIM]  # (a fragment calling another paper by its title's words: that paper)


def test_a_third_one_after_a_turn_about_two(engine) -> None:
    *_, third = _chat(engine, "Which papers make LLM inference faster?", "Contrast the top two.",
                      "Which one needs less memory?", "And the third one - what does it do?")
    assert cited(third) == [TRIM]


def _evidence(abstract: str) -> list[Evidence]:
    """One paper's sentences as the turn's evidence holds them (no stored role: worked out from the rules)."""
    paper = Paper("x", "X: a method", abstract, "test")
    return [Evidence(Hit(paper, 1.0), [EvidenceSentence(text, 0.5, i) for i, text in
                                       enumerate(split_sentences(abstract))])]


def test_its_own_limitations_are_said_to_be_unstated(engine) -> None:
    said = _evidence("To address these limitations, we propose X. X improves accuracy.")
    assert unlimited("What are its limitations?", said) == ["limitations of its own"]
    assert unlimited("What limitation of existing methods does it address?", said) == []
    assert unlimited("any drawbacks?", _evidence("X works on images only. X cannot handle video.")) == []
    *_, limits = _chat(engine, "How does MaskCO work?", "What are its limitations?")
    assert limits.refused and "MaskCO" in limits.text and "limitations" in limits.text


def test_a_pick_is_not_led_by_what_earlier_work_does(engine) -> None:
    *_, pick = _chat(engine, "Is there a paper on watermarking video diffusion models?",
                     "Is there something similar for images from autoregressive models?",
                     "Which one needs access to the generation process?")
    assert cited(pick)[0] == SIGMARK and "Existing" not in pick.text.split("[2]:", 1)[1].split("[2]")[0]


def test_a_paper_named_before_its_possessive_is_the_one_asked_about(engine) -> None:
    *_, named = _chat(engine, "How does Tactic select tokens?", "How does SIGMark embed its watermark?")
    assert cited(named) == [SIGMARK]  # (not Tactic, the paper on the table, for "its")
    *_, baselines = _chat(engine, "How does SIGMark embed its watermark?", "How does TRIM-KV compare with its "
                                                                          "baselines?")
    assert cited(baselines) == [TRIM]  # (its own baselines, not SIGMark)


def test_a_search_finding_one_paper_is_an_overview_of_it(engine) -> None:
    assert asks_existence("do you have anything on pruning?") and not asks_existence("Do you have the numbers for it?")
    found, = _chat(engine, "Totally unrelated - do you have anything on compensating for errors after structured "
                           "pruning of an LLM?")
    assert cited(found) == [RCPU] and not found.text.startswith("- ") and "Rotation-Constrained" in found.text
