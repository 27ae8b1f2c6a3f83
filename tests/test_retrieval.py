"""Retrieve stage: rankers, fusion, name lookups and comparison search (fusion on toy rankings; the rest on
the real seed index)."""

from __future__ import annotations

import pytest

from rag.question import analyse
from rag.retrieval.comparison import search_comparison
from rag.retrieval.fusion import best_first, weighted_rrf
from rag.retrieval.rankers import Ranked, by_paper

from test_answers import RARE_NAMES, SEED_PAPERS


class TestFusion:
    def test_weighted_reciprocal_rank_adds_each_ranking(self) -> None:
        views = {"a": {"p": Ranked(0, 9.0), "q": Ranked(1, 5.0)}, "b": {"q": Ranked(0, 0.8)}}
        fused = weighted_rrf(views, {"a": 1.0, "b": 2.0}, rrf_k=10)
        assert fused["p"] == pytest.approx(1 / 11)
        assert fused["q"] == pytest.approx(1 / 12 + 2 / 11)
        assert best_first(fused, 1) == ["q"]

    def test_a_ranking_without_weight_does_not_count(self) -> None:
        views = {"a": {"p": Ranked(0, 1.0)}, "b": {"q": Ranked(0, 1.0)}}
        assert set(weighted_rrf(views, {"a": 1.0, "b": 0.0}, 10)) == {"p"}
        assert set(weighted_rrf(views, {"a": 1.0}, 10)) == {"p"}

    def test_by_paper_keeps_each_papers_best_score(self) -> None:
        ranking = by_paper([("p", 0.2), ("q", 0.5), ("p", 0.9)])
        assert ranking["p"] == Ranked(0, 0.9) and ranking["q"] == Ranked(1, 0.5)


@pytest.fixture(scope="module")
def retriever(seed_index):
    from rag.retrieval import HybridRetriever
    from rag.settings import Settings
    from rag.store import IndexStore

    settings = Settings(index_dir=seed_index)
    return HybridRetriever(settings, IndexStore(settings))


class TestRetriever:
    @pytest.mark.parametrize("name", sorted(RARE_NAMES))
    def test_bm25_finds_a_paper_by_its_rare_name(self, retriever, name: str) -> None:
        found = retriever.bm25.rank(f"What is {name}?")
        top = min(found, key=lambda pid: found[pid].rank)
        expected = RARE_NAMES[name] or next(p.paper_id for p in SEED_PAPERS if name in p.title + p.text)
        assert top == expected

    def test_a_compared_name_found_only_in_an_already_compared_paper_adds_no_paper(self, retriever) -> None:
        # DaTikZ-V3 is the dataset TikZilla's abstract improves on, not a paper of its own.
        hits = search_comparison(retriever, "How does TikZilla differ from DaTikZ-V3?",
                                 ["How does TikZilla differ", "DaTikZ-V3"], 5)
        assert [h.paper.paper_id for h in hits if h.part] == ["rJv2byEWA3"]

    @pytest.mark.parametrize("question, expected", [
        # "ImageNet" is in two seed abstracts: what the question asks of both pieces picks the masked AR one.
        ("ImageNet vs D2F: which accelerates masked autoregressive image generation?", ["qIujRzzWnd", "t5uLZSRjhF"]),
        # The shared topic fits OR-PRM (which mentions Best-of-N) best: OR-PRM, named by one paper only, picks
        # first, so the Best-of-N piece gets the Best-of-N paper rather than nothing.
        ("Best-of-N vs OR-PRM: how does each use a process reward model for code?", ["tCv1D3M7Lb", "tFEAzYdz92"]),
    ])
    def test_each_compared_piece_gets_its_own_paper(self, retriever, question: str, expected: list[str]) -> None:
        hits = search_comparison(retriever, question, analyse(question).parts, 5)
        assert [h.paper.paper_id for h in hits if h.part] == expected

    @pytest.mark.parametrize("name, expected", [("D2F", ["t5uLZSRjhF"]), ("TRIM-KV", ["qCaq3jGb0S"]),
                                                ("trimkv", ["qCaq3jGb0S"]), ("SIGMark", ["tKyAD2LhnI"])])
    def test_a_name_is_found_as_whole_words_only(self, retriever, name: str, expected: list[str]) -> None:
        # Matching over text with its spaces removed found "D2F" in "… and 2 f…" of unrelated abstracts.
        assert retriever.names.papers_mentioning(name) == expected

    def test_a_name_is_found_in_its_versions_too(self, retriever) -> None:
        # RGM and TRIM-KV report "AIME24", a version of "AIME": they mention it (a refusal must not say no abstract has
        # it, and "which of the two reports AIME results?" is settled by it); "Llama" is in "Llama-3.2" and "LLaMA3".
        assert set(retriever.names.papers_mentioning("AIME")) == {"tF56uyxdDy", "qCaq3jGb0S"}
        assert set(retriever.names.papers_mentioning_version("AIME")) == {"tF56uyxdDy", "qCaq3jGb0S"}
        assert set(retriever.names.papers_mentioning("Llama")) == {"tBkLWfmugI", "t6xiPRvynD", "t5uLZSRjhF"}
        assert retriever.names.papers_mentioning_version("Mamba") == []

    def test_a_rare_term_is_found_in_either_number_and_a_common_one_not_at_all(self, retriever) -> None:
        terms = retriever.names.rare_terms("Which papers touch on the KV cache or large language models?", 0.15)
        assert set(terms) == {"kv cache"}  # most abstracts say "large language models": it picks out nothing
        assert terms["kv cache"] == {"qCaq3jGb0S", "t5uLZSRjhF", "rJdGst0W8s", "tJod11fK1A"}  # "KV caches" too
        # An acronym's long form is one term, not its runs of topic words ("RLVR" is not any "reinforcement learning").
        rlvr = retriever.names.rare_terms("any RLVR papers?", 0.15, ["reinforcement learning from verifiable rewards"])
        assert set(rlvr) == {"reinforcement learning from verifiable rewards"}
        # "diffusion models" ends on a generic word: a paper titled "Controllable diffusion-based generation …" uses it
        assert "h46b75c8bd2fb" in retriever.names.rare_terms("which papers use diffusion models?", 0.3)[
            "diffusion models"]

    @pytest.mark.parametrize("question, expected", [
        ("How does Visual Jigsaw train multimodal models?", {"tBf2SUzfZw"}),  # title without a colon
        ("Visual Jigsaw 是如何对多模态大模型进行后训练的？", {"tBf2SUzfZw"}),
        ("How does visual jigsaw training work?", set()),  # not written as a name
        ("What is SIGMark?", {"tKyAD2LhnI"}),  # "SIGMark: Scalable …"
    ])
    def test_a_title_name_used_in_the_question_is_found(self, retriever, question, expected) -> None:
        assert retriever.names.named_in_title(question) == expected

    def test_a_title_head_counts_only_as_a_rare_name_not_after_a_question_word(self) -> None:
        from rag.retrieval.names import NameIndex
        from rag.settings import Settings
        from rag.types import Paper

        papers = [Paper("q", "Do Large Language Models Know What They Are Capable Of?", "We ask LLMs.", "x:1"),
                  Paper("l", "Large Language Models Can Plan", "We plan.", "x:2"),
                  Paper("r", "Rare Gizmo Nets for Graphs", "We propose Rare Gizmo nets.", "x:3")]
        papers += [Paper(f"p{i}", f"Paper {i}", "Large language models are everywhere.", f"x:{i + 4}")
                   for i in range(4)]
        settings = Settings()
        names = NameIndex({p.paper_id: p for p in papers}, None, settings.retrieval, settings.decision)  # no BM25
        assert names.named_in_title("Do Large Language Models reason?") == set()  # "Do": a question word
        assert names.named_in_title("How well can Large Language Models plan?") == set()  # in 6 papers
        assert names.named_in_title("What are Rare Gizmo Nets?") == {"r"}

    def test_a_paper_is_also_called_by_its_short_name_and_an_acronym_of_its_title(self) -> None:
        from rag.retrieval.names import NameIndex
        from rag.settings import Settings
        from rag.types import Paper

        papers = [Paper("d", "Decision Pre-Trained Transformer is a Scalable Learner",
                        "The Decision Pre-Trained Transformer (DPT) was introduced for in-context RL.", "x:1"),
                  Paper("o", "General Search for Imperfect-Information Games", "We present _Obscuro_, the first "
                        "superhuman AI for Fog of War (FoW) chess.", "x:2")]
        settings = Settings()
        names = NameIndex({p.paper_id: p for p in papers}, None, settings.retrieval, settings.decision)  # no BM25
        assert "dpt" in names.title_words("d")  # "the DPT paper"
        assert "obscuro" in names.title_words("o") and "fow" not in names.title_words("d")


