"""LLM answers with a fake backend (queued replies): citation checking, fallbacks, streaming, follow-ups,
comparisons and scoping, all on the real seed index."""

from __future__ import annotations

import time

import pytest
from fakes import FakeLLM

from rag.chat import ChatSession
from rag.prompts import EVIDENCE_HEADING, REFUSAL
from rag.table import COLUMNS, NOT_STATED
from rag.verify import markers

TRIM_KV, TACTIC = "qCaq3jGb0S", "tJod11fK1A"
QUESTION = "What is TRIM-KV?"
# A sentence the TRIM-KV abstract supports in other words (a copy of an evidence sentence would add nothing and is
# left out: the evidence is shown under the model's sentences anyway).
GATE = "TRIM-KV keeps the tokens that a lightweight retention gate, learned per token, scores as important"


def lead_of(text: str) -> str:
    """The model's checked sentences: what comes before the sources' own sentences."""
    return text.split(f"\n\n{EVIDENCE_HEADING}\n\n")[0]


def unsupported(answer) -> int:
    return answer.total_sentences - answer.supported_sentences


def number_of(engine, paper_id: str, question: str = QUESTION) -> int:
    prepared = engine.prepare(question)
    return next(n for n, e in prepared.decision.chosen if e.hit.paper.paper_id == paper_id)


