"""Questions about the collection as a whole: which questions are such questions (rules, positives and
negatives), and their answers on the real seed index (areas, counts, trends), with clusters where papers have
no area."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from rag import kmeans, prompts, topics
from rag.collection import ALL_LISTED, EXAMPLES, SMALL_COLLECTION, SMALL_GROUP, CollectionAnswer, answer_collection
from rag.collection_intent import CollectionIntent, collection_intent

AREAS, COUNT, TRENDS = "areas", "count", "trends"
POSITIVES = [
    ("how many papers in here do 3D or 4D generation?", "count", "3D or 4D generation"),  # "do" as the verb
    ("btw how many papers in the collection use flow matching?", "count", "flow matching"),  # chat filler first
    # what a bracket spells out, an exclusion leaves out or a hedge says is not the topic
    ("how many papers here are about RL in the classic sense (agents acting in environments, value functions), not RL "
     "fine-tuning of LLMs?", "count", "RL"),
    ("How many papers are on diffusion models rather than GANs?", "count", "diffusion models"),
    ("how many papers deal with video (not images)?", "count", "video"),
    ("What research areas are represented?", AREAS, None),
    ("Which areas have the most papers?", AREAS, None),
    ("What topics does the collection cover?", AREAS, None),
    ("Which research areas are represented in the collection?", AREAS, None),
    ("What are the main research areas?", AREAS, None),
    ("What are the main research areas this collection covers?", AREAS, None),
    ("List the research areas.", AREAS, None),
    ("How are the papers distributed across areas?", AREAS, None),
    ("What fields are covered?", AREAS, None),
    ("What does the collection cover?", AREAS, None),
    ("Which topics are most common?", AREAS, None),
    ("What kinds of topics are in the index?", AREAS, None),
    ("Show me the breakdown of papers by area", AREAS, None),
    ("How many papers are there in each area?", AREAS, None),
    ("How many papers deal with diffusion models?", COUNT, "diffusion models"),
    ("How many papers here use diffusion models?", COUNT, "diffusion models"),  # "here" is no verb
    ("how many papers are there here on KV caches?", COUNT, "KV caches"),
    ("How many papers are about reinforcement learning?", COUNT, "reinforcement learning"),
    ("How many papers in the collection mention watermarking?", COUNT, "watermarking"),
    ("How many papers are there?", COUNT, None),
    ("How many papers are indexed?", COUNT, None),
    ("how many papers are in the collection", COUNT, None),
    ("How many diffusion papers are there?", COUNT, "diffusion"),
    ("What fraction of papers use reinforcement learning?", COUNT, "reinforcement learning"),
    ("How many of the papers study KV cache compression?", COUNT, "KV cache compression"),
    ("How many papers on test-time scaling are there?", COUNT, "test-time scaling"),
    ("What is the number of papers about graph neural networks?", COUNT, "graph neural networks"),
    ("How many papers use TRIM-KV?", COUNT, "TRIM-KV"),  # a count may be of a name
    ("What is new in test-time scaling?", TRENDS, "test-time scaling"),
    ("Hey, what's new in test-time scaling in this collection?", TRENDS, "test-time scaling"),
    ("Give me a summary of the main trends across the collection", TRENDS, None),
    ("What are the main trends?", TRENDS, None),
    ("Summarize the collection.", TRENDS, None),
    ("What are the emerging themes in ICLR 2026?", TRENDS, None),
    ("What's new in diffusion models?", TRENDS, "diffusion models"),
    ("What are the recent advances in graph neural networks?", TRENDS, "graph neural networks"),
    ("Give me an overview of the research on watermarking", TRENDS, "watermarking"),
    ("What are the major research directions in reinforcement learning?", TRENDS, "reinforcement learning"),
    ("What are the key trends in LLM reasoning research?", TRENDS, "LLM reasoning"),
    ("Give me an overview of the whole collection", TRENDS, None),
    ("Roughly how many papers in this collection are about making generation or decoding faster?", COUNT,
     "making generation or decoding faster"),
    ("OK. So what is new on test-time scaling in this collection?", TRENDS, "test-time scaling"),
    ("How many EEG-related papers are in the collection overall?", COUNT, "EEG-related"),
    ("How many speculative decoding papers are there in the collection, roughly?", COUNT, "speculative decoding"),
    ("whats new in test-time scaling this year?", TRENDS, "test-time scaling"),
    ("What does this collection have on graph neural networks?", TRENDS, "graph neural networks"),
    ("Which areas have the most papers in this set?", AREAS, None),
    ("stepping back, what application areas outside core ML show up in the collection? science stuff especially",
     AREAS, None),
    ("which research areas appear here?", AREAS, None),
]
NEGATIVES = [
    "Which papers study diffusion models?",  # a list question for the normal pipeline
    "How many parameters does TRIM-KV use?",
    "What is new in TRIM-KV compared to H2O?",
    "What is new in TRIM-KV?",
    "How does SIGMark embed the watermark?",
    "What datasets does the paper use?",
    "What topics does this paper cover?",
    "Summarize the paper about watermarking video diffusion.",
    "What are the main contributions of GtR?",
    "Are there papers on the trends of LLM scaling?",
    "How many papers does TRIM-KV cite?",
    "How many tokens does D2F decode in parallel?",
    "What is new about this method?",
    "What's new in their approach?",
    "Which areas does SIGMark's method apply to?",
    "What is the main trend in TRIM-KV's results?",
    "What is TRIM-KV?",
    "Compare TRIM-KV and Tactic",
    "What are the limitations of diffusion models?",
    "Which paper has the most citations?",
    "What research area does TRIM-KV belong to?",
    "How many papers did the authors of SIGMark publish?",
    "What is new in the proposed attention mechanism?",
    "What's new in it?",
    "How many papers mention it?",
    "Which papers are about the KV cache of long-context LLMs?",
    "What papers discuss the main trends in RL?",
    "How many steps does the sampler need?",
    "Summarize these papers.",
    "How many of the cited papers use RL?",
    "What is the trend of accuracy as the model scales in ARPG?",
    "What does SIGMark cover?",
    "How many GPUs were used to train Lyra?",
    "What are the key findings of the T1 paper?",
    "How many papers does TRIM-KV cite?",  # "does" before its subject asks, it is not what papers do
    "how many papers do they compare against?",
    "what topics come up in diffusion papers?",  # topics of some papers, not the collection's areas
]


@pytest.mark.parametrize(("question", "kind", "topic"), POSITIVES, ids=[q for q, *_ in POSITIVES])
def test_a_collection_question_is_recognised(question: str, kind: str, topic: str | None) -> None:
    assert collection_intent(question) == CollectionIntent(kind, topic)


@pytest.mark.parametrize("question", NEGATIVES)
def test_a_question_about_papers_is_not_a_collection_question(question: str) -> None:
    assert collection_intent(question) is None


def test_with_the_index_a_name_decides_whether_it_is_a_field_or_a_paper(engine) -> None:
    retriever = engine.retriever
    assert collection_intent("What is new in TRIM-KV?", retriever) is None  # one paper has the name
    assert collection_intent("What is new in HyperQuokka?", retriever) is None  # no paper: the pipeline refuses
    trends = CollectionIntent(TRENDS, "test-time scaling")
    assert collection_intent("What is new in test-time scaling?", retriever) == trends
    for question, kind, topic in POSITIVES:
        if kind != COUNT and not (topic and re.search(r"[A-Z]", topic)):
            assert collection_intent(question, retriever) == CollectionIntent(kind, topic), question


def ask(engine, question: str) -> CollectionAnswer:
    intent = collection_intent(question, engine.retriever)
    assert intent is not None, question
    return answer_collection(question, intent, engine.retriever, engine.settings)


def assert_cited(result: CollectionAnswer, engine) -> None:
    """Every [n] in the text is a citation, every citation a source with the same number and paper, every source an
    indexed paper, and the chart's papers are indexed papers."""
    answer, indexed = result.answer, {p.paper_id for p in engine.papers()}
    assert not answer.refused and answer.backend == "collection"
    numbers = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert numbers == {c.n for c in answer.citations} == {s.rank for s in answer.sources}
    assert [s.rank for s in answer.sources] == list(range(1, len(answer.sources) + 1))
    for citation in answer.citations:
        assert answer.sources[citation.n - 1].paper_id == citation.paper_id
        assert citation.paper_id in indexed
    assert all(pid in indexed for g in result.stats.groups for pid in g.paper_ids)
    assert all(g.count == len(g.paper_ids) for g in result.stats.groups)


