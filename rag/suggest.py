"""Suggested next questions: two or three follow-ups built from the papers an answer put on the table.

Each is a question the conversation layer (``rag.references``) resolves to those papers: a paper's short name
("How does TRIM-KV work?"), a source number of an answer that listed several papers ("Compare [1] and [2]"), or
"it" for the one paper a single answer cited. A question about the collection is followed by one about its
largest group or topic; a refusal by a broader question. No model and no index: only the answer is read.
"""

from __future__ import annotations

from collections.abc import Iterable

from rag.paper import Paper
from rag.question import analyse
from rag.types import Answer, QuestionKind

MAX_SUGGESTIONS = 3
MAX_NAME_WORDS = 4  # a longer short name (a whole title) makes an unreadable button: say "[n]" or "it" instead
MAX_TOPIC_WORDS = 4

HOW = "How does {paper} work?"
RESULTS = "What results does {paper} report?"
COMPARE = "Compare {first} and {second}"
MORE = "Tell me more about {paper}"
AREAS = "Which research areas have the most papers?"
NEW_IN = "What is new in {topic}?"
HOW_MANY = "How many papers deal with {topic}?"
PAPERS_ON = "Which papers study {topic}?"


def suggest(answer: Answer, asked: Iterable[str] = ()) -> list[str]:
    """Up to three follow-up questions for ``answer``, none of them one already ``asked`` in the conversation."""
    if answer.refused:
        found = [AREAS]  # the closest papers were not used: offer a look at what the collection does hold
    elif answer.chart is not None:
        found = _about_collection(answer)
    else:
        found = _about_papers(answer)
    seen = {_key(q) for q in [*asked, answer.question]}
    return [q for q in dict.fromkeys(found) if _key(q) not in seen][:MAX_SUGGESTIONS]


def _about_papers(answer: Answer) -> list[str]:
    by_id = {s.paper_id: s for s in answer.sources}
    cited = [by_id[c.paper_id] for c in answer.citations if c.paper_id in by_id]
    cited = list({s.paper_id: s for s in cited}.values())  # each paper once, in the order first cited
    if not cited:
        return []
    if len(cited) == 1:  # "[n]" would count in an earlier answer that listed several papers: names, or "it"
        first = cited[0].paper
        suggestions = [HOW.format(paper=_name(first) or "it"), RESULTS.format(paper=_name(first) or "it")]
        other = next((s.paper for s in answer.sources if s.paper_id != first.paper_id), None)
        if other is not None and _name(first) and _name(other):
            suggestions.insert(1, COMPARE.format(first=_name(first), second=_name(other)))
        return suggestions
    first, second = (_name(s.paper) or f"[{s.rank}]" for s in cited[:2])
    if analyse(answer.question).kind is QuestionKind.COMPARISON:
        return [HOW.format(paper=first), RESULTS.format(paper=second)]
    both = (first, second) if "[" not in first + second else (f"[{cited[0].rank}]", f"[{cited[1].rank}]")
    return [COMPARE.format(first=both[0], second=both[1]), HOW.format(paper=first), RESULTS.format(paper=second)]


def _about_collection(answer: Answer) -> list[str]:
    chart = answer.chart
    assert chart is not None
    more = [MORE.format(paper=f"[{answer.sources[0].rank}]")] if answer.sources else []
    if chart.topic and len(chart.topic.split()) <= MAX_TOPIC_WORDS:
        if not chart.matched:
            return [AREAS]
        follow = HOW_MANY if chart.kind == "trends" else NEW_IN
        return [follow.format(topic=chart.topic), *more, PAPERS_ON.format(topic=chart.topic)]
    # The largest group named in a few plain words ("generative models", not "foundation or frontier models,
    # including LLMs"): its label reads as a topic of its own.
    label = next((g.label for g in chart.groups if g.kind == "area" and "," not in g.label
                  and len(g.label.split()) <= MAX_TOPIC_WORDS), None)
    return [*([NEW_IN.format(topic=label)] if label else []), *more,
            *([AREAS] if chart.kind != "areas" else [])]


def _name(paper: Paper) -> str | None:
    """The paper's short name if it is short ("TRIM-KV", "Visual Jigsaw"), else None."""
    name = paper.short_name
    return name if len(name.split()) <= MAX_NAME_WORDS else None


def _key(question: str) -> str:
    return " ".join(question.lower().rstrip("?.! ").split())
