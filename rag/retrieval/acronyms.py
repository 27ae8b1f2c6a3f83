"""A question's acronyms spelled out as the corpus defines them, for the evidence stage's word match ("any other RL
papers?" also matches the sentence that writes "in-context reinforcement learning"). Each acronym's long form is the
one the abstracts most often define it with ("reinforcement learning (RL)"), read by ``coref.definitions``.

Only where an abstract writes "(RL)" is read (a regex scan per new acronym, cached): neither bm25s nor llama-index
expands queries, and working out every abstract's definitions up front (``Paper.acronyms``) takes ~9 s on 4,302
papers.
"""

from __future__ import annotations

import re
from collections import Counter

from typing import TYPE_CHECKING

from rag.coref import definitions

if TYPE_CHECKING:
    from rag.retrieval.names import NameIndex

# Two capitals or more, on its own (not "KV" of "TRIM-KV"): RL, LLMs, DiT, MLLM.
_ACRONYM = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*[A-Z][A-Za-z]*(?![\w-])")
_WINDOW = 120  # characters before "(RL)" read for its long form


def _narrowed(before: str) -> bool:
    """The word just before an acronym is a topic word that can modify it ("multimodal", "diffusion"; not "other",
    "using", "papers")."""
    from rag.nearmiss import word_readings
    from rag.topic_words import own_topic_words

    words = re.findall(r"[\w\-]+", before)
    return bool(words) and bool(own_topic_words(words[-1])) and word_readings(words[-1].lower()) != {"VERB"}


class AcronymExpander:
    def __init__(self, texts: list[str]) -> None:
        self._texts = texts
        self._long: dict[str, str] = {}

    def expand(self, query: str, names: set[str] = frozenset()) -> str:
        """The query with the long form of each acronym in it that the corpus defines (and the query lacks), but
        not of ``names`` (papers' own names, "PEAR": the name already finds its paper's sentences)."""
        return " ".join([query, *self.long_forms(query, names)])

    def long_forms(self, query: str, names: set[str] = frozenset()) -> list[str]:
        """The long forms ``expand`` adds; not of an acronym a topic word narrows ("multimodal LLMs": spelling out
        "large language models" would list every LLM paper, when "multimodal" is what the question asks for)."""
        return [long for _, long in self.pairs(query, names)]

    def pairs(self, query: str, names: set[str] = frozenset()) -> list[tuple[str, str]]:
        """Each acronym ``long_forms`` spells out, with its long form."""
        return [(short, long) for short in dict.fromkeys(m.group() for m in _ACRONYM.finditer(query)
                                                         if not _narrowed(query[:m.start()]))
                if short not in names and (long := self.long_form(short)) and long not in query.lower()]

    def long_form(self, short: str) -> str:
        key = short[:-1] if short.endswith("s") and len(short) > 2 else short  # "LLMs" is defined as "LLM"
        if key not in self._long:
            pattern = re.compile(rf"\(\s*{re.escape(key)}s?\s*\)")  # where it is defined, read as coref reads it
            found = Counter(long.lower() for text in self._texts for m in pattern.finditer(text)
                            if (long := definitions(text[max(0, m.start() - _WINDOW):m.end()]).get(key)))
            self._long[key] = found.most_common(1)[0][0] if found else ""
        return self._long[key]

    def mentioning(self, name: str, names: NameIndex) -> list[str]:
        """The papers naming ``name``, and those writing it out as the corpus defines it in either number ("process
        reward model" for "PRMs": an abstract using the term once need not define its acronym), while they are still
        a handful (``NameIndex.is_distinctive``; "large language models" is in most abstracts)."""
        ids = names.papers_mentioning(name)
        long = self.long_form(name) if _ACRONYM.fullmatch(name) else ""
        if not long:
            return ids
        other = long.removesuffix("s") if long.endswith("s") else f"{long}s"
        more = [pid for pid in dict.fromkeys([*names.papers_mentioning(long), *names.papers_mentioning(other)])
                if pid not in ids]
        return [*ids, *more] if len(ids) + len(more) <= names.retrieval.distinctive_name_papers else ids


def spelled_out(query: str, names: NameIndex, expander: AcronymExpander) -> str:
    """A list question with its acronyms' long forms: each one the corpus defines where the acronyms are most of its
    topic ("any other RL papers?"); otherwise each one few papers write (``spelled_share``:
    "which papers do RL fine-tuning of a language model?" finds "a multi-turn Reinforcement learning framework"; not
    "large language models", which would let any LLM paper pass the list) and some paper writes without the acronym
    (not "key-value" for "KV", which every paper writing it also writes)."""
    from rag.topic_words import own_topic_words

    own = set(names.distinctive_names(query))
    if len(own_topic_words(query)) <= 2:
        return expander.expand(query, own)
    most = names.retrieval.spelled_share * len(names.papers)
    rare = [long for short, long in expander.pairs(query, own) if len(
        written := set(names.papers_mentioning(long))) <= most and written - set(names.papers_mentioning(short))]
    return " ".join([query, *rare])