def test_areas_are_counted_most_first_with_an_example_each(engine) -> None:
    result = ask(engine, "What research areas are represented?")
    assert_cited(result, engine)
    papers = engine.papers()
    expected = Counter(p.area for p in papers if p.area)
    areas = [g for g in result.stats.groups if g.kind == "area"]
    assert {g.label: g.count for g in areas} == dict(expected)
    assert [g.count for g in areas] == sorted((g.count for g in areas), reverse=True)
    assert sum(g.count for g in result.stats.groups) == len(papers)  # papers without an area are grouped too
    unlabelled = {p.paper_id for p in papers if not p.area}
    assert {pid for g in result.stats.groups if g.kind != "area" for pid in g.paper_ids} == unlabelled
    top = areas[0]
    assert f"{top.label}: {top.count} papers" in result.answer.text
    assert f"The {len(papers)} indexed papers come from {len(areas)} research areas" in result.answer.text
    assert result.answer.sources[0].paper_id in top.paper_ids  # the largest area's example is [1]


def test_a_count_matches_a_direct_count_over_the_papers(engine) -> None:
    result = ask(engine, "How many papers deal with diffusion models?")
    assert_cited(result, engine)
    papers = engine.papers()
    texts = {p.paper_id: f"{p.title} {p.abstract}".lower() for p in papers}
    direct = {pid for pid, text in texts.items() if re.search(r"\bdiffus", text) and re.search(r"\bmodel", text)}
    phrase = {pid for pid, text in texts.items() if re.search(r"\bdiffusion[\s-]+model", text)}
    assert phrase and set(result.stats.matched) == direct and phrase < direct
    said = f"{len(direct)} of the {len(papers)} indexed papers mention “diffusion models” in their title"
    assert result.answer.text.startswith(said)
    assert prompts.COLLECTION_MENTION_PHRASE.format(count=len(phrase)) in result.answer.text
    assert sum(g.count for g in result.stats.groups) == len(direct)
    shown = [s.paper_id for s in result.answer.sources]  # the examples: the phrase's papers first, then others
    assert set(shown) <= direct and set(shown[:len(phrase)]) == phrase and len(shown) == (
        len(direct) if len(direct) <= ALL_LISTED else EXAMPLES)  # a short count lists all it counted
    head = prompts.COLLECTION_ALL if len(direct) <= ALL_LISTED else prompts.COLLECTION_EXAMPLES
    assert f"\n\n{head}\n" in result.answer.text
    total = ask(engine, "How many papers are there?")
    assert total.answer.text.startswith(prompts.COLLECTION_TOTAL.format(total=len(papers)))


