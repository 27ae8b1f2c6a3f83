"""Turns that earlier rules got wrong, found with the blind full-corpus sets AN, AO and AP in the thirty-first pass: a
comparison asking something of the two papers without saying "each" ("how does it decide where to push exploration,
compared with RGSD?"), a fragment naming only what the paper just discussed writes ("numbers on qwen2.5-7b?"), and a
list asking for a kind of paper its titles say ("any other benchmarks for long-context reasoning?"). Each test fails
without the rule it names."""

from __future__ import annotations

from rag.alternatives import search_each
from rag.list_intent import asked_kind
from rag.question import analyse, comparison_aspect
from rag.references import ReferenceKind, implicit, resolve
from rag.types import Hit, Paper, QuestionKind, Shown

NAMES = ["SUSD", "Reference-Grounded Skill Discovery", "RGSD", "Compute-Optimal Quantization-Aware Training",
         "ShapeGen4D", "Lyra"]


def test_a_comparison_asks_of_both_papers_what_the_clause_setting_them_apart_asks() -> None:
    # (without "each", the aspect had been empty: the answer led with what each paper proposes)
    assert "exploration" in comparison_aspect(
        "SUSD is another skill discovery method. how does it decide where to push exploration, compared with RGSD?",
        NAMES).split()
    assert comparison_aspect("How do the two papers differ in what they use scaling laws for?", NAMES) == "scaling laws"
    # A sentence before it saying what one paper does is no aspect; a bare "how do they differ?" asks none.
    assert comparison_aspect("Lyra also does dynamic scenes from monocular video. How does its approach differ from "
                             "ShapeGen4D?", NAMES) == ""
    assert comparison_aspect("How do these two differ?", NAMES) == ""
    # (a title's hyphenated word, joined, is no aspect: "Auto-Regressive" had made "autoregressive" one)
    assert comparison_aspect("how's the data provenance paper for image autoregressive models different?",
                             ["Data Provenance for Image Auto-Regressive Generation"]) == ""


def test_asking_which_strategies_a_paper_compared_is_no_comparison_of_papers() -> None:
    from rag.question import wants_comparison

    # (it had been compared with the paper discussed before it)
    assert not wants_comparison("CatalystLLM: which fine-tuning strategies did they compare and which won?")
    assert wants_comparison("How do they compare?")


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, title, abstract, f"t:{pid}")


def test_a_fragment_naming_only_what_the_last_paper_writes_asks_about_that_paper() -> None:
    critique = _paper("crl", "Critique-RL", "Critique-RL achieves a 9.02% gain for Qwen2.5-7B on in-domain tasks.")
    jigsaw = _paper("jig", "Visual Jigsaw", "Visual Jigsaw post-training improves MLLMs on ImageNet.")
    papers = {"crl": critique, "jig": jigsaw}
    table = [Shown("What's the main idea of Critique-RL?", ["crl"], ["crl"])]
    asked = implicit(resolve("numbers on qwen2.5-7b?", table, lambda _: set()), table, papers)
    # (it had been searched anew, and another paper reporting on Qwen2.5-7B answered it)
    assert (asked.kind, asked.paper_ids) == (ReferenceKind.PRONOUN, ["crl"])
    # Of two papers just compared, only the one writing the name; a name neither writes is a new search.
    both = [Shown("Compare Critique-RL and Visual Jigsaw.", ["crl", "jig"], ["crl", "jig"])]
    assert implicit(resolve("ImageNet numbers?", both, lambda _: set()), both, papers).paper_ids == ["jig"]
    assert implicit(resolve("numbers on Llama-3?", table, lambda _: set()), table, papers).kind is ReferenceKind.NONE


def test_a_list_asking_for_a_kind_of_paper_brings_papers_of_that_kind_from_deeper_in_the_ranking() -> None:
    question = "any other benchmarks for long context reasoning in the collection?"
    # (it had been read as a question about one paper)
    assert analyse(question).kind is QuestionKind.LIST
    assert asked_kind(question) is not None and asked_kind("Which papers evaluate on math benchmarks?") is None
    methods = [Hit(_paper(f"m{i}", f"Method {i} for long-context reasoning", "A method."), 1.0 - i / 100)
               for i in range(10)]
    bench = Hit(_paper("cog", "CogniLoad: A Reasoning Benchmark", "Current benchmarks for long-context reasoning."),
                0.5)

    class Retriever:
        def search(self, query: str, depth: int, only=None, vector=None) -> list[Hit]:
            return [*methods, bench][:depth]

    found = search_each(question, methods, Retriever(), 10, None)
    ids = [h.paper.paper_id for h in found]
    assert len(ids) == 10 and "cog" in ids and "m9" not in ids and ids[0] == "m0"
    # A list asking for no kind keeps its ranking.
    assert search_each("which papers do long context reasoning?", methods, Retriever(), 10, None) == methods


def test_a_size_asked_of_two_papers_small_models_is_stated_by_their_parameter_counts() -> None:
    from rag.asks import unset

    asked = "What sizes are on each side of that claim?"
    # (it had been refused as "not mentioned": only a question naming a model counted "3B and 8B" as its size)
    assert unset(asked, ["We train TikZilla, small Qwen models (3B and 8B)."]) == []
    assert unset(asked, ["We train TikZilla, small Qwen models."]) == ["sizes"]


