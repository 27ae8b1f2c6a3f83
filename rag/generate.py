"""Generation stage: the LLM says the answer in a sentence or two, streaming; every citation is checked; the
extractive answer plan follows it as the evidence.

The extractive answer is built first and is all the user gets when the question is refused, when no LLM is
configured, when the backend fails, or when too little of the model's answer survives the check.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rag import prompts
from rag.answer import extractive_answer, near_miss_lead
from rag.backends import BackendError, LLMBackend, Message
from rag.sentences import split_sentences
from rag.settings import Settings
from rag.table import comparison_table
from rag.types import Answer, Citation, QuestionKind, StreamEvent, Turn
from rag.verify import check_citations

if TYPE_CHECKING:
    from rag.retrieval.rankers import SentenceIndex


def build_messages(turn: Turn, settings: Settings) -> list[Message]:
    """Evidence first: a few of each chosen paper's best sentences (abstract order), labelled [n]."""
    # Fewer sentences per paper when there are more papers: the prompt's length is the time to first token.
    per_paper = {QuestionKind.LIST: 1, QuestionKind.COMPARISON: 2}.get(turn.shape.kind,
                                                                       settings.answer.evidence_sentences)
    blocks = []
    for n, item in turn.decision.chosen:
        best = sorted(item.sentences[:per_paper], key=lambda s: s.position)
        text = " ".join(s.text for s in best)
        blocks.append(prompts.SOURCE_BLOCK.format(n=n, title=item.hit.paper.display_title, sentences=text))
    system = {QuestionKind.COMPARISON: prompts.COMPARISON_SYSTEM, QuestionKind.LIST: prompts.LIST_SYSTEM}.get(
        turn.shape.kind, prompts.ANSWER_SYSTEM)
    # The words the evidence was found for: typos read as the corpus words searched for.
    user = prompts.ANSWER_USER.format(question=turn.corrected_question, sources="\n\n".join(blocks))
    return [Message("system", system), Message("user", user)]


def _with_table(answer: Answer, turn: Turn, settings: Settings) -> Answer:
    """A comparison ends with the table of every compared paper. Its cells quote those papers, so each row's
    paper is cited even when the backend's prose spoke of only one of them."""
    chosen = [(n, e) for n, e in turn.decision.chosen if e.hit.part is not None]
    if turn.shape.kind is QuestionKind.COMPARISON and len(chosen) >= 2 and not answer.refused:
        answer.text = f"{answer.text}\n\n{comparison_table(chosen, settings.answer)}"
        cited = {c.n for c in answer.citations}
        added = [(n, e) for n, e in chosen if n not in cited]
        answer.citations += [Citation.of(n, e) for n, e in added]
        answer.evidence_sentences.update(_quoted(turn, [n for n, _ in added], settings))
    return answer


def _quoted(turn: Turn, cited: list[int], settings: Settings) -> dict[str, list[str]]:
    by_n = dict(turn.decision.chosen)
    return {by_n[n].hit.paper.paper_id: [s.text for s in by_n[n].sentences[: settings.answer.evidence_sentences]]
            for n in cited if n in by_n}