def test_an_acronym_is_spelled_out_as_the_corpus_defines_it() -> None:
    from rag.retrieval.acronyms import AcronymExpander

    texts = ["We use reinforcement learning (RL) here.", "Large language models (LLMs) and key-value (KV) caches.",
             "In-context reinforcement learning (ICRL) scales.", "Offline RL (RL) is odd."]
    expander = AcronymExpander(texts)
    assert expander.expand("any other RL papers?") == "any other RL papers? reinforcement learning"
    assert expander.expand("How do LLMs shrink the KV cache?").endswith("large language models key-value")
    assert expander.expand("What is TRIM-KV?") == "What is TRIM-KV?"  # part of a name, not an acronym of its own
    assert expander.expand("Does RL help?", names={"RL"}) == "Does RL help?"  # a paper's own name is not spelled
    assert expander.expand("reinforcement learning (RL) for robots") == "reinforcement learning (RL) for robots"
    # A topic word narrowing the acronym is what the question asks for: "large language models" would find any LLM.
    assert expander.expand("which papers work on multimodal LLMs?") == "which papers work on multimodal LLMs?"
    assert expander.expand("which papers using RL?").endswith("reinforcement learning")


def test_papers_writing_an_acronym_out_are_papers_naming_it_while_they_are_a_handful() -> None:
    from rag.retrieval.acronyms import AcronymExpander
    from rag.retrieval.names import NameIndex
    from rag.settings import Settings
    from rag.types import Paper

    texts = {"a": "We train process reward models (PRMs) for OR.", "b": "T1 helps PRMs verify.",
             "c": "A self-supervised process reward model guides search.", "d": "Large language models (LLMs) help.",
             "e": "We study large language models.", "f": "Large language models are big.",
             "g": "Large language models again.", "h": "Large language models, once more."}
    papers = [Paper(pid, f"Paper {pid}", text, "x:1") for pid, text in texts.items()]
    settings = Settings()
    names = NameIndex({p.paper_id: p for p in papers}, None, settings.retrieval, settings.decision)
    expander = AcronymExpander(list(texts.values()))
    assert names.papers_mentioning("PRMs") == ["a", "b"]
    assert expander.mentioning("PRMs", names) == ["a", "b", "c"]  # "process reward model", in the singular too
    assert expander.mentioning("LLMs", names) == names.papers_mentioning("LLMs")  # written out by too many papers
