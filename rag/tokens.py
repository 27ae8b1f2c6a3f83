"""The project's one tokenizer: every text rule (topic words, BM25 text, name lookup, support stems) reads
words through these functions.

* ``content_words``: lower-cased topic words, keeping ``trim-kv`` and ``3.5x`` whole (evidence, decide, verify);
* ``lexical_text``: what BM25 indexes and is queried with, with whole-token names and numbers;
* ``word_forms``: a text's words padded for whole-word name lookups, hyphenated words also joined;
* ``squash``: a phrase's letters and digits only (title names: "SIG-Mark" → "sigmark");
* ``stems``: English stems of topic words (the word overlap of the evidence stage and the citation check).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rag.clean import search_text

# Question scaffolding and corpus-wide filler: present in most questions, saying nothing about the topic.
QUESTION_WORDS = frozenset(
    "a an and are as at be by can could did do does for from has have how i in is it its me of on or "
    "were been being had would should "
    "our that the their them there these they this to was we what when where which who whom whose why "
    "will with you your about any all also between both compare compared vs versus describe explain find show "
    "tell than into using used use paper papers work works study studies propose proposed proposes "
    "problem problems solve solves address addresses tackle approach method methods "
    "whats hows whos wheres whys "  # chat spelling of "what's"
    "here other others else besides "  # "Which other papers here …": where and which, not what about
    "ok okay alright so well hmm oh hey cool thanks thank yeah yes sure please just actually then now "  # chat filler
    "right "
    "whatever whichever whoever however wherever whenever "  # ("… whatever they emphasize?": no topic)
    "anyone anybody someone somebody shown "  # "has anyone shown …": who did it is not the topic
    "came come comes "  # "and which came out best?"
    "s re ve ll d m t "  # what is left of "what's", "they're", "don't"
    "don doesn didn isn aren wasn weren hasn haven hadn couldn shouldn wouldn mustn needn".split())  # and of "n't"
# The frame of a question asking for several papers ("Which papers …", "Are there any works on …"): it says
# what is wanted, not what about. Embedded with the question, it pulls the dense rankings towards
# abstracts that talk about "papers" and "works"; the dense rankings and the evidence stage embed the
# question without it. Single-paper frames ("Is there a method that …") are kept: cutting them moved the right
# paper down as often as up (docs/benchmarks.md).
_FRAME = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:\w+\s+)?(?:papers|works|studies|articles|methods)"
    r"|are\s+there\s+(?:any\s+)?(?:\w+\s+)?(?:papers|works|studies|articles|methods)"
    r"|(?:do|does)\s+any\s+(?:papers|works)|(?:list|find|show\s+me)\s+(?:\w+\s+)?(?:papers|works))"
    # "Which other papers here …", "Which papers in this collection …": where to look is not the topic
    r"(?:\s+(?:here|in\s+(?:this|the)\s+(?:collection|set|index)))?"
    r"(?:\s+(?:that|which|who|where|on|about|for|regarding))?(?:\s+(?:are|is)\s+about)?\s+", re.IGNORECASE)
# A hedge around a topic ("… deal with KV caches in some way?"): no topic word.
HEDGE = (r"(?:in|of)\s+(?:some|any)\s+(?:way|form|shape|kind|sort|fashion|sense)|somehow|somewhere|"
         r"in\s+the\s+[a-z]+\s+sense|"
         r"(?:in\s+)?one\s+(?:way|form|shape)\s+or\s+(?:another|the\s+other)|of\s+one\s+(?:kind|sort)\s+or\s+another|"
         r"at\s+all|(?:even\s+)?(?:in\s+passing|tangentially|remotely|briefly)|"  # ("… at all, even in passing?")
         r"in\s+the\s+first\s+place|by\s+any\s+chance|for\s+that\s+matter")  # (idioms: "… in the first place?")
# "… in this collection?", "Which papers in the index …": where to look, never what about, nor a reference back; nor
# is a hedge.
_WHERE = re.compile(r"\b(?:in|from|of|within|among|across|throughout)\s+(?:this|the|your|our)\s+(?:whole\s+|entire\s+)?"
                    r"(?:collection|set|index|corpus|database|"
                    rf"library)\b|\b(?:{HEDGE})\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*[a-z0-9]|[a-z0-9]")
# A named model or dataset as abstracts write them, a capital and a digit: "Llama-7B", "WikiText-2", "GSM8K".
# (``roles.ASPECT_CUES`` writes it out itself: the hash telling stored roles stale covers the role files only.)
NAMED_THING = r"\b[A-Z][A-Za-z]*-?\d[\w.-]*\b"


# Where to look, or how broadly, said first ("Across the whole collection, which papers …?", "Overall - …"): the frame
# asking for papers follows it.
WHERE_FIRST = re.compile(r"(?i)^\s*(?:(?:ok(?:ay)?|so|and|now)\b[\s,]*)*(?:(?:across|in|within|throughout)\s+(?:the|"
                         r"this)\s+(?:whole\s+|entire\s+)?(?:collection|set|index|corpus)|(?:more\s+)?(?:broadly|"
                         r"generally|overall)|in\s+general)\s*[,:;–—-]\s*")


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|\([^()]*\)")


def without_quoted(text: str) -> str:
    """The text without what it quotes or puts in brackets (examples, asides)."""
    return _QUOTED.sub(" ", text)


def without_where(text: str) -> str:
    return _WHERE.sub(" ", text)


# "broader question: …", "quick one - …": a preamble; ", e.g. sampling many candidates and picking one": examples
_PREAMBLE = re.compile(r"^\W*(?:(?:[\w-]+\s+){0,2}(?:question|q|one)|(?:ok(?:ay)?,?\s+)?(?:(?:zooming|stepping|"
                       r"pulling)\s+(?:out|back)|big[\s-]picture|(?:more\s+)?broadly|in\s+general|overall))"
                       r"\s*[:,–—-]\s*", re.I)
# (and ways of doing it after a dash: "… with the KV cache - using it, shrinking it, sharing it?")
# (", either as the training method or as the thing studied", "- as input, output or training data": the ways a
# paper may fit, not its topic)
_EXAMPLE_TAIL = re.compile(r",\s*(?:e\.\s?g\.?|eg\.|i\.\s?e\.?|for\s+(?:example|instance)|such\s+as|(?:either|whether)"
                           r"(?=\s+(?:as|for|in|by|to)\b[^?;!]*\bor\b))\s[^?;!]*|"
                           # ("… video somewhere - as input, output or training data?", "…, as input or as output?")
                           r"(?:\s+[-–—:]|,)\s+(?:either\s+|whether\s+)?as\s+(?=[^?;!]*\bor\b)[^?;!]*|"
                           r"\s+[-–—:]\s+(?:[a-z]+(?:\s+[a-z]+)?\s+(?:it|them)"
                           r"(?:,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+))+"
                           r"[a-z]+(?:\s+[a-z]+)?\s+(?:it|them)\s*(?=[?!.]|$)", re.IGNORECASE)


def topic_asked(text: str) -> str:
    """What a question asks about, without where to look, a preamble or the examples it gives ("broader question:
    which papers are about test-time scaling, e.g. sampling many candidates?" → "which papers are about test-time
    scaling?")."""
    return _EXAMPLE_TAIL.sub("", _PREAMBLE.sub("", without_where(text)))


def content_words(text: str) -> set[str]:
    """Lower-cased topic words (keeping tokens such as ``trim-kv`` and ``3.5x`` whole)."""
    return {w for w in _WORD.findall(search_text(text).lower()) if w not in QUESTION_WORDS}


def keyword_query(question: str) -> str:
    """The question without its scaffolding, in original order; the question itself if nothing is left."""
    words = [w for w in _WORD.findall(search_text(without_where(question)).lower()) if w not in QUESTION_WORDS]
    return " ".join(words) or question


# Hedges, no part of a term ("which methods are explicitly training-free?" asks for "training-free")
_HEDGES = frozenset("explicitly really specifically mostly mainly primarily truly basically essentially roughly "
                    "typically usually particularly especially".split())


def topic_phrases(question: str) -> list[str]:
    """Runs of two or more adjacent topic words in the question's topic, as written ("Which papers touch on the KV
    cache?" → ["kv cache"]): the terms a paper using them verbatim is about."""
    runs: list[list[str]] = [[]]
    # (a list is no run: "TSP, bin packing, heuristic design" holds "bin packing" and "heuristic design"; nor are
    # alternatives: "the central vision / slowness study")
    for piece in re.split(r"[,;:()]\s|\s[-–—/]\s|[()/]", _shared_head(search_text(topic_query(question)).lower())):
        runs.append([])
        for word in _WORD.findall(piece):
            if word in QUESTION_WORDS or word in _KIND_WORDS or word in _HEDGES:
                runs.append([])
            else:
                runs[-1].append(word)
    # (a hyphenated term standing alone is one too: "operations-research type problems")
    return [" ".join(run) for run in runs if len(run) >= 2 or len(run) == 1 and _COMPOUND.fullmatch(run[0])]


# "test-time / inference-time scaling", "image/video generation": two terms sharing their last word
_SLASHED = re.compile(r"(?<![\w/-])([a-z][\w-]*)\s*/\s*([a-z][\w-]*)\s+([a-z][\w-]*)")


def _shared_head(text: str) -> str:
    """"test-time / inference-time scaling" → "test-time scaling / inference-time scaling"."""
    def spread(m: re.Match[str]) -> str:
        first, second, head = m.groups()
        return m.group(0) if head in QUESTION_WORDS else f"{first} {head} / {second} {head}"

    return _SLASHED.sub(spread, text)


# "operations-research type problems", "BERT-style": words saying what kind of thing, not part of its term
# (and verbs saying how a paper holds a topic: "which papers involve reinforcement learning?" asks for "reinforcement
# learning")
_KIND_WORDS = frozenset("type types kind kinds sort sorts style stuff thing things involve involves involving mention "
                        "mentions mentioning discuss discusses discussing tackle tackles tackling".split())
_COMPOUND = re.compile(r"[a-z]{3,}(?:-[a-z]{3,})+")


def listed_items(question: str) -> set[str]:
    """The terms of an enumeration of three or more items in the question ("which papers tackle combinatorial
    problems - TSP, bin packing, heuristic design for COPs and so on?"): each is a topic of its own."""
    items: set[str] = set()
    for clause in re.split(r"[.?!;:]\s|\s[-–—]\s", question):
        parts = re.split(r",\s*(?:and\s+|or\s+)?", clause)
        items |= {phrase for part in parts for phrase in topic_phrases(part)} if len(parts) >= 3 else set()
    return items


def topic_query(question: str) -> str:
    """The question without a leading frame asking for papers: "Which papers study X?" → "study X?"."""
    topic = without_where(_FRAME.sub("", WHERE_FIRST.sub("", question, count=1), count=1))
    return topic if len(content_words(topic)) >= 2 else question


# -- BM25 text ---------------------------------------------------------------------------------
# BM25's tokenizer (``\\b\\w\\w+\\b``) cuts ``TRIM-KV`` into ``trim`` + ``kv`` and ``5.14x`` into ``14x``, losing
# exactly the rare tokens that identify a paper: each hyphenated or dotted compound is added once more as a single
# token (``trimkv``, ``5_14x``) to documents and queries alike.
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)+[a-z%]*(?![\w])", re.IGNORECASE)  # 5.14x, 1.83, 2,389
_COMPOUND = re.compile(r"(?<![\w-])[^\W_]+(?:-[^\W_]+)+(?![\w-])")  # TRIM-KV, Best-of-N, RainPro-8


