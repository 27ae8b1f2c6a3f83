"""Follow-ups that earlier rules got wrong, found with blind dialogue set AH: a short acronym or a capitalised name no
abstract writes ("… against plain LRU …?", "… an Isabelle track too?"), "each one … its" in a comparison naming two
papers of a longer list, what a shown step buys for a "why" question, a paper's own sentence leading rather than one
on others' work, and a short verbless fragment staying on the last paper. Whole conversations run on the real seed
index; each test fails without the rule it names."""

from __future__ import annotations

from chats import ask_all as _chat, cited

from rag.coref import without_bound_its
from rag.unstated import unindexed

GTR, D2F, RCPU = "qIujRzzWnd", "t5uLZSRjhF", "t6xiPRvynD"
REVEAL, T1, AMLRIS = "q56ZI1Co43", "tBkLWfmugI", "tAfew5gRmm"


def test_a_short_acronym_no_abstract_writes_is_refused_naming_it(engine) -> None:
    *_, lru = _chat(engine, "has anyone checked whether LLMs can design systems algorithms (caching, packing) that "
                            "are actually creative?", "did they benchmark against plain LRU for the caching problem?")
    assert lru.refused and "“LRU”" in lru.text and "MetaMuse" in lru.text


def test_a_capitalised_name_no_lexicon_or_abstract_knows_is_refused_naming_it(engine) -> None:
    *_, isabelle = _chat(engine, "tell me about VeriEquivBench", "is it Dafny only or is there an Isabelle track too?")
    assert isabelle.refused and "“Isabelle”" in isabelle.text and "VeriEquivBench" in isabelle.text


def test_unindexed_skips_sentence_openers_shorthand_field_acronyms_and_words_abstracts_write(engine) -> None:
    names = engine.retriever.names
    assert unindexed("did they benchmark against plain LRU for the caching problem?", names) == ["LRU"]
    assert unindexed("Isabelle? And What About Dafny? imo TBH the RL part is odd", names) == []
    assert unindexed("does it work for Chinese?", names) == ["Chinese"]


def test_each_one_and_its_in_a_comparison_are_the_two_papers_it_names(engine) -> None:
    assert "its" not in without_bound_its("how does each one actually get its speedup?").split()
    *_, compared = _chat(engine, "which papers in here speed up image generation?",
                         "GtR vs D2F: both do parallel decoding of masked / diffusion-style models, but how does each "
                         "one actually get its speedup?")
    assert cited(compared) == [GTR, D2F]


def test_a_why_question_shows_what_a_shown_step_buys_when_the_next_sentence_leans_on_it(engine) -> None:
    *_, why = _chat(engine, "structured pruning of LLMs: any method that compensates the pruning error without "
                            "overfitting the calibration set?",
                    "why does restricting it to a rotation help? what does it keep intact")
    assert cited(why) == [RCPU] and "norms and inner products" in why.text


def test_a_sentence_on_others_work_does_not_lead_a_paper_asked_how_it_works(engine) -> None:
    # (SIGMark's "Existing in-generation approaches are non-blind: …" is the field's problem, not SIGMark's method)
    *_, choice = _chat(engine, "Which papers are about watermarking or tracing the source of AI-generated images and "
                               "videos?", "Which of them works without touching the generation process at all?")
    sigmark = choice.text.split("By contrast, in SIGMark,", 1)[1]
    assert not sigmark.lstrip().lower().startswith("existing") and "GF-PRC" in sigmark.split("[")[0]


def test_it_after_each_one_is_each_ones_not_the_last_paper(engine) -> None:
    *_, compared = _chat(engine, "ReVeal - what does it train the model to do besides writing the code?",
                         "number of turns in training vs at inference?",
                         "which base model did they start from - Qwen2.5-Coder? DeepSeek-Coder?",
                         "ReVeal vs T1 (the tool-integrated verification one): how does each one use external tools "
                         "when it checks answers?")
    assert cited(compared) == [REVEAL, T1]


def test_a_short_verbless_fragment_of_four_topic_words_stays_on_the_last_paper(engine) -> None:
    # ("arch" is read as "architecture": four topic words of its own; TRIM-KV fits "inference cost" about as well)
    *_, fragment = _chat(engine, "referring image segmentation: is there a training trick that masks out pixels which "
                                 "don't align well with the text?", "inference cost / arch changes?")
    assert cited(fragment)[:1] == [AMLRIS] and "no inference overhead" in fragment.text.split("[")[0]
