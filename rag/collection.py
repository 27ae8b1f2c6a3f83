"""Questions about the collection as a whole ("Which research areas?", "How many papers deal with diffusion?"):
``collection_intent`` (``rag.collection_intent``) tells them from questions about papers, ``answer_collection``
answers from the index's statistics (``rag.topics``) with counts and cited examples."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence, Set
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rag import prompts
from rag.asks import wants_others
from rag.properties import property_how, property_mentions
from rag.collection_intent import CollectionIntent
from rag.topics import (CorpusStats, by_area, keyword_counts, method_sentence, one_blas_thread, stats_for, stem_words,
                        words)
from rag.types import Answer, Citation, CollectionGroup, CollectionStats, Source

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever
    from rag.settings import Settings

EXAMPLES = 5  # cited example papers in a count's answer…
ALL_LISTED = 8  # …or every paper counted, when there are no more than this many (the user can check the count)
SMALL_GROUP = 3  # a group line cites all its papers up to this many, else the one nearest the topic or its centre
SMALL_COLLECTION = 50  # …or all of them in a collection this small: the answer is its table of contents
MAX_CLUSTERS, MAX_TOPIC_CLUSTERS = 12, 5
MIN_CLUSTERED, MIN_THEMES = 6, 10  # papers without an area clustered from; papers on a topic grouped into themes from

CollectionAnswer = NamedTuple("CollectionAnswer", [("answer", Answer), ("stats", CollectionStats)])


def answer_collection(question: str, intent: CollectionIntent, retriever: HybridRetriever,
                      settings: Settings, discussed: Sequence[str] = ()) -> CollectionAnswer:
    """Counts, groups and cited example papers for a collection question (``settings``: unused, one calling shape);
    the papers the chat already ``discussed`` are the first examples of their group (the ones the user knows), or
    none of them when it asks for others ("… name a few besides these two")."""
    started = time.perf_counter()
    vector = retriever.encoder.embed_query(intent.topic).astype(np.float64) if intent.topic else None
    stats = stats_for(retriever)
    with one_blas_thread():
        chat = set(discussed)  # ("name a few besides these two": other examples than those)
        writer = _Writer(stats, retriever, vector, intent.area, {i for i, pid in enumerate(stats.ids) if pid in chat},
                         wants_others(question))
        lines, groups, matched, method = getattr(writer, intent.kind)(intent.topic)
    ids = stats.ids
    named = [CollectionGroup(label, len(m), [ids[i] for i in m], kind) for label, m, kind in groups]
    chart = CollectionStats(intent.kind, stats.size, named, intent.topic, [ids[i] for i in matched], method)
    text = re.sub(r"\n(?!\s*- )", "\n\n", "\n".join(line for line in lines if line))  # a paragraph, or a list's item
    answer = Answer(question=question, text=text, refused=False,
                    citations=writer.citations, sources=writer.sources, backend="collection",
                    query=intent.topic or question, ranked_paper_ids=[s.paper_id for s in writer.sources],
                    evidence_sentences=writer.quoted, chart=chart)
    answer.timings_ms["total"] = (time.perf_counter() - started) * 1000
    return CollectionAnswer(answer, chart)


Group = tuple[str, list[int], str]  # label, members (positions in ``CorpusStats.ids``), kind
Part = tuple[list[str], list[Group], list[int], str]  # answer lines, chart groups, papers matched, how


class _Writer:
    """One answer's lines, its cited examples (numbered as sources in the order cited) and its groups."""

    def __init__(self, stats: CorpusStats, retriever: HybridRetriever, vector: np.ndarray | None,
                 area_asked: bool = False, discussed: Set[int] = frozenset(), besides: bool = False) -> None:
        self.stats, self.retriever, self.vector, self.papers = stats, retriever, vector, stats.papers
        self.area_asked = area_asked  # the question counts an area by name ("… fall under the optimization area?")
        self.everyone = list(range(stats.size))
        self.citations, self.sources = list[Citation](), list[Source]()
        self.quoted: dict[str, list[str]] = {}
        self.discussed, self.besides = discussed, besides  # the chat's papers (positions); leave them out of examples

    def areas(self, _: None) -> Part:
        groups = self.by_area(self.everyone, cluster_rest=True)
        labelled, total = sum(len(m) for _, m, kind in groups if kind == "area"), self.stats.size
        if labelled * 2 >= self.stats.size:
            head = prompts.COLLECTION_AREAS.format(total=total, areas=sum(kind == "area" for *_, kind in groups))
            return [head, *self.group_lines(groups, False)], groups, [], "each paper's primary area"
        groups = self.clustered(self.everyone, MAX_CLUSTERS, self.everyone)  # too few areas to go by
        return ([prompts.COLLECTION_FEW_AREAS.format(labelled=labelled, total=total), *self.group_lines(groups, False)],
                groups, [], "k-means clusters of the paper vectors")

    def count(self, topic: str | None) -> Part:
        if topic is None:
            groups = self.by_area(self.everyone, cluster_rest=False)
            return ([prompts.COLLECTION_TOTAL.format(total=self.stats.size), self.area_summary(groups)],
                    groups, [], "every indexed paper, by its primary area")
        if self.area_asked and (area := self.area_named(topic)):  # the papers OpenReview files under it
            matched = [m for m in self.everyone if self.papers[m].area == area]
            unlabelled = sum(not p.area for p in self.papers)
            lines = [prompts.COLLECTION_IN_AREA.format(count=len(matched), total=self.stats.size, area=area) + (
                prompts.COLLECTION_NO_AREA.format(count=unlabelled) if unlabelled else "") + ".", prompts.COLLECTION_ALL]
            examples = self.examples(topic, matched) if len(matched) > ALL_LISTED else matched
            return ([*lines, *(f"- {self.cite(m, True)}" for m in examples)], [(area, matched, "area")], matched,
                    "each paper's primary area")
        matched, lines, method = self.mentions(topic)
        groups, examples = self.by_area(matched, cluster_rest=False), self.examples(topic, matched)
        head = prompts.COLLECTION_ALL if len(matched) <= ALL_LISTED else prompts.COLLECTION_EXAMPLES
        lines += [self.area_summary(groups), head if examples else ""]
        return [*lines, *(f"- {self.cite(m, True)}" for m in examples)], groups, matched, method

    def trends(self, topic: str | None) -> Part:
        if topic is None:
            groups = self.clustered(self.everyone, MAX_CLUSTERS, self.everyone)
            return ([prompts.COLLECTION_THEMES.format(total=self.stats.size), *self.group_lines(groups, True),
                     self.area_summary(self.by_area(self.everyone, False)), self.keywords(self.everyone)],
                    groups, [], "k-means clusters of each paper's mean sentence vector")
        matched, lines, method = self.mentions(topic, phrase=True)
        if len(matched) >= MIN_THEMES:
            groups = self.clustered(matched, MAX_TOPIC_CLUSTERS, matched, exclude=tuple(words(topic)))
            lines += [prompts.COLLECTION_TOPIC_THEMES, *self.group_lines(groups, True)]
            method += "; themes: k-means clusters of their mean sentence vectors"
        else:
            groups, examples = self.by_area(matched, cluster_rest=False), self.examples(topic, matched)
            lines += [prompts.COLLECTION_TOPIC_LIST if examples else "", *(f"- {self.cite(m, True)}" for m in examples)]
        lines += [self.area_summary(self.by_area(matched, False)), self.keywords(matched)]
        return lines, groups, matched, method

    def area_named(self, topic: str) -> str | None:
        """The one primary area whose name holds every word of the topic, in any word form ("optimization",
        "generative models"); None when none or several do."""
        asked = set(stem_words(words(topic)))
        named = [area for area in {p.area for p in self.papers if p.area} if asked <= set(stem_words(words(area)))]
        return named[0] if len(named) == 1 else None

    def examples(self, topic: str, matched: list[int]) -> list[int]:
        """Every paper matched when there are few (``ALL_LISTED``), else ``EXAMPLES`` of them: those using the topic as
        one phrase first (the clearest fits), then the nearest of the others."""
        most = len(matched) if len(matched) <= ALL_LISTED else EXAMPLES
        phrased = [m for m in self.stats.mentions(topic)[1] if m in matched]
        return (self.nearest(phrased, most) + self.nearest([m for m in matched if m not in phrased], most))[:most]

    def mentions(self, topic: str, phrase: bool = False) -> tuple[list[int], list[str], str]:
        """The papers about the topic (``phrase``: those using it as one phrase, if enough for themes), what says so."""
        about, phrased, options = property_mentions(topic, self.stats.ids, self.retriever) or self.stats.mentions(topic)
        if not about:
            return [], [prompts.COLLECTION_NO_MENTION.format(topic=topic, total=self.stats.size)], "none"
        how = property_how(topic, self.retriever) or (" or ".join(f"“{o}”" for o in options) + ", " if len(
            options) > 1 else "") + (prompts.COLLECTION_HOW_WORDS if any(len(words(o)) > 1 for o in options)
                                     else prompts.COLLECTION_HOW_WORD)
        line = prompts.COLLECTION_MENTION.format(count=len(about), total=self.stats.size, topic=topic, how=how)
        if 0 < len(phrased) < len(about):
            line += " " + prompts.COLLECTION_MENTION_PHRASE.format(count=len(phrased))
        if phrase and MIN_THEMES <= len(phrased) < len(about):
            return phrased, [f"{line} {prompts.COLLECTION_PHRASE_THEMES}"], "title or abstract has it as one phrase"
        return about, [line], f"title or abstract mentions {how}"

    def by_area(self, members: list[int], cluster_rest: bool) -> list[Group]:
        """Groups by primary area, largest first; papers without one last (as topic clusters if asked and enough)."""
        areas, rest = by_area(self.stats.papers, members)
        groups = [(area, ms, "area") for area, ms in areas]
        if rest and cluster_rest and len(rest) >= MIN_CLUSTERED and len(rest) * 2 < len(members):
            return groups + [(f"(no area) {label}", m, kind) for label, m, kind in
                             self.clustered(rest, MAX_TOPIC_CLUSTERS, self.everyone)]
        return groups + ([("no area given", rest, "none")] if rest else [])

    def clustered(self, members: list[int], most: int, scope: list[int], exclude: Sequence[str] = ()) -> list[Group]:
        """k-means groups of the members (about √n), each named against the rest of ``scope``."""
        k = max(2, min(most, round(len(members) ** 0.5), len(members) // 3))  # groups of 3+ papers on average
        return [(label, g, "topic") for label, g in self.stats.clusters(members, k, scope, exclude)]

    def group_lines(self, groups: list[Group], describe: bool) -> list[str]:
        """One line a group, each citing an example: the member nearest the topic (or the group's centre), or all its
        members when there are only a few (every area a user asks about shows a paper to open)."""
        lines = []
        for label, m, _ in groups:
            head = f"- {label}: {len(m):,} paper{'s' * (len(m) != 1)}"
            if len(m) > SMALL_GROUP and self.stats.size > SMALL_COLLECTION:
                lines.append(f"{head}, e.g. {self.cite(self.nearest(m)[0], describe)}")
            elif len(m) == 1:
                lines.append(f"{head}: {self.cite(m[0], describe)}")
            else:  # one nested line a paper
                lines += [f"{head}:", *(f"    - {self.cite(x, describe)}" for x in m)]
        return lines

    def nearest(self, members: list[int], most: int = EXAMPLES) -> list[int]:
        vectors = self.stats.vectors[members]
        target = vectors.mean(0) if self.vector is None else self.vector
        order = [members[i] for i in np.argsort(-(vectors @ target), kind="stable")]
        if self.besides:
            return ([m for m in order if m not in self.discussed] or order)[:most]
        return sorted(order, key=lambda m: m not in self.discussed)[:most]

    def cite(self, member: int, describe: bool) -> str:
        """“Title” [n] (numbered when first cited), and what the paper does if ``describe``."""
        paper = self.papers[member]
        n = next((s.rank for s in self.sources if s.paper_id == paper.paper_id), len(self.sources) + 1)
        if n > len(self.sources):
            score = float(self.stats.vectors[member] @ self.vector) if self.vector is not None else 0.0
            self.sources.append(Source(n, paper, score))
            self.citations.append(Citation(n, paper.paper_id, paper.title))
        sentence = method_sentence(self.retriever.sentences, paper.paper_id) if describe else None
        if not sentence:
            return f"“{paper.display_title}” [{n}]"
        self.quoted[paper.paper_id] = [sentence]
        cut = sentence.split()
        return f"“{paper.display_title}” [{n}]: " + " ".join(cut[:30]) + (" …" if len(cut) > 30 else "")

    def area_summary(self, groups: list[Group]) -> str:
        if not any(kind == "area" for *_, kind in groups):
            return ""
        areas = [f"{label} ({len(m):,})" for label, m, kind in groups if kind in ("area", "none")]
        more = f", and {len(areas) - 6} more" if len(areas) > 6 else ""
        return prompts.COLLECTION_BY_AREA.format(areas=", ".join(areas[:6]) + more)

    def keywords(self, members: list[int]) -> str:
        shown = ", ".join(f"{k} ({n:,})" for k, n in keyword_counts(self.stats.papers, members)[:8] if n >= 2)
        return prompts.COLLECTION_KEYWORDS.format(keywords=shown) if shown else ""
