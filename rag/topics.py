"""The collection in numbers (for ``rag.collection``), computed once per retriever (``stats_for``): each paper's vector
and words, the papers mentioning a topic, topic clusters of the paper vectors and their naming words. k-means is numpy
here (seeded k-means++ and Lloyd's iterations, ~25 deterministic lines run on PCA components on one BLAS thread)."""

from __future__ import annotations

import math
import re
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from bm25s.stopwords import STOPWORDS_EN_PLUS

from rag.clean import search_text
from rag.kmeans import kmeans, one_blas_thread, principal
from rag.tokens import QUESTION_WORDS, stemmer

if TYPE_CHECKING:
    from rag.paper import Paper
    from rag.retrieval import HybridRetriever
    from rag.retrieval.rankers import SentenceIndex

PCA_DIMENSIONS = 48  # k-means runs on this many principal components of the paper vectors (~1/8 of the cost)
TITLE_WEIGHT = 2.0  # a label word in a title counts this much more than one in the abstract only
# Function words (NLTK's, as bm25s ships them): not at either end of a topic; with the question scaffolding, no topic.
STOPWORDS = frozenset(STOPWORDS_EN_PLUS) | frozenset(
    "across also although among et al etc every either even however many may might much must per several since "
    "therefore thus toward towards upon via whether within without would yet related based".split())
FUNCTION_WORDS = QUESTION_WORDS | STOPWORDS
# What hyphenated words begin with ("auto-regressive", "pre-training"), split off as labels' words are: no theme alone.
_PREFIXES = frozenset("auto pre post multi non semi self sub inter intra co re un anti".split())
# Stems of words every field's abstracts use: never a label.
GENERIC = frozenset(stemmer().stemWords(
    "new novel based existing well one two first include like large small high low better best make remain key task "
    "result show performance improve significant achieve state art demonstrate extensive experiment framework provide "
    "outperform effective remarkable become limited long gap challenge due especially enable allow lead despite recent "
    "propose introduce present develop general diverse robust strong simple ability work insight find use emerge way "
    "https http www github com"  # (a link's words)
    .split()))
_SPACES = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})
_BREAK = "zqxbreakzqx"  # no abstract's word
_ACRONYM_PLURAL = re.compile(r"\b([A-Z][A-Za-z0-9]*[A-Z0-9])s\b")  # LLMs, GANs, ViTs: the same word as LLM, GAN, ViT
_METHOD = re.compile(r"\b(?:we|this\s+(?:paper|work)|our\s+(?:method|approach|framework))\b[^.]{0,80}?\b(?:propose|"
                     r"introduce|present|develop|design|build|formulate|construct|study|investigate)", re.IGNORECASE)
_STEMS: dict[str, str] = {}  # written word → its stem (``stem_words``)


def words(text: str, clean: bool = True) -> list[str]:
    """Lower-case words of a text, hyphenated words split ("test-time" → test, time)."""
    return _split(_ACRONYM_PLURAL.sub(r"\1", search_text(text) if clean else text).lower())


def _split(text: str) -> list[str]:
    """The runs of ASCII letters and digits (other characters split words), at C speed."""
    return text.encode("ascii", "replace").decode("ascii").translate(_SPACES).split()


