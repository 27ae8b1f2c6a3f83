"""Text → Markdown for the browser: every abstract, title, question and answer is data, never markup.

Gradio's Markdown and Chatbot render Markdown to HTML, then KaTeX (auto-render over the DOM text) for
the ``latex_delimiters``. So data is escaped (``& < >`` become entities) before it is handed over, and
only markup made here (``<mark>``, ``<strong>``, links to ``#cite-…``) reaches the page as markup.
Math spans keep their LaTeX, with ``< > &`` spelled as KaTeX commands so they hold no HTML at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag.clean import display_text, normalise
from rag.sentences import split_sentences
from rag.types import Paper, Source

# $$…$$ first, then $…$; an escaped dollar (\$) opens nothing.
_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(?!\s)(.+?)(?<![\s\\])\$", re.DOTALL)
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])")
# Private-use characters stand for emphasis while display_text cleans the text around it.
_B_OPEN, _B_CLOSE, _I_OPEN, _I_CLOSE, _DOLLAR = "\ue000", "\ue001", "\ue002", "\ue003", "\ue004"
# Characters Markdown would read as syntax inside running text (not | : tables are ours to make).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]#])")
_CITATION = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{4,40}$")
_SAFE_URL = re.compile(r"^https?://[^\s<>\"'()\\]+$")

LATEX_DELIMITERS = [
    {"left": "$$", "right": "$$", "display": True},
    {"left": "$", "right": "$", "display": False},
]


def escape_html(text: str) -> str:
    """``& < >`` as entities: the text shows literally and can never become a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_markdown(text: str) -> str:
    """Plain text made safe for Markdown: HTML escaped, Markdown syntax characters backslash-escaped.

    A lone ``$`` is wrapped in its own ``<span>`` so KaTeX (which pairs dollars within one text node)
    never reads prices or stray dollars as math."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", escape_html(text))
    return text.replace("$", "<span>$</span>")


def math_markdown(body: str, display: bool) -> str:
    """A math span kept for KaTeX, with the HTML-special characters as KaTeX commands."""
    body = re.sub(r"(?<!\\)&", r"\\&", body).replace("<", r"\lt ").replace(">", r"\gt ")
    body = " ".join(body.split()) if not display else body.strip()
    fence = "$$" if display else "$"
    return f"{fence}{body}{fence}"


def _clean_text(text: str) -> str:
    """Non-math abstract text: LaTeX text commands resolved, emphasis kept, everything else escaped."""
    text = re.sub(r"\\?\$", _DOLLAR, text)  # a dollar outside math (display_text would pair them up)
    text = _BOLD.sub(lambda m: _B_OPEN + (m.group(1) or m.group(2)) + _B_CLOSE, text)
    text = _ITALIC.sub(lambda m: _I_OPEN + m.group(1) + _I_CLOSE, text)
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    cleaned = escape_markdown(display_text(text))
    for mark, tag in ((_B_OPEN, "<strong>"), (_B_CLOSE, "</strong>"), (_I_OPEN, "<em>"), (_I_CLOSE, "</em>"),
                      (_DOLLAR, "<span>$</span>")):
        cleaned = cleaned.replace(mark, tag)
    return f"{lead}{cleaned}{trail}" if cleaned else (lead or trail)


def _balanced(text: str) -> str:
    """Drop emphasis tags left unmatched where a sentence boundary cut an emphasised phrase."""
    for tag in ("strong", "em"):
        opened, closed = text.count(f"<{tag}>"), text.count(f"</{tag}>")
        if opened != closed:
            text = text.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    return text


def inline_markdown(raw: str) -> str:
    """Raw abstract text (LaTeX, Markdown) as safe Markdown: math for KaTeX, the rest escaped text."""
    parts: list[str] = []
    position = 0
    for match in _MATH.finditer(raw):
        parts.append(_clean_text(raw[position:match.start()]))
        display = match.group(1) is not None
        parts.append(math_markdown(match.group(1) if display else match.group(2), display))
        position = match.end()
    parts.append(_clean_text(raw[position:]))
    return _balanced("".join(parts)).strip()


def _is_supporting(sentence: str, targets: Sequence[str]) -> bool:
    """Whether a raw sentence is one of the evidence sentences (compared in normal form, so markup
    and sentence-boundary differences between the raw and the display text do not matter)."""
    key = normalise(sentence)
    if not key:
        return False
    return any(key == t or (len(t) >= 24 and t in key) or (len(key) >= 24 and key in t) for t in targets)


def abstract_markdown(abstract: str, highlights: Iterable[str] = ()) -> str:
    """The abstract as Markdown, the sentences in ``highlights`` (display text) marked."""
    targets = [t for t in (normalise(h) for h in highlights) if t]
    pieces = []
    for sentence in split_sentences(" ".join(abstract.split())):
        text = inline_markdown(sentence)
        pieces.append(f"<mark>{text}</mark>" if targets and _is_supporting(sentence, targets) else text)
    return " ".join(pieces)


def paper_url(paper: Paper) -> str | None:
    """The paper's page: its own URL when it is a plain http(s) address, else its OpenReview forum."""
    if paper.url and _SAFE_URL.match(paper.url):
        return paper.url
    if paper.openreview_id and _OPENREVIEW_ID.match(paper.openreview_id):
        return f"https://openreview.net/forum?id={paper.openreview_id}"
    return None


