"""The vectors an ingest computes: chunks and sentences (MiniLM) and each paper's title + first sentence
(multilingual-e5), every batch kept in the ``EmbedCache`` as it is made, so an interrupted ingest resumes."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from rag.clean import search_text
from rag.embed_cache import EmbedCache
from rag.role_model import roles_of
from rag.roles import tagged
from rag.sentences import split_sentences
from rag.settings import Settings
from rag.types import Paper

if TYPE_CHECKING:
    from rag.store import IndexStore

Row = tuple[str, list[float], str, dict]  # id, vector, document, metadata
_E5_BATCH = 64


def embed_texts(texts: list[str], settings: Settings, progress: bool, unit: str,
                cache: EmbedCache) -> list[list[float]]:
    from tqdm import tqdm

    from rag.embedding import load_embedder, model_identity

    embedder: list[Any] = []  # loaded only if something is not cached

    def compute(batch: list[str]) -> list[list[float]]:
        if not embedder:
            embedder.append(load_embedder(settings))
        return embedder[0].get_text_embedding_batch(batch)

    # Similar lengths batched together waste less padding (sentence-transformers sorts only within a call).
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    with tqdm(total=len(texts), unit=unit, desc=f"embedding {unit}s", disable=not progress or not texts,
              file=sys.stderr) as bar:
        found = cache.embed(model_identity(settings.index.embed_model), [texts[i] for i in order], compute,
                            settings.index.embed_batch_size * 4, bar.update)
    vectors: list[list[float]] = [[] for _ in texts]
    for i, vector in zip(order, found):
        vectors[i] = vector
    return vectors


def embed_nodes(nodes: list[Any], settings: Settings, progress: bool, cache: EmbedCache) -> None:
    from llama_index.core.schema import MetadataMode

    texts = [n.get_content(metadata_mode=MetadataMode.EMBED) for n in nodes]
    for node, vector in zip(nodes, embed_texts(texts, settings, progress, "chunk", cache)):
        node.embedding = vector


def sentence_rows(papers: list[Paper], settings: Settings, progress: bool, cache: EmbedCache) -> list[Row]:
    """Every sentence of every paper, embedded on its own: the evidence a sentence-level answer can quote."""
    rows = []
    for p in papers:
        texts = split_sentences(p.text)
        rows += [(f"{p.paper_id}#s{i}", text, tagged({"paper_id": p.paper_id, "position": i,
                                                      "embed_hash": p.embed_hash}, its_role))
                 for i, (text, its_role) in enumerate(zip(texts, roles_of(texts, p.short_name)))]
    vectors = embed_texts([search_text(r[1]) for r in rows], settings, progress, "sentence", cache)
    return [(row_id, vector, text, meta) for (row_id, text, meta), vector in zip(rows, vectors)]


def multilingual_text(paper: Paper) -> str:
    """What multilingual-e5 reads of a paper for non-English questions: its title and the abstract's first
    sentence, which mostly says what the paper does in the words a question uses.

    e5 embeds ~36 titles/s here, ~14 title + first sentence, ~7 with two sentences: whole abstracts are out
    of reach at ingest (the few retrieved papers' sentences are embedded when asked). On 30 blind dev Chinese
    questions (seeds + 4,302 corpus, no LLM) title + first sentence took hit@5 from 0.667 to 0.767 and
    hit@1 from 0.433 to 0.667 over the title alone; fusing both was no better on them."""
    first = split_sentences(paper.text)[:1]
    if not first or paper.title_derived:  # a derived title is the first sentence already
        return paper.display_title
    return f"{paper.display_title}. {search_text(first[0])}"


def title_rows(papers: list[Paper], progress: bool, cache: EmbedCache) -> list[Row]:
    from tqdm import tqdm

    from rag.multilingual import embed_passages

    texts = [multilingual_text(p) for p in papers]
    with tqdm(total=len(papers), unit="paper", desc="embedding titles and first sentences (multilingual)",
              disable=not progress or not papers, file=sys.stderr) as bar:
        vectors = cache.embed("multilingual-e5-small passage", texts, lambda batch: list(embed_passages(batch)),
                              _E5_BATCH, bar.update)
    return [(f"{p.paper_id}#t", vector, text, {"paper_id": p.paper_id, "position": 0})
            for p, text, vector in zip(papers, texts, vectors)]


def current_titles(store: IndexStore, papers: list[Paper]) -> dict[str, list[Row]]:
    """The stored multilingual rows still valid for these papers: same paper, same text embedded (an index
    from before first sentences were added, or before title vectors existed, has none)."""
    wanted = {p.paper_id: multilingual_text(p) for p in papers}
    return {pid: rows for pid, rows in store.rows_by_paper("titles", set(wanted)).items()
            if rows[0][2] == wanted[pid]}
