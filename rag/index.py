"""Index stage: chunk papers, embed the chunks, and write a new index generation to Chroma.

Incremental by content hash: a paper whose embedded text (title + abstract) is unchanged keeps
its stored vectors; only new or changed text is embedded.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.corpus import CorpusReport, load_corpus
from rag.settings import Settings
from rag.store import IndexStore, StoredPaper, build_info
from rag.types import Paper

# Embedded text: "Title\n\nchunk". Other metadata stays out of the vectors and of BM25.
_NOT_EMBEDDED = ["paper_id", "chunk", "embed_hash"]


@dataclass
class IngestReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    embedded_papers: int = 0
    embedded_chunks: int = 0
    total_papers: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        rate = (self.added + self.updated + self.unchanged) / self.seconds if self.seconds else 0.0
        return (f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, "
                f"{self.removed} removed; {self.embedded_papers} papers embedded ({self.embedded_chunks} chunks); "
                f"{self.total_papers} papers in index; {self.seconds:.1f} s, {rate:.0f} papers/s")

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def chunk_papers(papers: list[Paper], settings: Settings) -> list[Any]:
    """llama-index nodes, none longer than the embedding model reads (title included)."""
    from llama_index.core import Document
    from llama_index.core.node_parser import SentenceSplitter

    from rag.embedding import wordpiece_tokenizer

    splitter = SentenceSplitter(
        chunk_size=settings.chunk_size, chunk_overlap=settings.chunk_overlap,
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
            node.metadata["chunk"] = number
            node.excluded_embed_metadata_keys = list(_NOT_EMBEDDED)
            node.excluded_llm_metadata_keys = list(_NOT_EMBEDDED)
            node.metadata_template = "{value}"
            node.text_template = "{metadata_str}\n\n{content}"
            nodes.append(node)
    return nodes


def _embed(nodes: list[Any], settings: Settings, progress: bool) -> None:
    from llama_index.core.schema import MetadataMode
    from tqdm import tqdm

    from rag.embedding import load_embedder

    embedder = load_embedder(settings)
    # Similar lengths batched together waste less padding (sentence-transformers sorts only within a call).
    nodes = sorted(nodes, key=lambda n: len(n.get_content(metadata_mode=MetadataMode.EMBED)))
    step = settings.embed_batch_size * 4
    with tqdm(total=len(nodes), unit="chunk", desc="embedding", disable=not progress, file=sys.stderr) as bar:
        for start in range(0, len(nodes), step):
            batch = nodes[start:start + step]
            texts = [n.get_content(metadata_mode=MetadataMode.EMBED) for n in batch]
            for node, vector in zip(batch, embedder.get_text_embedding_batch(texts)):
                node.embedding = vector
            bar.update(len(batch))


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
    corpus = load_corpus(paths)  # raises InputError before anything is touched
    store = store or IndexStore(settings)
    with store.writer_lock():
        report = _apply(settings, store, corpus, prune=prune, rebuild=rebuild, progress=progress)
    report.seconds = time.perf_counter() - started
    return report


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
    if manifest is not None and not rebuild and not (report.added or report.updated or report.removed):
        return report

    info = build_info(settings)
    store.drop_orphans()
    generation, chunks_col, papers_col = store.new_generation(info)
    try:
        _write_generation(store, settings, chunks_col, papers_col, final, to_embed, report, progress)
        store.go_live(generation, info, len(final))
    except BaseException:  # includes KeyboardInterrupt: the live index must stay as it was
        store.abandon(generation)
        raise
    return report


def _write_generation(store: IndexStore, settings: Settings, chunks_col: Any, papers_col: Any,
                      final: list[Paper], to_embed: list[Paper], report: IngestReport, progress: bool) -> None:
    from llama_index.vector_stores.chroma import ChromaVectorStore

    embed_ids = {p.paper_id for p in to_embed}
    reused = store.chunk_rows({p.paper_id for p in final} - embed_ids)
    vectors: dict[str, list[list[float]]] = {}
    rows = [row for paper_rows in reused.values() for row in paper_rows]
    if rows:
        ids, embeddings, documents, metadatas = (list(col) for col in zip(*rows))
        store.add_rows(chunks_col, ids, embeddings, documents, metadatas)
    for paper_id, paper_rows in reused.items():
        vectors[paper_id] = [r[1] for r in paper_rows]

    nodes = chunk_papers(to_embed, settings) if to_embed else []
    if nodes:
        _embed(nodes, settings, progress)
        vector_store = ChromaVectorStore(chroma_collection=chunks_col)
        for start in range(0, len(nodes), store.batch_size):  # ChromaVectorStore.add does not split
            vector_store.add(nodes[start:start + store.batch_size])
    for node in nodes:
        vectors.setdefault(node.metadata["paper_id"], []).append(node.embedding)
    report.embedded_papers, report.embedded_chunks = len(to_embed), len(nodes)

    store.add_rows(
        papers_col,
        ids=[p.paper_id for p in final],
        embeddings=[_mean_vector(vectors[p.paper_id]) for p in final],
        documents=[p.abstract for p in final],
        metadatas=[{"paper_json": json.dumps(p.to_json(), ensure_ascii=False), "record_hash": p.record_hash,
                    "embed_hash": p.embed_hash, "title": p.title} for p in final],
    )
