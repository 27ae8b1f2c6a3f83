"""Spelling: typos read as the corpus word meant, real words the corpus lacks left alone."""

from __future__ import annotations

import pytest

from rag.evaluation.bench_typos import misspell
from rag.settings import Settings
from rag.settings import DecisionSettings
from rag.spelling import Speller, apply_corrections, english_words, frame_typos

CORPUS = ["robust watermarking of generated video", "watermarking images against removal attacks",
          "a watermarking scheme for diffusion models", "the house of quantization", "house prices",
          "attention kernels", "tokenizer design for code", "tokenizer merges"]


@pytest.fixture(scope="module")
def speller() -> Speller:
    return Speller.from_texts(CORPUS, DecisionSettings())


class TestSpeller:
    def test_a_typo_is_read_as_the_corpus_word(self, speller: Speller) -> None:
        assert speller.correction("wtermarking") == "watermarking"
        assert speller.correction("Watermakring") == "watermarking"  # swapped letters, any case

    def test_long_words_may_be_two_edits_away_short_ones_one(self, speller: Speller) -> None:
        assert speller.correction("wtermarkng") == "watermarking"
        assert speller.correction("atetnion") is None  # 8 letters but "attention" is in too few papers

    def test_a_word_too_few_papers_use_is_no_correction(self, speller: Speller) -> None:
        assert speller.correction("tokeniser") is None  # "tokenizer": two papers, below spelling_min_papers

    def test_english_words_and_short_strings_are_not_typos(self, speller: Speller) -> None:
        assert "horse" in english_words() and "monsoon" in english_words()
        assert speller.correction("horse") is None  # a real word the corpus lacks, though "house" is one edit away
        assert speller.correction("wtrm") is None and speller.correction("gpt-4o") is None

    def test_apply_replaces_whole_words_only(self) -> None:
        text = apply_corrections("Wtermarking of wtermarking-free video", {"wtermarking": "watermarking"})
        assert text == "watermarking of wtermarking-free video"


class TestNames:
    def test_a_typo_of_a_name_one_paper_gives_itself_is_that_name_as_written(self) -> None:
        speller = Speller.from_texts([*CORPUS, "futurefill fast generation"], DecisionSettings(),
                                     names=["FutureFill", "TRIM-KV", "Tactic"])
        assert speller.correction("FuturFill") == "FutureFill"  # one paper uses it: still a name
        assert speller.correction("Tactik") == "Tactic"
        assert speller.correction("TRIMKVV") is None  # (a name with a hyphen is matched without one: not a typo here)
        assert speller.correction("tokeniser") is None  # plain words keep their threshold

    def test_the_index_reads_a_misspelt_name_and_an_acronym_of_a_titles_name(self, seed_index) -> None:
        from rag.engine import Engine

        engine = Engine(Settings(index_dir=seed_index, backend="extractive"))
        typo = engine.ask("What does FuturFill speed up?")
        assert not typo.refused and typo.corrections == {"futurfill": "FutureFill"}
        assert typo.citations[0].paper_id == "t5GUEuIsxR"
        coined = engine.ask("What does the SBM paper do?")  # "Spectral Bellman Method: …", written nowhere as SBM
        assert not coined.refused and coined.corrections == {"sbm": "Spectral Bellman Method"}
        assert coined.citations[0].paper_id == "tHmiydOQhn"


class TestMisspell:
    def test_one_deterministic_error_keeping_the_first_letter(self) -> None:
        first = misspell("q-1", "Which papers study watermarking of videos?", known=lambda word: False)
        assert first == misspell("q-1", "Which papers study watermarking of videos?", known=lambda word: False)
        assert first is not None and first.word in ("watermarking", "videos")
        assert first.typo[0] == first.word[0] and first.typo != first.word
        assert abs(len(first.typo) - len(first.word)) <= 1
        assert first.question == "Which papers study watermarking of videos?".replace(first.word, first.typo)

    def test_typos_that_spell_a_known_word_are_skipped(self) -> None:
        made = misspell("q-2", "Which papers study watermarking?", known=lambda word: word != "watermarkng")
        assert made is not None and made.typo == "watermarkng"
        assert misspell("q-3", "What is TRIM-KV?", known=lambda word: False) is None  # names are not misspelt