class TestCitationChecking:
    def test_a_supported_sentence_keeps_its_citation(self, engine) -> None:
        n = number_of(engine, TRIM_KV)
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{GATE} [{n}]."))
        assert lead_of(answer.text) == f"{GATE}. [{n}]" and [c.paper_id for c in answer.citations] == [TRIM_KV]
        assert EVIDENCE_HEADING in answer.text  # the sources' own sentences follow the model's
        assert unsupported(answer) == 0 and answer.supported_sentences > 1 and answer.notice == ""
        assert answer.backend == "fake"

    def test_a_missing_or_wrong_citation_is_replaced_by_the_supporting_source(self, engine) -> None:
        n = number_of(engine, TRIM_KV)
        for reply in (f"{GATE}.", f"{GATE} [{n + 7}].", f"{GATE} [{n + 1}]."):
            answer = engine.ask(QUESTION, backend=FakeLLM(reply))
            assert markers(lead_of(answer.text)) == [n] and answer.citations[0].paper_id == TRIM_KV

    def test_an_unsupported_sentence_is_removed_and_counted(self, engine) -> None:
        reply = f"{GATE} [1]. It was trained on LibriSpeech with 512 GPUs for three weeks [1]. Hello!"
        answer = engine.ask(QUESTION, backend=FakeLLM(reply))
        assert "LibriSpeech" not in answer.text and GATE in lead_of(answer.text)
        assert unsupported(answer) == 1

    def test_an_invented_number_is_not_supported(self, engine) -> None:
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{GATE}, giving a 37.5x speedup [1]."))
        assert "37.5x" not in answer.text and answer.notice  # nothing survived: the extractive answer

    def test_a_fluent_sentence_in_words_the_source_never_uses_is_not_supported(self, engine) -> None:
        invented = "TRIM-KV covers model selection, hyperparameter tuning, evaluation and deployment [1]."
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{GATE} [1]. {invented}"))
        assert "deployment" not in answer.text and unsupported(answer) == 1

    def test_too_little_support_falls_back_to_the_extractive_answer(self, engine) -> None:
        extractive = engine.ask(QUESTION, backend="extractive")
        answer = engine.ask(QUESTION, backend=FakeLLM("Paris is the capital of France [1]. Cats purr when happy [2]."))
        assert answer.text == extractive.text and "did not hold up" in answer.notice
        assert answer.citations == extractive.citations

    def test_a_repeated_sentence_is_kept_once(self, engine) -> None:
        # The local 0.5B sometimes loops, writing one supported sentence over and over.
        n = number_of(engine, TRIM_KV)
        other = "TRIM-KV retains only the most important tokens in a memory-bounded KV cache"
        reply = f"{GATE} [{n}]. {GATE} [{n}]. {other} [{n}]. {GATE}, [{n}]"
        answer = engine.ask(QUESTION, backend=FakeLLM(reply))
        assert answer.text.count(GATE) == 1 and other in lead_of(answer.text) and answer.notice == ""
        assert unsupported(answer) == 0

    def test_the_same_words_citing_another_paper_are_not_a_repeat(self, engine) -> None:
        question = "Compare TRIM-KV and Tactic"
        numbers = {e.hit.paper.paper_id: n for n, e in engine.prepare(question).decision.chosen}
        said = "Long-context LLM inference is bottlenecked by the KV cache"
        reply = f"{said} [{numbers[TRIM_KV]}]. {said} [{numbers[TACTIC]}]."
        answer = engine.ask(question, backend=FakeLLM(reply))
        assert answer.text.split("\n\n")[0].count(said) == 2

    def test_a_title_echoed_as_a_lead_in_is_dropped(self, engine) -> None:
        reply = f"Cache What Lasts: Token Retention for Memory-Bounded KV Cache in LLMs: {GATE} [1]."
        assert lead_of(engine.ask(QUESTION, backend=FakeLLM(reply)).text) == f"{GATE}. [1]"

    def test_a_list_answer_names_every_paper_that_passed_the_cut(self, engine) -> None:
        question = "Which papers are about the KV cache of long-context LLMs?"
        prepared = engine.prepare(question)
        first = prepared.decision.chosen[0]
        reply = f"{first[1].sentences[0].text} [{first[0]}]"
        answer = engine.ask(question, backend=FakeLLM(reply))
        assert {c.n for c in answer.citations} == {n for n, _ in prepared.decision.chosen}
        assert all(f"[{n}]" in answer.text.split(EVIDENCE_HEADING)[-1] for n, _ in prepared.decision.chosen)

    def test_a_copied_abstract_sentence_is_no_lead(self, engine) -> None:
        # The 0.5B often copies the first evidence sentence, the field's background: that is no answer.
        extractive = engine.ask(QUESTION, backend="extractive")
        background = ("Memory and computation remain core bottlenecks in long-horizon LLM inference due to the "
                      "quadratic cost of self-attention and the ever-growing key-value (KV) cache")
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{background} [1]."))
        assert answer.text == extractive.text and EVIDENCE_HEADING not in answer.text

    def test_of_a_lead_only_the_sentences_in_the_models_own_words_stay(self, engine) -> None:
        background = ("Memory and computation remain core bottlenecks in long-horizon LLM inference due to the "
                      "quadratic cost of self-attention and the ever-growing key-value (KV) cache")
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{GATE} [1]. {background} [1]."))
        assert lead_of(answer.text) == f"{GATE}. [1]" and unsupported(answer) == 0

    def test_a_copied_evidence_sentence_is_not_said_twice(self, engine) -> None:
        extractive = engine.ask(QUESTION, backend="extractive")
        copied = extractive.text.split(" [")[0].split("**: ")[-1]
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{copied} [1]."))
        assert answer.text == extractive.text and answer.notice == ""

    def test_every_citation_points_at_a_listed_source(self, engine) -> None:
        answer = engine.ask(QUESTION, backend=FakeLLM(f"{GATE} [1][4][12]."))
        listed = {s.rank for s in answer.sources}
        assert set(markers(answer.text)) <= listed and {c.n for c in answer.citations} <= listed


class TestDecisionsStayWithTheSystem:
    def test_an_out_of_corpus_question_is_refused_without_asking_the_model(self, engine) -> None:
        llm = FakeLLM("The capital of Australia is Canberra [1].")
        answer = engine.ask("What is the capital city of Australia?", backend=llm)
        assert answer.refused and answer.text == REFUSAL and llm.requests == []

    def test_a_failing_backend_gives_one_line_and_the_extractive_answer(self, engine) -> None:
        answer = engine.ask(QUESTION, backend=FakeLLM(fail=ConnectionError("connection refused")))
        assert answer.citations[0].paper_id == TRIM_KV and not answer.refused
        assert "connection refused" in answer.notice and "\n" not in answer.notice

    def test_the_model_sees_evidence_sentences_not_whole_abstracts(self, engine) -> None:
        llm = FakeLLM(f"{GATE} [1].")
        engine.ask(QUESTION, backend=llm)
        prompt = llm.requests[0][-1].content
        assert "[1] Cache What Lasts" in prompt and prompt.count("\n- ") <= engine.settings.answer.evidence_sentences * 3


