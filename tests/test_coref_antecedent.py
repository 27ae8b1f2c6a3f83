"""A pronoun whose antecedent the question itself names (``coref.named_before_pronoun``), and a follow-up that asks
for a paper by what it does (``subject.new_search``): neither points at the papers on the table."""

from __future__ import annotations

import pytest

from rag.coref import named_before_pronoun
from rag.subject import new_search


@pytest.mark.parametrize("question, named", [
    ("what about small LMs acting as verifiers, what kind of tasks do they struggle with", True),
    ("For diffusion models, how do they handle noise?", True),
    ("Which benchmarks do they use?", False),  # the pronoun's own clause: the authors
    ("what about the results, are they good?", False),  # "the results": theirs
    ("and both papers, how do they differ?", False),
    ("what about images, do they work there?", False),  # a bare noun: where, not who
    ("How do they compare, and what tasks do they use?", False),  # nothing before the first "they"
])
def test_a_pronoun_after_a_plural_the_user_describes_is_theirs(question: str, named: bool) -> None:
    assert named_before_pronoun(question) is named


@pytest.mark.parametrize("question, new", [
    ("ok, other angle on the same bottleneck: any sparse attention method that doesn't rely on a fixed token budget?",
     True),
    ("same problem from the training side - something that teaches code models to check their own work?", True),
    ("same sci-ML angle: is there something that speeds up generating training data for eigenvalue solvers?", True),
    ("is there something that helps?", False),  # too few words of its own to search by
])
def test_a_follow_up_asking_for_a_paper_by_what_it_does_is_a_new_search(question: str, new: bool) -> None:
    assert new_search(question, [], None) is new  # (no papers on the table: nothing covered elsewhere to look up)
