"""Generation stage: the LLM phrases the chosen evidence, streaming; then every citation is checked.

The extractive answer is built first and is what the user gets when the question is refused, when no
LLM is configured, when the backend fails, or when too little of the model's answer survives the check.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rag import prompts
from rag.answer import extractive_answer
from rag.decide import Decision
from rag.llm import BackendError, LLMBackend, Message
from rag.question import QuestionShape
from rag.settings import Settings
from rag.spelling import apply_corrections
from rag.table import comparison_table
from rag.types import Answer, Citation, Evidence, StreamEvent
from rag.verify import check_citations


@dataclass
class Prepared:
    """Everything decided before a word is written: the sources, the evidence and the decision."""

    question: str
    query: str  # the standalone form retrieval used
    shape: QuestionShape
    evidence: list[Evidence]
    decision: Decision
    ranked_paper_ids: list[str]
    started: float  # perf_counter at the start of the question
    retrieve_ms: float
    corrections: dict[str, str] = field(default_factory=dict)  # typo → the corpus word searched for instead


def build_messages(prepared: Prepared, settings: Settings) -> list[Message]:
    """Evidence first: a few of each chosen paper's best sentences (abstract order), labelled [n]."""
    # Fewer sentences per paper when there are more papers: the prompt's length is the time to first token.
    per_paper = {"list": 1, "comparison": 2}.get(prepared.shape.kind, settings.evidence_sentences)
    blocks = []
    for n, item in prepared.decision.chosen:
        best = sorted(item.sentences[:per_paper], key=lambda s: s.position)
        text = " ".join(s.text for s in best)
        blocks.append(prompts.SOURCE_BLOCK.format(n=n, title=item.hit.paper.display_title, sentences=text))
    system = {"comparison": prompts.COMPARISON_SYSTEM, "list": prompts.LIST_SYSTEM}.get(
        prepared.shape.kind, prompts.ANSWER_SYSTEM)
    question = apply_corrections(prepared.question, prepared.corrections)  # the words the evidence was found for
    user = prompts.ANSWER_USER.format(question=question, sources="\n\n".join(blocks))
    return [Message("system", system), Message("user", user)]


def _with_table(answer: Answer, prepared: Prepared, settings: Settings) -> Answer:
    """A comparison ends with the table of every compared paper. Its cells quote those papers, so each row's
    paper is cited even when the backend's prose spoke of only one of them."""
    chosen = [(n, e) for n, e in prepared.decision.chosen if e.hit.part is not None]
    if prepared.shape.kind == "comparison" and len(chosen) >= 2 and not answer.refused:
        answer.text = f"{answer.text}\n\n{comparison_table(chosen)}"
        cited = {c.n for c in answer.citations}
        added = [(n, e) for n, e in chosen if n not in cited]
        answer.citations += [Citation.of(n, e) for n, e in added]
        answer.evidence_sentences.update(_quoted(prepared, [n for n, _ in added], settings))
    return answer


def _quoted(prepared: Prepared, cited: list[int], settings: Settings) -> dict[str, list[str]]:
    by_n = dict(prepared.decision.chosen)
    return {by_n[n].hit.paper.paper_id: [s.text for s in by_n[n].sentences[: settings.evidence_sentences]]
            for n in cited if n in by_n}


def generate(prepared: Prepared, llm: LLMBackend | None, backend: str, settings: Settings,
             sentences: Any, embed: Any) -> Iterator[StreamEvent]:
    """Yield ``token`` events as the answer is written, then one ``done`` event with the checked answer."""
    decision = prepared.decision
    fallback = extractive_answer(prepared.question, prepared.evidence, decision, settings)
    # Each quoted sentence carries exactly one [n] marker, and a source supports its own sentence.
    fallback.total_sentences = fallback.supported_sentences = 0 if fallback.refused else fallback.text.count(" [")
    answer, first_token, last_token = fallback, None, None
    pieces: list[str] = []
    if llm is not None and not decision.refused:
        try:
            for piece in llm.stream(build_messages(prepared, settings), settings.llm_max_tokens):
                last_token = time.perf_counter()
                first_token = first_token or last_token
                pieces.append(piece)
                yield StreamEvent("token", text=piece)
        except Exception as exc:  # any backend failure: one line, then the extractive answer
            reason = str(exc) if isinstance(exc, BackendError) else f"{backend} backend failed: {exc}"
            fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=reason.rstrip("."))
            pieces = []
        if "".join(pieces).strip():
            answer = _checked(prepared, "".join(pieces), backend, fallback, settings, sentences, embed)
        elif not fallback.notice:
            fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=f"the {backend} backend returned no text")
    else:
        yield StreamEvent("token", text=fallback.text)
    if answer is fallback:
        answer.evidence_sentences = _quoted(prepared, [c.n for c in answer.citations], settings)
    answer = _with_table(answer, prepared, settings)
    done = time.perf_counter()
    answer.backend = backend
    answer.query = prepared.query
    answer.corrections = dict(prepared.corrections)
    answer.ranked_paper_ids = prepared.ranked_paper_ids
    first = (first_token or done) - prepared.started
    if first_token and last_token and last_token > first_token and len(pieces) > 1:  # stream pieces ≈ tokens
        answer.tokens_per_s = (len(pieces) - 1) / (last_token - first_token)
    answer.timings_ms = {"retrieve": prepared.retrieve_ms, "first_token": first * 1000,
                         "answer": (done - prepared.started) * 1000 - prepared.retrieve_ms,
                         "total": (done - prepared.started) * 1000}
    yield StreamEvent("done", answer=answer)


def _checked(prepared: Prepared, raw: str, backend: str, fallback: Answer, settings: Settings,
             sentences: Any, embed: Any) -> Answer:
    checked = check_citations(raw, prepared.question, prepared.decision.chosen, sentences, embed,
                              settings.min_support)
    if checked.supported == 0 or checked.share < settings.min_supported_share:
        fallback.notice = prompts.FALLBACK_NOTE.format(backend=backend)
        return fallback
    by_n = dict(prepared.decision.chosen)
    text = checked.text
    if prepared.shape.kind == "list":  # every paper that passed the relevance cut is listed, cited or not
        rest = [n for n, _ in prepared.decision.chosen if n not in checked.cited]
        if rest:
            text += "\n\nAlso relevant:\n" + "\n".join(f"- {by_n[n].hit.paper.display_title} [{n}]" for n in rest)
            checked.cited += rest
    citations = [Citation.of(n, by_n[n]) for n in checked.cited]
    answer = Answer(question=prepared.question, text=text, refused=False, citations=citations,
                    sources=fallback.sources, supported_sentences=checked.supported,
                    total_sentences=checked.total)
    answer.evidence_sentences = _quoted(prepared, checked.cited, settings)
    return answer
