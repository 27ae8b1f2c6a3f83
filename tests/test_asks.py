"""What a turn asks beyond its topic (``rag.asks``), and the conversations it changes on the real seed index: a
thing the abstracts on the table never mention, whether the collection holds a paper at all, "other" papers, and a
comparison whose second term is the paper just discussed."""

from __future__ import annotations

import pytest
from chats import ask_all as _chat

from rag.asks import asked_thing, asks_existence, bare_comparison, unstated, wants_others
from rag.chat import ChatSession


@pytest.mark.parametrize("question, thing", [
    ("Which GPU did they use for the speed numbers?", ["gpu"]),
    ("what licence is the code released under?", ["licence"]),
    ("How many GPU hours did training take?", ["gpu", "hours"]),
    ("So what batch size did they use?", ["batch"]),
    ("Which models did they prune?", []),  # any abstract names its models in its own words
    ("What attack is it built to resist?", []),  # a kind of thing: the abstract names the attack, not "attack"
    ("What new metrics does it introduce?", []),
    ("What approach does it take?", []),
    ("which one was evaluated on real problems?", []),
    ("What is TRIM-KV?", []),  # no thing asked for: "is" follows the question word
    ("Who are the authors of MaskCO?", ["authors"]),
    ("Under which licence is its code released?", ["licence"]),
    ("How many dollars of API cost does PEAR save per query?", ["dollars"]),
    ("Who wrote it?", ["authors"]),
    ("What is the licence of the GtR code?", ["licence"]),
    ("What's the training cost for it?", ["cost"]),
    ("What is the main idea of TRIM-KV?", []),
    ("Who are the best-performing models?", []),
    ("how many parameters does the model have?", ["parameters"]),
    ("what temperature do they recommend for SBoN in practice?", ["temperature"]),
    ("Which cloud provider was that at?", ["provider"]),
    ("What's the license?", ["license"]),  # the question ends on the thing
    ("What year was it published?", ["year"]),
    ("How much did it cost to train?", ["cost"]),
    ("What's the main result?", []),
    ("Who funded the work?", ["funding"]),
    ("How long does inference take per image?", ["hours"]),  # a duration
    ("What's the code interpreter version?", ["version"]),
    ("Which country's radar data is it trained on?", ["country"]),  # (a possessive)
    # a yes/no question for a detail: the detail's words ("was there a user study", "… custom CUDA kernels?")
    ("was there a user study or any human preference eval for the outputs?", ["user"]),
    ("is it implemented with custom triton or cuda kernels?", ["cuda", "kernels", "triton"]),
    ("does it need retraining?", []),
    ("and does it add inference cost?", []),  # an effect, which an abstract states in its own words
    ("is there a paper on GPU kernels?", []),  # whether the collection holds one: not a detail of a paper
    ("are there methods for LLM inference on edge hardware?", []),
])
def test_the_thing_a_question_asks_for(question: str, thing: list[str]) -> None:
    assert asked_thing(question) == thing


def test_a_thing_is_unstated_only_when_no_text_holds_any_form_of_it() -> None:
    texts = ["We train on 8 GPUs for two days.", "A lightweight retention gate."]
    assert unstated(["gpu", "licence"], texts) == ["licence"]
    # A model size written as a figure states its parameters.
    assert unstated(["parameters"], ["We train Qwen models (3B and 8B)."]) == []
    assert unstated(["parameters"], ["We train Qwen models on 3 tasks."]) == ["parameters"]


@pytest.mark.parametrize("question, existence", [
    ("Is there a paper here on audio generation with diffusion models?", True),
    ("Anything in this collection on weather?", True),
    ("are there any studies about chemistry?", True),
    ("Is there a way to watermark text?", False),  # asks for a technique, answered with the closest one
    ("Is there a benchmark for Lean proofs?", False),
    ("What does SIGMark do?", False),
])
def test_a_question_whether_the_collection_holds_a_paper(question: str, existence: bool) -> None:
    assert asks_existence(question) is existence


@pytest.mark.parametrize("question, others", [
    ("Which other papers here deal with the KV cache?", True), ("What else is there on 3D scenes?", True),
    ("Which papers besides these use RL?", True), ("Which papers use more memory?", False),
    ("Which papers study other modalities?", False),
])
def test_other_papers(question: str, others: bool) -> None:
    assert wants_others(question) is others


@pytest.mark.parametrize("question, bare", [
    ("How is Tactic's approach different?", True), ("How does ShapeGen4D compare?", True),
    ("Is ARPG's method similar?", True), ("How does it differ from Tactic?", False),
    ("Which papers propose similar methods to SIGMark?", False),
])
def test_a_comparison_without_its_second_term(question: str, bare: bool) -> None:
    assert bare_comparison(question) is bare