def generate(turn: Turn, llm: LLMBackend | None, backend: str, settings: Settings,
             sentences: SentenceIndex, embed: Callable[[list[str]], Any]) -> Iterator[StreamEvent]:
    """Yield ``token`` events as the answer is written, then one ``done`` event with the checked answer."""
    decision = turn.decision
    fallback = extractive_answer(turn.question, turn.evidence, decision, settings, turn.shape.kind)
    if turn.shape.kind is QuestionKind.CHOICE:
        llm = None  # the pick and its deciding sentence are composed from the evidence, the same for every backend
    # Each quoted sentence carries exactly one [n] marker, and a source supports its own sentence.
    fallback.total_sentences = fallback.supported_sentences = 0 if fallback.refused else fallback.text.count(" [")
    answer, first_token, last_token = fallback, None, None
    pieces: list[str] = []
    lead = near_miss_lead(decision)  # said first, whatever writes the rest
    if lead:
        yield StreamEvent("token", text=f"{lead}\n\n")
    if llm is not None and not decision.refused:
        try:
            for piece in llm.stream(build_messages(turn, settings), settings.llm.llm_max_tokens):
                last_token = time.perf_counter()
                first_token = first_token or last_token
                pieces.append(piece)
                yield StreamEvent("token", text=piece)
        except Exception as exc:  # any backend failure: one line, then the extractive answer
            reason = str(exc) if isinstance(exc, BackendError) else f"{backend} backend failed: {exc}"
            fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=reason.rstrip("."))
            pieces = []
        if "".join(pieces).strip():
            answer = _led(turn, "".join(pieces), backend, fallback, settings, sentences, embed)
        elif not fallback.notice:
            fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=f"the {backend} backend returned no text")
    else:
        yield StreamEvent("token", text=fallback.text)
    if answer is fallback and not answer.evidence_sentences:
        answer.evidence_sentences = _quoted(turn, [c.n for c in answer.citations], settings)
    answer = _with_table(answer, turn, settings)
    if lead:
        answer.text, answer.missing = f"{lead}\n\n{answer.text}", [m.words for m in decision.missing]
    done = time.perf_counter()
    answer.backend = backend
    answer.query = turn.query
    answer.corrections = dict(turn.corrections)
    answer.ranked_paper_ids = turn.ranked_paper_ids
    first = (first_token or done) - turn.started
    if first_token and last_token and last_token > first_token and len(pieces) > 1:  # stream pieces ≈ tokens
        answer.tokens_per_s = (len(pieces) - 1) / (last_token - first_token)
    answer.timings_ms = {"retrieve": turn.retrieve_ms, "first_token": first * 1000,
                         "answer": (done - turn.started) * 1000 - turn.retrieve_ms,
                         "total": (done - turn.started) * 1000}
    turn.answer = answer
    yield StreamEvent("done", answer=answer)


def _led(turn: Turn, raw: str, backend: str, fallback: Answer, settings: Settings,
         sentences: SentenceIndex, embed: Callable[[list[str]], Any]) -> Answer:
    """The model's checked sentences lead; the extractive plan follows as the evidence. The model's job is only
    to say the answer in a sentence or two: every one of its sentences is checked against the sources, and what
    the answer states beyond that is the sources' own sentences (so a fact the model left out is still there)."""
    checked = check_citations(raw, turn.question, turn.decision.chosen, sentences, embed,
                              settings.answer.min_support, settings.answer)
    if checked.supported == 0 or checked.share < settings.answer.min_supported_share:
        fallback.notice = prompts.FALLBACK_NOTE.format(backend=backend)
        return fallback
    abstracts = [sentences.texts[row] for _, e in turn.decision.chosen for row in sentences.rows_of.get(
        e.hit.paper.paper_id, [])]
    # A sentence copied from an abstract says nothing in the model's own words (the plan below quotes anyway).
    own = _own_sentences(checked.text, [fallback.text, *abstracts], settings.answer.repeat_share)
    if not own:
        return fallback
    copied = len(_cited(checked.text)) - len(own)
    checked.text, checked.supported, checked.total = " ".join(own), checked.supported - copied, checked.total - copied
    by_n = dict(turn.decision.chosen)
    shown = {c.n for c in fallback.citations}
    citations = fallback.citations + [Citation.of(n, by_n[n]) for n in checked.cited if n not in shown]
    answer = Answer(question=turn.question, text=f"{checked.text}\n\n{prompts.EVIDENCE_HEADING}\n\n{fallback.text}",
                    refused=False, citations=citations, sources=fallback.sources,
                    supported_sentences=checked.supported + fallback.supported_sentences,
                    total_sentences=checked.total + fallback.total_sentences)
    answer.evidence_sentences = dict(fallback.evidence_sentences)
    answer.evidence_sentences.update(_quoted(turn, [n for n in checked.cited if n not in shown], settings))
    return answer


def _cited(text: str) -> list[str]:
    """The checked text's sentences, each with its [n] markers (every checked sentence ends with them)."""
    return [piece for piece in re.split(r"(?<=\])\s+(?!\[)", text.strip()) if piece]


def _own_sentences(lead: str, evidence: list[str], share: float) -> list[str]:
    """The lead's sentences that do not have ``share`` of their topic words in one sentence of ``evidence``
    (stemmed)."""
    from rag.tokens import content_words, stems
    from rag.verify import repeats, strip_markers

    quoted = [stems(content_words(strip_markers(s))) for text in evidence for s in split_sentences(text)]
    own = []
    for sentence in _cited(lead):
        words = stems(content_words(strip_markers(sentence)))
        if words and not any(repeats(words, q, share) for q in quoted):
            own.append(sentence)
    return own