@dataclass
class CorpusStats:
    """Every indexed paper's words (stemmed, in order) and unit vector, and the labelling vocabulary."""

    ids: list[str]  # the papers in one fixed order (by id): a paper is referred to by its position here
    papers: list[Paper]  # in that order
    vectors: np.ndarray  # (papers, dim) float64: each paper's mean sentence vector, unit length
    tokens: np.ndarray  # every paper's stem ids, title then abstract, one paper after another; -1 between
    token_doc: np.ndarray  # the paper of each token
    stem_id: dict[str, int]
    surface: list[str]  # stem id → its most frequent written form (RL, 3D in capitals)
    terms: list[tuple[int, ...]]  # label terms: a stem, or two adjacent stems ("diffusion model"), in 2+ papers
    anywhere: tuple[np.ndarray, np.ndarray]  # (paper, term) pairs: the term is in its title or abstract
    in_title: tuple[np.ndarray, np.ndarray]  # (paper, term) pairs: the term is in its title
    cache: dict[object, object] = field(default_factory=dict)  # clusters already computed

    @property
    def size(self) -> int:
        return len(self.ids)

    def mentions(self, topic: str) -> tuple[list[int], list[int], list[str]]:
        """Papers whose title or abstract has each word of an "or" alternative of the topic (a hyphenated compound as a
        phrase) in any word form; those of them with the alternative as one phrase; the alternatives."""
        about, phrased, options = set[int](), set[int](), alternatives(topic)
        tail = max(options, key=lambda o: len(o.split()), default="").split()[1:]  # "one-step" → "one-step diffusion"
        options = [" ".join([o, *tail]) if " " not in o and self.with_phrase(words(" ".join([o, *tail]))) else o
                   for o in options]
        for option in options:
            units = [u for u in (_trim(words(unit)) for unit in option.split()) if u and not set(u) <= FUNCTION_WORDS]
            if units:
                whole = _trim(words(option))
                short = self.abbreviated(whole)  # "reinforcement learning" written "RL"
                found = set.intersection(*(self.with_phrase(u) | self.spelled(u) for u in units)) | short
                about = about | found
                phrased |= (found & (self.with_phrase(whole) | self.spelled(whole))) | short
        return sorted(about), sorted(phrased), options

    def spelled(self, unit: list[str]) -> set[int]:
        """The papers writing a common acronym out ("LLMs" → "large language models", ``coref.COMMON_LONG``: defined
        once, if at all, or only a longer one used, "MLLMs"), or a name with a version joined ("Llama" → "LLaMA3")."""
        from rag.coref import COMMON_LONG

        long, joined = COMMON_LONG.get(unit[0]) if len(unit) == 1 else None, re.compile(rf"{re.escape(unit[0])}\d+")
        versions = [s for s in self.stem_id if joined.fullmatch(s)] if len(unit) == 1 and unit[0].isalpha() else []
        return set().union(self.with_phrase(words(long)) if long else set(), *(self.with_phrase([s]) for s in versions))

    def abbreviated(self, phrase: list[str]) -> set[int]:
        """The papers writing the phrase as its common acronym ("reinforcement learning" → "RL")."""
        from rag.coref import COMMON_LONG

        stems = stem_words(phrase)
        return set().union(*(self.with_phrase([short]) for short, long in COMMON_LONG.items()
                             if stem_words(words(long)) == stems))

    def with_phrase(self, phrase: list[str]) -> set[int]:
        """The papers whose title or abstract has these words one after another, in any word form."""
        stems, n = [self.stem_id.get(s, -2) for s in stem_words(phrase)], len(self.tokens) - len(phrase) + 1
        at = np.ones(max(n, 0), dtype=bool)
        for offset, stem in enumerate(stems):
            at &= self.tokens[offset:offset + n] == stem
        return set(self.token_doc[:n][at].tolist())

    def label(self, group: Sequence[int], background: Sequence[int], exclude: Sequence[str] = (), size: int = 3) -> str:
        """The group's most distinctive terms against the background: the share of the group's papers using a term
        (title uses weighing more) times the log of how much more than the background's share (a KL-style tf-idf).
        A term must be in a fifth of the group's papers; pairs are kept whole."""
        def counts(pairs: tuple[np.ndarray, np.ndarray], docs: Sequence[int]) -> np.ndarray:
            mask = np.zeros(self.size, dtype=bool)
            mask[list(docs)] = True
            return np.bincount(pairs[1][mask[pairs[0]]], minlength=len(self.terms)).astype(np.float64)

        used = counts(self.anywhere, group)
        inside = used + TITLE_WEIGHT * counts(self.in_title, group)
        outside = counts(self.anywhere, background) + TITLE_WEIGHT * counts(self.in_title, background)
        p_in, p_out = inside / max(len(group), 1), (outside + 0.5) / (len(background) + 1.0)
        score = np.where(p_in > p_out, p_in * np.log(np.maximum(p_in, 1e-12) / p_out), 0.0)
        banned = {self.stem_id.get(s, -2) for s in stem_words(_with_acronyms(exclude))}
        support, picked = max(2, math.ceil(len(group) / 5)) if len(group) > 1 else 1, []  # type: ignore[var-annotated]
        for t in np.argsort(-np.where(used >= support, score, 0.0), kind="stable")[:300]:
            if score[t] <= 0 or used[t] < support or len(picked) == size:
                break
            if self._names_theme(self.terms[t], picked, banned):
                picked.append(self.terms[t])
        return ", ".join(" ".join(self.surface[s] for s in t) for t in picked) or "other"

    def _names_theme(self, term: tuple[int, ...], picked: list[tuple[int, ...]], banned: set[int]) -> bool:
        """A label term: none of the topic's own words, no word of a term already picked (in any form or spacing:
        "auto regressive", "autoregressive image"), and alone a noun or a name ("adaptive", "auto" of "auto-regressive":
        no theme)."""
        from rag.nearmiss import nounish

        def joined(t: tuple[int, ...]) -> str:
            return "".join(self.surface[s] for s in t).lower()

        if banned & set(term) or any(set(term) & set(p) or min(len(joined(p)), len(joined(term))) >= 6 and (
                joined(p) in joined(term) or joined(term) in joined(p)) for p in picked):
            return False
        return len(term) > 1 or nounish(joined(term)) and joined(term) not in _PREFIXES

    def clusters(self, members: Sequence[int], k: int, scope: Sequence[int],
                 exclude: Sequence[str] = ()) -> list[tuple[str, list[int]]]:
        """k-means over the members' vectors: groups of paper positions, largest first, each labelled against the
        rest of ``scope`` (cached: a question asked again costs nothing)."""
        key = (tuple(members), k, tuple(scope), tuple(exclude))
        if key not in self.cache:
            labels = kmeans(principal(self.vectors[list(members)], PCA_DIMENSIONS), k)
            groups = sorted((g for j in range(k) if (g := [m for m, lab in zip(members, labels) if lab == j])),
                            key=lambda g: (-len(g), g[0]))
            self.cache[key] = [(self.label(g, sorted(set(scope) - set(g)), exclude), g) for g in groups]
        return self.cache[key]  # type: ignore[return-value]