def test_a_compound_is_one_phrase_and_alternatives_add_up(engine) -> None:
    stats = topics.stats_for(engine.retriever)
    texts = {i: f"{p.title} {p.abstract}".lower() for i, p in enumerate(stats.papers)}
    about, phrased, options = stats.mentions("test-time scaling")
    assert options == ["test-time scaling"] and set(phrased) <= set(about)
    assert set(about) == {i for i, t in texts.items() if re.search(r"test[\s-]time", t) and re.search(r"\bscal", t)}
    assert topics.alternatives("one-step or few-step diffusion") == ["one-step", "few-step diffusion"]
    assert topics.alternatives("making generation/inference faster") == ["making generation faster",
                                                                          "making inference faster"]
    assert stats.mentions("video or image diffusion")[2] == ["video diffusion", "image diffusion"]  # papers say it
    either, options = stats.mentions("watermarking or KV cache")[::2]
    assert options == ["watermarking", "KV cache"]  # no paper says "watermarking cache"
    assert set(either) == set(stats.mentions("watermarking")[0]) | set(stats.mentions("KV cache")[0])
    assert stats.mentions("EEG-related")[2] == ["EEG-related"] and stats.mentions("the")[0] == []


def test_a_topic_no_paper_mentions_is_said_plainly_not_refused(engine) -> None:
    result = ask(engine, "How many papers mention monsoon forecasting?")
    assert not result.answer.refused and not result.answer.sources and not result.stats.groups
    assert result.answer.text.startswith("No indexed abstract mentions “monsoon forecasting”")


