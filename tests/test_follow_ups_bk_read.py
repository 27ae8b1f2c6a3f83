"""Turns that earlier rules got wrong, found when seed set BK was read in the forty-seventh pass: "… does it help most,
and on which benchmarks?" read as naming two papers (a title word in each clause), so "which of the two" later meant
the wrong pair; "number 2" not read as a position; a compared paper off the table called by its title's words ("the
temporal slowness / central vision study") replaced by the last paper shown, and one on it ("the IAR provenance
paper", "the autoregressive provenance paper") searched for anew; a place word ("inside") or what the paper does
without ("does not rely on hand-written …") taken for a qualifier no abstract holds; "do they analyze X at all?",
"any X results for it?" and "Does anything in the collection study X?" answered from the closest sentences instead
of saying nothing there mentions X; a finding question led by what earlier work relies on; "why do existing … get so
expensive?" read as asking for a result; "where do they fall short?", "does it help other kinds of … as well?" and
"Have X beaten Y …? What's the trick?" answered without the sentence saying so; a list asking for concrete speedup
factors ("something like 'Nx faster'") refused, then answered without the figures; and "does the tool trick help …?"
after T1 searched for on its own and refused. Whole conversations run on the real seed index; each test fails
without its rule."""

from __future__ import annotations

import re

from chats import ask_all as _chat, cited

from rag.aspects import aspect
from rag.positions import source_numbers
from rag.roles import Aspect

OMNI, TRIM, IAR, SLOW, T1, D2F = "pDu6u9cnEB", "qCaq3jGb0S", "qYu4wj7O3z", "h318bc0fb82e2", "tBkLWfmugI", "t5uLZSRjhF"


def test_a_clause_asking_names_no_paper(engine) -> None:
    *_, choice = _chat(engine, "Omni-View vs TRIM-KV: how is each of them trained?",  # ("memory": TRIM-KV's title,
                       "paper two - in which memory regime does it help most, and on which benchmarks?",  # "benchmarks"
                       "which of the two handles 3D scenes?")  # CatalystBench's, shown with it)
    assert cited(choice) == [OMNI, TRIM]


def test_number_two_is_a_position() -> None:
    assert source_numbers("number 2: what does it evaluate on?") == [2]
    assert source_numbers("is there a number 2 in its name?") == []


def test_a_compared_paper_off_the_table_is_found_by_its_title_words(engine) -> None:
    *_, compared = _chat(engine, "Anything in here on watermarking or on where a generated image came from?",
                         "the autoregressive provenance paper vs the semantic object learning study - what does each "
                         "of them rely on?")
    assert cited(compared) == [IAR, SLOW]
    *_, compared = _chat(engine, "Anything in here on watermarking or on where a generated image came from?",
                         "the IAR provenance paper vs the temporal slowness / central vision study: what signal does "
                         "each of them exploit?")  # ("IAR": the first piece is the paper on the table, not a search)
    assert cited(compared) == [IAR, SLOW]


def test_a_place_word_or_what_the_paper_does_without_is_no_missing_qualifier(engine) -> None:
    asked, = _chat(engine, "What role do massive activations play inside diffusion transformers?")
    assert "No indexed abstract mentions" not in asked.text and "local detail" in asked.text
    asked, = _chat(engine, "Is there a benchmark for verifiable code whose scoring does not depend on hand-written "
                           "ground-truth specifications?")
    assert "No indexed abstract mentions" not in asked.text and "VeriEquivBench" in asked.text


def test_what_no_abstract_mentions_is_said_so(engine) -> None:
    *_, examined, back = _chat(engine, "Why does an implicit reward model generalize worse than an explicit one?",
                               "do they examine hallucination at all?",
                               "Back to the implicit reward model study for a second: do they discuss copyright "
                               "at all?")
    assert examined.refused and "hallucination" in examined.text and back.refused and "copyright" in back.text
    *_, asked = _chat(engine, "How does SIGMark watermark videos?", "any medical imaging results for it?")
    assert asked.refused and "medical imaging" in asked.text
    asked, = _chat(engine, "Does anything in the collection look at racial bias in reward models?")  # (a paper on
    assert asked.refused and not cited(asked) and "“racial”" in asked.text  # an implicit bias of reward models is near)


def test_a_finding_is_not_what_earlier_work_relies_on(engine) -> None:
    *_, finding = _chat(engine, "Tell me about VeriEquivBench", "headline finding?")
    assert finding.text.split("[1]")[0].count("profound challenge") == 1


def test_why_earlier_methods_cost_so_much_is_their_problem(engine) -> None:
    assert aspect("the latter paper: why do they need a verifier at all?") is Aspect.WHY
    assert aspect("why do existing watermarks get so expensive?") is Aspect.WHY  # (not a figure they get)
    *_, why = _chat(engine, "How does SIGMark watermark videos?",
                    "and why do the existing in-generation methods get so costly?")
    assert "message-key pairs" in why.text.split("[1]")[0]


def test_a_shortfall_or_a_carry_over_is_answered_by_its_sentence(engine) -> None:
    short, = _chat(engine, "Where do small language models fall short when they verify under test-time scaling?")
    assert cited(short)[0] == T1 and "numerical calculations" in short.text.split("[1]")[0]
    *_, carried = _chat(engine, "How does T1 verify candidates?", "does its tool trick help other kinds of verifiers "
                                                                  "too?")
    assert "critic models" in carried.text.split("[1]")[0]


def test_each_question_of_a_turn_gets_the_sentence_of_its_kind(engine) -> None:
    asked, = _chat(engine, "Have diffusion language models beaten autoregressive LLMs on inference speed? What's the "
                           "trick?")
    assert cited(asked)[0] == D2F and "GSM8K" in asked.text


def test_a_list_asking_for_figures_gives_each_papers_figure(engine) -> None:
    listed, = _chat(engine, "which papers report a concrete speedup factor, something like 'Nx faster'?")
    lines = [line for line in listed.text.splitlines() if line.startswith("- ")]
    assert not listed.refused and len(lines) >= 4 and "No indexed abstract mentions" not in listed.text
    assert all(re.search(r"\d\s*(?:×|x\b|times)", line) for line in lines[:4])


def test_a_thing_named_by_the_alone_is_the_last_papers(engine) -> None:
    *_, carried = _chat(engine, "How does T1 verify candidates?", "does the tool trick help other kinds of verifiers "
                                                                  "too?")
    assert cited(carried) == [T1] and "critic models" in carried.text
    *_, unheld = _chat(engine, "How does T1 verify candidates?", "does the method work on audio?")
    assert unheld.refused and "audio" in unheld.text


def test_why_something_is_a_problem_asks_for_the_problem() -> None:
    # (found by the blind grades: both had been led by what the paper does about it)
    assert aspect("why do they think relying on a hand-picked EC optimizer is a problem in the first place") is (
        Aspect.PROBLEM)
    assert aspect("For the second, why does that matter when watermarking already exists?") is Aspect.PROBLEM