class TestConversations:
    def test_a_vs_b_by_name_and_by_title_words_compares_those_two_not_the_papers_before(self, engine) -> None:
        *_, compared = _chat(engine, "can small language models verify candidates under test-time scaling?",
                             "results on MATH?", "how much latency does the tool-filtering stage add, in seconds?",
                             "T1 vs the reflective generative model paper - both do test time scaling w/ some "
                             "verifier, how do they differ?")
        assert [c.paper_id for c in compared.citations] == ["tBkLWfmugI", "tF56uyxdDy"]  # was T1 and VeriEquivBench

    def test_what_is_an_acronym_the_abstract_writes_in_the_plural_leads_with_its_definition(self, engine) -> None:
        (answer,) = _chat(engine, "what is an EX-RM exactly?")  # was refused: the abstract writes "EX-RMs"
        assert not answer.refused and "dedicated linear head" in answer.text.split("[1]")[0]

    def test_a_common_acronym_the_abstract_writes_out_is_not_missing(self, engine) -> None:
        *_, verifiers = _chat(engine, "T1: how does it verify with tools?",
                              "besides small LMs what kinds of verifiers does it help")
        assert not verifiers.refused  # was refused: "does not mention LMs" (it says "small language models")

    def test_that_one_or_a_name_picks_between_the_last_paper_and_the_named_one(self, engine) -> None:
        *_, pick = _chat(engine, "what are the 'fallen angels' mCLM tries to rescue?",
                         "generative model for imaging mass cytometry data with missing channels?",
                         "so if i need to impute missing protein channels in spatial proteomics, that one or mCLM?")
        assert [c.paper_id for c in pick.citations][:1] == ["h46b75c8bd2fb"]  # the multi-channel diffusion paper
    def test_a_bare_the_thing_after_an_answer_asks_about_its_paper(self, engine) -> None:
        _, gains = _chat(engine, "MetaMuse: which problems did they evaluate it on?", "how big were the gains?")
        assert not gains.refused and "35.76%" in gains.text  # was refused: "the gains" named nothing it could find

    def test_an_overview_gives_the_first_result_though_it_has_no_figure(self, engine) -> None:
        (overview,) = _chat(engine, "fast generation from convolutional sequence models?")
        assert "quasilinear" in overview.text  # FutureFill's one result sentence of substance, with no number

    def test_their_method_is_the_paper_discussed_whoever_else_writes_the_words(self, engine) -> None:
        _, cost = _chat(engine, "In referring image segmentation, how can you stop poorly aligned pixels from pushing "
                                "training in the wrong direction?", "Does their method add any cost at inference time?")
        assert [c.paper_id for c in cost.citations] == ["tAfew5gRmm"] and "inference overhead" in cost.text

    def test_according_to_them_asks_the_paper_discussed(self, engine) -> None:
        _, checks = _chat(engine, "What's T1 about, the tool-integrated verification paper?",
                          "what kinds of checks do small models get wrong, according to them?")
        assert not checks.refused and "numerical calculations" in checks.text

    def test_the_x_one_off_the_table_names_the_paper_its_title_calls_so(self, engine) -> None:
        _, fuse = _chat(engine, "What is SIGMark?", "And the rainfall one - which data sources does it fuse?")
        assert [c.paper_id for c in fuse.citations] == ["hfed3db123a90"]  # was refused: "fuse" is no abstract's word

    def test_is_there_a_model_for_a_new_subject_searches_whatever_it_then_asks_of_it(self, engine) -> None:
        _, molecules = _chat(engine, "Tell me about TRIM-KV",
                             "I also care about molecules: is there a chemistry language model, and is it bigger than 7B?")
        assert "r2HG3xOMJI" in {c.paper_id for c in molecules.citations}  # mCLM, not TRIM-KV's "it"

    def test_the_sentence_going_on_about_the_lead_with_the_asked_word_follows_it(self, engine) -> None:
        (preserve,) = _chat(engine, "RCPU - what does the rotation constraint preserve?")
        # "… under a rotation constraint. This constrained update preserves … (i.e., norms and inner products)"
        assert "norms and inner products" in preserve.text

    def test_a_mechanism_is_told_with_the_sentence_between_the_two_best(self, engine) -> None:
        (how,) = _chat(engine, "how does TRIM-KV decide which tokens get thrown out of the kv cache")
        # "… via a lightweight retention gate. Each gate predicts a scalar retention score …. Tokens with low scores
        # are evicted …": the middle sentence, a method sentence like its neighbours, was left out
        assert "retention score" in how.text and how.text.index("retention gate") < how.text.index("low scores")

    def test_a_thing_the_papers_on_the_table_never_mention_is_refused_saying_so(self, engine) -> None:
        _, models, gpu = _chat(engine, "How does RCPU compensate pruning errors?", "Which models did they prune?",
                               "And which GPU did they run it on?")
        assert gpu.refused and not gpu.citations
        assert "RCPU" in gpu.text and "“gpu”" in gpu.text
        assert not models.refused and "Llama-7B" in models.text  # a thing it does state is answered

    def test_a_comparison_naming_one_paper_sets_it_against_the_last_one(self, engine) -> None:
        _, compared = _chat(engine, "Tell me about Lyra.", "How does ShapeGen4D compare?")
        assert {c.paper_id for c in compared.citations} == {"tIVCfVnIHo", "r9AJisFLLo"}
        first = compared.text.split("\n\n")[0]  # the difference first: each paper's approach, one against the other
        assert "Lyra" in first and "ShapeGen4D" in first and "By contrast" in first

    def test_other_papers_leave_out_the_one_just_discussed(self, engine) -> None:
        _, others = _chat(engine, "What does FutureFill do?", "Which other papers here are about faster generation?")
        cited = [c.paper_id for c in others.citations]
        assert not others.refused and cited and "t5GUEuIsxR" not in cited[:-1]  # (last, if at all: see below)
        # "in this set" points back only to say where to look: the paper just discussed is not pinned first
        _, others = _chat(engine, "How does the Reflective Generative Model score reasoning trajectories?",
                          "Which other papers in this set deal with reward models?")
        cited = [c.paper_id for c in others.citations]
        assert not others.refused and len(cited) >= 2 and "tF56uyxdDy" not in cited[:-1]

    def test_other_papers_on_a_topic_name_the_one_just_discussed_last_if_it_fits(self, engine) -> None:
        # A reader of "other" may count the paper just discussed in or out: it comes last, said to be discussed.
        _, others = _chat(engine, "anything on in-context reinforcement learning?", "Are there other RL papers here?")
        cited = [c.paper_id for c in others.citations]
        assert not others.refused and len(cited) >= 3 and cited[-1] == "t6roJiPN6Y"  # DPT, discussed
        assert others.text.splitlines()[-1].startswith("Also on this topic, discussed above: **")
        # …and a turn finding no other paper is a refusal, not the same paper again
        _, none = _chat(engine, "What is TRIM-KV?",
                        "Which other papers evict KV cache tokens with a learned retention gate?")
        assert none.refused

    def test_a_list_search_naming_a_thing_is_not_a_pointer_at_the_paper_holding_it(self, engine) -> None:
        _, others = _chat(engine, "Is there any theory here on Best-of-N sampling with a weak reward model?",
                          "Which other papers in the collection use Best-of-N?")
        assert "tCv1D3M7Lb" not in [c.paper_id for c in others.citations][:-1]  # not the theory paper again
        # A search: OR-PRM reports results "in Best-of-N settings", found though its sentences fit the words weakly.
        assert not others.refused and "tFEAzYdz92" in [c.paper_id for c in others.citations]

    def test_a_list_question_with_a_topic_of_its_own_is_a_new_search(self, engine) -> None:
        _, robots = _chat(engine, "What is TRIM-KV?", "Are any papers about robotics?")
        assert "qCaq3jGb0S" not in [c.paper_id for c in robots.citations]  # not the KV cache paper again

    def test_a_paper_the_collection_lacks_is_a_no_naming_the_closest(self, engine) -> None:
        (answer,) = _chat(engine, "Is there a paper here on watermarking audio or speech?")
        assert answer.refused and answer.text.startswith("No:")
        assert "“audio”" in answer.text and "SIGMark" in answer.text
        (technique,) = _chat(engine, "How can I watermark audio?")  # a technique: the closest, said to be off
        assert not technique.refused and "“audio”" in technique.text

    def test_a_short_acronym_inside_the_abstracts_longer_one_is_not_unknown(self, engine) -> None:
        names = engine.retriever.names
        assert names.missing_names(["LMs", "QZX", "HyperQuokka"]) == ["QZX", "HyperQuokka"]  # they write "sLMs"
        assert names.missing_names(["PDEs", "QZXs"]) == ["QZXs"]  # an abstract writes "PDE"
        assert names.missing_names(["MLLM", "QZX", "dLLM", "sLM"]) == ["QZX"]  # abstracts write "MLLMs", "dLLMs"
        assert names.papers_mentioning_version("dLLM") == ["t5uLZSRjhF"]  # (what a refusal checks: D2F's "dLLMs")
        # two acronyms joined by a hyphen, in the other number: "EX-RM" where the abstract writes "EX-RMs"
        assert names.missing_names(["EX-RM", "QZ-RM"]) == ["QZ-RM"]
        assert names.papers_mentioning("EX-RM") == names.papers_mentioning("EX-RMs") == ["qW05yhm3Zo"]
        # a phrase of ordinary words, hyphenated, is no name
        assert names.missing_names(["LM-is-secretly-a-reward-model", "sci-ML"]) == ["sci-ML"]
        # "score" alone does not hold "F-score" (the one-letter part is kept by no token); "Best-of-N" is held whole
        assert names.missing_names(["F-score", "Best-of-N"]) == ["F-score"]
        # the start of an indexed name, written apart from its suffix ("VeriEquiv Bench"), is no unknown name
        assert names.missing_names(["VeriEquiv", "VeriQuokka"]) == ["VeriQuokka"]
        (answer,) = _chat(engine, "anything here on small LMs as verifiers for test-time scaling?")
        assert not answer.refused and answer.citations[0].paper_id == "tBkLWfmugI"

    def test_asking_whether_there_is_work_on_a_new_subject_is_a_new_search(self, engine) -> None:
        # "its own tests" is the model's, not the paper just discussed.
        _, answer = _chat(engine, "Do small LMs make good verifiers under test-time scaling?",
                          "On the coding side, is there RL work where the model writes its own tests and keeps "
                          "improving its code over many turns?")
        assert not answer.refused and answer.citations[0].paper_id == "q56ZI1Co43"

    def test_a_question_after_the_users_own_order_is_read_from_where_the_order_ends(self, engine) -> None:
        # "the first of those two" is D2F; "speedup" alone, after the preamble, asks how (not a figure to refuse).
        _, answer = _chat(engine, "Is there a fast generation method for convolutional sequence models?",
                          "I'm putting it next to D2F and Tactic, in that order. How does the first of those two "
                          "get its speedup?")
        assert not answer.refused and [c.paper_id for c in answer.citations] == ["t5uLZSRjhF"]

    def test_a_choice_between_a_pronoun_and_a_named_paper_picks_by_the_evidence(self, engine) -> None:
        _, _, answer = _chat(engine, "Is there work on generative modelling under physical constraints?",
                             "is there work on making eigenvalue training data cheaper to generate?",
                             "Between that one and the physics flow matching paper, which one mentions Jensen's gap?")
        assert not answer.refused and answer.text.startswith("The abstracts point to **PBFM**")

    def test_a_broad_list_lists_the_papers_retrieval_ranked_first(self, engine) -> None:
        (answer,) = _chat(engine, "Which papers are about faster generation?")
        assert {"t5GUEuIsxR", "qIujRzzWnd"} <= {c.paper_id for c in answer.citations}