def test_these_papers_in_a_first_question_are_the_collections_and_a_second_question_is_not_the_topic() -> None:
    question = "Roughly how many of these papers are about image or video generation? name a few"
    assert collection_intent(question, first=True) == CollectionIntent("count", "image or video generation")
    assert collection_intent(question) is None  # later in a conversation: the papers on the table
    # "them" after an overview of the areas is the collection (``Engine`` passes ``first``)
    assert collection_intent("how many of them are about video?", first=True) == CollectionIntent("count", "video")


def test_them_after_an_overview_of_the_areas_counts_in_the_collection(engine) -> None:
    from rag.types import Shown

    areas = engine.ask("What research areas does this collection span?", backend="extractive")
    table = [Shown.of(areas)]
    answer = engine.ask("how many of them are about watermarking?", backend="extractive", history=[areas.question],
                        table=table)
    assert answer.text.startswith(("2 of the", "3 of the")) and "watermarking" in answer.text
    other = engine.ask("What is SIGMark?", backend="extractive")
    after = engine.ask("how many of them are about watermarking?", backend="extractive", history=[other.question],
                       table=[Shown.of(other)])
    assert "of the 36 indexed papers" not in after.text  # after a paper, "them" is not the collection


def test_a_count_whose_words_no_abstract_has_lists_the_papers_retrieval_finds(engine) -> None:
    # Counting the words as written finds none; the papers about it are found by meaning, listed under that note.
    answer = engine.ask("How many papers deal with tidying up LLM memory?", backend="extractive")
    assert not answer.refused and answer.question.startswith("How many")
    assert answer.text.startswith("No indexed abstract mentions “tidying up LLM memory”")
    assert "The papers closest to it:" in answer.text
    assert {"qCaq3jGb0S", "tJod11fK1A"} <= {c.paper_id for c in answer.citations}


def test_a_count_asking_for_a_property_counts_the_papers_claiming_it(engine) -> None:
    # No abstract says "making … faster": the papers claiming a speedup, less memory or acceleration of LLM inference
    # are counted (not those naming inference speed in passing), and the answer says how.
    answer = engine.ask("How many of the papers are about making LLM inference faster?", backend="extractive")
    assert answer.text.startswith("3 of the 36 indexed papers") and "a claim using a word such as “faster”" in answer.text
    assert {c.paper_id for c in answer.citations} == {"tJod11fK1A", "qCaq3jGb0S", "t5uLZSRjhF"}  # Tactic, TRIM-KV, D2F
    either = engine.ask("how many papers are about making generation or decoding faster?", backend="extractive")
    assert {"tJod11fK1A", "t5uLZSRjhF", "rJdGst0W8s", "qIujRzzWnd", "t5GUEuIsxR"} <= {c.paper_id for c in either.citations}
    assert "hfebd26d11d8c" not in {c.paper_id for c in either.citations}  # PBFM: "competitive inference speed"


def test_what_is_new_in_a_topic_cites_the_papers_about_it_with_what_they_do(engine) -> None:
    result = ask(engine, "What is new in test-time scaling?")
    assert_cited(result, engine)
    by_id = {p.paper_id: p for p in engine.papers()}
    matched = result.stats.matched
    assert len(matched) >= 3
    assert all(re.search(r"test[\s-]+time[\s-]+scal", f"{by_id[pid].title} {by_id[pid].abstract}".lower())
               for pid in matched)
    assert len(result.answer.sources) == min(len(matched), 8)  # every paper matched, when there are few
    for source in result.answer.sources:  # each example: its title, [n] and a sentence of its abstract
        quoted = result.answer.evidence_sentences[source.paper_id][0]
        assert quoted in engine.retriever.sentences.texts
        assert f"“{source.paper.display_title}” [{source.rank}]: " in result.answer.text


def test_a_topic_few_papers_mention_cites_them_all_those_using_it_as_one_phrase_first(engine) -> None:
    result = ask(engine, "What does this collection have on reward models?")
    cited = [c.paper_id for c in result.answer.citations]
    assert set(cited) == set(result.stats.matched) and "tFEAzYdz92" in cited  # OR-PRM, "Process Reward Models"
    stats = topics.stats_for(engine.retriever)
    phrased = {stats.ids[i] for i in stats.mentions("reward models")[1]}
    assert 0 < len(phrased) < len(cited) and set(cited[:len(phrased)]) == phrased  # "reward model(s)" as written first


