"""Text cleaning: LaTeX / Markdown in abstracts → readable text, plus the normal forms used for matching.

Abstracts arrive with inline LaTeX (``$\\mathbf{2.5\\times}$``, ``\\textit{…}``, ``\\url{…}``, ``\\%``,
``\\eg``) and Markdown (``**Visual Jigsaw**``). Three forms are derived from the raw text:

* ``display_text``: what a person reads in an answer (``2.5×``, ``30%``, ``e.g.``);
* ``search_text``: the display form with typography folded to ASCII (``2.5x``) so that a query typed
  on a keyboard matches it;
* ``normalise``: lower-cased alphanumerics only, for de-duplication and content hashes (the same
  abstract from two sources may differ in whitespace or markup).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from rag.bounds import without_controls

# Commands that simply wrap their argument: \textbf{x} → x.
_WRAPPERS = (
    "mathbf|mathrm|mathit|mathsf|mathtt|mathcal|mathbb|boldsymbol|bm|text|textbf|textit|textrm|"
    "texttt|textsc|textsf|emph|underline|operatorname|mbox|hat|tilde|bar|vec|overline"
)
_WRAPPER_RE = re.compile(r"\\(?:" + _WRAPPERS + r")\s*\{([^{}]*)\}")
_URL_RE = re.compile(r"\\url\s*\{([^{}]*)\}")
_HREF_RE = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")

# Symbols and abbreviation macros with a readable Unicode / plain-text equivalent.
_SYMBOLS = {
    "times": "×", "cdot": "·", "approx": "≈", "sim": "~", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "neq": "≠", "ne": "≠", "pm": "±", "infty": "∞", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "Rightarrow": "⇒", "in": "∈", "ll": "≪", "gg": "≫", "propto": "∝",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "psi": "ψ", "omega": "ω", "Delta": "Δ", "Omega": "Ω", "Sigma": "Σ",
    "ell": "ℓ", "dots": "…", "ldots": "…", "cdots": "⋯", "%": "%", "&": "&", "_": "_", "#": "#",
    "$": "$", "eg": "e.g.", "ie": "i.e.", "etal": "et al.", "wrt": "w.r.t.", "vs": "vs.",
    "etc": "etc.",
}
_SYMBOL_RE = re.compile(r"\\([A-Za-z]+|[%&_#$])(?![A-Za-z])")
_FRAC_RE = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SQRT_RE = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_SPACING_RE = re.compile(r"\\[,;:! ]")
_MARKDOWN_BOLD_RE = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_MARKDOWN_ITALIC_RE = re.compile(r"(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])")
# Any Markdown link keeps only its text: an http(s) target is dropped like the others ("javascript:", "file:", …
# never reach an answer as a link).
_MARKDOWN_LINK_RE = re.compile(r"\[([^\]]+)\]\((?:[A-Za-z][\w+.-]*:|www\.|/|#)(?:[^()\s]|\([^()\s]*\))*\)")
_MARKDOWN_CODE_RE = re.compile(r"`([^`]+)`")
_MATH_RE = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$")
_SUPERSCRIPT_RE = re.compile(r"\^\{([^{}]*)\}")
_SUBSCRIPT_RE = re.compile(r"_\{([^{}]*)\}")
_WS_RE = re.compile(r"\s+")

# Typography a keyboard query will not contain.
_ASCII_FOLD = str.maketrans({
    "×": "x", "·": "*", "≈": "~", "≤": "<=", "≥": ">=", "≠": "!=", "±": "+-", "→": "->",
    "←": "<-", "…": "...", "⋯": "...", "–": "-", "—": "-", "‐": "-", "‑": "-", "−": "-",
    "“": '"', "”": '"', "‘": "'", "’": "'",
})


def _replace_symbol(match: re.Match[str]) -> str:
    name = match.group(1)
    # An unknown command keeps its name, which is usually the readable part (\log → log).
    return _SYMBOLS.get(name, name)


def _unwrap(text: str) -> str:
    """Strip wrapper commands from the inside out (``\\mathbf{2.5\\times}`` nests)."""
    previous = None
    while previous != text:
        previous = text
        text = _WRAPPER_RE.sub(r"\1", text)
        text = _FRAC_RE.sub(r"\1/\2", text)
        text = _SQRT_RE.sub(r"√\1", text)
        text = _URL_RE.sub(r"\1", text)
        text = _HREF_RE.sub(r"\1", text)
    return text


def _clean_math(body: str) -> str:
    body = _unwrap(body)
    body = _SUPERSCRIPT_RE.sub(r"^\1", body)
    body = _SUBSCRIPT_RE.sub(r"_\1", body)
    body = _SYMBOL_RE.sub(_replace_symbol, body)
    body = _SPACING_RE.sub(" ", body)
    body = body.replace("{", "").replace("}", "")
    return body.strip()


@lru_cache(maxsize=4096)  # a record repeated across files (or 200k times in one) is cleaned once
def display_text(raw: str) -> str:
    """Readable form of an abstract or title: no LaTeX or Markdown markup, whitespace collapsed."""
    text = without_controls(unicodedata.normalize("NFC", raw), keep="\r")  # no escape codes from an abstract
    text = _MATH_RE.sub(lambda m: _clean_math(m.group(1)), text)
    text = _unwrap(text)
    text = _SPACING_RE.sub(" ", text)
    text = _SYMBOL_RE.sub(_replace_symbol, text)
    text = _MARKDOWN_BOLD_RE.sub(lambda m: m.group(1) or m.group(2), text)
    text = _MARKDOWN_ITALIC_RE.sub(r"\1", text)
    text = _MARKDOWN_CODE_RE.sub(r"\1", text)
    text = _MARKDOWN_LINK_RE.sub(r"\1", text)
    text = text.replace("``", "“").replace("''", "”")  # LaTeX quotes
    text = re.sub(r"(?<!\\)[{}]", "", text)
    return _WS_RE.sub(" ", text).strip()


def search_text(raw: str) -> str:
    """Display form folded to keyboard ASCII typography (``2.5×`` → ``2.5x``) for lexical matching."""
    return display_text(raw).translate(_ASCII_FOLD)


def normalise(text: str) -> str:
    """Lower-case alphanumeric words only: equal for the same abstract however it was typeset."""
    folded = search_text(text).lower()
    return " ".join(re.findall(r"[^\W_]+", folded))


def content_hash(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\x1f")
    return digest.hexdigest()[:16]
