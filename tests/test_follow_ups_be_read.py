"""Turns that earlier rules got wrong, found when seed set BE was read in the forty-first pass: "SOTA" refused though
the abstract writes "state-of-the-art", an acronym whose capitals spell it ("Frame-wise PseudoRandom Coding (GF-PRC)")
not found, a capitalised English word no abstract holds ("Rust") and a yes/no question about the papers on the table
whose words none of them writes answered with their nearest sentences, a comparison naming two new papers answered
about the last two, "what was wrong with …?" without the finding after the problem sentence ("To understand this gap,
…"), a metric family ("pass@k-style") found in no paper, and a part's acronym asked about ("What's GF-PRC in
SIGMark?") taken for the paper's own name. Whole conversations run on the real seed index; each test fails without its
rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.coref import definitions
from rag.tried_on import unshared

AMLRIS, SIGMARK, AUTOEXP = "tAfew5gRmm", "tKyAD2LhnI", "qBcHWGBnIb"
DPT, SBM, REVEAL = "t6roJiPN6Y", "tHmiydOQhn", "q56ZI1Co43"


def test_a_fields_acronym_is_found_written_out(engine) -> None:
    answer, = _chat(engine, "For referring image segmentation, is there a training strategy that throws out poorly "
                    "aligned pixels? Which datasets did it get SOTA on?")
    # (it was refused: "I could not find “SOTA”", a name no abstract writes)
    assert not answer.refused and cited(answer) == [AMLRIS] and "RefCOCO" in answer.text


def test_an_acronym_spelled_by_the_capitals_of_its_long_form() -> None:
    text = "We generate noise using a Global set of Frame-wise PseudoRandom Coding keys (GF-PRC), reducing cost."
    assert definitions(text) == {"GF-PRC": "Global set of Frame-wise PseudoRandom Coding keys"}
    assert definitions("we use the Quick Fox (GFP) here") == {}  # (capitals "QF" do not spell it)


def test_what_an_acronym_stands_for_when_its_capitals_spell_it(engine) -> None:
    *_, spelled = _chat(engine, "tell me about SIGMark", "In SIGMark, what does GF-PRC stand for?")
    assert not spelled.refused and cited(spelled) == [SIGMARK] and "Frame-wise PseudoRandom Coding" in spelled.text


def test_a_capitalised_word_no_abstract_holds_is_refused(engine) -> None:
    *_, rust = _chat(engine, "the code masking benchmark - what does an agent get?",
                     "are any of the AutoExperiment tasks Rust repos, or is everything in one language?")
    assert rust.refused and "Rust" in rust.text  # (it answered: "rust" is an English word, so it was let through)


def test_a_yes_no_question_none_of_the_papers_on_the_table_words() -> None:
    texts = ["SIGMark watermarks video diffusion.", "Lyra distills video diffusion into 3D Gaussian Splatting."]
    assert unshared("btw do any of these papers forecast stock prices?", texts) == ["forecast", "stock", "prices"]
    assert unshared("do any of them handle video?", texts) == []  # (one word held: the answer says which)


def test_a_yes_no_question_off_the_table_is_refused(engine) -> None:
    *_, off = _chat(engine, "switching gears - which papers build on video diffusion models?",
                    "btw do any of these papers forecast stock prices?")
    assert off.refused and "stock" in off.text  # (it listed both papers' nearest sentences)


def test_a_comparison_naming_two_new_papers_is_about_them(engine) -> None:
    *_, compared = _chat(engine, "AutoExperiment vs mCLM: what's being automated in each?",
                         "contrast DPT with the spectral Bellman one - what is each of them actually trying to learn?")
    assert set(cited(compared)) == {DPT, SBM}  # (it answered about AutoExperiment and mCLM again: "them")


def test_what_was_wrong_brings_the_finding_that_follows_the_problem(engine) -> None:
    from rag.standalone import leans_back

    assert leans_back("To understand this gap, we conduct an analysis.", opener=True)
    assert not leans_back("To understand this gap, we conduct an analysis.")  # (after its opener it stands alone)
    wrong, = _chat(engine, "OR-PRM: what was wrong with the existing training data?")
    assert "severely flawed" in wrong.text  # ("To understand this gap, … the primary bottleneck: … severely flawed")


def test_the_data_each_one_relies_on_asks_for_data() -> None:
    from rag.aspects import aspect
    from rag.roles import Aspect

    assert aspect("how do RainPro-8 and RCPU compare in terms of the data each one relies on?") is Aspect.DATA


def test_a_metric_family_lists_each_paper_writing_a_member(engine) -> None:
    from rag.fields import family_terms

    assert family_terms("which papers report pass@k-style metrics?", engine.retriever) == {"pass@k": {AUTOEXP, REVEAL}}
    listed, = _chat(engine, "new topic: which papers report pass@k-style metrics?")
    assert set(cited(listed)) == {AUTOEXP, REVEAL}  # (it was refused: no sentence fits "pass@k-style" well)


def test_a_parts_acronym_asked_about_leads_with_its_sentence(engine) -> None:
    *_, part = _chat(engine, "tell me about SIGMark", "What's GF-PRC in SIGMark?")
    # (it led with what SIGMark is once GF-PRC counted among SIGMark's own acronyms)
    assert part.text.split("[1]")[0].count("GF-PRC") == 1
