"""The evidence stage on a hand-made sentence index: sentence vectors are set directly, no embedding model."""

from __future__ import annotations

import numpy as np
import pytest

from rag.evidence import gather_evidence
from rag.retrieval.rankers import SentenceIndex
from rag.types import Hit, Paper


def _unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


QUESTION_VECTOR = _unit(1.0, 0.0, 0.0)
# (paper id, sentence text, vector): cosines with the question vector are 0.8, 0.6 and 0.0 for p1's rows.
ROWS = [
    ("p1", "Long context inference is slow.", _unit(0.6, 0.8, 0.0)),
    ("p1", "We propose RetainGate, a learned retention gate.", _unit(0.8, 0.6, 0.0)),
    ("p1", "Experiments cover many benchmarks.", _unit(0.0, 0.0, 1.0)),
    ("p2", "Graph networks are hard to interpret.", _unit(0.6, 0.8, 0.0)),
    ("p2", "GraphLens can prune the cache of graph explanations.", _unit(0.6, 0.8, 0.0)),
]


def _index(rows: list[tuple[str, str, np.ndarray]] = ROWS) -> SentenceIndex:
    seen: dict[str, int] = {}
    positions = []
    for paper_id, _, _ in rows:
        positions.append(seen.get(paper_id, 0))
        seen[paper_id] = positions[-1] + 1
    return SentenceIndex.of(np.stack([v for _, _, v in rows]), [p for p, _, _ in rows], [t for _, t, _ in rows],
                            positions)


def _hit(paper_id: str) -> Hit:
    return Hit(Paper(paper_id, f"Paper {paper_id}", "An abstract.", "test:1"), 1.0)


def test_without_topic_words_sentences_are_ranked_by_cosine_alone() -> None:
    # "What is it about?" has no topic words: the score is the cosine itself.
    [evidence] = gather_evidence("What is it about?", QUESTION_VECTOR, [_hit("p1")], _index())
    assert [s.text for s in evidence.sentences] == [ROWS[1][1], ROWS[0][1], ROWS[2][1]]
    assert [s.score for s in evidence.sentences] == pytest.approx([0.8, 0.6, 0.0], abs=1e-6)
    assert [s.position for s in evidence.sentences] == [1, 0, 2]  # each sentence keeps its place in the abstract
    assert evidence.best_score == pytest.approx(0.8, abs=1e-6)
    assert evidence.hit.paper.paper_id == "p1"


def test_sharing_the_question_words_raises_a_sentence() -> None:
    # p2's two sentences are equally close in meaning; only the second uses the question's words.
    [evidence] = gather_evidence("How does GraphLens prune the cache?", QUESTION_VECTOR, [_hit("p2")], _index())
    assert [s.text for s in evidence.sentences] == [ROWS[4][1], ROWS[3][1]]
    with_words, without = evidence.sentences
    assert with_words.score > without.score
    assert without.score < 0.6  # words missing from a sentence pull it below its cosine
    assert with_words.score > 0.6  # all the words present lift it above


def test_word_overlap_counts_a_word_in_any_of_its_forms() -> None:
    # As in the citation check, "prunes caches" holds "prune" and "cache": the two sentences tie.
    vector = _unit(0.6, 0.8, 0.0)
    rows = [("p", "GraphLens prunes caches.", vector), ("p", "GraphLens can prune the cache.", vector),
            ("p", "GraphLens is fast.", vector)]
    [evidence] = gather_evidence("How does GraphLens prune the cache?", QUESTION_VECTOR, [_hit("p")], _index(rows))
    first, second, third = evidence.sentences
    assert first.score == pytest.approx(second.score) and third.score < first.score


def test_an_acronym_in_the_plural_is_held_by_its_singular_and_the_other_way_round() -> None:
    vector = _unit(0.6, 0.8, 0.0)
    rows = [("p", "We benchmark GraphLens on three PDE benchmarks.", vector), ("p", "GraphLens is fast.", vector)]
    for question in ("Which ones deal with PDEs?", "Is there one on a PDE?"):
        [evidence] = gather_evidence(question, QUESTION_VECTOR, [_hit("p")], _index(rows))
        assert evidence.sentences[0].text == rows[0][1] and evidence.sentences[0].score > evidence.sentences[1].score
    plural = [("p", "GraphLens serves LLMs.", vector), ("p", "GraphLens is fast.", vector)]
    [evidence] = gather_evidence("Is GraphLens for an LLM?", QUESTION_VECTOR, [_hit("p")], _index(plural))
    assert evidence.sentences[0].score > evidence.sentences[1].score


def test_word_overlap_can_reorder_sentences_against_cosine() -> None:
    # Row 0 is further in meaning (0.6 vs 0.8) but holds every topic word of the question.
    [evidence] = gather_evidence("Is long context inference slow?", QUESTION_VECTOR, [_hit("p1")], _index())
    assert evidence.sentences[0].text == ROWS[0][1]


def test_evidence_follows_the_order_of_the_hits() -> None:
    evidence = gather_evidence("What is it about?", QUESTION_VECTOR, [_hit("p2"), _hit("p1")], _index())
    assert [e.hit.paper.paper_id for e in evidence] == ["p2", "p1"]
    assert [len(e.sentences) for e in evidence] == [2, 3]


def test_names_found_lists_the_question_names_each_paper_contains() -> None:
    named = {"RetainGate": ["p1"], "GraphLens": ["p2"], "Shared": ["p1", "p2"], "Elsewhere": ["p9"]}
    evidence = gather_evidence("Compare RetainGate and GraphLens", QUESTION_VECTOR, [_hit("p1"), _hit("p2")],
                               _index(), named)
    assert [e.names_found for e in evidence] == [["RetainGate", "Shared"], ["GraphLens", "Shared"]]


