"""A paper: an abstract with its title and where it came from (the corpus stage's record)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from rag.clean import content_hash, display_text, normalise, search_text

# Where an abstract names its method: "we propose TRIM-KV, …", "we introduce Visual Jigsaw, …".
_PROPOSES = re.compile(r"\b(?:we|this (?:paper|work)) (?:(?:also|further|then|first|\w+ly) )?(?:propose|introduce|"
                       r"present|develop)s?\s+([^,.;:]{2,60})", re.IGNORECASE)
# "… a strategy named discrete diffusion forcing (D2F)", "dubbed BANZ-FS": the name the abstract gives its method.
_NAMED = re.compile(r"\b(?:named|called|dubbed|termed|coined)\s+(?:[^,.;:()]{2,60}?\s*\(([^()\s]{2,20})\)|"
                    r"([^\s,.;:()]{2,30}))")

# "_Obscuro_ is the first superhuman AI for …", "DaVinci is a novel MLLM …": a one-word name opening a sentence.
_IS_FIRST = re.compile(r"(?:^|(?<=[.!?]\s))[_*]{0,2}([A-Z][\w-]*[A-Za-z0-9])[_*]{0,2}\s+is\s+(?:the\s+first|a\s+novel|"
                       r"a\s+new)\b")
_COMMON_OPENERS = frozenset("this it that there which what each reasoning learning training data".split())


@dataclass(frozen=True)
class Paper:
    """One paper: an abstract with its title and where it came from."""

    paper_id: str
    title: str
    abstract: str  # raw, exactly as given (may hold LaTeX / Markdown)
    source: str  # "file:line" of the first record that brought it
    title_derived: bool = False  # True when no title was given and one was derived from the text
    openreview_id: str | None = None
    url: str | None = None
    venue: str | None = None
    area: str | None = None
    keywords: tuple[str, ...] = ()
    also_in: tuple[str, ...] = ()  # other "file:line" records holding the same abstract

    @cached_property
    def text(self) -> str:
        """Clean display form of the abstract."""
        return display_text(self.abstract)

    @cached_property
    def search_text(self) -> str:
        return search_text(self.abstract)

    @cached_property
    def display_title(self) -> str:
        return display_text(self.title)

    @cached_property
    def acronyms(self) -> dict[str, str]:
        """Each acronym the abstract defines → its long form as written (``coref.definitions``), parsed once."""
        from rag.coref import definitions

        return definitions(self.text)

    @cached_property
    def given_name(self) -> str:
        """The name the title or abstract gives the paper's method ("TRIM-KV"), or "" when it is called by its
        title."""
        return self.short_name if self.short_name != self.display_title else ""

    @cached_property
    def short_name(self) -> str:
        """What an answer calls the paper: the name its title gives the method ("SIGMark: …" → "SIGMark"), else
        the name its abstract proposes ("We propose TRIM-KV, …") or gives ("a strategy named … (D2F)"), else the
        whole title (never cut mid-word)."""
        from rag.coref import common_acronym
        from rag.question import names_in

        head, colon, _ = self.display_title.partition(":")
        if colon and (len(head.split()) == 1 or (names_in(head) and len(head.split()) <= 3)):
            return head.strip()
        proposed = _PROPOSES.search(self.text)
        if proposed:
            said = " ".join(word.strip("_*") for word in proposed.group(1).split())  # "_Obscuro_": Markdown emphasis
            names = names_in(said)
            words = said.split()
            capitalised = " ".join(words[: next((i for i, w in enumerate(words) if not w[:1].isupper()), len(words))])
            # ("Meta-Optimization of Heuristics (MoH), …": the acronym the long name is given, not its first word)
            given = re.search(r"^(?:(?:a|an|the)\s+)?(\w)[^()]*\(([A-Za-z][\w-]*)\)", said)
            if given and given.group(2) in names and given.group(2)[0].lower() == given.group(1).lower() and not (
                    common_acronym(given.group(2))):
                return given.group(2)
            if names:
                return names[0]
            if capitalised and len(capitalised.split()) <= 3:  # "we propose Tactic, a …", "we introduce Visual Jigsaw"
                return capitalised
        named = _NAMED.search(self.text)
        if named and names_in(name := named.group(1) or named.group(2)):
            return name
        first = _IS_FIRST.search(self.text)
        if first and (names_in(first.group(1)) or first.group(1).lower() not in _COMMON_OPENERS):
            return first.group(1)
        return self.display_title

    @cached_property
    def text_key(self) -> str:
        """Identity of the abstract however it was typeset: the de-duplication key."""
        return content_hash(normalise(self.abstract))

    @cached_property
    def embed_hash(self) -> str:
        """Hash of everything that is embedded: when it is unchanged, nothing is re-embedded."""
        return content_hash(self.display_title, self.search_text)

    @cached_property
    def record_hash(self) -> str:
        """Hash of the whole record: when it is unchanged, the paper is left alone."""
        return content_hash(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False))

    def metadata(self) -> dict[str, Any]:
        return {
            "openreview_id": self.openreview_id,
            "url": self.url,
            "venue": self.venue,
            "area": self.area,
            "keywords": list(self.keywords),
            "also_in": list(self.also_in),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "paper_id": self.paper_id,
            "title": self.title,
            "title_derived": self.title_derived,
            "abstract": self.abstract,
            "source": self.source,
            "metadata": self.metadata(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Paper:
        meta = data.get("metadata") or {}
        return cls(
            paper_id=data["paper_id"],
            title=data["title"],
            abstract=data["abstract"],
            source=data["source"],
            title_derived=bool(data.get("title_derived", False)),
            openreview_id=meta.get("openreview_id"),
            url=meta.get("url"),
            venue=meta.get("venue"),
            area=meta.get("area"),
            keywords=tuple(meta.get("keywords") or ()),
            also_in=tuple(meta.get("also_in") or ()),
        )

    def gains_from(self, other: Paper) -> bool:
        """``merged_with(other)`` would fill a field of this record (its ``also_in`` aside)."""
        return (self.title_derived and not other.title_derived) or any(
            not getattr(self, name) and getattr(other, name) for name in ("openreview_id", "url", "venue", "area",
                                                                          "keywords"))

    def merged_with(self, other: Paper) -> Paper:
        """This record, with fields it lacks filled from ``other`` (the same abstract elsewhere)."""
        also_in = tuple(dict.fromkeys((*self.also_in, other.source, *other.also_in)))
        also_in = tuple(s for s in also_in if s != self.source)
        title, derived = self.title, self.title_derived
        if derived and not other.title_derived:
            title, derived = other.title, False
        return replace(
            self,
            title=title,
            title_derived=derived,
            openreview_id=self.openreview_id or other.openreview_id,
            url=self.url or other.url,
            venue=self.venue or other.venue,
            area=self.area or other.area,
            keywords=self.keywords or other.keywords,
            also_in=also_in,
        )