def test_a_detail_a_named_papers_abstract_never_mentions_is_refused_saying_so(engine) -> None:
    answer = engine.ask("Who are the authors of MaskCO?", backend="extractive")
    assert answer.refused and "MaskCO does not mention “authors”" in answer.text


def test_a_name_the_papers_on_the_table_never_mention_is_refused_saying_so(engine) -> None:
    # Blind development dialogue: the user offers candidates the abstract does not name; the nearest sentences
    # would read as an answer.
    _, answer = _chat(engine, "Is there anything here on watermarking AI-generated videos?",
                      "Which video models did they test on, Sora or HunyuanVideo?")
    assert answer.refused and "SIGMark does not mention “HunyuanVideo”" in answer.text
    _, kept = _chat(engine, "Is there anything here on watermarking AI-generated videos?",
                    "How does GF-PRC keep the noise distribution?")  # a name its abstract has
    assert not kept.refused and kept.citations[0].paper_id == "tKyAD2LhnI"


def test_the_long_form_of_an_acronym_no_abstract_defines_is_refused_one_it_defines_is_not(engine) -> None:
    from rag.unstated import unspelled

    reveal = engine.retriever.papers["q56ZI1Co43"]  # ReVeal: "… incorporates TAPO for …", never spelled out
    assert unspelled("what does TAPO actually stand for?", [reveal]) == ["TAPO"]
    assert unspelled("TAPO stands for what?", [reveal]) == ["TAPO"]
    assert unspelled("What does ReVeal stand for?", [reveal]) == ["ReVeal"]
    assert unspelled("what does it mean for the tests?", [reveal]) == []  # no acronym asked about
    _, answer = _chat(engine, "Is there a paper on self-verifying code agents?", "what does TAPO stand for?")
    assert answer.refused and "does not spell out “TAPO”" in answer.text
    bellman = engine.retriever.papers["tHmiydOQhn"]  # "… the Inherent Bellman Error (IBE) condition"
    assert unspelled("what does IBE stand for?", [bellman]) == []


