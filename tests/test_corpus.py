"""Corpus stage: reading .txt / .jsonl / .jsonl.gz / .csv into de-duplicated ``Paper`` records."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from rag.corpus import CorpusReport, load_corpus
from rag.errors import InputError
from rag.types import Paper

REPO = Path(__file__).resolve().parents[1]
REAL_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "iclr2026_accepted_4302.jsonl.gz"
SEED_000, SEED_003 = "seeds/000_24ec1f0d1160c33e.txt", "seeds/003_df0dbfb272cbdab2.txt"
HASH_ID = r"h[0-9a-f]{12}"

A1 = "Graph models are slow to train on large inputs. We measure where the time goes and fix it."
A2 = "Sparse attention cuts memory use for long contexts, but it hurts accuracy on retrieval tasks."
A3 = "Diffusion samplers need many steps. We distil them into a single step without losing quality."


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def load_from(cwd: Path, *paths: str | Path) -> CorpusReport:
    """Load with a fixed working directory, so ``source`` strings are predictable and relative."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(cwd)
        return load_corpus(list(paths))


def file_of(source: str) -> str:
    return source.rsplit(":", 1)[0]


@pytest.fixture(scope="module")
def seeds() -> CorpusReport:
    return load_from(REPO, "seeds")


class TestSeeds:
    def test_counts(self, seeds: CorpusReport) -> None:
        assert (seeds.records, len(seeds.papers), seeds.duplicates, seeds.warnings) == (38, 36, 2, [])

    def test_trim_kv_paper(self, seeds: CorpusReport) -> None:
        [paper] = [p for p in seeds.papers if "Token Retention" in p.title]
        assert "TRIM-KV" in paper.abstract
        assert paper.paper_id == paper.openreview_id == "qCaq3jGb0S"
        assert (paper.url, paper.source) == ("https://openreview.net/forum?id=qCaq3jGb0S", f"{SEED_003}:31")

    def test_real_titles_and_ids_from_titles_json(self, seeds: CorpusReport) -> None:
        ids = {t["title"]: t["openreview_id"] for t in json.loads((REPO / "seeds" / "titles.json").read_text())}
        assert sorted(p.title for p in seeds.papers) == sorted(ids)
        assert not any(p.title_derived for p in seeds.papers)
        for paper in seeds.papers:  # the OpenReview id where titles.json has one, else a content hash
            assert re.fullmatch(ids[paper.title] or HASH_ID, paper.paper_id), paper.title
        assert len({p.paper_id for p in seeds.papers}) == 36

    def test_source_points_at_the_abstract_line(self, seeds: CorpusReport) -> None:
        for paper in seeds.papers:
            path, line = paper.source.rsplit(":", 1)
            assert (REPO / path).read_text(encoding="utf-8").splitlines()[int(line) - 1].strip() == paper.abstract

    def test_abstracts_in_both_files_are_merged(self, seeds: CorpusReport) -> None:
        shared = sorted((p.source, p.also_in) for p in seeds.papers if p.also_in)
        assert shared == [(f"{SEED_000}:39", (f"{SEED_003}:9",)), (f"{SEED_000}:9", (f"{SEED_003}:7",))]


