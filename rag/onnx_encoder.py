"""The question-time MiniLM encoder without torch: the same weights exported once to ONNX, run by onnxruntime.

Importing torch + sentence-transformers takes ~9-17 s of a cold ``rag ask``; onnxruntime (installed with chromadb)
and ``tokenizers`` load in well under a second. The model's own ``tokenizer.json`` (truncated at the model's
``max_seq_length``, 256 word pieces), mean pooling over the attention mask and L2 normalisation reproduce the
sentence-transformers pipeline (``modules.json``: Transformer, mean Pooling, Normalize); other pipelines are not
exported and keep torch.

The export needs torch, transformers and the ``onnx`` package. It runs once per model (at ingest, or at the first
question when the file is missing), is checked against sentence-transformers on a few probe texts before it is
kept, and is cached under ``onnx_dir`` keyed by ``embedding.model_identity``.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from rag.embedding import model_identity, model_path
from rag.errors import RagError
from rag.settings import Settings

EXPORT_VERSION = 1  # in the file name: a change to the export below makes a new file
# Texts the export is checked on before it is kept: a batch with padding, and one past 256 word pieces.
_PROBES = ("What is TRIM-KV?", "Sparse attention for long-context transformers with a learned retention gate. " * 12,
           "We propose $\\mathcal{O}(n)$ attention.", "大语言模型的推理加速")
MIN_PROBE_COSINE = 0.9999


def onnx_file(settings: Settings) -> Path:
    identity = re.sub(r"[^A-Za-z0-9._=-]+", "_", model_identity(settings.index.embed_model))
    return settings.index.onnx_dir / identity / f"model-v{EXPORT_VERSION}.onnx"


def _pipeline(folder: Path) -> int:
    """The max sequence length, if the sentence-transformers pipeline is Transformer → mean pooling → Normalize."""
    try:
        listed = json.loads((folder / "modules.json").read_text())
        modules = [m["type"].rsplit(".", 1)[-1] for m in listed]
        pooling_dir = next(m["path"] for m in listed if m["type"].endswith("Pooling"))
        pooling = json.loads((folder / pooling_dir / "config.json").read_text())
        max_length = int(json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError, StopIteration) as exc:
        raise RagError(f"{folder}: not a sentence-transformers model folder the ONNX encoder knows ({exc})") from exc
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v}
    if modules != ["Transformer", "Pooling", "Normalize"] or modes != {"pooling_mode_mean_tokens"}:
        raise RagError(f"{folder}: pipeline {modules} with {sorted(modes)} is not Transformer + mean pooling + "
                       "Normalize; the ONNX encoder does not reproduce it")
    return max_length


class OnnxEncoder:
    """Texts → unit vectors, as sentence-transformers' ``encode(..., normalize_embeddings=True)`` computes them."""

    def __init__(self, onnx_path: Path, folder: Path, threads: int, batch_size: int = 32) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.batch_size = batch_size
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # tokenizer.json of this model pads and truncates at 128; sentence-transformers truncates at max_seq_length
        # and pads each batch to its longest text.
        self.tokenizer.enable_truncation(max_length=_pipeline(folder))
        padding = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8")).get("padding") or {}
        self.tokenizer.enable_padding(pad_id=padding.get("pad_id", 0), pad_token=padding.get("pad_token", "[PAD]"))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])

    def encode(self, texts: list[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), 0), dtype=np.float32)
        # Longest first, in batches (as sentence-transformers does): similar lengths waste less padding.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            pooled = self._batch([texts[i] for i in batch])
            if vectors.shape[1] == 0:
                vectors = np.zeros((len(texts), pooled.shape[1]), dtype=np.float32)
            vectors[batch] = pooled
        return vectors

    def _batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        feed = {"input_ids": np.asarray([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.asarray([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.asarray([e.type_ids for e in encodings], dtype=np.int64)}
        hidden = self.session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


class OnnxEmbedding(BaseEmbedding):
    """The ONNX encoder as a llama-index embedding (what ``VectorStoreIndex`` is given)."""

    _encoder: OnnxEncoder = PrivateAttr()

    def __init__(self, encoder: OnnxEncoder, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._encoder = encoder

    @classmethod
    def class_name(cls) -> str:
        return "OnnxEmbedding"

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._encoder.encode([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._encoder.encode([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._encoder.encode(texts).tolist()

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embedding(text)


def export_onnx(settings: Settings) -> Path:
    """Export the model to ``onnx_file(settings)`` (needs torch, transformers and ``onnx``; a few seconds)."""
    import torch
    from transformers import AutoModel

    from rag.embedding import load_embedder

    folder = model_path(settings.index.embed_model)
    _pipeline(folder)
    target = onnx_file(settings)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    # Eager attention given a ready 4D additive mask: traced, transformers' own mask building turns the batch
    # size and length into constants.
    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            bias = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
            bias = bias.expand(-1, 1, input_ids.shape[1], -1)
            return self.model(input_ids=input_ids, attention_mask=bias, token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    example = (torch.tensor([[101, 2054, 2003, 102], [101, 2054, 102, 0]]), torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]]),
               torch.zeros(2, 4, dtype=torch.long))
    try:
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the TorchScript exporter announces its deprecation
            torch.onnx.export(Hidden(), example, str(staging), input_names=names, output_names=["hidden"],
                              dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "hidden"]},
                              opset_version=17, dynamo=False)
        expected = np.asarray(load_embedder(settings)._model.encode(list(_PROBES), normalize_embeddings=True))
        got = OnnxEncoder(staging, folder, threads=1).encode(list(_PROBES))
        cosine = float((expected * got).sum(axis=1).min())
        if cosine < MIN_PROBE_COSINE:
            raise RagError(f"the ONNX export of {settings.index.embed_model} differs from sentence-transformers "
                           f"(cosine {cosine:.5f} on a probe text)")
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)
    return target


@lru_cache(maxsize=4)
def _encoder(path: Path, folder: Path, threads: int, batch_size: int) -> OnnxEncoder:
    return OnnxEncoder(path, folder, threads, batch_size)


def onnx_embedding(settings: Settings, export: bool = True) -> OnnxEmbedding:
    """The ONNX embedding of ``embed_model``, exported first if needed (and ``export``); raises if it cannot be had."""
    path = onnx_file(settings)
    if not path.is_file():
        if not export:
            raise RagError(f"no ONNX export at {path}")
        export_onnx(settings)
    folder = model_path(settings.index.embed_model)
    encoder = _encoder(path, folder, settings.index.query_threads, settings.index.embed_batch_size)
    return OnnxEmbedding(encoder, model_name=str(folder), embed_batch_size=settings.index.embed_batch_size)