class TestStreaming:
    def test_sources_come_before_the_first_token_and_the_checked_answer_last(self, engine) -> None:
        events = list(engine.stream(QUESTION, backend=FakeLLM(f"{GATE} [1].")))
        kinds = [e.kind for e in events]
        assert kinds[0] == "sources" and kinds[-1] == "done" and kinds.count("token") >= 2
        assert events[0].sources[0].paper.paper_id == TRIM_KV
        timings = events[-1].answer.timings_ms
        assert timings["retrieve"] <= timings["first_token"] <= timings["total"]

    def test_only_checked_sentences_are_streamed_and_nothing_shown_is_replaced(self, engine) -> None:
        """The model's first sentence is shown once checked (a whole sentence, with its [n]); the second, which
        no source supports, is never shown and stops the model; the answer's text is exactly what was streamed."""
        invented = "It was trained on 40,000 hours of speech recordings from LibriSpeech [1]."
        llm = FakeLLM(f"{GATE} [1]. {invented} The gate is learned by distillation [1].")
        events = list(engine.stream(QUESTION, backend=llm))
        tokens = [e.text for e in events if e.kind == "token"]
        answer = events[-1].answer
        assert tokens[0].startswith("TRIM-KV keeps the tokens") and tokens[0].rstrip().endswith("[1]")
        assert "".join(tokens) == answer.text and "LibriSpeech" not in answer.text
        assert "distillation [1]" not in answer.text.split(EVIDENCE_HEADING)[0]  # stopped at the failure
        assert answer.total_sentences == answer.supported_sentences + 1 and answer.notice == ""

    def test_a_model_whose_first_sentence_fails_gives_the_extractive_answer_streamed_once(self, engine) -> None:
        extractive = engine.ask(QUESTION, backend="extractive")
        events = list(engine.stream(QUESTION, backend=FakeLLM("It was trained on 40,000 hours of LibriSpeech [1].")))
        tokens = [e.text for e in events if e.kind == "token"]
        assert tokens == [extractive.text] and "did not hold up" in events[-1].answer.notice


class TestConversations:
    def test_a_follow_up_keeps_the_last_answers_papers(self, engine) -> None:
        session = ChatSession(engine, backend="extractive")
        session.ask("What is TRIM-KV?")
        answer = session.ask("How does it differ from Tactic?")
        cited = {c.paper_id for c in answer.citations}
        assert {TRIM_KV, TACTIC} <= cited

    def test_the_llm_rewrites_a_follow_up_into_a_standalone_query(self, engine) -> None:
        llm = FakeLLM("What decode attention speedup does Tactic report?",
                      "Tactic achieves up to 5.14x decode attention speedup [1].")
        answer = engine.ask("What speedup does it report?", history=["Tell me about Tactic"], backend=llm)
        assert "Rewrite" in llm.requests[0][0].content and "Tell me about Tactic" in llm.requests[0][1].content
        assert answer.query.startswith("What decode attention speedup does Tactic report?")
        assert answer.citations[0].paper_id == TACTIC and "5.14x" in answer.text

    def test_a_rewrite_that_changes_the_subject_is_ignored(self, engine) -> None:
        llm = FakeLLM("Who won the 2018 FIFA World Cup?", "Tactic achieves up to 5.14x decode attention speedup [1].")
        answer = engine.ask("What speedup does it report?", history=["Tell me about Tactic"], backend=llm)
        assert "FIFA" not in answer.query and answer.citations[0].paper_id == TACTIC

    def test_a_rewrite_does_not_turn_a_follow_up_into_a_comparison(self, engine) -> None:
        # The local 0.5B wrote "compared to" for "than": on seeds + 4,302 that compared two unrelated papers.
        question, history = "How much bigger is the new dataset than the previous version?", ["What is TikZilla?"]
        rewrite = "How much larger is the new TikZilla dataset compared to the previous version?"
        llm = FakeLLM(rewrite, "The new dataset is four times larger than the previous version [1].")
        answer = engine.ask(question, history=history, backend=llm)
        assert answer.query.startswith(rewrite) and answer.citations[0].paper_id == "rJv2byEWA3"
        assert engine.prepare(question, history=history, query=answer.query).shape.kind == "single"