def test_an_acronym_or_another_papers_name_is_not_taken_as_missing(engine) -> None:
    from rag.unstated import absent_names

    names, sigmark = engine.retriever.names, engine.retriever.papers["tKyAD2LhnI"]
    # Its abstract has GF-PRC, may write LLMs out; TRIM-KV is another paper's ("Let's take SIGMark and TRIM-KV …").
    assert absent_names("Sora or HunyuanVideo? Does it beat TRIM-KV on LLMs or GF-PRC?", [sigmark], names) == [
        "HunyuanVideo"]


@pytest.mark.parametrize("question, text, missing", [
    ("How many problems does it have?", "VeriEquivBench has 2,389 complex algorithmic problems.", []),
    ("how many turns was it trained on?", "It evolves code for 20+ turns despite training on only three.", []),
    ("How many extra parameters does it add?", "RGM needs only 50M additional parameters.", []),
    ("How many drugs did they test it on?", "Experiments on 430 FDA-approved drugs show …", []),
    ("how many problems are in it in total?", "Over 30% of annotations are flawed for OR problems.", ["problems"]),
    ("What problems does it solve?", "It solves OR problems.", []),  # asks no count
    ("How many GPUs did they use?", "We train it.", []),  # a detail: refused by its word (``unstated``)
    ("how many patients?", "Imaging mass cytometry data of tissues.", ["patients"]),  # a count that ends the question
    ("how many stages?", "A two-stage pipeline.", []),  # a number joined to its noun
    ("how long is the horizon?", "Forecasts over an 8-hour horizon.", []),  # a size is not looked for as a count
    ("how large were the matrices?", "It accelerates eigenvalue problems of operators.", ["matrices"]),  # …only its word
    ("how many papers here do 3D stuff?", "It renders 3D scenes.", []),  # the collection's count, not a paper's
    ("how big were the gains?", "It reduces cache misses by up to 35.76%.", []),  # a result, in figures
    ("How big is the building-block vocabulary they use?", "Molecules as building blocks.", ["vocabulary"]),
    ("And how many of those are built on language models?", "A chemical language model.", []),  # papers shown
    ("What was wrong with earlier datasets, and how big is the new one?", "A new dataset.", []),  # a thing said before
    ("and how many PDE testbeds?", "Across three representative PDE benchmarks.", []),  # what is tested on, reworded
    ("and how many PDE testbeds?", "PDE benchmarks show it.", ["testbeds"]),
])
def test_a_count_is_stated_only_by_a_number_before_the_counted_thing(question: str, text: str,
                                                                      missing: list[str]) -> None:
    from rag.asks import uncounted

    assert uncounted(question, [text]) == missing