def title_text(title: str) -> str:
    """A title as escaped Markdown text (LaTeX resolved to readable characters)."""
    return escape_markdown(display_text(title))


def source_label(source: Source, show_scores: bool) -> str:
    """A line of the source list (plain text: Gradio shows radio labels as text, not HTML)."""
    label = f"[{source.rank}] {display_text(source.title)}"
    return f"{label}  ·  score {source.score:.3f}" if show_scores else label


def paper_markdown(paper: Paper, *, rank: int | None = None, score: float | None = None,
                   highlights: Iterable[str] = ()) -> str:
    """The paper panel: title, link, metadata, and the abstract with its supporting sentences marked."""
    highlights = list(highlights)
    heading = f"[{rank}] " if rank is not None else ""
    lines = [f"### {heading}{title_text(paper.title)}", ""]
    facts = []
    url = paper_url(paper)
    if url:
        label = "OpenReview" if "openreview.net" in url else "Paper page"
        facts.append(f"[{label} ↗]({url})")
    for value in (paper.venue, paper.area):
        if value:
            facts.append(escape_markdown(value))
    facts.append(f"<code>{escape_html(paper.paper_id)}</code>")
    if score is not None:
        facts.append(f"score {score:.3f}")
    lines += [" · ".join(facts), ""]
    if highlights:
        lines += ["<small>Highlighted: the sentences the answer quotes or rests on.</small>", ""]
    lines.append(abstract_markdown(paper.abstract, highlights) if paper.abstract.strip()
                 else "_No abstract stored for this paper (it is no longer in the index)._")
    return "\n".join(lines)


def _link_numbers(match: re.Match[str], turn: int, known: set[int]) -> str:
    numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
    if not all(n in known for n in numbers):
        return escape_markdown(match.group(0))
    if len(numbers) == 1:
        return f"[\\[{numbers[0]}\\]](#cite-{turn}-{numbers[0]})"
    return "\\[" + ", ".join(f"[{n}](#cite-{turn}-{n})" for n in numbers) + "\\]"


def answer_markdown(text: str, turn: int, known: Iterable[int]) -> str:
    """An answer for the chat: HTML escaped; each citation [n] of a known source a link to it.

    The answer's own Markdown (lists, the comparison table, emphasis) is kept: it is written by the
    engine or the model, while anything that could be a tag is escaped. The chat renders no LaTeX
    (answers quote the display text, where math is already plain characters), so ``$`` stays text."""
    known_numbers = set(known)
    escaped = escape_html(text)
    return _CITATION.sub(lambda m: _link_numbers(m, turn, known_numbers), escaped)


def question_markdown(question: str) -> str:
    """A user's question as shown in the chat: literal text."""
    return escape_markdown(question)


def notice_markdown(notice: str) -> str:
    return f"> ℹ️ {escape_markdown(notice)}" if notice else ""


def error_markdown(message: str) -> str:
    return f"⚠️ {escape_markdown(message)}"
