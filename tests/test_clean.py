"""Text cleaning: LaTeX / Markdown → readable display text, keyboard-ASCII search text, and the
normal form used for de-duplication."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.clean import display_text, normalise, search_text

SEEDS = Path(__file__).resolve().parents[1] / "seeds"

# raw, display form, search form
CASES = [
    (r"$\mathbf{2.5\times}$", "2.5×", "2.5x"),
    (r"more than $\mathbf{2.5\times}$ inference speed", "more than 2.5× inference speed",
     "more than 2.5x inference speed"),
    (r"\textit{Can X?}", "Can X?", "Can X?"),
    (r"we ask: \textit{Can combinatorial optimization adopt it?}",
     "we ask: Can combinatorial optimization adopt it?", "we ask: Can combinatorial optimization adopt it?"),
    (r"\url{https://a.b/c}", "https://a.b/c", "https://a.b/c"),
    (r"Code at \url{https://a.b/c}.", "Code at https://a.b/c.", "Code at https://a.b/c."),
    (r"30\%", "30%", "30%"),
    (r"over 30\% of annotations", "over 30% of annotations", "over 30% of annotations"),
    (r"\eg", "e.g.", "e.g."),
    (r"pre-trained DiTs (\eg, SD3 and Flux)", "pre-trained DiTs (e.g., SD3 and Flux)",
     "pre-trained DiTs (e.g., SD3 and Flux)"),
    ("**Visual Jigsaw**", "Visual Jigsaw", "Visual Jigsaw"),
    ("we introduce **Visual Jigsaw**, a generic *self-supervised* framework",
     "we introduce Visual Jigsaw, a generic self-supervised framework",
     "we introduce Visual Jigsaw, a generic self-supervised framework"),
    (r"3.72$\times$ speedup", "3.72× speedup", "3.72x speedup"),
    (r"Best-of-$N$ (BoN)", "Best-of-N (BoN)", "Best-of-N (BoN)"),
    ("  spaced \t out\n text ", "spaced out text", "spaced out text"),
]


@pytest.mark.parametrize(("raw", "display", "search"), CASES, ids=[c[0] for c in CASES])
class TestCleanForms:
    def test_display_text(self, raw: str, display: str, search: str) -> None:
        assert display_text(raw) == display

    def test_search_text(self, raw: str, display: str, search: str) -> None:
        assert search_text(raw) == search

    def test_search_text_is_ascii_here(self, raw: str, display: str, search: str) -> None:
        # None of these cases holds typography beyond what the ASCII fold covers.
        assert search_text(raw).isascii()


class TestNormalise:
    @pytest.mark.parametrize("variant", [
        r"We get a $\mathbf{2.5\times}$ speedup with 30\% less memory, \eg on **LLaMA**.",
        "We get a 2.5× speedup with 30% less memory, e.g. on LLaMA.",
        "we  get a 2.5x speedup\nwith 30%  less memory,\te.g. on LLaMA .",
        "WE GET A 2.5X SPEEDUP WITH 30% LESS MEMORY, E.G. ON LLAMA",
    ])
    def test_same_text_different_markup_and_whitespace(self, variant: str) -> None:
        assert normalise(variant) == "we get a 2 5x speedup with 30 less memory e g on llama"

    def test_different_text_stays_different(self) -> None:
        assert normalise("We get a 2.5× speedup.") != normalise("We get a 3.5× speedup.")

    def test_only_lowercase_alphanumeric_words(self) -> None:
        out = normalise(r"**Hello**, \textit{World}! (α-β) snake_case")
        assert out == "hello world α β snake case"


def _seed_abstracts() -> list[str]:
    lines: list[str] = []
    for path in sorted(SEEDS.glob("*.txt")):
        lines += [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()[1:] if ln.strip()]
    return lines


@pytest.fixture(scope="module")
def displays() -> list[str]:
    abstracts = _seed_abstracts()
    assert len(abstracts) == 38
    return [display_text(a) for a in abstracts]


class TestRealSeedText:
    """Every seed abstract reads cleanly: no LaTeX commands, math delimiters or Markdown emphasis left."""

    @pytest.mark.parametrize("leftover", ["\\", "$", "**", "\\times", "\\mathbf", "\\textit", "\\url", "\\eg"])
    def test_no_markup_left(self, displays: list[str], leftover: str) -> None:
        offenders = [d[:80] for d in displays if leftover in d]
        assert offenders == []

    def test_seed_markup_became_readable(self, displays: list[str]) -> None:
        joined = "\n".join(displays)
        for expected in ("2.5× inference speed", "3.72× speedup", "over 30% of annotations",
                         "(e.g., SD3", "we introduce Visual Jigsaw, a generic self-supervised",
                         "https://anonymous.4open.science/r/anonymous-llm-pruning-D884/",
                         "we ask: Can combinatorial optimization"):
            assert expected in joined
