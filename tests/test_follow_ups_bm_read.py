"""Turns that earlier rules got wrong, found when seed set BM was read in the forty-ninth pass (and a new user's
variants of them): a fragment going on from the last question ("even for images already published?") answered with
the sentences that fit the last question, none saying what it adds; "Does it also work for image super-resolution?"
of an image paper and "Can it take a hand-drawn sketch as the conditioning input?" answered from the closest sentences
instead of saying the abstract does not mention it; and "what quantities does it bound or analyze?" answered without
the sentence going on "We also study the regret gap …". Whole conversations run on the real seed index; each test fails
without its rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.cues import ALSO_DOES
from rag.evidence import evidence_for, lead_new_words
from rag.tried_on import unfit

PROVENANCE, GTR, ARPG, SBON = "qYu4wj7O3z", "qIujRzzWnd", "rJdGst0W8s", "tCv1D3M7Lb"
TRACE = "Can you trace a picture back, after the fact, to the particular autoregressive image model that produced it?"


def _first(answer) -> str:
    return answer.text.split(" [1]")[0]


def test_a_fragment_is_answered_by_the_sentence_holding_its_new_words(engine) -> None:
    first, published = _chat(engine, TRACE, "even for images already published?")
    assert cited(published) == [PROVENANCE] and "already published" in _first(published)
    assert "already published" not in _first(first)  # (the last question's own answer does not lead with it)
    # (no sentence holds a word it adds: the answer the last question's words choose)
    _, online = _chat(engine, TRACE, "even for images floating around online?")
    assert cited(online) == [PROVENANCE] and _first(online) == _first(first)


def test_only_a_fragment_joined_to_the_last_question_is_led_by_its_words(engine) -> None:
    retriever = engine.retriever
    hits = [h for h in engine.search(TRACE) if h.paper.paper_id == PROVENANCE]

    def lead(fragment: str, query: str) -> int | None:
        evidence = evidence_for(query, hits, retriever, 0.3)
        lead_new_words(evidence, fragment, TRACE, query, retriever, 0.3)
        return evidence[0].leads

    joined = f"{TRACE[:-1]} for images already published?"
    assert lead("even for images already published?", joined) == 6  # ("… already published without additional marks")
    # (a question of its own after "what about": not joined to the last one, its words chose the papers)
    assert lead("what about images already published?", "images already published?") is None
    # (the field's background is no answer: "This is critical to prevent the spread of misinformation, …")
    assert lead("even to stop misinformation?", f"{TRACE[:-1]} to stop misinformation?") is None


def test_a_term_of_art_it_is_asked_to_work_for_that_the_abstract_lacks() -> None:
    gtr = ["Extensive experiments on ImageNet class-conditional and text-to-image generation demonstrate a speedup.",
           "Tokens on the details of an image often carry more semantic information."]
    assert unfit("Does it also work for image super-resolution?", gtr) == ["super-resolution"]
    assert unfit("Does it also work for text-to-image generation?", gtr) == []  # (held)
    assert unfit("Does it also work for image generation?", gtr) == []
    arpg = ["At inference time, the model can synthesize images from either a text prompt or a class label."]
    assert unfit("Can it take a hand-drawn sketch as the conditioning input?", arpg) == ["hand-drawn sketch"]
    assert unfit("Can it take a text prompt as the conditioning input?", arpg) == []


def test_a_detail_the_paper_on_the_table_lacks_is_refused(engine) -> None:
    *_, resolution = _chat(engine, "Masked autoregressive image models decode tokens in parallel, but the speedups "
                                   "are modest. Is there a way to accelerate them without retraining?",
                           "Does it also work for image super-resolution?")
    assert resolution.refused and resolution.about == [GTR] and "super-resolution" in resolution.text
    *_, sketch = _chat(engine, "Is there an autoregressive image generator that produces tokens in random order and "
                               "in parallel?", "Can it take a hand-drawn sketch as the conditioning input?")
    assert sketch.refused and sketch.about == [ARPG] and "hand-drawn sketch" in sketch.text


def test_a_sentence_saying_the_authors_also_did_more_follows_the_lead(engine) -> None:
    assert ALSO_DOES.match("We also study the regret gap, i.e., the gap between …")
    assert ALSO_DOES.match("In addition, we release a benchmark.") and not ALSO_DOES.match("We study it also.")
    *_, answer = _chat(engine, "Is there a theory paper on a smoothed version of Best-of-N sampling?",
                       "What quantities does it bound or analyze?")
    assert cited(answer) == [SBON] and "KL divergence" in answer.text and "regret gap" in answer.text
    (listed,) = _chat(engine, "Which papers back their claims with theory, such as bounds or proofs?")
    line = next(line for line in listed.text.splitlines() if "KL divergence" in line)  # (a list: one line a paper)
    assert SBON in cited(listed) and "regret gap" not in line
