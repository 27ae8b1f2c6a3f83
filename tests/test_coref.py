"""What a sentence stands for without writing it: acronyms its abstract defined, "this benchmark" for the paper's
name; and quotes spelling out an acronym defined elsewhere in their abstract."""

from __future__ import annotations

from rag.coref import acronym_words, definitions, implied_words, spell_out
from rag.plan import plan_paper
from rag.roles import Aspect
from rag.types import Evidence, EvidenceSentence, Hit, Paper
from rag.tokens import content_words

TEXT = ("Every language model defines an implicit reward model (IM-RM). A promising alternative to autoregressive "
        "(AR) decoding is a strategy named discrete diffusion forcing (D2F). We use large language models (LLMs).")


def test_an_acronym_stands_for_the_words_before_it_whose_initials_it_holds() -> None:
    defined = acronym_words(definitions(TEXT))
    assert defined["im-rm"] == {"implicit", "reward", "model"}
    assert defined["d2f"] == {"discrete", "diffusion", "forcing"}  # the digit stands for the second "d"
    assert defined["ar"] == {"autoregressive"}  # not "alternative to autoregressive"
    assert defined["llm"] == {"large", "language", "models"}


def test_a_sentence_with_the_acronym_answers_for_the_long_form_the_question_spells_out() -> None:
    defined = acronym_words(definitions(TEXT))
    sentence = "Our finding is that IM-RMs rely on token-level cues."
    wanted = content_words("Why do implicit reward models generalize worse?")
    assert implied_words(sentence, content_words(sentence), wanted, defined) == {"implicit", "reward", "models"}


def test_a_long_form_only_partly_in_the_question_adds_nothing() -> None:
    defined = acronym_words(definitions(TEXT))
    sentence = "LLMs are trained on massive datasets."
    wanted = content_words("Which models and datasets?")  # "models" alone is not "large language models"
    assert implied_words(sentence, content_words(sentence), wanted, defined) == set()


def test_the_question_s_acronym_matches_the_long_form_and_this_benchmark_the_name() -> None:
    defined = acronym_words(definitions(TEXT))
    sentence = "Discrete diffusion forcing caches blocks."
    assert implied_words(sentence, content_words(sentence), {"d2f", "cache"}, defined) == {"d2f"}
    listing = "The tasks covered by this benchmark span reading comprehension."
    wanted = content_words("What does CatalystBench evaluate?")
    assert implied_words(listing, content_words(listing), wanted, {}, name="CatalystBench") == {"catalystbench"}
    assert implied_words(listing, content_words(listing), wanted, {}) == set()


def test_a_common_acronym_matches_its_long_form_though_the_abstract_never_defines_it() -> None:
    sentence = "Recent progress in in-context reinforcement learning has demonstrated its potential."
    wanted = content_words("has anyone shown in-context RL scaling to hundreds of tasks?")
    assert "anyone" not in wanted and "shown" not in wanted  # who did it is not the topic
    assert implied_words(sentence, content_words(sentence), wanted, acronym_words({}, common=True)) == {"rl"}
    assert implied_words(sentence, content_words(sentence), wanted, acronym_words({})) == set()
    # an abstract's own definition wins: "RL" for "representation learning" there
    own = acronym_words({"RL": "representation learning"}, common=True)
    assert implied_words(sentence, content_words(sentence), wanted, own) == set()


def test_an_acronym_defined_elsewhere_in_the_abstract_is_spelled_out_where_first_shown() -> None:
    defined = definitions("We compare with Algorithm Distillation (AD). We fine-tune large language models (LLMs) "
                          "with Multi-head Full-task (MFT) tuning.")
    assert defined == {"AD": "Algorithm Distillation", "LLM": "large language models", "MFT": "Multi-head Full-task"}
    done: set[str] = set()
    assert spell_out("The agent improves upon prior AD scaling in LLMs.", defined, done) == \
        "The agent improves upon prior AD scaling in LLMs. (AD: Algorithm Distillation)"  # LLM: widely known
    assert spell_out("AD again; the MFT strategy works best.", defined, done) == \
        "AD again; the MFT strategy works best. (MFT: Multi-head Full-task)"  # once per answer
    assert spell_out("Multi-head Full-task (MFT) tuning helps.", defined, set()) == \
        "Multi-head Full-task (MFT) tuning helps."  # defined where it stands


def test_a_plan_spells_out_the_acronym_its_quote_uses() -> None:
    abstract = ["We compare against Algorithm Distillation (AD) on many tasks.",
                "Our agent improves upon prior AD scaling across hundreds of tasks."]
    paper = Paper("p", "Scaling In-Context RL", " ".join(abstract), "t:1")
    evidence = Evidence(Hit(paper, 1.0), [EvidenceSentence(abstract[1], 0.8, 1), EvidenceSentence(abstract[0], 0.1, 0)])
    plan = plan_paper(1, evidence, Aspect.ANY, 0, 0.5)
    assert plan.quotes[0].text == "Their agent improves upon prior AD scaling across hundreds of tasks. " \
                                  "(AD: Algorithm Distillation)"
    assert plan.sentences == [abstract[1]]  # the abstract's own sentence is what the panel highlights


def test_an_acronym_the_user_writes_matches_the_words_a_sentence_spells_it_with() -> None:
    from rag.coref import initials_written, written_acronyms

    assert written_acronyms("and the SSL objective? PINNs? and the KV one") == {"ssl", "pinn"}  # 3 to 6 capitals
    sentence = "We train a time-contrastive Self-Supervised Learning model on them."
    assert initials_written(sentence, {"ssl", "pinn"}) == {"ssl"}
    assert initials_written("Some sample learning of the model.", {"ssl"}) == {"ssl"}  # initials, nothing more
    assert initials_written("We study learning in a sparse setting.", {"ssl"}) == set()