def _with_acronyms(exclude: Sequence[str]) -> list[str]:
    """The words of what a topic is (hyphenated ones split, as labels' words are: "test-time" → test, time), their
    initials and the common acronym of it ("graph neural networks" → GNN): none names one of its themes."""
    from rag.coref import COMMON_LONG

    said = words(" ".join(exclude))
    initials = ["".join(w[0] for w in said)] if len(said) > 1 else []  # ("federated learning" → FL)
    spelled = stem_words(said)
    return said + initials + [short for short, long in COMMON_LONG.items() if stem_words(words(long)) == spelled]


def alternatives(topic: str) -> list[str]:
    """The "or" alternatives as written ("one-step or few-step diffusion" → "one-step", "few-step diffusion"); two fields
    of 2+ words joined by "and" ("combinatorial optimization and operations research")."""
    if slash := re.search(r"(\S+)/(\S+)", topic):  # "generation/inference faster": one word each, the rest shared
        return [a for w in slash.groups() for a in alternatives(topic[:slash.start()] + w + topic[slash.end():])]
    parts = [re.split(r"\s+and\s+", " ".join(p.split())) for p in re.split(r"\s+or\s+|\s*/\s*", topic) if p.split()]
    return [f for fields in parts for f in (fields if len(fields) == 2 and all(len(f.split()) > 1 for f in fields)
                                            else [" and ".join(fields)])]


def _trim(written: list[str]) -> list[str]:
    kept = [i for i, w in enumerate(written) if w not in STOPWORDS]  # no function word at either end
    return written[kept[0]:kept[-1] + 1] if kept else []


def stem_words(written: list[str]) -> list[str]:
    new = sorted({w for w in written if w not in _STEMS})
    _STEMS.update(zip(new, stemmer().stemWords(new)))
    return [_STEMS[w] for w in written]


def by_area(papers: Sequence[Paper], members: Sequence[int]) -> tuple[list[tuple[str, list[int]]], list[int]]:
    """The members grouped by primary area, largest first, and the members without one."""
    areas = {a: [m for m in members if papers[m].area == a] for a in {papers[m].area for m in members} - {None, ""}}
    return sorted(areas.items(), key=lambda item: (-len(item[1]), item[0])), [m for m in members if not papers[m].area]


def keyword_counts(papers: Sequence[Paper], members: Sequence[int]) -> list[tuple[str, int]]:
    """The members' author keywords, most frequent first, word forms merged ("LLMs" counts as "LLM")."""
    keyed = [(" ".join(stem_words(words(k, False))), k.strip()) for m in members for k in papers[m].keywords]
    counts, shown = Counter(key for key, _ in keyed if key), dict(reversed(keyed))  # each key as first written
    return sorted(((shown[k], n) for k, n in counts.items() if k), key=lambda item: (-item[1], item[0]))


def method_sentence(index: SentenceIndex, paper_id: str) -> str | None:
    """The abstract's first sentence saying what the paper does ("We propose …"), else its first sentence."""
    texts = [index.texts[r] for r in sorted(index.quotable_rows(paper_id), key=lambda r: index.positions[r])]
    return next((t for t in texts if _METHOD.search(t)), texts[0] if texts else None)


_CACHE: weakref.WeakKeyDictionary[HybridRetriever, CorpusStats] = weakref.WeakKeyDictionary()


