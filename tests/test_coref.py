"""What a sentence stands for without writing it: acronyms its abstract defined, "this benchmark" for the paper's
name; and the evidence stage scoring the sentence that answers with those words."""

from __future__ import annotations

from rag.coref import acronyms, implied_words
from rag.tokens import content_words

TEXT = ("Every language model defines an implicit reward model (IM-RM). A promising alternative to autoregressive "
        "(AR) decoding is a strategy named discrete diffusion forcing (D2F). We use large language models (LLMs).")


def test_an_acronym_stands_for_the_words_before_it_whose_initials_it_holds() -> None:
    defined = acronyms(TEXT)
    assert defined["im-rm"] == {"implicit", "reward", "model"}
    assert defined["d2f"] == {"discrete", "diffusion", "forcing"}  # the digit stands for the second "d"
    assert defined["ar"] == {"autoregressive"}  # not "alternative to autoregressive"
    assert defined["llm"] == {"large", "language", "models"}


def test_a_sentence_with_the_acronym_answers_for_the_long_form_the_question_spells_out() -> None:
    defined = acronyms(TEXT)
    sentence = "Our finding is that IM-RMs rely on token-level cues."
    wanted = content_words("Why do implicit reward models generalize worse?")
    assert implied_words(sentence, content_words(sentence), wanted, defined) == {"implicit", "reward", "models"}


def test_a_long_form_only_partly_in_the_question_adds_nothing() -> None:
    defined = acronyms(TEXT)
    sentence = "LLMs are trained on massive datasets."
    wanted = content_words("Which models and datasets?")  # "models" alone is not "large language models"
    assert implied_words(sentence, content_words(sentence), wanted, defined) == set()


def test_the_question_s_acronym_matches_the_long_form_and_this_benchmark_the_name() -> None:
    defined = acronyms(TEXT)
    sentence = "Discrete diffusion forcing caches blocks."
    assert implied_words(sentence, content_words(sentence), {"d2f", "cache"}, defined) == {"d2f"}
    listing = "The tasks covered by this benchmark span reading comprehension."
    wanted = content_words("What does CatalystBench evaluate?")
    assert implied_words(listing, content_words(listing), wanted, {}, name="CatalystBench") == {"catalystbench"}
    assert implied_words(listing, content_words(listing), wanted, {}) == set()
