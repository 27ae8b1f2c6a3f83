"""The comparison table, built from hand-made evidence: rows, columns, cited whole-sentence cells, row names."""

from __future__ import annotations

from rag.table import COLUMNS, NOT_STATED, comparison_table
from rag.types import Evidence, EvidenceSentence, Hit, Paper


def _evidence(title: str, sentences: list[str], scores: list[float] | None = None) -> Evidence:
    paper = Paper(title.lower()[:8], title, " ".join(sentences), "test:1")
    scores = scores or [0.5] * len(sentences)
    ranked = [EvidenceSentence(s, score, i) for i, (s, score) in enumerate(zip(sentences, scores))]
    return Evidence(Hit(paper, 1.0), ranked)


PROBLEM = "However, long context inference suffers from a growing key value cache."
METHOD = "We propose RetainGate, a learned retention gate."
RESULT = "RetainGate achieves a 2.3x speedup on long benchmarks."
RETAIN = _evidence("RetainGate: Learned Token Retention", [PROBLEM, METHOD, RESULT])
LENS = _evidence("GraphLens: Explaining Graph Networks", [
    "Graph neural networks are hard to interpret.",
    "We introduce GraphLens, which explains predictions with sparse masks.",
    "GraphLens outperforms prior explainers on six benchmarks.",
])


def _rows(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()]


def test_the_header_names_the_paper_and_the_three_columns() -> None:
    assert COLUMNS == ("problem", "method", "key result")
    header, rule, *_ = _rows(comparison_table([(1, RETAIN)]))
    assert header == ["paper", "problem", "method", "key result"]
    assert rule == ["---", "---", "---", "---"]


def test_one_row_per_compared_paper_in_order() -> None:
    rows = _rows(comparison_table([(2, LENS), (1, RETAIN)]))[2:]
    assert [row[0] for row in rows] == ["GraphLens [2]", "RetainGate [1]"]
    assert all(len(row) == 4 for row in rows)


def test_sentences_go_to_the_column_their_cue_words_fit() -> None:
    [row] = _rows(comparison_table([(1, RETAIN)]))[2:]
    # Cells stand on their own: the opener "However," is dropped, "We propose X, a …" reads "X is a …".
    assert row == ["RetainGate [1]", "Long context inference suffers from a growing key value cache. [1]",
                   "RetainGate is a learned retention gate. [1]", f"{RESULT} [1]"]


def test_every_cell_cites_its_own_row() -> None:
    rows = _rows(comparison_table([(3, RETAIN), (5, LENS)]))[2:]
    assert all(cell.endswith(" [3]") for cell in rows[0])
    assert all(cell.endswith(" [5]") for cell in rows[1])


def test_without_a_problem_cue_the_opening_sentence_states_the_problem() -> None:
    [row] = _rows(comparison_table([(1, LENS)]))[2:]
    assert row[1] == "Graph neural networks are hard to interpret. [1]"
    assert row[2].startswith("The authors introduce GraphLens") and row[3].startswith("GraphLens outperforms")


def test_sentences_are_taken_in_abstract_order_not_by_score() -> None:
    later = "We propose a second variant of the gate."
    evidence = _evidence("RetainGate: Learned Token Retention", [PROBLEM, METHOD, later], [0.1, 0.2, 0.9])
    [row] = _rows(comparison_table([(1, evidence)]))[2:]
    assert row[2] == "RetainGate is a learned retention gate. [1]"


def test_the_method_is_what_the_paper_proposes_not_prior_work() -> None:
    prior = "Moreover, recent methods use a fixed budget, which we extend."  # a method sentence, of prior work
    own = "We propose RetainGate, a learned retention gate."
    evidence = _evidence("RetainGate: Learned Token Retention", [PROBLEM, prior, own])
    [row] = _rows(comparison_table([(1, evidence)]))[2:]
    assert row[2] == "RetainGate is a learned retention gate. [1]"
    assert NOT_STATED == "—"  # no claim that the abstract lacks it: the role rules may have missed it


def test_a_sentence_fills_one_column_only() -> None:
    both = "We propose RetainGate, which achieves a 2.3x speedup."
    evidence = _evidence("RetainGate: Learned Token Retention", [both])
    [row] = _rows(comparison_table([(1, evidence)]))[2:]
    assert row[1:] == [NOT_STATED, "The authors propose RetainGate, which achieves a 2.3x speedup. [1]",
                       NOT_STATED]


def test_a_column_without_a_fitting_sentence_says_so() -> None:
    evidence = _evidence("RetainGate: Learned Token Retention", [PROBLEM, METHOD])
    [row] = _rows(comparison_table([(1, evidence)]))[2:]
    assert row[3] == NOT_STATED
    empty = _evidence("Nothing Retrieved", [])
    [row] = _rows(comparison_table([(4, empty)]))[2:]
    assert row == ["Nothing Retrieved [4]"] + [NOT_STATED] * 3


def test_long_sentences_are_kept_whole() -> None:
    """A cell holds the whole sentence and wraps; a cut one lost the figure or the name at its end."""
    long = "However, " + " ".join(f"word{i}" for i in range(30)) + " suffer from long contexts."
    evidence = _evidence("RetainGate: Learned Token Retention", [long, METHOD, RESULT])
    [row] = _rows(comparison_table([(1, evidence)]))[2:]
    assert row[1] == " ".join(long.split()[1:]) + " [1]" and "…" not in row[1]


def test_pipes_cannot_break_the_table() -> None:
    evidence = _evidence("A|B: Pipes in Titles", ["However, the A|B split fails.", METHOD, RESULT])
    table = comparison_table([(1, evidence)])
    [row] = _rows(table)[2:]
    assert len(row) == 4 and row[0] == "A/B [1]" and row[1] == "The A/B split fails. [1]"


def test_rows_are_named_by_the_papers_short_name_never_cut() -> None:
    named = _evidence("Cache What Lasts: Token Retention for Memory-Bounded KV Cache in LLMs",
                      ["We propose TRIM-KV, a novel approach that learns each token's importance."])
    [row] = _rows(comparison_table([(1, named)]))[2:]
    assert row[0] == "TRIM-KV [1]"  # the name the abstract proposes, not the title's first words
    long_head = "A Very Long Method Name That Goes On And On: Subtitle"
    [row] = _rows(comparison_table([(1, _evidence(long_head, ["It works well."]))]))[2:]
    assert row[0] == f"{long_head} [1]"  # no name: the whole title, wrapped rather than cut
    no_colon = "An Untitled Study of Extremely Long Titles Without Any Colon Whatsoever"
    [row] = _rows(comparison_table([(1, _evidence(no_colon, ["It works well."]))]))[2:]
    assert row[0] == f"{no_colon} [1]"


def test_no_papers_gives_the_header_only() -> None:
    assert len(comparison_table([]).splitlines()) == 2