def test_a_list_lists_the_papers_using_its_term_only_when_the_term_is_what_it_asks_for(engine) -> None:
    # D2F and ARPG use the KV cache; they do not tackle its memory cost.
    (touch,) = _chat(engine, "Which papers here touch on the KV cache?")
    assert {"t5uLZSRjhF", "rJdGst0W8s", "tJod11fK1A", "qCaq3jGb0S"} <= {c.paper_id for c in touch.citations}
    (cost,) = _chat(engine, "Which papers tackle the memory or loading cost of the KV cache when decoding with "
                            "long-context LLMs?")
    assert {c.paper_id for c in cost.citations} == {"tJod11fK1A", "qCaq3jGb0S"}


def test_a_list_asked_by_an_acronym_searches_its_long_form_too(engine) -> None:
    # The in-context RL paper writes "reinforcement learning" only: searched for "RL" alone it ranked 11th.
    (answer,) = _chat(engine, "any RL papers in the set?")
    assert {"t6roJiPN6Y", "q56ZI1Co43"} <= {c.paper_id for c in answer.citations}
    # …but not an acronym a topic word narrows: "large language models" ranked every LLM paper above Omni-View.
    (multimodal,) = _chat(engine, "which papers here work on multimodal LLMs?")
    assert {"tBf2SUzfZw", "pDu6u9cnEB"} <= {c.paper_id for c in multimodal.citations}


@pytest.mark.parametrize("question, offered", [
    ("which base LLM did they finetune into the PRM, qwen or llama?", ["qwen", "llama"]),
    ("which operators did they test on, helmholtz? poisson?", ["helmholtz", "poisson"]),
    ("did they try it on Hyena or Mamba?", ["Hyena", "Mamba"]),
    ("Which video models did they test on, Sora or HunyuanVideo or something else?", ["Sora", "HunyuanVideo"]),
    ("which base model do they post-train? qwen2.5-vl?", ["qwen2.5-vl"]),
    ("was it compared against LRU or Belady's optimal policy?", ["LRU", "Belady"]),  # each by its first word
    ("What memory budgets did they test, e.g. 1024 or 2048 tokens?", ["1024", "2048"]),  # examples
    ("which environments? meta-world, atari, something else?", ["meta-world", "atari"]),
    ("Does it work on images, e.g. ImageNet?", ["ImageNet"]),
    ("which agent scaffolds did they evaluate? openhands, swe-agent, claude code...?", ["openhands", "swe-agent",
                                                                                       "claude"]),  # trailing "..."
    ("what 3D scene datasets did they train on, scannet or something?", ["scannet"]),  # one, hedged
    ("do they run gurobi or some other commercial solver to check the answers?", ["gurobi"]),  # an example of it
    ("what do they compare against, something else?", []),
    ("what does each say about checking / verifying the outputs?", []),  # words of the question, not candidates
    ("which conv sequence models did they run it on, hyena? some SSM / mamba thing?", ["hyena", "SSM", "mamba"]),
    ("what preference data did they train on, ultrafeedback?", ["ultrafeedback"]),  # one guess after the question
    ("which models did they use, exactly?", []),
    ("How does it work?", []),
    ("Is it faster than TRIM-KV?", []),
])
def test_the_candidates_a_question_offers(question: str, offered: list[str]) -> None:
    from rag.unstated import offered as found

    assert found(question) == offered


def test_offered_candidates_none_of_the_papers_mention_are_refused_one_there_is_not() -> None:
    from rag.unstated import none_offered

    assert none_offered("which base LLM, qwen or llama?", ["We fine-tune Qwen2.5-7B."]) == []  # a version of one
    assert none_offered("which base LLM, qwen or llama?", ["We fine-tune a small model."]) == ["qwen", "llama"]
    assert none_offered("measured on A100s or H100s?", ["on one A100"]) == []  # a plural of one
    assert none_offered("and on TSP, speed-wise?", ["a 10x speedup on TSP"]) == []
    assert none_offered("They propose a fine-tuning strategy too, right? what is it?", ["a benchmark"]) == []