class TestTxtLayout:
    @pytest.mark.parametrize("header", ["ICLR 2026 论文列表", "ICLR 2026 Papers"])
    @pytest.mark.parametrize(("newline", "blank", "trailing"), [
        ("\n", True, True), ("\n", False, True), ("\n", True, False), ("\r\n", True, True), ("\r\n", False, False),
    ], ids=["blank-lines", "no-blank-lines", "no-trailing-newline", "crlf", "crlf-no-trailing"])
    def test_header_skipped_and_lines_numbered(self, tmp_path: Path, header: str, newline: str,
                                              blank: bool, trailing: bool) -> None:
        sep = newline * 2 if blank else newline
        write(tmp_path, "a.txt", header + sep + sep.join([A1, A2, A3]) + (newline if trailing else ""))
        papers = load_from(tmp_path, "a.txt").papers
        assert [p.abstract for p in papers] == [A1, A2, A3]
        step = 2 if blank else 1
        assert [p.source for p in papers] == [f"a.txt:{1 + step * i}" for i in (1, 2, 3)]

    def test_no_header_keeps_first_abstract(self, tmp_path: Path) -> None:
        write(tmp_path, "a.txt", f"{A1}\n{A2}\n")
        assert [p.abstract for p in load_from(tmp_path, "a.txt").papers] == [A1, A2]

    def test_leading_blank_lines_and_bom(self, tmp_path: Path) -> None:
        write(tmp_path, "a.txt", "\ufeff\n\nICLR 2026 Papers\n" + A1 + "\n")
        [paper] = load_from(tmp_path, "a.txt").papers
        assert (paper.abstract, paper.source) == (A1, "a.txt:4")

    @pytest.mark.parametrize("odd_break", ["\u2028", "\x0c"])
    def test_unicode_line_separator_inside_abstract(self, tmp_path: Path, odd_break: str) -> None:
        write(tmp_path, "a.txt", f"ICLR 2026 Papers\n{A1.replace(' We', odd_break + 'We')}\n{A2}\n")
        assert [p.source for p in load_from(tmp_path, "a.txt").papers] == ["a.txt:2", "a.txt:3"]


class TestDedupe:
    def test_markup_and_whitespace_variants_are_one_paper(self, tmp_path: Path) -> None:
        latex = r"We get a $\mathbf{2.5\times}$ speedup with 30\% less memory, \eg on **LLaMA** models."
        plain = "We  get a 2.5× speedup   with 30% less memory, e.g. on LLaMA\tmodels."
        write(tmp_path, "a.txt", f"ICLR 2026 Papers\n{latex}\n{A1}\n")
        write(tmp_path, "b.txt", f"ICLR 2026 Papers\n{A2}\n{plain}\n")
        report = load_from(tmp_path, "a.txt", "b.txt")
        assert (report.records, len(report.papers), report.duplicates) == (4, 3, 1)
        [kept] = [p for p in report.papers if p.source == "a.txt:2"]
        assert kept.abstract == latex and kept.also_in == ("b.txt:3",)

    def test_titled_record_replaces_derived_title(self, tmp_path: Path) -> None:
        write(tmp_path, "a.txt", f"ICLR 2026 Papers\n{A1}\n")
        write(tmp_path, "b.jsonl", json.dumps({"title": "Fast Graphs", "abstract": A1, "openreview_id": "Ab12"}))
        [paper] = load_from(tmp_path, "a.txt", "b.jsonl").papers
        assert (paper.title, paper.title_derived, paper.source) == ("Fast Graphs", False, "a.txt:2")
        assert paper.openreview_id == "Ab12" and paper.also_in == ("b.jsonl:1",)


class TestDerivedTitles:
    def derived(self, tmp_path: Path, abstract: str) -> Paper:
        write(tmp_path, "a.txt", f"ICLR 2026 Papers\n{abstract}\n")
        [paper] = load_from(tmp_path, "a.txt").papers
        assert paper.title_derived and re.fullmatch(HASH_ID, paper.paper_id)
        return paper

    def test_method_name_after_we_propose(self, tmp_path: Path) -> None:
        title = self.derived(tmp_path, "Bar is slow. Here we propose FooNet, a fast network for bar. It is.").title
        assert title.startswith("FooNet") and "fast network for bar" in title

    def test_first_clause_without_we_propose(self, tmp_path: Path) -> None:
        assert self.derived(tmp_path, A2).title == "Sparse attention cuts memory use for long contexts"

    def test_real_seed_without_sidecar(self, tmp_path: Path) -> None:
        shutil.copy(REPO / SEED_003, tmp_path / "seed.txt")
        papers = load_from(tmp_path, "seed.txt").papers
        assert len(papers) == 19 and all(p.title_derived for p in papers)
        assert {"ARPG", "Omni-View"} <= {re.split(r"[:, ]", p.title)[0] for p in papers}


