"""Question analysis: shapes, names, follow-up rewriting, lexical tokens and sentence splitting."""

from __future__ import annotations

import pytest

from rag.followup import standalone_query
from rag.tokens import lexical_text
from rag.multilingual import needs_multilingual
from rag.question import analyse, comparison_context, names_in
from rag.sentences import split_sentences


class TestShapes:
    @pytest.mark.parametrize("question", [
        "Which papers study test-time scaling for LLM reasoning?",
        "What recent papers use diffusion for protein design?",
        "Are there any papers on KV cache eviction?",
        "有哪些论文研究视频水印？",
        "I work on image autoregressive models. Which papers here involve them?",  # the list asked second
        "besides weather, what other science applications show up in the collection",
        "Which other natural-science applications show up in the collection?",
        "which of these papers are about reward models in some way?",  # the collection's, in a first turn
        "what other sciencey application papers are there? chemistry, biology, weather, physics, whatever",  # 2 words
        "anything in the collection on tracing AI-generated content back to where it came from?",  # all it holds
    ])
    def test_list_questions(self, question: str) -> None:
        assert analyse(question).kind == "list"

    @pytest.mark.parametrize("question", ["What tasks are covered by the benchmark?", "What problems does it solve?",
                                          "what do the papers say about memory?",
                                          "anything here on using small LMs as verifiers?"])  # whether there is one
    def test_what_one_paper_covers_is_no_list(self, question: str) -> None:
        assert analyse(question).kind != "list"

    @pytest.mark.parametrize("question, parts", [
        ("Compare Lyra and ShapeGen4D: what does each generate?", ["Compare Lyra", "ShapeGen4D"]),
        ("ARPG vs GtR: how does each accelerate generation?", ["ARPG", "GtR"]),
        ("How does TRIM-KV differ from Tactic?", ["How does TRIM-KV differ", "Tactic"]),
        ("Tactic, TRIM-KV and D2F all involve the KV cache. How does each one use it?",
         ["Tactic", "TRIM-KV", "D2F all involve the KV cache"]),
        # After two named pieces, the rest says how they are compared: not a third paper to find.
        ("How does Diff-SNPO differ from Diff-NPO in the way it learns from negative preferences for diffusion "
         "models?", ["How does Diff-SNPO differ", "Diff-NPO in the way it learns"]),
        ("How do T1 and ReVeal differ in the way they use tools to verify model outputs?",
         ["How do T1", "ReVeal differ in the way they use tools"]),
        # With one name, an unnamed piece may be the other paper's description: kept.
        ("How does SIGMark differ from the post-hoc provenance method for image autoregressive models?",
         ["How does SIGMark differ", "the post-hoc provenance method for image autoregressive models"]),
        # "each" with one name: the pieces a preamble sets out before its colon.
        ("PBFM and that multi-channel diffusion model: what is the core technical idea in each?",
         ["PBFM", "that multi-channel diffusion model"]),
        # … or before a dash ("X and Y both … - how does each …?"), which a name's own hyphen is not
        ("OR-PRM and RGM both rely on reward models - how does each get its supervision?",
         ["OR-PRM", "RGM both rely on reward models"]),
        ("TRIM-KV - how does it compare with Tactic?", ["TRIM-KV - how does it compare", "Tactic"]),
    ])
    def test_comparisons_split_into_one_piece_per_paper(self, question: str, parts: list[str]) -> None:
        shape = analyse(question)
        assert shape.kind == "comparison" and shape.parts == parts

    @pytest.mark.parametrize("question, context", [
        ("ARPG vs GtR: how does each accelerate visual autoregressive generation?",
         "accelerate visual autoregressive generation"),
        ("Compare Lyra and ShapeGen4D: what does each generate, and from what kind of input?", "generate kind input"),
        ("Compare TRIM-KV and Tactic", ""),  # nothing asked of every piece
        ("ARPG vs GtR: which is faster than LlamaGen?", "faster"),  # a name there is no shared topic
    ])
    def test_a_comparison_context_is_the_topic_asked_of_every_piece(self, question: str, context: str) -> None:
        assert comparison_context(question) == context

    @pytest.mark.parametrize("question", [
        "What is TRIM-KV?",
        "Does training on each frame separately help?",  # "each" alone is not a comparison
        "Visual Jigsaw: what does each modality add?",  # …nor after a preamble naming one thing
        "Which models and datasets was it evaluated on?",  # not a request for a list of papers
        "what is MFT, and which other fine-tuning strategies do they compare it against",  # its own baselines
    ])
    def test_single_paper_questions(self, question: str) -> None:
        assert analyse(question).kind == "single"

    def test_a_name_used_to_describe_a_kind_names_no_paper(self) -> None:
        assert analyse("masked generation for routing, kind of BERT-style - is there a paper?").names == []
        assert analyse("evolving heuristics, similar to AlphaEvolve - anything?").names == []
        assert analyse("Is there a TRIM-KV-based cache?").names == ["TRIM-KV"]  # ("-based": built on it)

    def test_names(self) -> None:
        assert names_in("How does TRIM-KV beat SnapKV on GSM8K with mCLM and D2F?") == [
            "TRIM-KV", "SnapKV", "GSM8K", "mCLM", "D2F"]
        assert names_in("How do post-hoc, long-context methods work in the USA?") == []
        # Chinese writes no spaces: a name ends where the Latin letters do (it used to run on into the
        # Chinese text, "LLM里的attention", which no abstract contains, and refused the question).
        assert names_in("LLM里的attention sink和GSM8K上的Text-to-CAD生成") == ["GSM8K", "Text-to-CAD"]
        # A version stays in the name; a sentence's full stop is no version.
        assert names_in("Is it qwen2.5-vl, GPT-4.1 or Llama-3.1-8B? Its score on GSM8K.") == [
            "qwen2.5-vl", "GPT-4.1", "Llama-3.1-8B", "GSM8K"]
        # "Dafny-style", "TRIM-KV-based": the name is what comes before the kind ("Dafny" alone is a plain word)
        assert names_in("a benchmark for verifiable code, Dafny-style? any TRIM-KV-based or LLM-based methods?") == [
            "TRIM-KV"]

    def test_multilingual_detection(self) -> None:
        assert needs_multilingual("TRIM-KV 是什么？") and not needs_multilingual("What is TRIM-KV?")