@pytest.mark.parametrize("question, missing", [
    ("what pruning ratio did they use on Llama-2-13B?", ["pruning ratio"]),  # never written
    ("What memory budgets did they test?", ["memory budgets"]),  # written, with no number
    ("What sampling steps does ARPG use?", []),  # "32 sampling steps"
    ("What guidance scale did they use?", ["guidance scale"]),
    ("What is ARPG?", []),  # no setting asked for
    ("What is the retention gate's hidden size?", ["hidden size"]),
    ("What is the vocabulary size?", []),  # "a vocabulary of 1,000 blocks": the number is beside what it sizes
    ("What learning rate for SFT?", ["learning rate"]),
    ("Which step in the pipeline filters candidates?", []),  # a stage of the method, not a setting
    ("What learning rate and batch size did they train with?", ["learning rate", "batch size"]),
    ("What guidance scale and sampling steps did they use?", []),  # one of the two is stated: answered
])
def test_a_setting_is_stated_only_by_a_number_beside_its_word(question: str, missing: list[str]) -> None:
    from rag.asks import unset

    texts = ["Our approach attains an FID of 1.83 with only 32 sampling steps.",
             "Tokens with low scores are evicted when the memory budget is exceeded.", "a vocabulary of 1,000 blocks"]
    assert unset(question, texts) == missing


def test_a_comparison_with_things_no_abstract_on_hand_mentions_is_refused_naming_them(engine) -> None:
    _, against = _chat(engine, "MetaMuse: what did it get on cache replacement?",
                       "was it compared against LRU or Belady's optimal policy?")
    assert against.refused and "“LRU”" in against.text and "MetaMuse" in against.text
    _, tactic = _chat(engine, "What is TRIM-KV?", "How does it compare with Tactic?")  # a paper's name: compared
    assert not tactic.refused and {c.paper_id for c in tactic.citations} == {"qCaq3jGb0S", "tJod11fK1A"}


@pytest.mark.parametrize("question, asks", [
    ("Is the code available?", True), ("Did they release code?", True), ("Is it open source?", True),
    ("Is there a GitHub repo?", True), ("Does it generate code?", False), ("Does it beat open-source models?", False),
    ("Is the model open-weights?", True),
])
def test_a_code_release_is_stated_only_where_an_abstract_says_so(question: str, asks: bool) -> None:
    from rag.asks import unreleased

    assert unreleased(question, ["TRIM-KV is a novel approach."]) == (["code release"] if asks else [])
    assert unreleased(question, ["Our code is available at https://github.com/x."]) == []


def test_one_name_no_abstract_holds_ends_a_question_refused_a_papers_name_compared(engine) -> None:
    _, mamba = _chat(engine, "What is TRIM-KV?", "Does it work with Mamba?")
    assert mamba.refused and "“Mamba”" in mamba.text
    _, tactic = _chat(engine, "What is TRIM-KV?", "How does it compare to Tactic?")
    assert not tactic.refused


def test_a_question_the_last_paper_answers_about_as_well_stays_on_it(engine) -> None:
    _, complexity = _chat(engine, "What does FutureFill do?", "What's the complexity of generation?")
    assert [c.paper_id for c in complexity.citations][:1] == ["t5GUEuIsxR"] and "quasilinear" in complexity.text
    _, switched = _chat(engine, "What does FutureFill do?", "Which benchmark checks the equivalence of formally "
                                                            "verified code written by LLMs?")
    assert [c.paper_id for c in switched.citations][:1] == ["tRRHVUwP2B"]  # another paper fits clearly better
    _, other = _chat(engine, "The one asking why language models make poor implicit reward models: main finding?",
                     "Is there one built specifically for operations research problems?")  # asks for a paper
    assert [c.paper_id for c in other.citations][:1] == ["tFEAzYdz92"]


def test_a_setting_the_abstract_never_states_is_refused_saying_so(engine) -> None:
    _, ratio = _chat(engine, "How does RCPU compensate pruning errors?",
                     "what pruning ratio did they use on Llama-2-13B?")
    assert ratio.refused and not ratio.citations and "“pruning ratio”" in ratio.text


def test_an_acronym_is_missing_when_neither_it_nor_its_long_form_is_there(engine) -> None:
    from rag.unstated import absent_names

    r = engine.retriever
    question = "do they compare against PINNs? Does it work for LLMs?"
    # PBFM writes neither "LLMs" nor "large language models"; OR-PRM writes the long form; no abstract has PINNs.
    assert absent_names(question, [r.papers["hfebd26d11d8c"]], r.names, r.acronyms.long_form) == ["PINNs", "LLMs"]
    assert absent_names(question, [r.papers["tFEAzYdz92"]], r.names, r.acronyms.long_form) == ["PINNs"]


def test_a_turn_asking_two_things_shows_each_answer_from_the_paper_it_chose(engine) -> None:
    answer = engine.ask("what modules does Omni-View consist of, and what does it score on VSI-Bench?",
                        backend="extractive")
    assert "geometry module" in answer.text and "55.4" in answer.text
    assert [c.paper_id for c in answer.citations] == ["pDu6u9cnEB"]  # the parts choose no further paper


def test_each_question_of_a_turn_is_checked_for_what_the_papers_never_mention(engine) -> None:
    chat = ChatSession(engine, backend="extractive")
    chat.ask("I work with imaging mass cytometry data. Is there anything here that can generate or impute missing "
             "channels?")
    answer = chat.ask("Which tissues or cancer types were in the IMC data, and how many patients?")
    assert answer.refused and "“patients”" in answer.text and not answer.citations


