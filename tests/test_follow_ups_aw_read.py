"""Turns that earlier rules got wrong, found when blind seed set AW was read in the thirty-third pass: a paper of the
kind a list asks for ("a new benchmark"), "separate thing -" changing the subject, what went wrong in the authors' own
first try, what a model ends up beating, where the authors did something the abstract never mentions ("in a wet lab",
"for pgfplots charts"), and examples closing a list ("…, competition math and the like?"). Whole conversations run on
the real seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.aspects import aspect
from rag.question import without_examples
from rag.references import ReferenceKind, resolve
from rag.roles import Aspect
from rag.tried_on import unfit
from rag.types import Shown

CATALYST, VERIEQUIV, AUTOEXPERIMENT, MCLM = "h47cb2134ff1f", "tRRHVUwP2B", "qBcHWGBnIb", "r2HG3xOMJI"
OR_PRM, TIKZILLA, SLOWNESS = "tFEAzYdz92", "rJv2byEWA3", "h318bc0fb82e2"


def test_a_paper_of_the_kind_a_list_asks_for_is_listed(engine) -> None:
    *_, benchmarks = _chat(engine, "which papers in this set introduce a new benchmark as a main contribution?")
    # (CatalystBench, whose sentences say "benchmark" in passing, had been left out)
    assert {CATALYST, VERIEQUIV, AUTOEXPERIMENT} <= set(cited(benchmarks))
    # Asked with a topic besides the kind, a paper of the kind is listed for the topic, not for its title.
    *_, code = _chat(engine, "which papers are benchmarks for code?")
    assert {VERIEQUIV, AUTOEXPERIMENT} <= set(cited(code)) and CATALYST not in cited(code)


def test_separate_thing_changes_the_subject(engine) -> None:
    table = [Shown("AutoExperiment: what do agents get?", [AUTOEXPERIMENT], [AUTOEXPERIMENT])]
    asked = resolve("separate thing - the modular chemical LM. at what unit does it tokenize molecules?", table,
                    lambda _: set())
    assert asked.kind is ReferenceKind.SWITCH  # ("it" had been AutoExperiment, the paper on the table)
    *_, units = _chat(engine, "AutoExperiment: what do agents get?",
                      "separate thing - the modular chemical LM. at what unit does it tokenize molecules?")
    assert cited(units) == [MCLM] and "functional building blocks" in units.text


def test_what_went_wrong_in_their_own_try_and_what_it_ends_up_beating(engine) -> None:
    assert aspect("what went wrong when they first trained on the existing datasets?") is Aspect.WHY
    assert aspect("what goes wrong with current methods?") is Aspect.PROBLEM  # (the problem, as before)
    assert aspect("the first one - what does its fine-tuned model end up beating?") is Aspect.RESULT
    *_, wrong = _chat(engine, "the OR-PRM paper, process reward model for operations research - what went wrong when "
                              "they first trained on the existing datasets?")
    assert cited(wrong) == [OR_PRM] and "severely flawed" in wrong.text


def test_where_the_authors_did_something_the_abstract_never_mentions(engine) -> None:
    assert unfit("did they actually synthesize any of the proposed molecules in a wet lab?",
                 ["molecules for automated laboratory synthesis"]) == ["wet lab"]
    assert unfit("for TikZilla, do they break results down for pgfplots charts specifically?",
                 ["TikZ figures"]) == ["pgfplots charts"]
    # A search is not asked of the paper: "people" and "look" need not be in the abstract it finds.
    assert unfit("is there work simulating how humans learn objects, using where people look?", ["gaze"]) == []
    assert unfit("did they test it with video?", ["video diffusion"]) == []  # (held: for the answer to say)
    *_, lab = _chat(engine, "Tell me about mCLM.",
                    "did they actually synthesize any of the proposed molecules in a wet lab?")
    assert lab.refused and "wet" in lab.text
    *_, found = _chat(engine, "is there work simulating how humans might learn object representations from egocentric "
                              "video, using where people look?")
    assert cited(found) == [SLOWNESS] and not found.refused


def test_examples_closing_a_list_are_no_qualifier(engine) -> None:
    assert without_examples("which papers evaluate on math reasoning benchmarks, competition math and the like?") == (
        "which papers evaluate on math reasoning benchmarks?")
    *_, math = _chat(engine, "which of these papers evaluate on math reasoning benchmarks, competition math and the "
                             "like?")
    # (it had said no abstract mentions "competition" with "math", and shown one paper)
    assert not math.text.startswith("No indexed abstract") and len(cited(math)) >= 3
