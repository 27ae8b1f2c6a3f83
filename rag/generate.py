"""Generation stage: the LLM says the answer in a sentence or two; each of its sentences is shown only once checked
(``rag.checked_stream``); the extractive answer plan follows it as the evidence. Nothing shown is replaced.

The extractive answer is built first and is all the user gets when the question is refused, when no LLM is
configured, when the backend fails, or when the model's first sentence does not hold up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rag import prompts
from rag.answer import extractive_answer, near_miss_lead
from rag.backends import BackendError, LLMBackend, Message
from rag.checked_stream import CheckedStream
from rag.gist import gist_part
from rag.settings import Settings
from rag.table import comparison_table
from rag.types import Answer, Citation, QuestionKind, StreamEvent, Turn
from rag.verify import markers

if TYPE_CHECKING:
    from rag.retrieval.rankers import SentenceIndex


def build_messages(turn: Turn, settings: Settings, constrained: bool = False) -> list[Message]:
    """Evidence first: a few of each chosen paper's best sentences (abstract order), labelled [n]. ``constrained``:
    the prompts of the local model's one JSON sentence (``gist_schema``), else those of free text."""
    # Fewer sentences per paper when there are more papers: the prompt's length is the time to first token.
    per_paper = {QuestionKind.LIST: 1, QuestionKind.COMPARISON: 2}.get(turn.shape.kind,
                                                                       settings.answer.evidence_sentences)
    blocks = []
    for n, item in turn.decision.chosen:
        best = sorted(item.sentences[:per_paper], key=lambda s: s.position)
        text = " ".join(s.text for s in best)
        blocks.append(prompts.SOURCE_BLOCK.format(n=n, title=item.hit.paper.display_title, sentences=text))
    system = prompts.GIST_SYSTEM if constrained else {QuestionKind.COMPARISON: prompts.COMPARISON_SYSTEM,
                                                      QuestionKind.LIST: prompts.LIST_SYSTEM}.get(
        turn.shape.kind, prompts.ANSWER_SYSTEM)
    # The words the evidence was found for: typos read as the corpus words searched for.
    user = (prompts.GIST_USER if constrained else prompts.ANSWER_USER).format(
        question=turn.corrected_question, sources="\n\n".join(blocks))
    return [Message("system", system), Message("user", user)]


def _with_table(answer: Answer, turn: Turn, settings: Settings) -> Answer:
    """A comparison ends with the table of every compared paper. Its cells quote those papers, so each row's
    paper is cited even when the backend's prose spoke of only one of them."""
    chosen = [(n, e) for n, e in turn.decision.chosen if e.hit.part is not None]
    if turn.shape.kind is QuestionKind.COMPARISON and len(chosen) >= 2 and not answer.refused:
        answer.text = f"{answer.text}\n\n{comparison_table(chosen)}"
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
    """Yield ``token`` events as checked text is ready (nothing yielded is ever replaced: the answer's text is their
    concatenation), then one ``done`` event with the answer."""
    decision = turn.decision
    fallback = extractive_answer(turn.question, turn.evidence, decision, settings, turn.shape.kind,
                                 frozenset(p for shown in turn.table for p in shown.listed))
    if turn.shape.kind is QuestionKind.CHOICE:
        llm = None  # the pick and its deciding sentence are composed from the evidence, the same for every backend
    # Each quoted sentence carries exactly one [n] marker, and a source supports its own sentence.
    fallback.total_sentences = fallback.supported_sentences = 0 if fallback.refused else fallback.text.count(" [")
    streamed: list[str] = []
    shown_at: list[float] = []  # when the first checked text was shown

    def show(text: str) -> StreamEvent:
        streamed.append(text)
        shown_at.append(time.perf_counter())
        return StreamEvent("token", text=text)

    lead = near_miss_lead(decision)  # said first, whatever writes the rest
    if lead:
        yield show(f"{lead}\n\n")
    answer, speed = fallback, 0.0
    if llm is not None and not decision.refused:
        checked = CheckedStream(turn, settings, sentences, embed, [fallback.text, *_abstracts(turn, sentences)])
        if hasattr(llm, "stream_json"):  # the local model: the plan at once, then its one checked sentence
            # (about one paper only: one sentence over several joins what they say, which no source states)
            yield show(fallback.text)
            if turn.shape.kind is QuestionKind.SINGLE:
                speed = yield from gist_part(turn, llm, build_messages(turn, settings, constrained=True), checked,
                                             fallback, show)
            answer = _with_gist(turn, checked, fallback, settings)
        else:  # a hosted model writes the answer's first sentences, each shown once checked
            speed = yield from _model_part(turn, llm, backend, settings, checked, fallback, show)
            answer = _composed(turn, checked, fallback, settings)
    if answer is fallback and not answer.evidence_sentences:
        answer.evidence_sentences = _quoted(turn, [c.n for c in answer.citations], settings)
    answer = _with_table(answer, turn, settings)
    if lead:
        answer.text = f"{lead}\n\n{answer.text}"
    answer.missing = [m.words for m in decision.missing]  # also of a "No: …" to "Is there a paper on …?"
    if turn.shape.kind is QuestionKind.CHOICE and decision.pick is not None:
        answer.picked = next((e.hit.paper.paper_id for n, e in decision.chosen if n == decision.pick), "")
    written = "".join(streamed)
    if answer.text.startswith(written) and len(answer.text) > len(written):  # the rest: evidence, table
        yield show(answer.text[len(written):])
    done = time.perf_counter()
    answer.backend = backend
    answer.query = turn.query
    answer.corrections = dict(turn.corrections)
    answer.ranked_paper_ids = turn.ranked_paper_ids
    answer.tokens_per_s = speed
    first = (shown_at[0] if shown_at else done) - turn.started
    answer.timings_ms = {"retrieve": turn.retrieve_ms, "first_token": first * 1000,
                         "answer": (done - turn.started) * 1000 - turn.retrieve_ms,
                         "total": (done - turn.started) * 1000}
    turn.answer = answer
    yield StreamEvent("done", answer=answer)


