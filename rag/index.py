"""Index stage: chunk papers, embed the chunks, and write a new index generation to Chroma.

Incremental by content hash: a paper whose embedded text (title + abstract) is unchanged keeps
its stored vectors; only new or changed text is embedded.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag import persisted
from rag.corpus import CorpusReport, Limits, load_corpus
from rag.embed_cache import EmbedCache
from rag.role_model import roles_of
from rag.roles import rules_hash, tagged
from rag.rows import Row, current_titles, embed_nodes, sentence_rows, title_rows
from rag.settings import Settings
from rag.store import KINDS, IndexStore, StoredPaper, build_info
from rag.tidy import tidy
from rag.types import Paper

# Embedded text: "Title\n\nchunk". Other metadata stays out of the vectors and of BM25.
_NOT_EMBEDDED = ["paper_id", "position", "embed_hash"]


@dataclass
class IngestReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    embedded_papers: int = 0
    embedded_chunks: int = 0
    embedded_sentences: int = 0
    total_papers: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        rate = (self.added + self.updated + self.unchanged) / self.seconds if self.seconds else 0.0
        return (f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, "
                f"{self.removed} removed; {self.embedded_papers} papers embedded ({self.embedded_chunks} chunks, "
                f"{self.embedded_sentences} sentences); "
                f"{self.total_papers} papers in index; {self.seconds:.1f} s, {rate:.0f} papers/s")

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def chunk_papers(papers: list[Paper], settings: Settings) -> list[Any]:
    """llama-index nodes, none longer than the embedding model reads (title included)."""
    from llama_index.core import Document
    from llama_index.core.node_parser import SentenceSplitter

    from rag.embedding import wordpiece_tokenizer

    splitter = SentenceSplitter(
        chunk_size=settings.index.chunk_size, chunk_overlap=settings.index.chunk_overlap,
        tokenizer=wordpiece_tokenizer(settings),
    )
    nodes = []
    for paper in papers:
        document = Document(
            text=paper.search_text,
            metadata={"paper_id": paper.paper_id, "title": paper.display_title, "embed_hash": paper.embed_hash},
            excluded_embed_metadata_keys=list(_NOT_EMBEDDED),
            excluded_llm_metadata_keys=list(_NOT_EMBEDDED),
            metadata_template="{value}",
            text_template="{metadata_str}\n\n{content}",
        )
        for number, node in enumerate(splitter.get_nodes_from_documents([document])):
            node.id_ = f"{paper.paper_id}#{number}"
            node.metadata["position"] = number
            node.excluded_embed_metadata_keys = list(_NOT_EMBEDDED)
            node.excluded_llm_metadata_keys = list(_NOT_EMBEDDED)
            node.metadata_template = "{value}"
            node.text_template = "{metadata_str}\n\n{content}"
            nodes.append(node)
    return nodes


def _resolve(incoming: list[Paper], stored: dict[str, StoredPaper]) -> list[tuple[Paper, StoredPaper | None]]:
    """Pair each incoming paper with its stored version (same id, else same abstract), keeping what only
    the index knew (e.g. keywords from another source)."""
    by_text = {s.paper.text_key: pid for pid, s in stored.items()}
    pairs = []
    for paper in incoming:
        match = stored.get(paper.paper_id) or stored.get(by_text.get(paper.text_key, ""))
        pairs.append((paper.merged_with(match.paper) if match else paper, match))
    return pairs


def _mean_vector(vectors: list[list[float]]) -> list[float]:
    import numpy as np

    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    return (mean / (np.linalg.norm(mean) or 1.0)).tolist()


def ingest(settings: Settings, paths: list[Path | str], *, prune: bool = False, rebuild: bool = False,
           progress: bool = True, store: IndexStore | None = None) -> IngestReport:
    """Add, update (and with ``prune`` remove) papers so the index holds what ``paths`` hold."""
    started = time.perf_counter()
    corpus = load_corpus(paths, Limits(settings.index.max_file_mb, settings.index.max_unpacked_mb))
    store = store or IndexStore(settings)
    with store.writer_lock():
        report = _apply(settings, store, corpus, prune=prune, rebuild=rebuild, progress=progress)
    _prepare_query_encoder(settings, report)
    report.seconds = time.perf_counter() - started
    return report


def _prepare_query_encoder(settings: Settings, report: IngestReport) -> None:
    """Export the question encoder to ONNX now (once per model; torch is loaded here anyway), so the first
    question does not have to (see rag.onnx_encoder). A failed export leaves questions on torch."""
    if settings.index.query_encoder != "onnx":
        return
    from rag.onnx_encoder import export_onnx, onnx_file

    if onnx_file(settings).is_file():
        return
    try:
        export_onnx(settings)
    except Exception as exc:  # no `onnx` package, a model pipeline the ONNX encoder does not reproduce, …
        report.warnings.append(f"no ONNX question encoder ({exc}); questions will be embedded with torch")


def _apply(settings: Settings, store: IndexStore, corpus: CorpusReport, *, prune: bool, rebuild: bool,
           progress: bool) -> IngestReport:
    manifest = store.manifest()
    if manifest is not None and not rebuild:
        store.check_compatible(manifest)
    stored = {} if rebuild else store.stored_papers()
    pairs = _resolve(corpus.papers, stored)
    report = IngestReport(warnings=list(corpus.warnings))

    replaced = {old.paper.paper_id for _, old in pairs if old is not None}
    carried = [] if prune else [s.paper for pid, s in stored.items() if pid not in replaced]
    report.removed = len(stored) - len(replaced) - len(carried)
    to_embed: list[Paper] = []
    for paper, old in pairs:
        if old is None:
            report.added += 1
        elif old.record_hash != paper.record_hash:
            report.updated += 1
        else:
            report.unchanged += 1
        # Stored chunks are keyed by paper id: reuse them only for the same id and the same text.
        if old is None or old.embed_hash != paper.embed_hash or old.paper.paper_id != paper.paper_id:
            to_embed.append(paper)
    report.unchanged += len(carried)
    final = [paper for paper, _ in pairs] + carried
    report.total_papers = len(final)
    complete = manifest is not None and all(store.has_kind(kind) for kind in KINDS)
    # Read once: whether anything is to do, and which multilingual rows the new generation can copy.
    titles = current_titles(store, final) if manifest is not None and not rebuild else {}
    if (complete and not rebuild and not (report.added or report.updated or report.removed)
            and len(titles) == len(final) and manifest.get("role_rules") == rules_hash()):
        # Nothing to embed; an index from before the derived files (or with stale BM25) gains them here.
        persisted.ensure(store, settings)
        _tidy(store)
        return report

    info, cache = build_info(settings), EmbedCache.for_store(store)
    store.drop_orphans()
    generation, collections = store.new_generation(info)
    try:
        _write_generation(store, settings, collections, final, to_embed, report, progress, titles, cache)
        persisted.write(store, generation, settings)  # before going live: a reader never finds them missing
        store.go_live(generation, info, len(final))
    except BaseException:  # includes KeyboardInterrupt: the live index stays as it was; the cache keeps the vectors
        store.abandon(generation)
        _tidy(store)
        raise
    cache.clear()  # Chroma holds the vectors now
    _tidy(store)
    return report


def _tidy(store: IndexStore) -> None:
    """Remove what Chroma leaves of deleted collections (``rag.tidy``); embedded indexes only."""
    if store.files_root is not None:
        tidy(store.settings.index.index_dir)


def _copy_rows(store: IndexStore, collection: Any, rows: list[Row]) -> None:
    if rows:
        ids, embeddings, documents, metadatas = (list(col) for col in zip(*rows))
        store.add_rows(collection, ids, embeddings, documents, metadatas)


def _write_generation(store: IndexStore, settings: Settings, collections: dict[str, Any], final: list[Paper],
                      to_embed: list[Paper], report: IngestReport, progress: bool,
                      reusable_titles: dict[str, list[Row]], cache: EmbedCache) -> None:
    from llama_index.vector_stores.chroma import ChromaVectorStore

    keep_ids = {p.paper_id for p in final} - {p.paper_id for p in to_embed}
    reused_chunks = store.rows_by_paper("chunks", keep_ids)
    _copy_rows(store, collections["chunks"], [row for rows in reused_chunks.values() for row in rows])
    by_id = {p.paper_id: p for p in final}  # a copied sentence gets its role again: the rules may have changed
    copied: list[Row] = []
    for pid, rows in store.rows_by_paper("sentences", keep_ids).items():
        rows = sorted(rows, key=lambda row: row[3]["position"])
        copied += [(row_id, vector, text, tagged(meta, its_role)) for (row_id, vector, text, meta), its_role
                   in zip(rows, roles_of([row[2] for row in rows], by_id[pid].short_name))]
    _copy_rows(store, collections["sentences"], copied)
    vectors = {paper_id: [r[1] for r in rows] for paper_id, rows in reused_chunks.items()}

    nodes = chunk_papers(to_embed, settings) if to_embed else []
    if nodes:
        embed_nodes(nodes, settings, progress, cache)
        vector_store = ChromaVectorStore(chroma_collection=collections["chunks"])
        for start in range(0, len(nodes), store.batch_size):  # ChromaVectorStore.add does not split
            vector_store.add(nodes[start:start + store.batch_size])
    for node in nodes:
        vectors.setdefault(node.metadata["paper_id"], []).append(node.embedding)
    sentences = sentence_rows(to_embed, settings, progress, cache) if to_embed else []
    _copy_rows(store, collections["sentences"], sentences)
    # Multilingual vectors are copied or computed per paper, so an index from before they existed (or
    # before they read the first sentence) gains them.
    titles = {pid: rows for pid, rows in reusable_titles.items() if pid in keep_ids}
    _copy_rows(store, collections["titles"], [row for rows in titles.values() for row in rows])
    _copy_rows(store, collections["titles"],
               title_rows([p for p in final if p.paper_id not in titles], progress, cache))
    report.embedded_papers, report.embedded_chunks, report.embedded_sentences = len(to_embed), len(nodes), len(sentences)

    store.add_rows(
        collections["papers"],
        ids=[p.paper_id for p in final],
        embeddings=[_mean_vector(vectors[p.paper_id]) for p in final],
        documents=[p.abstract for p in final],
        metadatas=[{"paper_json": json.dumps(p.to_json(), ensure_ascii=False), "record_hash": p.record_hash,
                    "embed_hash": p.embed_hash, "title": p.title} for p in final],
    )
