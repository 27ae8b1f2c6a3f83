"""The question encoder: the ONNX export of MiniLM gives sentence-transformers' vectors, without torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rag.corpus import load_corpus
from rag.embedding import QueryEncoder, load_embedder
from rag.errors import RagError
from rag.settings import PROJECT_ROOT, Settings

from conftest import SEEDS


def varied_texts() -> list[str]:
    """~30 texts: short questions, long abstracts (most past 256 word pieces), LaTeX, Chinese, odd ones."""
    import yaml

    papers = load_corpus([SEEDS]).papers
    latex = [p.abstract for p in papers if "$" in p.abstract][:4]
    chinese = [item["question"] for item in yaml.safe_load(
        (PROJECT_ROOT / "tests" / "data" / "dev_chinese.yaml").read_text(encoding="utf-8"))[:5]]
    return ["What is TRIM-KV?", "What is SIGMark and what problem does it solve?", "D2F", "5.14x faster?",
            "Which papers speed up autoregressive image generation?",
            "How does Tactic choose which tokens to attend to?",
            "What is the capital of France?", "", "   spaced    out   ", "TRIM-KV vs. SnapKV: which keeps more?",
            *latex, *chinese, "大语言模型的推理加速", "mixed 中文 and English with $\\alpha$",
            *[p.abstract for p in papers[:4]], *[p.search_text for p in papers[4:7]],
            " ".join(p.abstract for p in papers[7:9]),  # far past 256 word pieces: truncated the same way
            *[p.display_title for p in papers[9:12]]]


@pytest.fixture(scope="module")
def encoders() -> tuple[QueryEncoder, object]:
    settings = Settings()
    onnx = QueryEncoder(settings)
    assert onnx.kind == "onnx"
    return onnx, load_embedder(settings)


def test_onnx_vectors_match_sentence_transformers(encoders) -> None:
    onnx, torch_model = encoders
    texts = varied_texts()
    assert len(texts) >= 30
    tokenizer = torch_model._model.tokenizer
    long = [t for t in texts if len(tokenizer(t)["input_ids"]) > 256]
    assert len(long) >= 3  # truncation is exercised
    for text in texts:  # the same word pieces, truncated at 256
        assert onnx.model._encoder.tokenizer.encode(text).ids == tokenizer(text, truncation=True,
                                                                           max_length=256)["input_ids"]
    queries = np.array([onnx.embed_query(t) for t in texts])
    expected = np.array([torch_model.get_query_embedding(t) for t in texts], dtype=np.float32)
    assert (queries * expected).sum(axis=1).min() >= 0.999
    batch = onnx.embed_texts(texts)  # batched: padding must not change a vector
    expected_batch = np.asarray(torch_model.get_text_embedding_batch(texts), dtype=np.float32)
    assert (batch * expected_batch).sum(axis=1).min() >= 0.999
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    assert np.allclose(onnx.embed_queries(texts[:3]), queries[:3])


def test_a_question_does_not_import_torch(seed_index: Path) -> None:
    code = ("import sys, json; from rag.engine import Engine; from rag.settings import Settings; "
            f"a = Engine(Settings(index_dir={str(seed_index)!r})).ask('What is TRIM-KV?'); "
            "print(json.dumps([a.refused, 'torch' in sys.modules, 'sentence_transformers' in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=PROJECT_ROOT)
    assert json.loads(result.stdout.splitlines()[-1]) == [False, False, False]


def test_torch_when_asked_or_when_no_export_can_be_had(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert QueryEncoder(Settings(query_encoder="torch")).kind == "torch"

    def cannot(settings: Settings) -> None:
        raise RagError("no onnx package")

    monkeypatch.setattr("rag.onnx_encoder.export_onnx", cannot)
    encoder = QueryEncoder(Settings(onnx_dir=tmp_path / "empty"))
    assert encoder.kind == "torch"
    assert encoder.embed_query("What is TRIM-KV?").shape == (384,)


def test_the_setting_reads_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_QUERY_ENCODER", "torch")
    assert Settings().index.query_encoder == "torch"
    monkeypatch.setenv("RAG_QUERY_ENCODER", "tensorflow")
    with pytest.raises(Exception, match="query_encoder"):
        Settings()