def test_a_fragment_finding_nothing_of_its_own_asks_about_the_paper_just_answered(engine) -> None:
    # No pronoun, no name, no word of the RainPro-8 abstract: searched alone it found nothing and was refused.
    chat = ChatSession(engine, backend="extractive")
    chat.ask("a colleague asked me whether there's a weather or rainfall forecasting paper in here")
    answer = chat.ask("how far ahead, and for which region?")
    assert not answer.refused and [c.paper_id for c in answer.citations] == ["hfed3db123a90"]
    # A question of its own that finds nothing is still refused, however short.
    assert chat.ask("Which papers here are about federated learning on phones?").refused
    assert chat.ask("How do I bake bread?").refused


def test_a_fragment_going_on_with_and_asks_about_the_paper_just_answered(engine) -> None:
    # Four topic words of its own, none naming a paper: "and …" goes on from the last answer (SIGMark).
    chat = ChatSession(engine, backend="extractive")
    chat.ask("how does SIGMark extract its watermark blindly from generated videos?")
    answer = chat.ask("and robustness when frames are dropped or shuffled?")
    assert not answer.refused and [c.paper_id for c in answer.citations] == ["tKyAD2LhnI"]
    assert "temporal disturbance" in answer.text


def test_a_list_offering_alternatives_finds_the_papers_of_each(engine) -> None:
    # Searched as one query, the provenance paper (tracing, no watermark) was ranked below the cut of the list.
    (answer,) = _chat(engine, "Different topic: what's here on watermarking or tracing where AI-generated images and "
                              "videos came from?")
    assert [c.paper_id for c in answer.citations] == ["tKyAD2LhnI", "qYu4wj7O3z"]
    (chemistry,) = _chat(engine, "separate question: what's in here on chemistry or molecule design?")
    assert {c.paper_id for c in chemistry.citations} == {"r2HG3xOMJI", "h47cb2134ff1f"}
    # "deal with" says what the papers are about, no topic word; "PDEs" is the PDE benchmarks' paper (PBFM).
    from rag.alternatives import alternatives
    assert alternatives("which papers here deal with PDEs or eigenvalue problems?") == ["PDEs", "eigenvalue problems"]
    assert alternatives("Which of the papers are about chemistry or molecule design?") == ["chemistry",
                                                                                         "molecule design"]
    (pdes,) = _chat(engine, "which papers here deal with PDEs or eigenvalue problems?")
    assert {"hfebd26d11d8c", "h1e8e4225be0d"} <= {c.paper_id for c in pdes.citations}


def test_a_metric_the_question_names_is_stated_only_where_an_abstract_names_it() -> None:
    from rag.figures import unmeasured

    assert unmeasured("whats its exact pass@1 on livecodebench", ["It evolves code for 20+ turns on LiveCodeBench."]) \
        == ["pass@1"]
    assert unmeasured("What FID does it reach?", ["It reaches an FID50k of 2.85."]) == []
    assert unmeasured("and its accuracy?", ["It is more accurate than SnapKV."]) == []
    assert unmeasured("How does it work?", ["A retention gate."]) == []
    assert unmeasured("Does it trade accuracy for speed?", ["It is fast."]) == []  # asks no value
    assert unmeasured("How many GB of GPU memory does it save?", ["It needs 30% less memory."]) == ["GB"]
    assert unmeasured("How many GB does it save?", ["It saves 12 GB at 32k tokens."]) == []


def test_which_model_did_best_is_unsaid_by_a_benchmark_naming_no_model(engine) -> None:
    from rag.figures import unranked

    benchmark = ["We introduce VeriEquivBench, a new benchmark; it remains a challenge for state-of-the-art LLMs."]
    assert unranked("which model scored best on it and what was the score?", ["VeriEquivBench"], benchmark)
    assert not unranked("which model scored best?", ["VeriEquivBench"], [benchmark[0] + " GPT-4o fails too."])
    assert not unranked("which model scored best?", ["TikZilla"], ["We train TikZilla, small open models."])
    assert unranked("Which model came out on top?", ["VeriEquivBench"], benchmark)
    assert not unranked("which fine-tuning strategy came out on top there?", ["CatalystBench"], benchmark)  # no model
    _, best = _chat(engine, "Tell me about VeriEquivBench.", "Which LLM scored best on it?")
    assert best.refused and "VeriEquivBench" in best.text and "did best" in best.text


@pytest.mark.parametrize("question, text, missing", [
    ("Which base code model did they start the RL from?", "ReVeal evolves code on LiveCodeBench.", ["base model"]),
    ("What base model did they train OR-PRM on top of?", "OR-PRM improves Qwen2.5-7B by 12.5%.", []),  # named
    ("Which pretrained VLM is the understanding model initialised from?", "Omni-View has three modules.",
     ["base model"]),
    ("Which model did best?", "A benchmark.", []),  # not a question for what the work starts from
    ("any evidence it explores, rather than sharpening what the base model does?", "It improves Pass@k.", []),
])
def test_a_base_model_is_stated_only_by_a_models_name(question: str, text: str, missing: list[str]) -> None:
    from rag.figures import unbased

    assert unbased(question, [text]) == missing



