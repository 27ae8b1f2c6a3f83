"""The words a question names its topic with, apart from how it asks and how it points at papers on the table: what a
follow-up's own subject is, and how much of it a paper's abstract holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rag.tokens import content_words, stems

if TYPE_CHECKING:
    from rag.types import Paper

# Words any paper's abstract could answer to: a question made only of them names no topic of its own.
GENERIC_WORDS = frozenset("many much model models dataset datasets data method methods result results benchmark "
                          "benchmarks experiment experiments task tasks evaluate evaluated evaluation baseline "
                          "baselines metric metrics performance code trained training train test tested main key "
                          "limitation limitations contribution contributions idea ideas work kind kinds type types "
                          "sort sorts big gain gains improvement improvements get gets got getting according improve "
                          "improved improves problem problems tackle tackled tackles solve solved solves deal deals "
                          "dealing dealt take takes taking took taken benefit benefits advantage advantages takeaway "
                          "takeaways".split())
# How a question for a figure asks for it ("What is the max speedup it reports?"): no abstract need say "max".
FIGURE_WORDS = frozenset("max maximum min minimum best highest lowest largest smallest overall report reports "
                         "reported reach reaches achieve achieves headline".split())
REFERENCE_WORDS = frozenset("one ones first second third fourth fifth 1st 2nd 3rd 4th 5th last final former latter top "
                            "two three four five both them these those paper papers tell more".split())
# How a question says what papers write or are about ("which papers bring up …", "which of the two backs its claims
# with …?"), not what: no abstract need write "claims" or "mention" to be the one asked for.
SAYING_WORDS = frozenset("say says said claim claims claimed mention mentions mentioned mentioning describe describes "
                         "described bring brings up discuss discusses discussing touch touches cover covers address "
                         "addresses talk talks tackle tackles deal deals study studies involve involves involving "
                         "thing things stuff something anything".split())


def own_topic_words(question: str) -> set[str]:
    """The question's topic words that are not words of reference ("the top two", "[2]"), its shorthand written out
    ("eval set?": "evaluation", a generic word, and "set")."""
    from rag.aspects import unabbreviated

    return {w for w in content_words(unabbreviated(question))
            if w not in REFERENCE_WORDS and w not in GENERIC_WORDS and not w.isdigit()}


def written_words(paper: Paper) -> set[str]:
    """The stemmed topic words of a paper's title and abstract, to tell whether it writes a question's words."""
    return stems(content_words(f"{paper.title} {paper.search_text}"))


def coverage(question: str, papers: list[Paper]) -> float:
    """The best paper's share of the question's own topic words (stemmed; "bit-accuracy" also counts as "bit"
    and "accuracy"); 1.0 when the question has fewer than two of its own, as "Tell me more about [2]"."""
    def forms(words: set[str]) -> set[str]:
        return stems(words | {part for word in words for part in word.split("-") if part})

    own = forms(own_topic_words(question) - FIGURE_WORDS)
    return 1.0 if len(own) < 2 else max(
        (len(own & forms(content_words(f"{p.title} {p.search_text}"))) / len(own) for p in papers), default=1.0)
