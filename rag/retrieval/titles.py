"""What titles and abstracts call their papers: each paper's words, the names titles give before a colon, the
acronyms of those names, and the names abstracts coin ("we propose TRIM-KV")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rag.tokens import squash, word_forms
from rag.types import Paper

# "we propose TRIM-KV", "we introduce MaskCO, a …", "termed SPRM": a name the paper gives its own method.
_COINED = re.compile(r"\b(?:propos|introduc|present|develop|design|call|dub|nam|term|coin)\w*\s+"
                    r"(?:(?!(?:to|on|with|for|in|and|than|over)\b)\w+,?\s+){0,3}?([A-Z][\w.\-]*[A-Z0-9][\w.\-]*)")


def coined_names(paper: Paper) -> list[str]:
    """The names the paper's abstract gives its own method ("we propose TRIM-KV"), as written."""
    return [m.group(1) for m in _COINED.finditer(paper.text)]


def paper_words(papers: dict[str, Paper]) -> dict[str, str]:
    """Each paper's words without case or punctuation, for exact-name lookups (~2 s for 4,300 papers)."""
    return {pid: word_forms(f"{p.title} {p.search_text}") for pid, p in papers.items()}


def title_names(papers: Iterable[Paper], max_words: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Short names that titles give their method before a colon ("SIGMark: Scalable …" → sigmark), and the
    first 2–``max_words`` words of titles without a colon, any of which may be the name."""
    names: dict[str, list[str]] = {}
    heads: dict[str, list[str]] = {}
    for paper in papers:
        head, colon, _ = paper.display_title.partition(":")
        if colon and 0 < len(head.split()) <= max_words and len(squash(head)) >= 2:
            names.setdefault(squash(head), []).append(paper.paper_id)
        elif not colon:
            words = head.split()
            for size in range(2, min(max_words, len(words)) + 1):
                heads.setdefault(squash(" ".join(words[:size])), []).append(paper.paper_id)
    return names, heads


def title_initialisms(papers: Iterable[Paper]) -> dict[str, str]:
    """"sbm" → "Spectral Bellman Method" for "Spectral Bellman Method: Unifying …": the initials of a title's name
    before its colon (two to five words) → that name, where only one title has them; a user may call a paper so
    though its abstract never writes the acronym."""
    found: dict[str, list[str]] = {}
    for paper in papers:
        head, colon, _ = paper.display_title.partition(":")
        if colon and 2 <= len(words := head.split()) <= 5 and all(w[0].isalpha() for w in words):
            found.setdefault("".join(w[0] for w in words).lower(), []).append(head)
    return {short: heads[0] for short, heads in found.items() if len(heads) == 1}


def own_names(papers: Iterable[Paper]) -> list[str]:
    """The names papers give themselves, as written: a title's before its colon ("FutureFill: …"), one an abstract
    proposes ("we propose TRIM-KV") and one it is given ("_Obscuro_ is …")."""
    papers = list(papers)
    titled = [head for p in papers if (head := p.display_title.partition(":")[0]) != p.display_title]
    coined = [name for p in papers for name in coined_names(p)]
    return list(dict.fromkeys([*titled, *coined, *(p.given_name for p in papers if p.given_name)]))
