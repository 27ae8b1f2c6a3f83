"""Properties a question asks papers to have ("faster", "cheaper", "smaller"; ``rag.properties``): which it asks for,
the papers claiming them on the seeds, and the sentence reporting a measured property leading an answer; lists
offering alternatives ("Best-of-N or some other …"), each sentence scored by the alternative it fits."""

from __future__ import annotations

import pytest

from rag.chat import ChatSession
from rag.properties import properties_asked, property_how, reports


@pytest.mark.parametrize("text, asked, others", [
    ("making generation/inference faster", ["speed"], [["generation"], ["inference"]]),
    ("Which papers in this collection are about speeding up generation or inference?", ["speed"],
     [["generation"], ["inference"]]),
    ("making LLM inference faster", ["speed"], [["inference", "llm"]]),
    ("Roughly how many papers are about making inference faster or cheaper?", ["speed", "cost"], [["inference"]]),
    ("Which papers make language models smaller?", ["size"], [["language"]]),
    ("Which papers are about diffusion models?", [], []),  # no property: counted by its words as written
])
def test_the_properties_a_question_asks_for_and_its_other_words(text, asked, others) -> None:
    assert properties_asked(text) == (asked, others)
    assert (property_how(text) is None) is not asked


def test_a_measured_property_asked_for_tells_the_sentence_reporting_it() -> None:
    size = reports("how big is their model?", result=True)
    assert size is not None and size("mCLM, with only 3B parameters, also achieves …") and not size("It is big.")
    speed = reports("speedup numbers? vs AR LLMs", result=True)
    assert speed is not None and speed("the acceleration can be more than 50× while keeping quality")
    assert not speed("PBFM achieves competitive inference speed")  # no figure: speed named in passing
    assert reports("How does D2F make dLLMs faster?", result=False) is None  # asks how, not how much
    assert reports("how big was the effect?", result=True) is None  # no model size, no property, no gain
    gain = reports("how big were the gains?", result=True)  # an improvement with its figure, not any figure
    assert gain is not None and gain("achieving a maximum absolute improvement of 12.5% over the base model")
    assert not gain("over 30% of annotations are severely flawed")
    assert reports("where do the gains come from?", result=False) is None  # (asks how)
    count = reports("the first one, on how many approved drugs was it tested?", result=False)  # a count, anywhere
    assert count is not None and count("Experiments on 430 FDA-approved drugs showed …") and not count("Drugs help.")
    assert reports("how big is it, and what did they test it on", result=False) is not None  # "it": the model
    assert reports("how big is the gain?", result=False) is None
    trend = reports("and as more of the code is taken away?", result=False)  # a trend: how a result moves with it
    assert trend is not None and trend("We find that performance degrades rapidly as n increases.")
    assert not trend("Agents are given a codebase with key functions masked out.")
    assert reports("what happens as the context grows?", result=False) is not None
    parts = reports("what are its main building blocks?", result=False)  # the sentences bringing in its parts
    assert parts is not None and parts("To enhance robustness, we further design a Segment Group-Ordering module (SGO).")
    assert parts("We generate the noise using a Global set of Frame-wise PseudoRandom Coding keys (GF-PRC).")
    assert not parts("Artificial Intelligence Generated Content (AIGC), particularly video, is spreading.")
    assert reports("mCLM 用什么单位来表示分子？模型有多少参数？", result=False) is not None  # in Chinese too


def test_a_list_asking_for_a_property_lists_the_papers_claiming_it(engine) -> None:
    answer = engine.ask("Which papers in this collection are about speeding up generation or inference?",
                        backend="extractive")
    cited = {c.paper_id for c in answer.citations}
    # D2F, ARPG, GtR, FutureFill and Tactic claim a speedup; FutureFill and GtR were missed (their sentences fit the
    # loose topic less than the list's cut)
    assert {"t5uLZSRjhF", "rJdGst0W8s", "qIujRzzWnd", "t5GUEuIsxR", "tJod11fK1A"} <= cited


def test_a_size_question_leads_with_the_sentence_giving_the_size(engine) -> None:
    answer = engine.ask("How big is the mCLM model?", backend="extractive")
    assert "3B parameters" in answer.text.split("[1]")[0]  # led with a result on medicines, the size fourth
    chat = ChatSession(engine, backend="extractive")  # a follow-up ranked by the earlier turn's words leads with it too
    chat.ask("chemical language model that tokenizes molecules into building blocks instead of atoms?")
    follow_up = chat.ask("how big is it, and what did they test it on")
    assert follow_up.text.startswith("mCLM, with only 3B parameters")  # was the field's background


def test_a_list_offering_alternatives_lists_a_paper_fitting_one_of_them(engine) -> None:
    answer = engine.ask("Which papers in the collection use Best-of-N or some other test-time selection among "
                        "candidates?", backend="extractive")
    # OR-PRM's one sentence on Best-of-N fits the whole question loosely; it fits "Best-of-N" well
    assert {"tCv1D3M7Lb", "tFEAzYdz92"} <= {c.paper_id for c in answer.citations}
    shapes = engine.ask("Which papers are about 3D or 4D generation from video?", backend="extractive")
    assert "qCaq3jGb0S" not in {c.paper_id for c in shapes.citations}  # TRIM-KV: neither 3D, 4D nor video


def test_a_count_naming_a_field_counts_the_papers_writing_its_words(engine) -> None:
    from rag.collection_intent import collection_intent

    answer = engine.ask("How many papers in the collection deal with chemistry or materials?", backend="extractive")
    cited = {c.paper_id for c in answer.citations}
    assert {"r2HG3xOMJI", "h47cb2134ff1f"} <= cited  # mCLM ("molecules"), CatalystBench ("catalyst")
    assert "qIujRzzWnd" not in cited  # GtR: "supplementary materials"
    assert "a word of the field such as" in answer.text
    # "are scientific ML …": "scientific" is the topic's, not a verb's ("broadly" is filler)
    assert collection_intent("how many papers here are scientific ML broadly?").topic == "scientific ML"


def test_a_list_asking_which_papers_report_a_figure_lists_those_reporting_it(engine) -> None:
    # "report", "concrete" and "factor" ask for a figure; they were required of the papers and nothing was listed
    assert properties_asked("Which other papers report a concrete speedup factor?") == (["speed"], [])
    answer = engine.ask("Which papers report a speedup?", backend="extractive")
    assert not answer.refused
    assert {"tJod11fK1A", "rJdGst0W8s", "qIujRzzWnd"} <= {c.paper_id for c in answer.citations}  # Tactic, ARPG, GtR


def test_a_two_part_follow_up_is_answered_when_the_abstract_reports_what_it_asks(engine) -> None:
    chat = ChatSession(engine, backend="extractive")
    chat.ask("Which paper tokenizes molecules into building blocks instead of atoms?")
    answer = chat.ask("How big is it, and which strong model do they compare against?")  # was refused
    assert not answer.refused and "3B parameters" in answer.text and "GPT-5" in answer.text
