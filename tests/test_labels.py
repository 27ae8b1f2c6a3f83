"""Theme labels (``rag.topics.CorpusStats.label``) on the real seed index: they name things, not the topic asked about,
nor a vague adjective or a fragment of a hyphenated word, and no label says one thing twice."""

from __future__ import annotations

import re

from rag import topics
from rag.nearmiss import nounish


def _terms(label: str) -> list[str]:
    return label.split(", ")


def test_a_topics_themes_do_not_repeat_the_topic(engine) -> None:
    stats = topics.stats_for(engine.retriever)
    everyone = list(range(stats.size))
    about, _, _ = stats.mentions("test-time scaling")
    label = stats.label(about, sorted(set(everyone) - set(about)), exclude=("test-time", "scaling"))
    # ("test time": the hyphenated topic word was not split as the labels' words are)
    assert label != "other" and not {"test", "time", "scaling"} & set(re.findall(r"[a-z]+", label.lower()))


def test_the_collections_themes_are_named_by_things(engine) -> None:
    stats = topics.stats_for(engine.retriever)
    everyone = list(range(stats.size))
    text = " ".join(f"{p.title} {p.abstract}" for p in stats.papers)
    for label, _ in stats.clusters(everyone, 6, everyone):
        terms = _terms(label)
        squashed = [t.replace(" ", "").lower() for t in terms]
        for term in terms:
            # (not "adaptive", "reliable", "controllable": no theme; nor "auto" of "auto-regressive")
            assert " " in term or nounish(term), label
            assert " " in term or re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.IGNORECASE), label
        # (not "auto regressive, autoregressive image")
        assert not any(a != b and a in b for a in squashed for b in squashed), label


def test_a_topics_initials_and_acronym_are_its_words_too() -> None:
    assert {"fl", "federated", "learning"} <= set(topics._with_acronyms(["federated learning"]))
    assert "gnn" in topics._with_acronyms(["graph neural networks"])
    assert {"test", "time"} <= set(topics._with_acronyms(["test-time"]))