def test_no_named_papers_means_no_names_found() -> None:
    evidence = gather_evidence("What is RetainGate?", QUESTION_VECTOR, [_hit("p1")], _index())
    assert evidence[0].names_found == []
    evidence = gather_evidence("What is RetainGate?", QUESTION_VECTOR, [_hit("p1")], _index(), {})
    assert evidence[0].names_found == []


def test_a_paper_without_sentence_rows_gives_empty_evidence() -> None:
    evidence = gather_evidence("What is it about?", QUESTION_VECTOR, [_hit("p1"), _hit("missing")], _index(),
                               {"Missing": ["missing"]})
    assert evidence[1].hit.paper.paper_id == "missing"
    assert evidence[1].sentences == [] and evidence[1].best_score == 0.0
    assert evidence[1].names_found == ["Missing"]
    assert len(evidence[0].sentences) == 3


def test_no_hits_gives_no_evidence() -> None:
    assert gather_evidence("What is it about?", QUESTION_VECTOR, [], _index()) == []


def test_on_the_table_a_hyphenated_sentence_word_answers_to_its_parts() -> None:
    # "calibration-free" holds the question's "calibration"; the plain sentence, equally close, does not.
    vector = _unit(0.6, 0.8, 0.0)
    rows = [("p", "Tactic is a sparse attention method.", vector), ("p", "Tactic is calibration-free.", vector)]
    [evidence] = gather_evidence("Which works without calibration?", QUESTION_VECTOR, [_hit("p")], _index(rows),
                                 word_parts=True)
    assert evidence.sentences[0].text == rows[1][1]
    assert evidence.sentences[0].score > evidence.sentences[1].score
    [as_written] = gather_evidence("Which works without calibration?", QUESTION_VECTOR, [_hit("p")], _index(rows))
    assert as_written.sentences[0].score == as_written.sentences[1].score  # only for papers on the table


def test_a_sentence_answering_either_part_of_a_two_part_question_keeps_its_best_score() -> None:
    from rag.evidence import best_of
    from rag.types import Evidence, EvidenceSentence, Hit, Paper

    paper = Paper("p", "P", "A. B.", "t:1")

    def ev(a: float, b: float) -> list[Evidence]:
        return [Evidence(Hit(paper, 1.0), [EvidenceSentence("A.", a, 0), EvidenceSentence("B.", b, 1)])]

    merged = best_of(ev(0.6, 0.2), [ev(0.3, 0.1), ev(0.1, 0.7)])
    assert [(s.position, s.score) for s in merged[0].sentences] == [(1, 0.7), (0, 0.6)]


def test_a_word_counts_in_any_of_its_forms_and_an_acronym_where_the_sentence_spells_it_out() -> None:
    rows = [("p", "Their distribution is modulated by timestep embeddings.", _unit(0.6, 0.8, 0.0)),
            ("p", "We train a Self-Supervised Learning model.", _unit(0.6, 0.8, 0.0)),
            ("p", "Controls are hard to read.", _unit(0.6, 0.8, 0.0))]
    [evidence] = gather_evidence("What controls how they are distributed?", QUESTION_VECTOR, [_hit("p")],
                                 _index(rows))
    assert evidence.sentences[0].text == rows[0][1]  # "distributed" ~ "distribution", "controls" ~ "Controls": a tie…
    assert evidence.sentences[0].score == pytest.approx(evidence.sentences[1].score)  # …that form alone does not break
    [evidence] = gather_evidence("and the SSL model?", QUESTION_VECTOR, [_hit("p")], _index(rows))
    assert evidence.sentences[0].text == rows[1][1]


def test_where_to_look_is_no_topic_word() -> None:
    # "… in the collection" says where to look: a sentence holding the rest scores as if it were not asked.
    asked = gather_evidence("Which papers in the collection prune the cache?", QUESTION_VECTOR, [_hit("p2")], _index())
    plain = gather_evidence("Which papers prune the cache?", QUESTION_VECTOR, [_hit("p2")], _index())
    assert asked[0].best_score == pytest.approx(plain[0].best_score)


@pytest.mark.parametrize(("question", "sentence"), [
    ("Can it do inpainting?", "It generalizes to zero-shot in-painting."),  # the sentence hyphenates the word
    ("Is it pre-trained?", "The model is pretrained on images."),  # the question does
])
def test_a_word_written_with_or_without_its_hyphen_is_the_same_word(question: str, sentence: str) -> None:
    vector = _unit(0.6, 0.8, 0.0)  # (the same cosine: the words decide)
    rows = [("p", "The model draws images in raster order.", vector), ("p", sentence, vector)]
    [evidence] = gather_evidence(question, QUESTION_VECTOR, [_hit("p")], _index(rows))
    assert evidence.sentences[0].text == sentence and evidence.sentences[0].score > evidence.sentences[1].score


def test_a_thing_of_some_kind_is_held_by_what_the_kind_is_called() -> None:
    # "GraphLens-style pruning": pruning of GraphLens's kind; a sentence naming GraphLens holds the word (the rule: it
    # had counted "graphlens-style" as a word of its own, held by no sentence).
    plain = gather_evidence("Which papers do GraphLens pruning?", QUESTION_VECTOR, [_hit("p2")], _index())
    styled = gather_evidence("Which papers do GraphLens-style pruning?", QUESTION_VECTOR, [_hit("p2")], _index())
    assert styled[0].best_score == pytest.approx(plain[0].best_score)
