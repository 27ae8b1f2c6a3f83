"""Corpus stage: read abstract files of any supported format into de-duplicated ``Paper`` records.

Formats: the seed ``.txt`` format (a header line, then one abstract per non-empty line, optionally
with a ``titles.json`` beside it), JSON lines (``.jsonl`` / ``.jsonl.gz``) and CSV, each record with
``abstract`` and ideally ``title`` plus optional id, url, keywords, area and venue fields.
Nothing here touches the index: every file is parsed fully before anything is written.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rag.clean import content_hash, display_text, normalise
from rag.errors import InputError
from rag.injection import injected
from rag.types import Paper

SUPPORTED_SUFFIXES = (".txt", ".jsonl", ".jsonl.gz", ".csv")
TITLES_SIDECAR = "titles.json"  # metadata for the .txt files in the same folder
_LINES = re.compile(r"\r?\n")  # not str.splitlines(): that also splits at U+2028, \x0c, … inside a record
_SUPPORTED_HELP = "Supported inputs: .txt (one abstract per line), .jsonl, .jsonl.gz, .csv, or a folder of them"

# Field names accepted for each record attribute, first match wins.
_ID_FIELDS = ("paper_id", "id", "openreview_id", "_id")
_ABSTRACT_FIELDS = ("abstract", "text")
_URL_FIELDS = ("url", "forum_url")
_AREA_FIELDS = ("area", "primary_area")


@dataclass
class CorpusReport:
    """What reading produced: the papers, plus duplicates folded into them along the way."""

    papers: list[Paper]
    records: int = 0
    duplicates: int = 0
    warnings: list[str] = field(default_factory=list)


def _suffix(path: Path) -> str:
    name = path.name.lower()
    return ".jsonl.gz" if name.endswith(".jsonl.gz") else path.suffix.lower()


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files named, or the supported files inside named folders (sorted, sidecars excluded)."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError(path, "no such file or folder", "Check the path")
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir()
                if p.is_file() and _suffix(p) in SUPPORTED_SUFFIXES and p.name != TITLES_SIDECAR
            )
            if not found:
                raise InputError(path, "folder holds no abstract files", _SUPPORTED_HELP)
            files.extend(found)
        elif _suffix(path) not in SUPPORTED_SUFFIXES:
            raise InputError(path, f"unsupported file type {_suffix(path) or '(none)'!r}", _SUPPORTED_HELP)
        else:
            files.append(path)
    return files


@dataclass(frozen=True)
class Limits:
    """How large a corpus file may be on disk, and what a ``.jsonl.gz`` may unpack to (MB)."""

    file_mb: float = 100  # RAG_MAX_FILE_MB
    unpacked_mb: float = 500  # RAG_MAX_UNPACKED_MB


def _read_text(path: Path, limits: Limits) -> str:
    try:
        if (size := path.stat().st_size) > limits.file_mb * 2**20:
            raise InputError(path, f"is {size / 2**20:,.1f} MB; the limit is {limits.file_mb:,g} MB",
                             "Split it into smaller files, or raise RAG_MAX_FILE_MB")
        if _suffix(path) == ".jsonl.gz":
            cap = int(limits.unpacked_mb * 2**20)
            with gzip.open(path) as packed:  # read only up to the cap: a small file may unpack to gigabytes
                data = packed.read(cap + 1)
            if len(data) > cap:
                raise InputError(path, f"unpacks to more than {limits.unpacked_mb:,g} MB",
                                 "Split it into smaller files, or raise RAG_MAX_UNPACKED_MB")
        else:
            data = path.read_bytes()
    except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise InputError(path, f"cannot read file ({exc})", "Check that it is a complete, readable file") from exc
    if b"\x00" in data[:65536]:
        raise InputError(path, "is a binary file, not text", _SUPPORTED_HELP)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, "is not valid UTF-8 text", "Save it as UTF-8", line=line) from exc
    if not text.strip():
        raise InputError(path, "is empty", "Add at least one abstract or leave the file out")
    return text


def derive_title(abstract: str) -> str:
    """A readable label for a paper that has no title: the method it proposes, else its first clause."""
    text = display_text(abstract)
    match = re.search(r"\b(?:we|this (?:paper|work))\s+(?:propose|introduce|present)s?\s+(?:a |an |the )?"
                      r"(?P<rest>[^.;]+)", text, re.IGNORECASE)
    if match:
        rest = match.group("rest").strip()
        # "SIGMark, a scalable …" / "Alignment-Aware Masked Learning (AML), a simple …": a capitalised
        # name of a few words before the first comma or colon.
        name = re.match(r"(?P<name>[A-Z0-9][^,:;]{0,60}?)\s*[,:]\s*(?P<what>.*)", rest)
        if name and len(name.group("name").split()) <= 6:
            what = " ".join(name.group("what").split()[:12]).rstrip(",:;)")
            return f"{name.group('name')}: {what}" if what else name.group("name")
        words = rest.split()
        return " ".join(words[:12]).rstrip(",:;") + ("…" if len(words) > 12 else "")
    first = re.split(r"[,.;:]\s", text, maxsplit=1)[0]
    words = first.split()
    return " ".join(words[:12]) + ("…" if len(words) > 12 else "")


def _load_sidecar(folder: Path) -> list[dict[str, Any]]:
    path = folder / TITLES_SIDECAR
    if not path.exists():
        return []
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(path, f"is not valid JSON ({exc})", "Fix or remove the titles file") from exc
    if not isinstance(entries, list):
        raise InputError(path, "must hold a JSON list of {title, abstract_start, …} objects")
    return entries


def _sidecar_match(entries: list[dict[str, Any]], abstract: str) -> dict[str, Any] | None:
    """The sidecar entry whose abstract_start is a prefix of this abstract, compared normalised."""
    norm = normalise(abstract)
    for entry in entries:
        start = normalise(entry.get("abstract_start") or "")
        if start and norm.startswith(start):
            return entry
    return None


def _looks_like_header(line: str) -> bool:  # "ICLR 2026 Papers" / "ICLR 2026 论文列表": short, not a sentence
    return len(line) <= 80 and not line.rstrip().endswith(".")


def _read_txt(path: Path, text: str) -> Iterator[Paper]:
    sidecar = _load_sidecar(path.parent)
    seen_content = False
    for number, line in enumerate(_LINES.split(text), start=1):
        line = line.strip()
        if not line:
            continue
        if not seen_content:
            seen_content = True
            if _looks_like_header(line):
                continue
        meta = _sidecar_match(sidecar, line) or {}
        yield _make_paper(
            path, number, abstract=line, title=meta.get("title"), explicit_id=None,
            openreview_id=meta.get("openreview_id"), url=meta.get("url"), venue=meta.get("venue"),
            area=meta.get("primary_area") or meta.get("area"), keywords=meta.get("keywords"),
        )


def _first(record: dict[str, Any], names: tuple[str, ...]) -> Any:
    return next((record[name] for name in names if record.get(name) not in (None, "")), None)


def _from_record(path: Path, line: int, record: Any) -> Paper:
    if not isinstance(record, dict):
        raise InputError(path, f"expected an object with 'title' and 'abstract', got {type(record).__name__}", line=line)
    abstract = _first(record, _ABSTRACT_FIELDS)
    if not isinstance(abstract, str) or not abstract.strip():
        raise InputError(path, "record has no 'abstract'", "Every record needs a non-empty 'abstract' field", line=line)
    openreview_id = record.get("openreview_id") or None
    explicit_id = _first(record, _ID_FIELDS)
    return _make_paper(
        path, line, abstract=abstract, title=record.get("title"), explicit_id=explicit_id,
        openreview_id=openreview_id, url=_first(record, _URL_FIELDS), venue=record.get("venue"),
        area=_first(record, _AREA_FIELDS), keywords=record.get("keywords"),
    )


def _read_jsonl(path: Path, text: str) -> Iterator[Paper]:
    for number, line in enumerate(_LINES.split(text), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise InputError(path, f"malformed JSON ({exc.args[0].split(':')[0]})",
                             "Fix or remove that line; nothing was indexed", line=number) from exc
        yield _from_record(path, number, record)


def _read_csv(path: Path, text: str) -> Iterator[Paper]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or not set(_ABSTRACT_FIELDS) & {f.strip().lower() for f in reader.fieldnames}:
        raise InputError(path, "CSV header has no 'abstract' column", "Name the columns title,abstract,…", line=1)
    start = reader.line_num + 1
    try:
        for row in reader:
            record = {(k or "").strip().lower(): v for k, v in row.items()}
            yield _from_record(path, start, record)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(path, f"malformed CSV ({exc})", line=reader.line_num) from exc


def _keywords(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = re.split(r"[;,]", value)
    if isinstance(value, (list, tuple)):
        return tuple(str(k).strip() for k in value if str(k).strip())
    return ()


def _make_paper(path: Path, line: int, *, abstract: str, title: Any, explicit_id: Any,
                openreview_id: Any, url: Any, venue: Any, area: Any, keywords: Any) -> Paper:
    abstract = abstract.strip()
    title = str(title).strip() if title else ""
    paper_id = str(explicit_id or openreview_id or "") or "h" + content_hash(normalise(abstract))[:12]
    if openreview_id and not url:
        url = f"https://openreview.net/forum?id={openreview_id}"
    return Paper(
        paper_id=paper_id,
        title=title or derive_title(abstract),
        title_derived=not title,
        abstract=abstract,
        source=f"{path}:{line}",
        openreview_id=str(openreview_id) if openreview_id else None,
        url=str(url) if url else None,
        venue=str(venue) if venue else None,
        area=str(area) if area else None,
        keywords=_keywords(keywords),
    )


_READERS = {".txt": _read_txt, ".jsonl": _read_jsonl, ".jsonl.gz": _read_jsonl, ".csv": _read_csv}


def read_file(path: Path, limits: Limits = Limits()) -> list[Paper]:
    papers = list(_READERS[_suffix(path)](path, _read_text(path, limits)))
    if not papers:
        raise InputError(path, "holds no abstracts", "Add at least one abstract or leave the file out")
    return papers


def merge_papers(papers: Iterable[Paper]) -> CorpusReport:
    """Fold records of the same paper (same id, or same normalised abstract) into one, first one wins."""
    merged: dict[str, Paper] = {}  # text_key → paper
    # text_key → the other records' "file:line" in order; set once at the end (linear, not a growing tuple copied)
    also_in: dict[str, dict[str, None]] = {}
    key_of_id: dict[str, str] = {}
    report = CorpusReport(papers=[])
    for paper in papers:
        report.records += 1
        key = key_of_id.get(paper.paper_id, paper.text_key)
        if key in merged:
            report.duplicates += 1
            kept = merged[key]
            if kept.text_key != paper.text_key:
                report.warnings.append(
                    f"{paper.source}: id {paper.paper_id} already used by {kept.source} for a different "
                    "abstract; kept the first")
            if kept.gains_from(paper):  # (a copy per duplicate only when it brings a field: 200k copies took 78 s)
                merged[key] = replace(kept.merged_with(replace(paper, also_in=())), also_in=())  # sources: below
            also_in[key].update(dict.fromkeys((paper.source, *paper.also_in)))
            key_of_id.setdefault(paper.paper_id, key)
            continue
        merged[key], also_in[key] = replace(paper, also_in=()), dict.fromkeys(paper.also_in)
        key_of_id[paper.paper_id] = key
    report.papers = [replace(paper, also_in=tuple(s for s in also_in[key] if s != paper.source))
                     for key, paper in merged.items()]
    return report


def load_corpus(paths: Iterable[Path | str], limits: Limits = Limits()) -> CorpusReport:
    """Read every input fully (raising ``InputError`` on the first problem), then de-duplicate."""
    files = expand_paths(paths)
    if not files:
        raise InputError("(no paths)", "nothing to ingest", _SUPPORTED_HELP)
    report = merge_papers(paper for path in files for paper in read_file(path, limits))
    report.warnings += injected(report.papers)
    return report