def _model_part(turn: Turn, llm: LLMBackend, backend: str, settings: Settings, checked: CheckedStream,
                fallback: Answer, show: Callable[[str], StreamEvent]) -> Iterator[StreamEvent]:
    """Stream the model's reply through ``checked``, showing each sentence that passes; stop the model at the first
    that fails. Returns the generation speed (tokens/s, 0 when unknown)."""
    first = last = None
    count = 0
    replies = llm.stream(build_messages(turn, settings), settings.llm.llm_max_tokens)
    try:
        for piece in replies:
            last = time.perf_counter()
            first, count = first or last, count + 1
            if new := checked.feed(piece):
                yield show(new if checked.text == new else f" {new}")  # the first sentence, or one more
            if checked.stopped:
                break
        else:
            if new := checked.finish():
                yield show(new if checked.text == new else f" {new}")
    except Exception as exc:  # any backend failure: one line, then the extractive answer (what was shown stays)
        reason = str(exc) if isinstance(exc, BackendError) else f"{backend} backend failed: {exc}"
        if not checked.shown:
            fallback.notice = prompts.BACKEND_FAILED_NOTE.format(reason=reason.rstrip("."))
    finally:
        close = getattr(replies, "close", None)
        if close is not None:
            close()  # a local model stops generating
    held = checked.checked is not None and checked.checked.supported > 0  # (only copies of the evidence: no note)
    if not checked.shown and not fallback.notice and not held:
        fallback.notice = (prompts.FALLBACK_NOTE.format(backend=backend) if checked.raw.strip() else
                           prompts.BACKEND_FAILED_NOTE.format(reason=f"the {backend} backend returned no text"))
    return (count - 1) / (last - first) if first and last and last > first and count > 1 else 0.0


def _abstracts(turn: Turn, sentences: SentenceIndex) -> list[str]:
    return [sentences.texts[row] for _, e in turn.decision.chosen
            for row in sentences.quotable_rows(e.hit.paper.paper_id)]


def _with_gist(turn: Turn, checked: CheckedStream, fallback: Answer, settings: Settings) -> Answer:
    """The plan, then the model's checked sentence (if it held up), which may cite a source the plan did not."""
    failed = len(checked.checked.removed) if checked.checked else 0
    fallback.total_sentences += len(checked.shown) + failed
    if not checked.shown:
        return fallback
    fallback.text = f"{fallback.text}\n\n{prompts.GIST.format(sentence=checked.text)}"
    fallback.supported_sentences += len(checked.shown)
    by_n, cited = dict(turn.decision.chosen), {c.n for c in fallback.citations}
    added = [n for n in dict.fromkeys(markers(checked.text)) if n in by_n and n not in cited]
    fallback.citations += [Citation.of(n, by_n[n]) for n in added]
    fallback.evidence_sentences = {**_quoted(turn, [c.n for c in fallback.citations], settings),
                                   **fallback.evidence_sentences}
    fallback.model_sentences = len(checked.shown)
    return fallback


def _composed(turn: Turn, checked: CheckedStream, fallback: Answer, settings: Settings) -> Answer:
    """The model's checked sentences lead; the extractive plan follows as the evidence. The model's job is only
    to say the answer in a sentence or two: what the answer states beyond that is the sources' own sentences (so a
    fact the model left out is still there). Nothing of the model's held up: the extractive answer."""
    if not checked.shown:
        return fallback
    by_n = dict(turn.decision.chosen)
    shown = {c.n for c in fallback.citations}
    cited = [n for n in dict.fromkeys(n for s in checked.shown for n in markers(s)) if n in by_n]
    failed = len(checked.checked.removed) if checked.checked else 0
    answer = Answer(question=turn.question, text=f"{checked.text}\n\n{prompts.EVIDENCE_HEADING}\n\n{fallback.text}",
                    refused=False, citations=fallback.citations + [Citation.of(n, by_n[n]) for n in cited
                                                                   if n not in shown],
                    sources=fallback.sources, supported_sentences=len(checked.shown) + fallback.supported_sentences,
                    total_sentences=len(checked.shown) + failed + fallback.total_sentences)
    answer.evidence_sentences = dict(fallback.evidence_sentences)
    answer.evidence_sentences.update(_quoted(turn, [n for n in cited if n not in shown], settings))
    return answer
