"""Answer stage, extractive mode: the answer is the best evidence sentences, each cited ``[n]``.

Needs no LLM and cannot invent anything; it stays as the fallback for every other backend.
Refusal is decided here from the evidence scores alone.
"""

from __future__ import annotations

from rag.prompts import REFUSAL
from rag.settings import Settings
from rag.types import Answer, Citation, Evidence, Source

# A further paper is quoted only if its best sentence is nearly as good as the best paper's.
RELATIVE_CUT = 0.85


def should_refuse(evidence: list[Evidence], settings: Settings) -> bool:
    return not evidence or max(e.best_score for e in evidence) < settings.min_evidence


def sources_for(evidence: list[Evidence]) -> list[Source]:
    return [Source(rank=i, paper=e.hit.paper, score=e.hit.score) for i, e in enumerate(evidence, start=1)]


def extractive_answer(question: str, evidence: list[Evidence], settings: Settings) -> Answer:
    sources = sources_for(evidence)
    if should_refuse(evidence, settings):
        return Answer(question=question, text=REFUSAL, refused=True, citations=[], sources=sources)
    top = max(e.best_score for e in evidence)
    chosen = [
        (rank, e) for rank, e in enumerate(evidence, start=1)
        if e.best_score >= max(settings.min_sentence, RELATIVE_CUT * top)
    ][: settings.max_answer_papers]
    paragraphs, citations = [], []
    for rank, item in chosen:
        picked = [s for s in item.sentences[: settings.sentences_per_paper] if s.score >= settings.min_sentence]
        picked = picked or item.sentences[:1]
        picked.sort(key=lambda s: s.position)  # read in the abstract's own order
        paragraphs.append(" ".join(f"{s.text} [{rank}]" for s in picked))
        citations.append(Citation(n=rank, paper_id=item.hit.paper.paper_id, title=item.hit.paper.title))
    return Answer(question=question, text="\n\n".join(paragraphs), refused=False,
                  citations=citations, sources=sources)