def test_a_topic_few_papers_mention_lists_them_by_area(engine) -> None:
    result = ask(engine, "What is new in watermarking?")
    assert_cited(result, engine)
    assert 1 <= len(result.stats.matched) < 10 and all(g.kind in ("area", "none") for g in result.stats.groups)
    assert prompts.COLLECTION_TOPIC_LIST in result.answer.text and "By area: " in result.answer.text
    sources = {s.paper_id for s in result.answer.sources}
    assert sources <= set(result.stats.matched) and len(sources) == min(len(result.stats.matched), 5)


def test_the_main_trends_are_labelled_clusters_of_every_paper(engine) -> None:
    result = ask(engine, "Give me a summary of the main trends across the collection")
    assert_cited(result, engine)
    groups = result.stats.groups
    assert len(groups) >= 2 and all(g.kind == "topic" and g.label and g.label != "other" for g in groups)
    ids = [pid for g in groups for pid in g.paper_ids]
    assert sorted(ids) == sorted(p.paper_id for p in engine.papers())  # a partition
    # a small collection's answer is its table of contents: every paper cited under its group
    assert len(result.answer.sources) == len(engine.papers()) <= SMALL_COLLECTION


def test_in_a_large_collection_each_group_cites_one_example_or_its_few_papers(engine, monkeypatch) -> None:
    import rag.collection

    monkeypatch.setattr(rag.collection, "SMALL_COLLECTION", 0)
    result = ask(engine, "Give me a summary of the main trends across the collection")
    groups = result.stats.groups
    assert len(result.answer.sources) == sum(g.count if g.count <= SMALL_GROUP else 1 for g in groups)


class _NoAreas:
    """The seed retriever's papers with their areas removed (a corpus that has none)."""

    def __init__(self, retriever) -> None:
        self.papers = {pid: replace(p, area=None) for pid, p in retriever.papers.items()}
        self.sentences, self.encoder, self.names = retriever.sentences, retriever.encoder, retriever.names


def test_without_areas_the_papers_are_clustered_and_labelled(engine) -> None:
    retriever = _NoAreas(engine.retriever)
    result = answer_collection("What research areas are represented?", CollectionIntent(AREAS), retriever,
                               engine.settings)
    assert result.answer.text.startswith(prompts.COLLECTION_FEW_AREAS.format(labelled=0, total=36)[:40])
    groups = result.stats.groups
    assert len(groups) >= 2 and all(g.kind == "topic" and re.search(r"[a-z]{3}", g.label) for g in groups)
    assert sorted(pid for g in groups for pid in g.paper_ids) == sorted(retriever.papers)
    assert len(result.answer.sources) == len(retriever.papers)  # all of a small collection, by group
    intent = CollectionIntent(COUNT, "diffusion models")
    count = answer_collection("How many papers deal with diffusion models?", intent, retriever, engine.settings)
    assert [g.label for g in count.stats.groups] == ["no area given"]


def test_answers_are_deterministic(engine) -> None:
    questions = ["Give me a summary of the main trends across the collection", "What research areas are represented?",
                 "What is new in test-time scaling?"]
    first = [ask(engine, q) for q in questions]
    topics._CACHE.pop(engine.retriever, None)  # statistics and clusters computed afresh
    second = [ask(engine, q) for q in questions]
    for a, b in zip(first, second):
        assert a.answer.text == b.answer.text and a.stats == b.stats


def test_kmeans_finds_separated_groups_the_same_way_every_time() -> None:
    rng = np.random.default_rng(1)
    blobs = np.vstack([rng.normal(centre, 0.05, size=(20, 8)) for centre in (0.0, 1.0, -1.0)])
    labels = kmeans.kmeans(blobs, 3)
    assert sorted(Counter(labels).values()) == [20, 20, 20]
    assert all(len(set(labels[i:i + 20])) == 1 for i in (0, 20, 40))
    assert np.array_equal(labels, kmeans.kmeans(blobs, 3))