@pytest.mark.parametrize("question, thing, text, missing", [
    ("and which cloud provider was this at?", "provider", "problems at a global cloud provider: cache", ["provider"]),
    ("Which GPU did they use?", "gpu", "trained on a single A100 GPU", []),  # named beside it
    ("Which provider was it?", "provider", "Google, a cloud provider, runs it", []),  # named before it
    ("How many GPUs?", "gpu", "on a single GPU", []),  # not a question for which one
])
def test_a_thing_written_only_as_a_something_does_not_say_which(question: str, thing: str, text: str,
                                                                missing: list[str]) -> None:
    from rag.asks import unnamed

    assert unnamed(question, [thing], [text]) == missing


@pytest.mark.parametrize("question, texts, missing", [
    ("What block size did they settle on?", ["D2F has two key capabilities: (1) block-wise generation; (2) …"],
     ["block size"]),  # "two … (1) block": an enumeration, not a size
    ("btw what learning rate did they use for the ReVeal RL runs?", ["ReVeal trains with RL."], ["learning rate"]),
    ("What guidance scale did they use?", ["with a guidance scale of 7.5"], []),
])
def test_a_setting_is_stated_by_a_number_in_the_same_phrase(question: str, texts: list[str],
                                                            missing: list[str]) -> None:
    from rag.asks import unset

    assert unset(question, texts) == missing


CATALYST = ("The resulting CatalystLLM significantly outperforms a wide array of state-of-the-art open-source and "
            "closed-source models on CatalystBench.")


@pytest.mark.parametrize("question, text, unnamed", [
    ("Which closed-source models does CatalystLLM beat, by name?", CATALYST, True),
    ("What LLMs did it outperform?", CATALYST, True),
    ("What LLMs did it outperform?", "It outperforms MiniCPM and Phi models on X.", False),  # named, no digit
    ("What LLMs did it outperform?", "TikZilla surpasses GPT-4o by 0.5 points.", False),
    ("Which model is best?", CATALYST, False),  # not a question about what it beats
])
def test_the_models_a_paper_beats_are_named_only_where_its_abstract_names_them(question: str, text: str,
                                                                               unnamed: bool) -> None:
    from rag.figures import unrivalled

    assert unrivalled(question, [text]) is unnamed


@pytest.mark.parametrize("question, text, missing", [
    ("What exact bit accuracy does SIGMark reach when frames are dropped?",
     "SIGMark achieves very high bit-accuracy during extraction under temporal disturbances.", ["accuracy"]),
    ("What exact bit accuracy does SIGMark reach?", "It keeps 98.5% bit accuracy under frame drops.", []),
    ("What FID does it get?", "It reaches an FID of 2.1 on ImageNet.", []),
    ("What FID does it get?", "Its sampling is fast.", []),  # never mentioned: ``unmeasured`` says so
    ("Does it trade accuracy for speed?", "It keeps high accuracy.", []),  # asks no figure
])
def test_a_figure_asked_of_a_metric_is_stated_only_by_a_number_beside_it(question: str, text: str,
                                                                          missing: list[str]) -> None:
    from rag.figures import unscored

    assert unscored(question, [text]) == missing


@pytest.mark.parametrize("question, left", [
    ("which environments? meta-world, atari, something else?", "which environments?"),
    ("which base LLM did they use, qwen or llama?", "which base LLM did they use,"),
    ("What is TRIM-KV?", "What is TRIM-KV?"),  # offers nothing
])
def test_a_question_without_the_candidates_it_offers(question: str, left: str) -> None:
    from rag.unstated import without_offered

    assert without_offered(question) == left


def test_guesses_offered_after_a_one_paper_answer_stay_on_that_paper(engine) -> None:
    # "meta-world" found the meta-optimization paper and "atari" Lyra's "gaming": the question left the paper.
    _, answer = _chat(engine, "Tell me about Decision Pre-Trained Transformer",
                      "which environments? meta-world, atari, something else?")
    assert answer.refused and "Decision Pre-Trained Transformer" in answer.text and "atari" in answer.text


@pytest.mark.parametrize("question, missing", [
    ("does it work for Chinese or multilingual chats?", ["Chinese", "multilingual", "chats"]),
    ("Does it also work on video?", []),  # held: for the answer to say how
    ("does it generalize to Video or Chinese?", []),  # one of them held
    ("Does it also apply to larger models?", []),  # a grading word names nothing
    ("What does it work on?", []),  # not asked yes or no
    ("does it cover Lean or Coq as well?", ["Lean", "Coq"]),
    ("Did they validate any of their molecules in a wet lab?", ["wet lab"]),  # (one phrase, as written)
    ("Did they evaluate it on video diffusion?", []),
])
def test_whether_a_method_works_for_something_no_abstract_mentions(question: str, missing: list[str]) -> None:
    from rag.tried_on import unfit

    assert unfit(question, ["A retention gate for video diffusion models."]) == missing


def test_a_yes_or_no_over_the_papers_on_the_table_naming_what_none_holds_is_refused_a_choice_is_not(engine) -> None:
    first = "Which papers in the collection train with flow matching?"
    _, asked = _chat(engine, first, "Do any of those PDE benchmarks include Navier-Stokes?")
    assert asked.refused and "Navier-Stokes" in asked.text
    _, chosen = _chat(engine, first, "which of them is about making generated samples obey physical laws?")
    assert not chosen.refused
    _, chats = _chat(engine, "What is TRIM-KV?", "does it work for Chinese or multilingual chats?")
    assert chats.refused and "“Chinese”" in chats.text
