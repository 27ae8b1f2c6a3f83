"""Turns that earlier rules got wrong, found when blind seed set AZ was read in the thirty-seventh pass: a detail asked
for with "will" ("What license will … be released under?"), a kind of thing no abstract writes, asked of a paper on
the table ("Are perovskite catalysts covered?", "… on needle-in-a-haystack retrieval tests?"), a comparison asking
what data each paper was run on, a comparison of two papers not on the table asking "each one", and a comparison
shown in the order the user called the papers, though a common word of one title describes the other, and a paper
described with "and" inside its description.
Whole conversations run on the real seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.asks import asked_thing
from rag.question import comparison_parts
from rag.tried_on import unfit

TIKZILLA, PBFM, SLOWNESS = "rJv2byEWA3", "hfebd26d11d8c", "h318bc0fb82e2"
RCPU, JIGSAW = "t6xiPRvynD", "tBf2SUzfZw"


def test_a_detail_asked_with_will_or_would() -> None:
    assert asked_thing("What licence will the new dataset be released under?") == ["licence"]
    assert asked_thing("which GPU would they need to run it?") == ["gpu"]


def test_a_release_licence_no_abstract_states_is_refused(engine) -> None:
    *_, licence = _chat(engine, "is there a paper on generating TikZ code for scientific figures?",
                        "what license will their dataset be published under?")
    # (it had answered with TikZilla's dataset sentence, as if that said how it is licensed)
    assert licence.refused and "license" in licence.text and cited(licence) == []


def test_a_kind_no_abstract_writes_is_refused_naming_it(engine) -> None:
    *_, kind = _chat(engine, "the catalysis benchmark for language models: what tasks does it cover?",
                     "are perovskite catalysts included among them?")
    # (the benchmark holds "catalysts", not "perovskite": it had answered with the tasks sentence)
    assert kind.refused and "perovskite" in kind.text and cited(kind) == []


def test_only_words_before_the_head_and_only_unknown_ones_count() -> None:
    text = ["TRIM-KV learns which tokens to keep; it outperforms learnable retrieval baselines on long-memory "
            "benchmarks. Multi-step Bellman operators extend the method."]
    known = {"needle in a haystack retrieval": ["needle", "haystack"], "perovskite": ["perovskite"]}.get

    def unknown(text: str, kind: str = "NOUN") -> list[str]:  # (as ``NameIndex.unknown_words``)
        return known(text, [])

    words = unfit("does it hold up on needle-in-a-haystack retrieval tests?", text, unknown)
    assert words == ["needle", "haystack"]
    # (asked in the passive: "are … covered?")
    assert unfit("Are perovskite tasks covered in its benchmark?", text, unknown) == ["perovskite"]
    # (a head no abstract writes may be worded otherwise there: "one-step backups" for "operators")
    assert unfit("does it only handle one-step backups?", text, lambda t, kind="NOUN": ["backups"] if "backups" in t
                 else []) == []
    # (one thing offered that abstracts do write: the answer says what the paper does with it)
    assert unfit("does it work for retrieval or perovskite tasks?", text, lambda t, kind="NOUN": known(t.strip(), [])
                 ) == []


def test_a_comparison_asking_what_data_each_ran_on_leads_with_it(engine) -> None:
    pair, = _chat(engine, "Compare PBFM with the temporal slowness paper: what data is each one evaluated on?")
    lead = pair.text.split("\n\n")[0]
    # (each led with what it proposes: the question's words fit any sentence naming the paper)
    assert cited(pair) == [PBFM, SLOWNESS] and "PDE benchmarks" in lead and "Ego4D" in lead


def test_two_new_papers_compared_leave_the_table_behind(engine) -> None:
    *_, pair = _chat(engine, "Compare PBFM with the temporal slowness paper: what data is each one evaluated on?",
                     "RCPU vs TikZilla - which datasets or models does each one report experiments with?")
    # ("each one" had been read as the two papers on the table: four papers cited)
    assert cited(pair) == [RCPU, TIKZILLA] and "WikiText-2" in pair.text


def test_a_comparison_in_the_order_the_user_calls_the_papers(engine) -> None:
    *_, pair = _chat(engine, "hi, is there something in here about post-training multimodal LLMs with a "
                             "self-supervised puzzle, like cutting an image into pieces and making the model put them "
                             "back in order?",
                     "Compare it with the paper about central vision and slowness in human-like visual experience: "
                     "where does each one get its training signal from, given that neither uses labels?")
    # ("visual", a word of Visual Jigsaw's title but of many abstracts, had placed the jigsaw paper second)
    assert cited(pair) == [JIGSAW, SLOWNESS]


def test_a_paper_described_with_and_is_one_piece(engine) -> None:
    assert comparison_parts("Compare it with the paper about central vision and slowness in video: what does each "
                            "learn?") == ["the paper about central vision and slowness in video"]
    assert comparison_parts("the paper on watermarking and the jigsaw one - how do they differ?") == [
        "the paper on watermarking", "the jigsaw one"]
    *_, pair = _chat(engine, "what does the jigsaw post-training paper do?",
                     "Compare it with the paper about central vision and slowness in human-like visual experience: "
                     "where does each one get its training signal from, given that neither uses labels?")
    # (split at "and": "slowness in human-like visual experience" had found a third paper, AMLRIS)
    assert cited(pair) == [JIGSAW, SLOWNESS]
