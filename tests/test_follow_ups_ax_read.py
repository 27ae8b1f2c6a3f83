"""Turns that earlier rules got wrong, found when blind seed set AX was read in the thirty-fifth pass: a thing offered
as "one of them" or asked of the method "as well" that its abstract never mentions, a comparison naming a paper on
the table by a name joined from its acronyms ("the MAs-in-DiTs paper"), "what did they evaluate on?" answered by
"We benchmark …", a verb the question asks with read as what a missing word qualifies, alternatives written with a
slash, "each … its", names outside a comparison's pieces, a piece called "the … paper" by one title word, the fix
after a problem, a subject before the question, and what a method should "hold up on" or "scale to".
Whole conversations run on the real seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.alternatives import alternatives
from rag.aspects import aspect
from rag.roles import Aspect
from rag.tried_on import unfit

PBFM, DETAIL, IMRM, MCLM, ORPRM = "hfebd26d11d8c", "tOOAWDRjrb", "qW05yhm3Zo", "r2HG3xOMJI", "tFEAzYdz92"
ARPG, PROVENANCE, RCPU = "rJdGst0W8s", "qYu4wj7O3z", "t6xiPRvynD"


def test_a_thing_offered_as_one_of_those_shown_is_not_stated() -> None:
    texts = ["We benchmark our method across three representative PDE benchmarks."]
    assert unfit("is the heat equation one of them?", texts) == ["heat equation"]  # (one phrase)
    assert unfit("are the Navier-Stokes equations among those?", texts) == ["Navier-Stokes equations"]
    assert unfit("are PDE benchmarks one of them?", texts) == []  # (held: for the answer to say)


def test_one_more_thing_asked_of_the_method_as_well(engine) -> None:
    assert unfit("can it forecast hail as well, or only rain?", ["probabilistic precipitation forecasting"]) == [
        "hail"]
    *_, hail = _chat(engine, "the rainfall forecasting model - what data does it use?",
                     "does it predict hail too or just rain?")
    # (it had answered with RainPro-8's nearest sentences, as if they said something about hail)
    assert hail.refused and "hail" in hail.text and cited(hail) == []


def test_a_comparison_naming_a_paper_by_its_joined_acronyms(engine) -> None:
    *_, pair, second = _chat(engine, "the massive activations paper on diffusion transformers - what do the MAs do?",
                             "the MAs-in-DiTs paper vs the 'why is your LM a poor implicit reward model' paper: what "
                             "does each one trace the behaviour it studies back to?",
                             "the second one: what are the two reward model types they compare?")
    # ("MAs-in-DiTs" names no paper whole: it had been searched for anew, bringing a third paper in as the first piece)
    assert cited(pair) == [DETAIL, IMRM] and cited(second) == [IMRM]


def test_what_they_evaluated_on_is_what_they_benchmark(engine) -> None:
    *_, data = _chat(engine, "SIGMark vs the Pareto-optimal physics flow matching paper (PBFM): each adds something to "
                             "a generative model, a watermark or physics constraints. How does each argue it doesn't "
                             "hurt the samples?", "the second one - what did they actually evaluate on?")
    # (the sentence leading had been PBFM's result, which names no data)
    assert cited(data) == [PBFM] and "PDE benchmarks" in data.text.split("[1]")[0]


def test_a_verb_the_question_asks_with_qualifies_nothing(engine) -> None:
    role, = _chat(engine, "the massive activations paper on diffusion transformers - what role do the MAs end up "
                          "playing in the generated image?")
    # ("image" is in no abstract with "playing": it had said no indexed abstract mentions them together)
    assert cited(role) == [DETAIL] and not role.text.startswith("No indexed abstract")


def test_alternatives_written_with_a_slash() -> None:
    assert alternatives("which papers use wavelets / frequency tricks in their method?") == [
        "use wavelets in their method", "frequency tricks in their method"]
    assert alternatives("compatible w/ CFG?") == []


def test_each_ones_its_is_bound_to_each(engine) -> None:
    *_, pair = _chat(engine, "mCLM, the modular chemical LM - how does it tokenize molecules?", "eval set?",
                     "do they compare against a SELFIES-based model?",
                     "mCLM vs OR-PRM: both adapt LLMs to a specialist domain. What does each say was wrong with the "
                     "prior approaches in its domain?")
    # ("its" was read as the last paper's, so "both" meant the last two papers shown, TRIM-KV among them)
    assert cited(pair) == [MCLM, ORPRM]


def test_a_comparisons_pieces_name_its_papers(engine) -> None:
    *_, pair = _chat(engine, "which papers make autoregressive image generation faster?",
                     "ARPG vs the IAR provenance paper - does each of them change how the AR model generates?")
    # ("the AR model" had named GtR, whose abstract defines "AR", as a third paper on the table)
    assert cited(pair) == [ARPG, PROVENANCE]


def test_how_it_avoids_a_problem_leads_with_what_it_does_about_it(engine) -> None:
    how, = _chat(engine, "RCPU - how does it keep its error compensation from overfitting the small calibration set?")
    lead = how.text.split("[1]")[0]
    # (the problem sentence had led, "… it tends to overfit to the limited calibration set …")
    assert cited(how) == [RCPU] and "rotation constraint" in lead and "overfit" not in lead


def test_asking_for_a_paper_at_the_end_and_what_they_found_wrong() -> None:
    assert aspect("I need a KV cache eviction method that learns which tokens matter. anything?") is Aspect.WHICH
    assert aspect("different q - what did they find wrong with the existing datasets?") is Aspect.PROBLEM
    assert aspect("so what did that paper on massive activations in diffusion transformers find?") is Aspect.WHY


def test_a_subject_before_the_question_calls_the_paper(engine) -> None:
    trade, = _chat(engine, "Moving on. Physics-constrained flow matching: what trade-off does that paper point out?")
    # (its subject's words had ranked the sentences: what the method is led)
    assert cited(trade) == [PBFM] and "physical accuracy" in trade.text.split("[1]")[0]


def test_a_comparison_piece_called_a_paper_by_one_title_word(engine) -> None:
    *_, pair = _chat(engine, "why would an implicit reward model built from the LM's own likelihoods do worse than one "
                             "with a linear head?",
                     "compare the implicit reward model paper with OR-PRM - what kind of reward model is each about, "
                     "and what data goes into training it?")
    # ("it" at the end is each one's: the piece "the implicit reward model paper" has to call the paper itself)
    assert cited(pair) == [IMRM, ORPRM]


def test_what_a_method_should_hold_up_on_or_scale_to() -> None:
    texts = ["We evaluate on LongBench and RULER with Llama-3.1-8B."]
    assert unfit("does it hold up on needle-in-a-haystack tests?", texts) == ["needle-in-a-haystack tests"]
    assert unfit("does it scale to 70B models?", texts) == ["70B"]
    assert unfit("does it hold up on LongBench?", texts) == []