def test_a_comparison_with_a_name_no_abstract_writes_is_refused(engine) -> None:
    from rag.chat import ChatSession

    chat = ChatSession(engine, backend="extractive")
    chat.ask("What is MaskCO?")
    asked = chat.ask("is it compared against Concorde on TSP?")
    # (it had been answered from MaskCO's abstract, as if it said)
    assert asked.refused and "Concorde" in asked.text


def test_a_choice_is_scored_against_the_sentence_asking_which_and_the_two_are_that_one_and_the_named() -> None:
    from rag.choice_words import choice_query

    question = ("I'm weighing that against the multi-channel biological diffusion paper. Which of the two could I "
                "bolt onto an existing pretrained model without any training?")
    # (the words naming the other paper had decided the choice for it)
    assert choice_query(question).startswith("Which of the two") and "biological" not in choice_query(question)
    table = [Shown("Which papers use flow matching?", ["pbfm", "dpt"], ["pbfm", "dpt"]),
             Shown("anything on massive activations in diffusion transformers?", ["mas"], ["mas"])]
    found = resolve("I'm weighing that against the jigsaw paper. Which of the two needs less memory?", table,
                    lambda _: set(), named_in=lambda text: ["jig"] if "jigsaw" in text else [])
    # (the two had been the last two papers discussed, and the one it names: three)
    assert (sorted(found.paper_ids), found.choice) == (["jig", "mas"], True)


def test_a_list_asking_for_an_acronym_lists_the_papers_writing_it(engine) -> None:
    from rag.chat import ChatSession

    answer = ChatSession(engine, backend="extractive").ask("Which papers report FID?")
    # (it had been refused: the acronym alone scored no sentence high enough)
    assert not answer.refused and {"rJdGst0W8s", "qIujRzzWnd"} <= {c.paper_id for c in answer.citations}


def test_a_hyphenated_word_of_a_description_counts_by_its_parts_in_the_users_order() -> None:
    from rag.named import user_order

    words = {"hrt": {"hinge", "regression", "tree"}, "icr": {"context", "regression", "theory"},
             "epochs": {"multi-epoch", "regression", "linear"}}
    asked = "between the in-context regression one and the multi-epoch one, does the first find that depth helps?"
    # (the Hinge Regression Tree paper, sharing only "regression", had been taken for "the in-context regression one")
    assert user_order(asked, ["hrt", "icr", "epochs"], lambda pid: words[pid]) == ["icr", "epochs"]


def test_a_choice_asking_for_what_works_without_something_picks_the_paper_free_of_it() -> None:
    from rag.decide import _term_holder
    from rag.types import Evidence

    guidance = _paper("dg", "Detail Guidance", "Detail Guidance is a training-free self-guidance strategy.")
    biology = _paper("mcd", "Multi-channel diffusion", "We train the model with random channel masking.")
    numbered = [(1, Evidence(Hit(guidance, 1.0), [])), (2, Evidence(Hit(biology, 1.0), []))]
    # (the sentences' fit had left it unsettled)
    assert _term_holder("Which of the two could I bolt onto a pretrained model without any training?", numbered) == 1
    assert _term_holder("Which of the two could I use without a GPU?", numbered) is None


def test_a_variable_written_with_a_hyphen_is_no_name() -> None:
    from rag.question import names_in

    # (the question had been refused: "I could not find “N-times” in the indexed ICLR 2026 abstracts")
    assert names_in("Which papers report a concrete N-times speedup?") == []
    # (a letter naming a thing is a name all the same: "F-score", "best-of-N")
    assert names_in("the K-FAC paper and TRIM-KV, F-score numbers, best-of-N") == [
        "K-FAC", "TRIM-KV", "F-score", "best-of-N"]


def test_asking_for_the_two_things_a_paper_adds_finds_the_sentence_enumerating_two() -> None:
    from rag.properties import reports

    found = reports("the discrete diffusion forcing paper: what are the two things it adds to diffusion LLMs?", False)
    # (the sentence had been left out: the question shares no word with it but "two")
    assert found is not None and found("D2F equips dLLMs with two key capabilities: (1) block-wise generation; (2) …")
    assert not found("D2F can be implemented with an asymmetric distillation process in two days.")


def test_a_paper_the_chat_brings_in_is_named_by_its_title(engine) -> None:
    from rag.chat import ChatSession

    chat = ChatSession(engine, backend="extractive")
    first = chat.ask("is there something on what massive activations actually do in diffusion transformers?")
    # (its title says the finding the question asks for; the answer had named it "Detail Guidance" only)
    assert "Massive Activations are the Key to Local Detail Synthesis" in first.text
    then = chat.ask("why do they think that is?")
    assert "Massive Activations are the Key" not in then.text
    # (nor when the question names the paper itself)
    named = ChatSession(engine, backend="extractive").ask("What is TRIM-KV?")
    assert "Cache What Lasts" not in named.text