def test_a_topic_matches_in_any_word_form(engine) -> None:
    stats = topics.stats_for(engine.retriever)
    about, phrased, _ = stats.mentions("the diffusion model")
    assert about and set(phrased) <= set(about)
    assert stats.mentions("Diffusion Models")[:2] == (about, phrased)  # neither case nor plurals matter
    assert stats.mentions("diffusion-model")[0] == phrased  # a hyphenated compound is one phrase
    assert stats.mentions("monsoon") == ([], [], ["monsoon"])


def test_a_common_acronym_matches_its_long_form_both_ways(engine) -> None:
    stats = topics.stats_for(engine.retriever)
    jigsaw = stats.ids.index("tBf2SUzfZw")  # "multimodal large language models (MLLMs)", never "LLMs"
    assert jigsaw in stats.mentions("multimodal LLMs")[0]
    assert jigsaw not in stats.mentions("multimodal RNNs")[0]
    long, short = stats.mentions("reinforcement learning")[0], stats.mentions("RL")[0]
    assert short == long  # a paper writing only "RL" counts for "reinforcement learning", and the other way


def test_the_chart_rides_on_the_answer_and_survives_json_and_the_saved_history(engine) -> None:
    from rag.types import CollectionStats
    from ui.history import StoredTurn

    answer = engine.ask("How many papers deal with diffusion models?")
    chart = answer.chart
    assert chart is not None and chart.kind == "count" and chart.topic == "diffusion models" and chart.groups
    assert sum(g.count for g in chart.groups) == len(chart.matched)
    assert CollectionStats.from_json(answer.to_json()["chart"]) == chart  # `rag ask --json`, `rag chat --json`
    stored = StoredTurn.from_json(StoredTurn.from_answer(answer).to_json())
    assert stored.chart == chart and stored.to_answer({}).chart == chart
    plain = engine.ask("What is TRIM-KV?")
    assert plain.chart is None and "chart" not in plain.to_json()  # an answer about papers keeps its JSON shape
    assert "chart" not in StoredTurn.from_answer(plain).to_json()


@pytest.mark.parametrize("topic, options", [
    ("combinatorial optimization and operations research", ["combinatorial optimization", "operations research"]),
    ("vision and language models", ["vision and language models"]),  # one field
    ("one-step or few-step diffusion", ["one-step", "few-step diffusion"]),
])
def test_two_fields_joined_by_and_are_alternatives(topic: str, options: list[str]) -> None:
    assert topics.alternatives(topic) == options


@pytest.mark.parametrize("question, topic", [
    ("More broadly, how many papers in this collection deal with reward models in some form?", "reward models"),
    ("What's new in combinatorial optimization and operations research in this collection?",
     "combinatorial optimization and operations research"),  # "operations research" is the field, kept whole
    ("What is new in diffusion research?", "diffusion"),
    ("how many papers in the collection are about multimodal LLMs in general?", "multimodal LLMs"),
    ("How many papers here fall under the optimization area?", "optimization"),
    ("how many papers are in the generative models category?", "generative models"),
    ("how many papers overall deal with 3d in some way - scenes, shapes, 3d understanding?", "3d"),
])
def test_a_collection_topic_without_its_filler(question: str, topic: str) -> None:
    assert collection_intent(question).topic == topic


def test_a_count_of_an_area_by_name_counts_its_papers_not_the_word(engine) -> None:
    assert collection_intent("How many papers fall under the optimization area?").area
    assert not collection_intent("How many papers deal with optimization?").area
    papers = engine.papers()
    areas = {p.area for p in papers if p.area} & {"optimization", "generative models"}
    assert areas  # (both are seed papers' areas)
    for area in areas:
        result = ask(engine, f"How many papers fall under the {area} area?")
        assert_cited(result, engine)
        filed = {p.paper_id for p in papers if p.area == area}
        assert set(result.stats.matched) == filed == {s.paper_id for s in result.answer.sources}
        unlabelled = sum(not p.area for p in papers)
        assert result.answer.text.startswith(prompts.COLLECTION_IN_AREA.format(
            count=len(filed), total=len(papers), area=area) + prompts.COLLECTION_NO_AREA.format(count=unlabelled))
    words = ask(engine, "How many papers deal with optimization?")  # the word, not the area: every paper using it
    assert len(words.stats.matched) > sum(p.area == "optimization" for p in papers)