RECORDS = [
    {"title": "FooNet", "abstract": A1.replace(". ", ".\n"), "id": "abc123", "url": "https://x.org/1",
     "keywords": ["graphs", "speed"], "area": "learning theory", "venue": "ICLR 2026 Oral"},
    {"title": "BarNet", "abstract": A2, "openreview_id": "Zz9Yy8Xx7W", "keywords": "alpha;beta",
     "primary_area": "generative models", "venue": "ICLR 2026 Poster"},
    {"title": "BazNet", "abstract": A3, "openreview_id": "Qq1", "forum_url": "https://openreview.net/forum?id=Qq1"},
]


def jsonl_bytes(records: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def csv_bytes(records: list[dict]) -> bytes:
    writer = csv.DictWriter(out := io.StringIO(), list(dict.fromkeys(k for r in records for k in r)), restval="")
    writer.writeheader()
    writer.writerows({k: ";".join(v) if isinstance(v, list) else v for k, v in r.items()} for r in records)
    return out.getvalue().encode("utf-8")


WRITERS = {"a.jsonl": jsonl_bytes, "a.jsonl.gz": lambda r: gzip.compress(jsonl_bytes(r)), "a.csv": csv_bytes}


class TestStructuredFormats:
    @pytest.fixture(params=list(WRITERS))
    def papers(self, request: pytest.FixtureRequest, tmp_path: Path) -> list[Paper]:
        write(tmp_path, request.param, WRITERS[request.param](RECORDS))
        return load_from(tmp_path, request.param).papers

    def test_fields(self, papers: list[Paper]) -> None:
        foo, bar, baz = papers
        assert (foo.paper_id, foo.title, foo.title_derived) == ("abc123", "FooNet", False)
        assert foo.openreview_id is None
        assert (foo.url, foo.keywords, foo.area) == ("https://x.org/1", ("graphs", "speed"), "learning theory")
        assert (foo.venue, foo.abstract) == ("ICLR 2026 Oral", RECORDS[0]["abstract"])  # raw, newline kept
        assert (bar.paper_id, bar.openreview_id, bar.keywords) == ("Zz9Yy8Xx7W", "Zz9Yy8Xx7W", ("alpha", "beta"))
        assert (bar.area, bar.venue) == ("generative models", "ICLR 2026 Poster")
        assert bar.url == "https://openreview.net/forum?id=Zz9Yy8Xx7W"
        assert (baz.paper_id, baz.url, baz.keywords) == ("Qq1", "https://openreview.net/forum?id=Qq1", ())

    def test_sources(self, papers: list[Paper]) -> None:
        name = file_of(papers[0].source)
        # CSV: header is line 1 and the first abstract spans lines 2-3 (a quoted newline).
        lines = [2, 4, 5] if name.endswith(".csv") else [1, 2, 3]
        assert [p.source for p in papers] == [f"{name}:{n}" for n in lines]

    def test_jsonl_with_unicode_line_separator_in_a_string(self, tmp_path: Path) -> None:
        odd = {"title": "T", "abstract": A1.replace(" We", "\u2028We")}
        write(tmp_path, "a.jsonl", jsonl_bytes([odd, RECORDS[1]]))
        assert [p.source for p in load_from(tmp_path, "a.jsonl").papers] == ["a.jsonl:1", "a.jsonl:2"]


@pytest.fixture(scope="module")
def real() -> CorpusReport:
    if not REAL_CORPUS.exists():
        pytest.skip(f"{REAL_CORPUS} not available")
    return load_from(REPO, "seeds", REAL_CORPUS)


class TestRealCorpus:
    def test_counts(self, real: CorpusReport) -> None:
        assert (real.records, len(real.papers), real.duplicates) == (38 + 4302, 36 + 4302 - 27, 29)
        assert len({p.paper_id for p in real.papers}) == len(real.papers)

    def test_seed_paper_keeps_seed_source_and_gains_keywords(self, real: CorpusReport) -> None:
        [paper] = [p for p in real.papers if p.paper_id == "qCaq3jGb0S"]
        assert paper.source == f"{SEED_003}:31" and "KV cache" in paper.keywords
        assert [file_of(s) for s in paper.also_in] == [str(REAL_CORPUS)]

    def test_27_seeds_found_in_corpus(self, real: CorpusReport) -> None:
        seeds = [p for p in real.papers if p.source.startswith("seeds/")]
        in_corpus = [p for p in seeds if str(REAL_CORPUS) in map(file_of, p.also_in)]
        assert (len(seeds), len(in_corpus)) == (36, 27)
        assert all(p.keywords and not p.title_derived for p in in_corpus)


GOOD_JSONL = jsonl_bytes(RECORDS[1:])
GZ = gzip.compress(jsonl_bytes(RECORDS * 50))
CORRUPT_GZ = GZ[:20] + bytes(b ^ 0x55 for b in GZ[20:-10]) + GZ[-10:]


def expect_input_error(paths: list[Path], path: Path, match: str) -> InputError:
    with pytest.raises(InputError, match=re.escape(str(path)) + match) as info:
        load_corpus(paths)
    assert info.value.path == str(path)
    return info.value


def case(name: str, content: bytes | None, match: str, line: int | None = None, **kw) -> object:
    return pytest.param(name, content, match, line, id=name, **kw)


class TestBadInputs:
    @pytest.mark.parametrize(("name", "content", "match", "line"), [
        case("missing.txt", None, ": no such file"),
        case("empty.txt", b"", ": is empty"),
        case("blank.txt", b"  \n\t\r\n  \n", ": is empty"),
        case("header_only.txt", b"ICLR 2026 Papers\n\n", ": holds no abstracts"),
        case("binary.txt", b"ICLR 2026 Papers\n\x00\x01\x02\xff", ": is a binary file"),
        case("latin1.txt", f"ICLR 2026 Papers\n{A1}\nCaf\xe9.\n".encode("latin-1"), ":3: is not valid UTF-8", 3),
        case("bad_line3.jsonl", GOOD_JSONL + b'{"title": "x", "abstract": \n', ":3: malformed JSON", 3),
        case("no_abstract.jsonl", GOOD_JSONL + b'{"title": "x"}\n', ":3: record has no 'abstract'", 3),
        case("blank_abstract.jsonl", b'{"title": "x", "abstract": " "}\n', ":1: record has no 'abstract'", 1),
        case("no_abstract.csv", b"title,summary\nFoo,Bar\n", ":1: CSV header has no 'abstract' column", 1),
        case("paper.pdf", b"%PDF-1.4", r": unsupported file type '\.pdf'"),
        case("truncated.jsonl.gz", GZ[: len(GZ) // 2], ": cannot read file"),
        case("not_gzip.jsonl.gz", GOOD_JSONL, ": cannot read file"),
        case("corrupt.jsonl.gz", CORRUPT_GZ, ": cannot read file"),
    ])
    def test_file_errors(self, tmp_path: Path, name: str, content: bytes | None, match: str,
                         line: int | None) -> None:
        path = tmp_path / name if content is None else write(tmp_path, name, content)
        assert expect_input_error([path], path, match).line == line

    def test_folder_without_supported_files(self, tmp_path: Path) -> None:
        write(tmp_path, "notes.md", A1)
        write(tmp_path, "titles.json", "[]")
        expect_input_error([tmp_path], tmp_path, ": folder holds no abstract files")

    def test_one_bad_file_fails_the_whole_load(self, tmp_path: Path) -> None:
        good = write(tmp_path, "good.jsonl", GOOD_JSONL)
        broken = write(tmp_path, "broken.jsonl", b"{not json}\n")
        expect_input_error([good, broken], broken, ":1: malformed JSON")