def compound_tokens(text: str) -> list[str]:
    numbers = [re.sub(r"[.,]", "_", m.group(0).lower()) for m in _NUMBER.finditer(text)]
    compounds = [m.group(0).replace("-", "").lower() for m in _COMPOUND.finditer(text)]
    return numbers + compounds


def lexical_text(text: str) -> str:
    """What BM25 indexes (and is queried with) for ``text``."""
    folded = search_text(text)
    extra = compound_tokens(folded)
    return f"{folded} {' '.join(extra)}" if extra else folded


# -- name lookups and support ----------------------------------------------------------------------
def squash(text: str) -> str:
    """Letters and digits only, lower case: how a title's name is matched ("SIG-Mark" → "sigmark")."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def word_forms(text: str) -> str:
    """The text's lower-case words space-separated, twice: as written, and with hyphenated words joined (and a
    LaTeX-ish superscript or subscript: "P^2-DPO", "P^{2}-DPO" as "p2dpo", which users type "P2-DPO")."""
    lower = text.lower()
    joined = re.sub(r"(?<=[0-9a-z])[-‐–^_{}]+(?=[0-9a-z])", "", lower)
    return "\n".join(" " + " ".join(re.findall(r"[0-9a-z]+", form)) + " " for form in (lower, joined))


@lru_cache(maxsize=1)
def stemmer() -> Any:
    """PyStemmer's English stemmer (the one BM25 uses)."""
    import Stemmer

    return Stemmer.Stemmer("english")


def stems(words: set[str]) -> set[str]:
    return set(stemmer().stemWords(sorted(words)))