class TestEngine:
    QUESTION = "Which papers speed up autoregresive image generation?"

    def test_a_typo_in_a_large_index_is_corrected_and_said(self, seed_index) -> None:
        from rag.engine import Engine

        answer = Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1, backend="extractive")).ask(
            self.QUESTION)
        assert not answer.refused and answer.corrections == {"autoregresive": "autoregressive"}
        assert {"rJdGst0W8s", "qIujRzzWnd"} & {c.paper_id for c in answer.citations}
        assert answer.query == "Which papers speed up autoregressive image generation?"
        assert answer.to_json()["corrections"] == {"autoregresive": "autoregressive"}

    def test_a_typo_in_a_small_index_is_corrected_and_never_refused_for(self, seed_index) -> None:
        from rag.engine import Engine

        engine = Engine(Settings(index_dir=seed_index, backend="extractive"))  # 36 papers: under the size to refuse
        answer = engine.ask(self.QUESTION)
        assert not answer.refused and answer.corrections == {"autoregresive": "autoregressive"}
        assert not engine.ask("Which paper forecasts monsoon rainfall?").refused  # (absent here, no refusal for it)

    def test_without_correction_the_typo_is_refused_by_name(self, seed_index) -> None:
        from rag.engine import Engine

        answer = Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1, spelling=False,
                                 backend="extractive")).ask(self.QUESTION)
        assert answer.refused and "“autoregresive”" in answer.text and answer.corrections == {}

    def test_the_llm_is_asked_the_corrected_question(self, seed_index) -> None:
        from fakes import FakeLLM

        from rag.engine import Engine

        llm = FakeLLM("ARPG decodes tokens in parallel [1].")
        answer = Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1)).ask(self.QUESTION, backend=llm)
        prompt = llm.requests[0][-1].content
        assert "speed up autoregressive image generation" in prompt and "autoregresive" not in prompt
        assert answer.corrections == {"autoregresive": "autoregressive"}

    def test_a_word_only_the_llm_translation_uses_is_never_refused(self, seed_index) -> None:
        from fakes import FakeLLM

        from rag.engine import Engine

        engine = Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1))
        llm = FakeLLM("Are there papers that punish watermark removal in video diffusion models?",
                      "SIGMark embeds a watermark in videos while they are generated [1].")
        answer = engine.ask("有没有关于视频扩散模型水印的论文？", backend=llm)  # "punish": no abstract has it
        assert "punish" in answer.query and not answer.refused
        assert answer.citations[0].paper_id == "tKyAD2LhnI" and answer.corrections == {}
        monsoon = engine.ask("Which paper forecasts monsoon rainfall?", backend=FakeLLM("unused"))
        assert monsoon.refused and "“monsoon”" in monsoon.text  # the user's own word still is

    def test_the_terminal_prints_the_correction(self, seed_index, capsys: pytest.CaptureFixture[str]) -> None:
        from rag.chat import print_streamed
        from rag.engine import Engine

        engine = Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1, backend="extractive"))
        print_streamed(engine.stream(self.QUESTION))
        assert "No indexed abstract contains “autoregresive”, so I searched for “autoregressive” instead." \
            in capsys.readouterr().out


@pytest.mark.parametrize("written, read", [
    ("How is its approach diffrent from the MoH framework?", "How is its approach different from the MoH framework?"),
    ("comapre TRIM-KV and Tactic", "compare TRIM-KV and Tactic"),
    ("Whcih one needs less memory?", "which one needs less memory?"),
    ("What is MetaMuse?", "What is MetaMuse?"),  # a name, not one edit from a frame word
    ("How does it differ?", "How does it differ?"),
])
def test_a_misspelt_frame_word_is_read_as_the_frame_word(written: str, read: str) -> None:
    assert frame_typos(written) == read