class TestTranslation:
    SIGMARK = "tKyAD2LhnI"

    def test_a_chinese_question_is_retrieved_with_the_llm_translation(self, engine) -> None:
        llm = FakeLLM("Are there papers on watermarking video diffusion models?",
                      "SIGMark embeds a watermark in videos while they are generated [1].")
        answer = engine.ask("有没有关于视频扩散模型水印的论文？", backend=llm)
        assert "translator" in llm.requests[0][0].content
        assert answer.query == "Are there papers on watermarking video diffusion models?"
        assert answer.sources[0].paper.paper_id == self.SIGMARK and answer.citations[0].paper_id == self.SIGMARK

    def test_the_translation_counts_in_the_time_to_the_sources(self, engine) -> None:
        class SlowLLM(FakeLLM):
            def stream(self, messages, max_tokens):
                if not self.requests:
                    time.sleep(0.3)  # the translation call
                yield from super().stream(messages, max_tokens)

        engine.warm("extractive")  # so that a cold load cannot account for the time
        llm = SlowLLM("Are there papers on watermarking video diffusion models?", "SIGMark watermarks videos [1].")
        timings = engine.ask("有没有关于视频扩散模型水印的论文？", backend=llm).timings_ms
        assert 300 <= timings["retrieve"] <= timings["first_token"] <= timings["total"]

    @pytest.mark.parametrize("question, reply, kept", [
        # Translated up to its question, then a statement the model made up: the question is kept.
        ("LLM里的attention sink和表征压缩有什么联系？听说有论文归因于massive activations？",
         "What links attention sinks and representation compression in LLMs? A paper says massive activations.",
         "What links attention sinks and representation compression in LLMs?"),
        # Plain English words written in Latin letters may be reworded; only names must stay.
        ("有没有用MLLM做reasoning video segmentation的方法？",
         "Are there methods that use an MLLM to segment videos by reasoning?",
         "Are there methods that use an MLLM to segment videos by reasoning?"),
        ("有没有用MLLM做reasoning video segmentation的方法？", "Are there methods to segment videos by reasoning?",
         None),  # the name MLLM is lost
        ("StateLM 是怎么管理上下文的？能在一百万token里做大海捞针吗？",
         "In StateLM, the model manages its context with tools. It can find a needle in a million tokens.",
         None),  # no question left: an answer
    ])
    def test_a_translation_keeps_the_question_and_its_names(self, question, reply, kept) -> None:
        from rag.translate import llm_translate

        assert llm_translate(FakeLLM(reply), question) == kept

    @pytest.mark.parametrize("question, reply", [
        ("澳大利亚的首都是哪里？", "The capital of Australia is Canberra."),  # an answer, not a translation
        ("TRIM-KV 是什么？", "What is it?"),  # lost the name
        ("TRIM-KV 是什么？", "TRIM-KV 是什么？"),  # not translated
    ])
    def test_a_translation_failing_its_checks_leaves_the_multilingual_path(self, engine, question, reply) -> None:
        answer = engine.ask(question, backend=FakeLLM(reply, "TRIM-KV learns a retention gate [1]."))
        assert answer.query == question
        if "TRIM-KV" in question:
            assert answer.sources[0].paper.paper_id == TRIM_KV
        else:
            assert answer.refused


