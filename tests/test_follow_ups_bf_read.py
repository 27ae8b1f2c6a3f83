"""Turns that earlier rules got wrong, found when seed set BF was read in the forty-second pass: "Put A next to B: …"
not read as a comparison (so "the second one" was A), a detail tried "for the 3D part" answered from the 3D sentence,
"anything in the collection with medical … applications?" asked as one question and refused, a word of one compared
paper's title asked of both ("randomness … in each") taken for its name, alternatives sharing a word ("3D data or 3D
scenes") listing only papers writing one of them whole, and two papers compared in the order an aside before the
comparing sentence named them. Whole conversations run on the real seed index; each test fails without its rule."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.list_intent import asks_for_list
from rag.question import comparison_aspect, comparison_parts, wants_comparison
from rag.tried_on import unfit

JIGSAW, SHAPEGEN, IAR, MCD, MCLM = "tBf2SUzfZw", "r9AJisFLLo", "qYu4wj7O3z", "h46b75c8bd2fb", "r2HG3xOMJI"
ARPG = "rJdGst0W8s"


def test_papers_put_next_to_each_other_are_compared_in_the_users_order(engine) -> None:
    question = "Put the IAR data provenance paper next to ShapeGen4D: what does each one take as its input?"
    assert wants_comparison(question)
    assert comparison_parts(question) == ["the IAR data provenance paper", "ShapeGen4D"]
    assert comparison_parts("Put TRIM-KV and Tactic side by side: what does each keep?") == ["TRIM-KV", "Tactic"]
    assert not wants_comparison("which papers put their own model up against an OpenAI model?")
    *_, compared, second = _chat(engine, "any video-to-4D shape generation work that copes with topology changes?",
                                 question, "what pretrained models is the second one built on?")
    assert cited(compared) == [IAR, SHAPEGEN]  # (ShapeGen4D, carried, came first)
    assert not second.refused and cited(second) == [SHAPEGEN] and "pre-trained 3D models" in second.text


def test_what_is_tried_is_read_without_the_part_it_is_tried_for() -> None:
    texts = ["The authors instantiate Visual Jigsaw across three visual modalities, including images, videos, and 3D "
             "data, with visual inputs."]
    assert unfit("did they try point cloud inputs specifically for the 3D part?", texts) == ["point cloud"]
    assert unfit("did they try video inputs?", texts) == []  # (held: for the answer to say)


def test_a_refused_detail_is_refused_naming_what_is_missing(engine) -> None:
    *_, tried = _chat(engine, "what is Visual Jigsaw?", "did they try point cloud inputs specifically for the 3D part?")
    assert tried.refused and "“point cloud”" in tried.text  # (it answered from the 3D sentence)


def test_anything_in_the_collection_with_a_property_is_a_list(engine) -> None:
    question = "totally unrelated: anything in the collection with medical or clinical applications?"
    assert asks_for_list(question)
    answer, = _chat(engine, question)
    assert not answer.refused and {MCD, MCLM} <= set(cited(answer))  # (it was refused)


def test_a_word_of_one_compared_title_asked_of_each_is_the_aspect() -> None:
    question = "MetaMuse vs ARPG - randomness comes up in both, what role does it play in each?"
    titles = ["MetaMuse: Algorithm Generation via Creative Ideation",
              "Autoregressive Image Generation with Randomized Parallel Decoding"]
    assert comparison_aspect(question, ["MetaMuse", "ARPG"], titles) == "randomness"
    # (a word both titles share still calls them: "generation" is no aspect)
    assert comparison_aspect("ARPG vs MetaMuse: where does generation come in for each?", ["MetaMuse", "ARPG"],
                             titles) == ""


def test_the_random_order_sentence_answers_randomness_in_arpg(engine) -> None:
    answer, = _chat(engine, "MetaMuse vs ARPG - randomness comes up in both, what role does it play in each?")
    assert "random-order" in answer.text and "internal randomness" in answer.text


def test_alternatives_sharing_a_word_list_every_paper_writing_it(engine) -> None:
    answer, = _chat(engine, "ok, new topic - which papers work with 3D data or 3D scenes?")
    assert SHAPEGEN in cited(answer)  # ("3D geometry", "pre-trained 3D models": neither phrase whole)


def test_the_sentence_comparing_two_papers_sets_their_order() -> None:
    from rag.named import mention_order

    words = {"kv": {"trim-kv"}, "tikz": {"tikzilla"}}.__getitem__
    question = "I'm also skimming TikZilla. Setting TRIM-KV and TikZilla side by side, what does each learn from?"
    assert mention_order(question, ["tikz", "kv"], words) == ["kv", "tikz"]  # (TikZilla came first in the aside)
    assert mention_order("TikZilla is neat. How does it compare with TRIM-KV?", ["kv", "tikz"], words) == [
        "tikz", "kv"]  # (the comparing sentence calls only one: the whole question's order)


def test_a_list_of_papers_involving_one_thing_however_it_is_used() -> None:
    from rag.fields import lone_noun
    from rag.tokens import topic_asked

    question = "Which of the 36 papers involve video somewhere - as input, output or training data?"
    assert topic_asked(question) == "Which of the 36 papers involve video?"  # (the ways a paper may use it)
    assert lone_noun(question) == ["video"]  # ("involve" frames the list, like "discuss": no phrase "involve video")
    assert lone_noun("which papers discuss video?") == ["video"]


def test_the_papers_involving_video_are_listed(engine) -> None:
    answer, = _chat(engine, "Which of the 36 papers involve video somewhere - as input, output or training data?")
    assert {"tIVCfVnIHo", "tKyAD2LhnI", SHAPEGEN, JIGSAW} <= set(cited(answer))  # (Lyra alone)
