"""Turns that earlier rules got wrong, found when blind seed set AZ was read in the thirty-seventh pass: a detail asked
for with "will" ("What license will … be released under?"), and a kind of thing no abstract writes, asked of a paper
on the table ("Are perovskite catalysts covered?", "… on needle-in-a-haystack retrieval tests?").
Whole conversations run on the real seed index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.asks import asked_thing
from rag.tried_on import unfit

CATALYST, TIKZILLA, TRIMKV, SPECTRAL = "h47cb2134ff1f", "rJv2byEWA3", "qCaq3jGb0S", "tHmiydOQhn"


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
    unknown = {"needle in a haystack retrieval": ["needle", "haystack"], "perovskite": ["perovskite"]}.get
    words = unfit("does it hold up on needle-in-a-haystack retrieval tests?", text, lambda t: unknown(t, []))
    assert words == ["needle", "haystack"]
    # (asked in the passive: "are … covered?")
    assert unfit("Are perovskite tasks covered in its benchmark?", text, lambda t: unknown(t, [])) == ["perovskite"]
    # (a head no abstract writes may be worded otherwise there: "one-step backups" for "operators")
    assert unfit("does it only handle one-step backups?", text, lambda t: ["backups"] if "backups" in t else []) == []
    # (one thing offered that abstracts do write: the answer says what the paper does with it)
    assert unfit("does it work for retrieval or perovskite tasks?", text, lambda t: unknown(t.strip(), [])) == []