class TestFollowUps:
    def test_a_standalone_question_is_left_alone(self) -> None:
        assert standalone_query("What is SIGMark?", ["What is TRIM-KV?"]) == "What is SIGMark?"

    def test_a_follow_up_borrows_the_turns_it_leans_on(self) -> None:
        history = ["What is TikZilla?", "Which base models does it build on?"]
        assert standalone_query("What speedup does it claim?", history) == (
            "What is TikZilla? Which base models does it build on? What speedup does it claim?")
        assert standalone_query("How is the new dataset built?", ["Tell me about ShapeGen4D", "And TikZilla?"]) == (
            "And TikZilla? How is the new dataset built?")


def test_lexical_text_keeps_names_and_numbers_whole() -> None:
    text = lexical_text("TRIM-KV reaches 5.14x and an FID of 1.83 on 2,389 tasks")
    assert {"5_14x", "1_83", "2_389", "trimkv"} <= set(text.split())


def test_hedges_say_nothing_of_the_topic() -> None:
    from rag.topic_words import own_topic_words
    from rag.tokens import without_where

    asked = "which papers in the whole set deal with the KV cache at all, even in passing?"
    assert own_topic_words(without_where(asked)) == {"kv", "cache"}


@pytest.mark.parametrize("text, expected", [
    ("We use e.g. large models, i.e. LLMs. It works.", ["We use e.g. large models, i.e. LLMs.", "It works."]),
    ("See Fig. 3 for details. Next (Sec. 2) follows.", ["See Fig. 3 for details.", "Next (Sec. 2) follows."]),
    ("Speed is 2.5x. FID 1.83 is reached! Why? Because.", ["Speed is 2.5x.", "FID 1.83 is reached!", "Why?",
                                                          "Because."]),
    # a sentence opening on a name in lower case with a capital inside ("mCLM", "dLLMs") starts a sentence too
    ("It helps drugs. mCLM, with 3B parameters, wins. Unlike AR, dLLMs decode. sLMs fail. the end.",
     ["It helps drugs.", "mCLM, with 3B parameters, wins.", "Unlike AR, dLLMs decode.", "sLMs fail. the end."]),
])
def test_sentence_splitting(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


@pytest.mark.parametrize("question, topic", [
    ("Which papers study test-time scaling for LLM reasoning?", "study test-time scaling for LLM reasoning?"),
    ("Are there any works on watermarking diffusion models?", "watermarking diffusion models?"),
    ("Which papers are about KV cache eviction?", "KV cache eviction?"),
    # Frames asking for one paper stay: cutting them moved the right paper down as often as up.
    ("Is there a method that recovers 3D geometry from video?", "Is there a method that recovers 3D geometry from video?"),
    ("Which method is faster?", "Which method is faster?"),  # too little would be left
    # where to look, said first, goes with the frame after it (it lowered every sentence's fit)
    ("Across the whole collection, which papers study Best-of-N selection?", "study Best-of-N selection?"),
])
def test_topic_query_cuts_a_list_frame(question: str, topic: str) -> None:
    from rag.tokens import topic_query

    assert topic_query(question) == topic


@pytest.mark.parametrize("question", ["ok, which ones are about chemistry then?", "Which ones use diffusion?",
                                      "Different topic: what's here on watermarking?",
                                      "separate question: what's in here on chemistry or molecule design?",
                                      # the many ways of asking what else the collection holds on a topic
                                      "Anything else in the set on watermarking?", "What else here uses reward models?",
                                      "Do we have anything about diffusion models?",
                                      "Other examples of test-time scaling?",
                                      "Name a few more papers using diffusion.", "Papers on reward models?",
                                      "Which of the 36 abstracts mention reinforcement learning?",
                                      "Does any other paper here use reinforcement learning?", "Any more on KV caches?",
                                      "What other work is there on 3D generation?", "Others on reward modeling?",
                                      "Can you list everything related to image generation?",
                                      "Which submissions study combinatorial optimization?",
                                      "What are the papers on video generation?",
                                      "Is this the only paper on eviction?",
                                      "across the collection, which papers train reward models in some form?",
                                      "Overall - which works use RL?",
                                      "which papers compare themselves against GPT-5?",  # papers' own comparisons
                                      "by the way, which papers get LLMs to design heuristics?",  # after an aside
                                      "btw which papers use RL?"])
def test_which_ones_asks_for_a_list(question: str) -> None:
    from rag.question import analyse
    from rag.types import QuestionKind

    assert analyse(question).kind is QuestionKind.LIST


@pytest.mark.parametrize("question, parts", [
    ("I have three papers open: the one on massive activations, ARPG, and GtR. A one-liner for each.",
     ["the one on massive activations", "ARPG", "and GtR"]),  # after a preamble ending in a colon
    ("ARPG vs GtR: how does each accelerate generation?", ["ARPG", "GtR"]),
])
def test_the_pieces_a_comparison_sets_against_each_other(question: str, parts: list[str]) -> None:
    from rag.question import comparison_parts

    assert comparison_parts(question) == parts


@pytest.mark.parametrize("question, kind", [
    ("What benchmarks test LLMs on writing Dafny specifications?", "list"),
    ("Which methods reduce the KV cache?", "list"),
    ("What benchmarks does it use?", "single"),
    ("Which models and datasets?", "single"),
    ("What models did they try?", "single"),
    ("What else does it do?", "single"),  # more of the paper on the table, not other papers
    ("Anything else about it?", "single"),
    ("What else is there on reinforcement learning?", "list"),
    ("How does it work?", "single"),
    ("What is the only limitation?", "single"),
    ("Besides the provenance one, which papers deal with autoregressive image generation?", "list"),
    ("Apart from TRIM-KV, which methods reduce the KV cache?", "list"),
    ("Besides that, what does it do?", "single"),
])
def test_papers_of_a_kind_doing_something_are_a_list(question: str, kind: str) -> None:
    assert analyse(question).kind.value == kind


@pytest.mark.parametrize("question, phrases", [
    ("which other papers here touch on the KV cache?", ["kv cache"]),
    ("Which papers are about combinatorial optimization or heuristic design?",
     ["combinatorial optimization", "heuristic design"]),
    ("any other RL papers in the set?", []),  # one word is no term
    ("Which papers are about chemistry?", []),
    ("which papers tackle combinatorial problems - TSP, bin packing, heuristic design for COPs?",  # a list, no run
     ["bin packing", "heuristic design"]),
    ("what do they simulate in the central vision / slowness study?", ["central vision"]),  # alternatives, no run
])
def test_a_list_question_s_terms_are_its_runs_of_topic_words(question: str, phrases: list[str]) -> None:
    from rag.tokens import topic_phrases

    assert topic_phrases(question) == phrases


def test_each_item_of_an_enumeration_is_a_term_of_its_own() -> None:
    from rag.tokens import listed_items

    assert listed_items("which papers tackle combinatorial problems - TSP, bin packing, heuristic design for COPs and "
                        "so on?") == {"bin packing", "heuristic design"}
    assert listed_items("papers on diffusion or flow matching, for video?") == set()  # two pieces: no enumeration


@pytest.mark.parametrize("question, searched", [
    ("which papers report a concrete speedup factor (like 3x or 10x)?", "which papers report a concrete speedup "
                                                                         "factor?"),
    ("which papers introduce a new benchmark (not just a training dataset)?", "which papers introduce a new "
                                                                               "benchmark?"),
    ("which papers use diffusion (DDPM) models?", "which papers use diffusion (DDPM) models?"),  # a name, kept
    # what it leaves out, to the end of its clause
    ("which ones are about visual perception rather than generating images?", "which ones are about visual "
                                                                                "perception?"),
    ("Which papers use diffusion, not GANs, for video?", "Which papers use diffusion, for video?"),
    # examples listed in brackets ("…, that sort of thing", "…") and what a bracket leaves out
    ("which papers tackle operations-research problems (TSP, bin packing, LP/MIP modeling, that sort of thing)?",
     "which papers tackle operations-research problems?"),
    ("which papers have reward models as a topic (building PRMs, analyzing RMs, improving verifiers...)?",
     "which papers have reward models as a topic?"),
    ("what's here on code generation? (ignoring the TikZ one)", "what's here on code generation?"),
])
def test_a_searchs_examples_and_exclusions_in_brackets_are_not_searched_for(question: str, searched: str) -> None:
    from rag.question import without_examples

    assert without_examples(question) == searched


@pytest.mark.parametrize("question, excluded", [
    ("what's in here on LLM coding? (ignoring the TikZ one)", "the TikZ one"),
    ("which papers use RL, except ReVeal?", "ReVeal"),
    ("which papers use RL (like PPO)?", ""),  # examples are not left out
])
def test_what_a_list_question_leaves_out(question: str, excluded: str) -> None:
    from rag.question import left_out

    assert left_out(question) == excluded


def test_a_hyphenated_term_standing_alone_is_a_term_and_hedge_words_end_one() -> None:
    from rag.tokens import topic_phrases

    assert topic_phrases("which papers tackle combinatorial optimization or operations-research type problems?") == [
        "combinatorial optimization", "operations-research"]
    assert topic_phrases("which papers do test-time scaling?") == ["test-time scaling"]
    # two terms sharing their last word across a slash
    assert topic_phrases("which papers are about test-time / inference-time scaling?") == [
        "test-time scaling", "inference-time scaling"]
    assert topic_phrases("papers on image/video generation?") == ["image generation", "video generation"]


def test_what_a_list_asks_leaves_out_a_preamble_and_examples() -> None:
    from rag.tokens import topic_asked

    assert topic_asked("broader question: which papers are about test-time scaling, e.g. sampling many candidates and "
                       "picking one?") == "which papers are about test-time scaling?"
    assert topic_asked("which one uses RL?") == "which one uses RL?"


@pytest.mark.parametrize("question, parts", [
    ("what modules does it consist of, and what does it score on VSI-Bench?",
     ["what modules does it consist of", "what does it score on VSI-Bench?"]),
    ("Does it need training? And what does it guide against?", ["Does it need training", "And what does it guide against?"]),
    ("There's a flow matching paper with physics constraints. What trade-off does it address?",
     ["There's a flow matching paper with physics constraints.", "What trade-off does it address?"]),
    ("What is the speed and accuracy?", []),  # one question
    ("What is it? Why?", []),  # a part without topic words
])
def test_a_turn_asking_two_things_is_split_into_its_questions(question: str, parts: list[str]) -> None:
    from rag.question import sub_questions

    assert sub_questions(question) == parts


@pytest.mark.parametrize("question, negated", [
    ("which of the two is about better local detail rather than speed?", "speed"),
    ("Which one works on text instead of images", "images"),
    ("Which of them is faster?", ""),
])
def test_what_a_choice_says_the_pick_is_not_about(question: str, negated: str) -> None:
    from rag.choice_words import rather_than

    assert rather_than(question) == negated


@pytest.mark.parametrize("question, wanted", [
    ("They compare several fine-tuning strategies on it, right? which ones?", False),  # what the paper compares
    ("Do they compare against SnapKV?", False),
    ("How do they compare?", True),
    ("How does it compare to Tactic?", True),
    ("Compare TRIM-KV and Tactic.", True),
    ("How do the two papers use video diffusion models differently?", True),
    ("how does its worry about proxy-reward quality relate to the 'poor implicit reward model' paper?", True),
    ("What do the two have in common?", True),
    ("how does it stack up against the D2F paper?", True),
])
def test_a_comparison_the_paper_makes_is_no_request_to_compare_papers(question: str, wanted: bool) -> None:
    from rag.question import wants_comparison

    assert wants_comparison(question) is wanted


def test_a_hedge_is_no_topic_and_way_stays_a_word() -> None:
    from rag.tokens import keyword_query, without_where

    assert "some" not in without_where("Which papers deal with KV caches in some way?")
    assert "way" in keyword_query("Is there a way to speed up video generation on FPGAs?")


def test_a_hedge_of_one_form_or_another_is_no_topic() -> None:
    from rag.collection_intent import collection_intent

    intent = collection_intent("how many papers in this set are about reward models in one form or another?")
    assert intent is not None and intent.topic == "reward models"


@pytest.mark.parametrize("question, alternatives", [
    ("which ones are about chemistry or molecule design?", ["chemistry", "molecule design"]),
    ("Which papers are about speeding up generation or inference?", ["speeding up generation", "speeding up inference"]),
    # Both alternatives keep what they share on either side of "or".
    ("Which papers use diffusion or flow matching to generate scientific data?",
     ["use diffusion to generate scientific data", "flow matching to generate scientific data"]),
    ("Which papers here introduce a benchmark for evaluating LLMs or agents?",
     ["introduce a benchmark for evaluating LLMs", "introduce a benchmark for evaluating agents"]),
    ("which ones are about visual understanding or perception rather than generating images?",
     ["visual understanding", "visual perception"]),  # not what the pick is not about
    ("Which papers use reinforcement learning?", []),
    ("Which papers use RL or something similar?", []),
])
def test_a_list_s_alternatives_are_searched_each_with_what_they_share(question: str, alternatives: list[str]) -> None:
    from rag.alternatives import alternatives as found

    assert found(question) == alternatives


def test_rankings_fuse_by_reciprocal_rank_the_whole_question_s_counting_double() -> None:
    from rag.alternatives import fused
    from rag.types import Hit, Paper

    def hits(*ids: str) -> list[Hit]:
        return [Hit(Paper(i, i, "An abstract.", "test:1"), 1.0) for i in ids]

    order = [h.paper.paper_id for h in fused([hits("a", "b", "c"), hits("d", "b"), hits("e")], 4)]
    assert order == ["b", "a", "c", "d"]  # b is in two rankings; the whole question's (the first) counts double


@pytest.mark.parametrize("question, asked", [
    ("the catalysis benchmark paper, what fine-tuning trick do they propose?", "what fine-tuning trick do they propose?"),
    ("the 'cache what lasts' paper - how do they train the retention part?", "how do they train the retention part?"),
    ("what does the jigsaw one do?", "what does the jigsaw one do?"),  # called inside the question: kept
])
def test_the_words_calling_a_paper_first_are_not_what_the_question_asks(question: str, asked: str) -> None:
    from rag.subject import without_calling

    assert without_calling(question) == asked


@pytest.mark.parametrize("question, comparison", [
    ("how many turns, in training vs at test time?", False),  # two settings of one method
    ("turns seen in training vs at inference?", False),
    ("TRIM-KV vs Tactic: which needs less memory?", True),
])
def test_two_settings_set_against_each_other_are_no_comparison_of_papers(question: str, comparison: bool) -> None:
    from rag.question import analyse, wants_comparison
    from rag.types import QuestionKind

    assert (analyse(question).kind is QuestionKind.COMPARISON) is comparison
    assert wants_comparison(question) is comparison