class TestComparisons:
    def test_a_comparison_ends_with_a_table_whose_cells_cite_the_compared_papers(self, engine) -> None:
        question = "Compare TRIM-KV and Tactic"
        prepared = engine.prepare(question)
        numbers = {e.hit.paper.paper_id: n for n, e in prepared.decision.chosen}
        reply = (f"TRIM-KV learns each token's intrinsic importance with a retention gate [{numbers[TRIM_KV]}]. "
                 f"Tactic selects tokens by a target fraction of total attention scores [{numbers[TACTIC]}].")
        answer = engine.ask(question, backend=FakeLLM(reply))
        table = answer.text[answer.text.index("| paper |"):].splitlines()
        assert table[0] == "| paper | " + " | ".join(COLUMNS) + " |" and len(table) == 4
        for row in table[2:]:
            n = markers(row.split("|")[1])[0]
            cells = row.split("|")[2:5]
            assert all(markers(c) == [n] or c.strip() == NOT_STATED for c in cells)
        assert {c.paper_id for c in answer.citations} == {TRIM_KV, TACTIC}

    def test_a_paper_the_prose_leaves_out_is_still_cited_through_its_table_row(self, engine) -> None:
        # Small models often write about the first compared paper only; the table quotes both.
        question = "Compare TRIM-KV and Tactic"
        prepared = engine.prepare(question)
        n = {e.hit.paper.paper_id: n for n, e in prepared.decision.chosen}[TRIM_KV]
        reply = f"TRIM-KV learns each token's intrinsic importance with a retention gate [{n}]."
        answer = engine.ask(question, backend=FakeLLM(reply))
        assert [c.paper_id for c in answer.citations] == [TRIM_KV, TACTIC]
        assert set(answer.evidence_sentences) == {TRIM_KV, TACTIC}

    def test_picked_papers_are_compared_exactly(self, engine) -> None:
        picked = ["tKyAD2LhnI", TACTIC]
        answer = engine.ask("Compare these papers", compare_ids=picked, backend="extractive")
        assert [s.paper.paper_id for s in answer.sources] == picked
        assert {c.paper_id for c in answer.citations} == set(picked) and "| paper |" in answer.text

    def test_a_chat_scoped_to_picked_papers_only_cites_them(self, engine) -> None:
        picked = [TACTIC, "tKyAD2LhnI"]
        answer = engine.ask("How do these methods reduce cost?", paper_ids=picked, backend="extractive")
        assert {s.paper.paper_id for s in answer.sources} <= set(picked)

    def test_a_scoped_follow_up_does_not_carry_papers_from_outside_the_scope(self, engine) -> None:
        prepared = engine.prepare("How does it work?", history=["What is TRIM-KV?"], carried=[TRIM_KV],
                                  paper_ids=[TACTIC])
        assert {e.hit.paper.paper_id for e in prepared.evidence} == {TACTIC}

    @pytest.mark.parametrize("bad", [["no-such-id"]])
    def test_comparing_an_unknown_paper_is_a_clear_error(self, engine, bad: list[str]) -> None:
        from rag.errors import RagError

        with pytest.raises(RagError, match="unknown paper id"):
            engine.ask("Compare", compare_ids=bad, backend="extractive")


@pytest.mark.slow
def test_the_local_model_answers_with_checked_citations(engine) -> None:
    """The real Qwen2.5-Coder-0.5B (fetched by `rag models fetch`, as the README's commands do)."""
    from rag.models import default_models_dir, fetch_model

    fetch_model(default_models_dir(), "0.5b", progress=False)  # instant when already fetched
    events = list(engine.stream("What speedup does Tactic report?", backend="local"))
    answer = events[-1].answer
    assert events[0].kind == "sources" and "".join(e.text for e in events if e.kind == "token") == answer.text
    assert answer.backend == "local" and not answer.refused
    assert {c.paper_id for c in answer.citations} == {TACTIC}
    assert set(markers(answer.text)) <= {s.rank for s in answer.sources}
    assert 0 < answer.timings_ms["first_token"] < answer.timings_ms["total"]


def test_eval_scores_an_llm_backend(engine, tmp_path) -> None:
    from rag.evaluation.evaluate import run_eval

    path = tmp_path / "q.yaml"
    path.write_text('- id: a\n  question: "What is TRIM-KV?"\n  expect_papers: [qCaq3jGb0S]\n', encoding="utf-8")
    results, summary = run_eval(engine, path, progress=False, backend=FakeLLM(f"{GATE} [1]."))
    scores = results[0].scores
    assert scores["llm_answer_kept"] == 1.0 and scores["supported_share"] == 1.0 and scores["tokens_per_s"] > 0
    assert scores["citation_precision"] == 1.0 and summary["first_token_p50_ms"] > 0
