"""Files derived from a generation (rag.persisted): written at ingest, used on load, rebuilt-from-Chroma fallback
when missing or stale, removed with their generation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rag import persisted
from rag.index import ingest
from rag.persisted import GenerationFiles
from rag.retrieval import HybridRetriever, rankers
from rag.retrieval.names import paper_words
from rag.settings import Settings
from rag.store import IndexStore

from conftest import SEEDS
from test_answers import RARE_NAMES
from test_index import NEW_PAPER, write_jsonl

QUESTIONS = ("What is TRIM-KV?", "Which papers speed up autoregressive image generation?",
             "How can the reward model in RL fine-tuning be made more reliable?", "What is the capital of France?")


def results(retriever: HybridRetriever) -> list[list[tuple[str, float]]]:
    return [[(h.paper.paper_id, h.score) for h in retriever.search(q, 10)] for q in QUESTIONS]


def live_files(index_dir: Path) -> Path:
    store = IndexStore(Settings(index_dir=index_dir))
    return store.files_dir(store.live_generation())


class TestWritten:
    def test_ingest_writes_the_live_generations_files(self, seed_index: Path) -> None:
        store = IndexStore(Settings(index_dir=seed_index))
        folder = live_files(seed_index)
        assert folder == seed_index / "generations" / f"iclr-g{store.live_generation()}"
        assert {p.name for p in folder.iterdir()} == {"bm25", "meta.json", "sentences.npy", "sentences.json",
                                                     "titles.npy", "titles.json", "words.json"}
        meta = json.loads((folder / "meta.json").read_text())
        assert meta["rows"] == {kind: store.collection(kind).count() for kind in ("sentences", "titles")}
        assert meta["papers"] == 36 and meta["generation"] == store.live_generation()

    def test_they_hold_what_chroma_and_a_fresh_build_give(self, seed_index: Path) -> None:
        settings = Settings(index_dir=seed_index)
        store = IndexStore(settings)
        files = GenerationFiles.open(store)
        for kind in ("sentences", "titles"):
            saved, read = files.matrix(kind, store.collection(kind).count()), rankers.SentenceIndex.load(store, kind)
            assert np.array_equal(saved.vectors, read.vectors) and saved.vectors.dtype == np.float32
            assert (saved.paper_ids, saved.texts, saved.positions, saved.rows_of) == (
                read.paper_ids, read.texts, read.positions, read.rows_of)
        papers = {pid: s.paper for pid, s in store.stored_papers().items()}
        saved, built = files.bm25(list(papers.values()), settings.retrieval), rankers.build_bm25(
            list(papers.values()), settings.retrieval)
        assert saved.vocab_dict == built.vocab_dict and saved.corpus == built.corpus
        assert all(np.array_equal(saved.scores[k], built.scores[k]) for k in ("data", "indices", "indptr"))
        assert files.words(papers) == paper_words(papers)


class TestUsed:
    def test_a_retriever_loads_them_instead_of_rebuilding(self, seed_index: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
        def not_called(*args: object, **kwargs: object) -> None:
            raise AssertionError("rebuilt although the files are there")

        monkeypatch.setattr(rankers, "build_bm25", not_called)
        monkeypatch.setattr(rankers.SentenceIndex, "load", not_called)
        monkeypatch.setattr("rag.retrieval.names.paper_words", not_called)
        settings = Settings(index_dir=seed_index)
        retriever = HybridRetriever(settings, IndexStore(settings))
        assert retriever.search("What is TRIM-KV?", 1)[0].paper.paper_id == RARE_NAMES["TRIM-KV"]

    def test_without_them_the_same_rankings_and_ingest_writes_them_again(self, index_copy: Path) -> None:
        settings = Settings(index_dir=index_copy)
        store = IndexStore(settings)
        with_files = results(HybridRetriever(settings, store))
        generation = store.live_generation()
        shutil.rmtree(live_files(index_copy))  # an index from before the files existed
        assert GenerationFiles.open(store) is None
        assert results(HybridRetriever(settings, store)) == with_files  # built from Chroma, as before

        report = ingest(settings, [SEEDS], progress=False)
        assert report.embedded_papers == 0 and store.live_generation() == generation  # no new generation
        assert GenerationFiles.open(store) is not None
        assert results(HybridRetriever(settings, store)) == with_files

    def test_other_bm25_settings_rebuild_bm25(self, seed_index: Path) -> None:
        settings = Settings(index_dir=seed_index, bm25_k1=0.9, bm25_b=0.3)
        store = IndexStore(settings)
        files = GenerationFiles.open(store)
        papers = [s.paper for s in store.stored_papers().values()]
        assert files.bm25(papers, settings.retrieval) is None
        bm25 = HybridRetriever(settings, store).bm25.retriever.bm25
        assert (bm25.k1, bm25.b) == (0.9, 0.3)

    def test_files_from_other_code_are_not_used(self, seed_index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        store = IndexStore(Settings(index_dir=seed_index))
        papers = {pid: s.paper for pid, s in store.stored_papers().items()}
        monkeypatch.setattr(persisted, "text_code_hash", lambda: "edited")
        files = GenerationFiles.open(store)
        assert files.words(papers) is None and files.bm25(list(papers.values()), Settings().retrieval) is None
        assert files.matrix("sentences", store.collection("sentences").count()) is not None  # copies of Chroma

    def test_files_of_other_papers_or_rows_are_not_used(self, seed_index: Path) -> None:
        settings = Settings(index_dir=seed_index)
        store = IndexStore(settings)
        files = GenerationFiles.open(store)
        papers = {pid: s.paper for pid, s in store.stored_papers().items()}
        fewer = dict(list(papers.items())[1:])
        assert files.bm25(list(fewer.values()), settings.retrieval) is None and files.words(fewer) is None
        assert files.matrix("sentences", store.collection("sentences").count() + 1) is None


class TestLifetime:
    def test_a_new_generation_replaces_the_old_ones_files(self, index_copy: Path, tmp_path: Path) -> None:
        before = live_files(index_copy)
        ingest(Settings(index_dir=index_copy), [SEEDS, write_jsonl(tmp_path / "x.jsonl", [NEW_PAPER])],
               progress=False)
        after = live_files(index_copy)
        assert after != before and not before.exists()
        assert [p.name for p in (index_copy / "generations").iterdir()] == [after.name]
        assert "newpaper01" in json.loads((after / "words.json").read_text())

    def test_an_abandoned_generation_leaves_no_files(self, index_copy: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
        before = live_files(index_copy)
        written: list[Path] = []

        def then_interrupted(self: IndexStore, *args: object) -> None:
            written.extend(p for p in (index_copy / "generations").iterdir() if p != before)
            raise KeyboardInterrupt

        monkeypatch.setattr(IndexStore, "go_live", then_interrupted)
        with pytest.raises(KeyboardInterrupt):
            ingest(Settings(index_dir=index_copy), [SEEDS, write_jsonl(tmp_path / "x.jsonl", [NEW_PAPER])],
                   progress=False)
        assert written  # the new generation's files were there before it was to go live ...
        assert [p.name for p in (index_copy / "generations").iterdir()] == [before.name]  # ... and are gone
        assert GenerationFiles.open(IndexStore(Settings(index_dir=index_copy))) is not None

    def test_an_interrupted_write_leaves_no_staging_folder(self, index_copy: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
        def interrupted(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(np, "save", interrupted)
        before = live_files(index_copy)
        with pytest.raises(KeyboardInterrupt):
            ingest(Settings(index_dir=index_copy), [SEEDS, write_jsonl(tmp_path / "x.jsonl", [NEW_PAPER])],
                   progress=False)
        assert [p.name for p in (index_copy / "generations").iterdir()] == [before.name]

    def test_a_chroma_server_index_has_no_files(self, tmp_path: Path) -> None:
        store = IndexStore(Settings(chroma_host="127.0.0.1", index_dir=tmp_path / "unused"), client=object())
        assert store.files_root is None and store.files_dir(3) is None