def stats_for(retriever: HybridRetriever) -> CorpusStats:
    """The collection's statistics, computed on the first collection question of this retriever."""
    if retriever not in _CACHE:
        with one_blas_thread():
            ids = sorted(retriever.papers)
            _CACHE[retriever] = CorpusStats(ids, [retriever.papers[pid] for pid in ids], paper_vectors(retriever, ids),
                                            *_vocabulary(retriever, ids))
    return _CACHE[retriever]


def _distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting (its hashing took ~0.4 s a call on a busy machine for a million codes)."""
    ordered = np.sort(values)
    return ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])] if len(ordered) else ordered


def paper_vectors(retriever: HybridRetriever, ids: list[str]) -> np.ndarray:
    """Each paper's mean sentence vector, unit length (zero for a paper without sentences)."""
    index, position = retriever.sentences, {pid: i for i, pid in enumerate(ids)}
    rows = np.array([position.get(pid, -1) for pid in index.paper_ids], dtype=np.int64)
    keep = np.flatnonzero(rows >= 0)
    order = keep[np.argsort(rows[keep], kind="stable")]
    vectors = np.zeros((len(ids), index.vectors.shape[1] if len(index.paper_ids) else 1))
    if len(order):
        docs, starts = np.unique(rows[order], return_index=True)
        vectors[docs] = np.add.reduceat(index.vectors[order].astype(np.float64), starts)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def _vocabulary(retriever: HybridRetriever, ids: list[str]) -> tuple:
    """Token arrays, stems, their written forms and the (paper, term) pairs of the label terms."""
    # One text, one regex pass (a pass a paper took ~1.5 s): title, break, abstract, break, … for every paper.
    text = _ACRONYM_PLURAL.sub(r"\1", "".join(f"{p.display_title} {_BREAK} {p.search_text} {_BREAK} "
                                                for p in (retriever.papers[pid] for pid in ids)))
    cased = _split(text)
    capitals = Counter(w.lower() for w in cased if len(w) > 1 and w.isupper())  # RL, 3D, LLM as written
    sequences = " ".join(cased).lower().split()
    written = sorted(set(sequences) - {_BREAK})
    word_id = {w: i for i, w in enumerate(written)} | {_BREAK: -1}
    flat_words = np.fromiter(map(word_id.__getitem__, sequences), dtype=np.int64, count=len(sequences))
    breaks = np.flatnonzero(flat_words < 0)  # after each title, after each abstract
    lengths = np.diff(np.concatenate([[-1], breaks[1::2]]))
    token_doc = np.repeat(np.arange(len(ids)), lengths)
    in_title = np.arange(len(flat_words)) < np.repeat(breaks[0::2], lengths)
    stem_id: dict[str, int] = {}
    word_stem = np.array([stem_id.setdefault(s, len(stem_id)) for s in stem_words(written)] + [-1], dtype=np.int64)
    tokens = word_stem[flat_words]
    frequency = np.bincount(flat_words[flat_words >= 0], minlength=len(written))
    order = np.argsort(-frequency, kind="stable")
    firsts = order[np.unique(word_stem[order], return_index=True)[1]]  # each stem's most frequent written form
    surface = [written[w].upper() if capitals[written[w]] * 2 >= frequency[w] else written[w] for w in firsts]
    labelled = np.array([w not in FUNCTION_WORDS and s not in GENERIC and not w.isdigit() and (len(w) > 2 or w in
                         capitals) for w, s in zip(written, stem_words(written))] + [False])
    content, n_stems = labelled[flat_words], len(stem_id)
    pair_at = np.flatnonzero(content[:-1] & content[1:] & (tokens[:-1] != tokens[1:]))
    codes, pair_index = np.unique(tokens[pair_at] * n_stems + tokens[pair_at + 1], return_inverse=True)
    term_code = np.concatenate([tokens[content], n_stems + pair_index])  # one per occurrence
    occurrence_doc = np.concatenate([token_doc[content], token_doc[pair_at]])
    occurrence_title = np.concatenate([in_title[content], in_title[pair_at]])
    width = n_stems + len(codes)
    anywhere = _distinct(occurrence_doc * width + term_code)
    titled = _distinct(occurrence_doc[occurrence_title] * width + term_code[occurrence_title])
    kept = np.flatnonzero(np.bincount(anywhere % width, minlength=width) >= 2)
    new_id = np.full(width, -1)
    new_id[kept] = np.arange(len(kept))
    terms = [(int(c),) if c < n_stems else divmod(int(codes[c - n_stems]), n_stems) for c in kept]

    def pairs(codes_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        docs, term = np.divmod(codes_of, width)
        known = new_id[term] >= 0
        return docs[known], new_id[term][known]

    return tokens, token_doc, stem_id, surface, terms, pairs(anywhere), pairs(titled)
