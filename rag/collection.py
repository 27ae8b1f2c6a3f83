"""Questions about the collection as a whole ("Which research areas?", "How many papers deal with diffusion?"):
``collection_intent`` tells them from questions about papers (rules over the words, and whether a name identifies a
paper), ``answer_collection`` answers from the index's statistics (``rag.topics``) with counts and cited examples."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rag import prompts
from rag.properties import property_how, property_mentions
from rag.question import names_in, wants_comparison
from rag.tokens import HEDGE
from rag.topics import (FUNCTION_WORDS, CorpusStats, by_area, keyword_counts, method_sentence, one_blas_thread,
                        stats_for, words)
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

_COLL = (r"(?:(?:the|this|your|our)\s+)?(?:whole\s+|entire\s+|full\s+)?(?:collection|corpus|index|database|library|set|"
         r"iclr(?:\s*2026)?(?:\s+(?:papers|abstracts|conference))?|conference|(?:all\s+(?:the\s+)?|the\s+)?(?:indexed|"
         r"accepted)\s+(?:papers|abstracts|works)|all\s+(?:the\s+)?(?:papers|abstracts|works))")
_AREA = (r"(?:(?:research|main|major|different|broad|(?:kinds?|types?|sorts?)\s+of)\s+)*(?:areas?|fields?|topics?|"
         r"subjects?|domains?|categor(?:y|ies)|subfields?|disciplines?)")
_PAPERS, _END = r"(?:papers|works|studies|articles|abstracts|submissions|publications)", r"\s*[?.!]*\s*$"
_ROUGHLY = r"(?:roughly|approximately|overall|altogether|in\s+total|in\s+all)"
_AREAS = re.compile("|".join((
    rf"^(?:what|which)\s+{_AREA}\s+(?:are|is)\s+(?:represented|covered|included|present|there\b|in\s+{_COLL}|"
    r"(?:the\s+)?(?:most|best|least)\s+(?:common|popular|frequent|represented)|the\s+(?:largest|biggest))",
    rf"^(?:what|which)\s+{_AREA}\s+(?:have|has|get|gets|got|contain|with)\s+the\s+(?:most|fewest)\b",
    rf"^(?:what|which)\s+{_AREA}\s+(?:does|do|did)\s+{_COLL}\s+(?:cover|span|include|contain|have|represent)",
    rf"^what\s+(?:does|do)\s+{_COLL}\s+cover|^what(?:'s|’s|\s+is|\s+are)\s+(?:in\s+{_COLL}|{_COLL}\s+about)",
    rf"^(?:list|show|give|name)(?:\s+me)?\s+(?:all\s+)?(?:the\s+)?{_AREA}(?:\s+(?:of|in)\s+{_COLL})?{_END}",
    rf"(?:breakdown|distribution|split)\s+of\s+(?:the\s+)?(?:papers|{_COLL})\s+(?:by|across|over|per|among)\s+{_AREA}",
    rf"^how\s+are\s+(?:the\s+)?(?:papers|{_COLL})\s+(?:distributed|spread|split|divided)\s+(?:across|over|among|by|"
    rf"between|into)\s+{_AREA}|\bpapers\s+(?:are\s+there\s+)?(?:per|in\s+each|by)\s+{_AREA}",
    rf"^what\s+are\s+the\s+(?:main|major|most\s+common|most\s+popular|largest|biggest|top)\s+{_AREA}(?:\s+(?:(?:of|in|"
    rf"across)\s+{_COLL}|(?:that\s+)?{_COLL}\s+(?:covers?|spans?|includes?)|covered|represented))?{_END}")), re.I)
# "How many [diffusion] papers [are there] [in the collection] <verb> X", "the number/share of papers on X"
_COUNT = re.compile(rf"^(?:how\s+many|(?:what\s+is\s+)?the\s+(?:number|count|share|fraction|percentage|proportion)\s+"
                    rf"of|what\s+(?:share|fraction|percentage|proportion)\s+of|count)\s+(?:of\s+)?(?:the\s+|all\s+)?"
                    rf"(?P<adjective>(?:[\w\-]+\s+){{0,4}}?){_PAPERS}\b(?P<rest>.*)$", re.IGNORECASE)
_COUNT_FILLER = re.compile(rf"(?i)^(?:(?:(?:are|were)\s+)?(?:there|here|in\s+here|accepted|indexed|included|"
                           rf"(?:in|from|of)\s+{_COLL})"
                           rf"\b[\s,]*|(?:does|do)\s+{_COLL}\s+(?:have|contain|include)\b\s*|{_ROUGHLY}[\s,]*)+")
# What papers do with the topic ("deal with", "are about", "do 3D …"): not "cited", nor "does" before its subject
_VERB = re.compile(r"(?i)(?:(?:are|is|were)\s+(?=(?:about|on|into|related|concerned|focused|based|built|devoted|mostly|"
                   r"mainly|all|\w+ing)\b)|that\s+)?(?!(?:does|do)\s+(?:(?-i:[A-Z])|(?:they|it|we|you|the|"
                   r"th(?:ese|ose|is|at|eir)|its)\b)|(?:did|has|had|can|will|would|cite|cited|written|published|"
                   r"authored|by|than|per|each|in|from)\b)[a-z]+(?:\s+(?:with|on|to|at|into|about))?\s+")
_TRENDS = [re.compile(p, re.IGNORECASE) for p in (
    r"\b(?:main|major|key|biggest|dominant|emerging|current|recent|common|overall|general|important|notable|"
    r"prevailing|hot|latest|big)\s+(?:research\s+)?(?:trends?|themes?|directions?)\b"
    r"(?:\s+(?:in|of|across|among|within|for|on|throughout)\s+(?P<topic>.+))?",
    r"^(?:what\s+are\s+(?:the\s+)?|(?:tell|show)\s+me\s+(?:about\s+)?(?:the\s+)?|describe\s+(?:the\s+)?|summari[sz]e"
    r"\s+(?:the\s+)?)(?:research\s+)?(?:trends?|themes?)\b(?:\s+(?:in|of|across|among|within)\s+(?P<topic>.+))?",
    rf"\b(?:summary|summaries|summari[sz]e|overview|big\s+picture)\s+(?:of\s+)?{_COLL}{_END}",
    r"\b(?:summary|summari[sz]e|overview)\s+(?:of\s+)?(?:the\s+)?(?:research|work|papers|literature)\s+"
    r"(?:on|in|about)\s+(?P<topic>.+)",
    rf"^what\s+(?:does|do)\s+{_COLL}\s+(?:have|contain|say|hold)\s+(?:on|about|regarding)\s+(?P<topic>.+)",
    r"^what(?:'s|’s|s|\s+is|\s+are)\s+(?:new|novel|happening|emerging|trending|hot|the\s+latest|the\s+news)\s+"
    r"(?:in|on|about|with|for|regarding|within|across)\s+(?P<topic>.+)",
    r"^what\s+are\s+the\s+(?:latest|recent|new|emerging|current)\s+(?:developments|advances|advancements|ideas|"
    r"directions|approaches|trends|breakthroughs|progress)\s+(?:in|on|for|around)\s+(?P<topic>.+)")]
_LIST_FRAME = re.compile(rf"^\s*(?:which|what|list|find|show\s+me)\s+(?:\w+\s+)?{_PAPERS}\b", re.IGNORECASE)
# A topic that refers to papers already in the conversation ("What is new in this method?"), not to a field.
_REFERS = re.compile(r"(?i)^(?:this|that|these|those|it|its|their|our|your|the\s+(?:proposed|paper|papers|method|model|"
                     r"authors?|approach)\b)|\b(?:cited|above|listed|retrieved|previous|mentioned)\b")
_TOPIC_TAIL = re.compile(rf"(?i)(?:\s+(?:in|across|among|within|from|at|of)\s+{_COLL}|\s+(?:{HEDGE})|\s+(?:are|is|were|"
                         rf"there|(?<!operations\s)research|work|papers|literature|area|field|this\s+year|{_ROUGHLY}|"
                         rf"in\s+general|generally|broadly|at\s+iclr(?:\s*2026)?),?)+\s*$")
# Words before a question or around a count that do not change it ("OK. So what is new …", "Roughly how many …").
_LEAD = re.compile(r"(?i)^(?:(?:ok(?:ay)?|so|and|now|alright|great|thanks|well|then|also|next|hmm|right|roughly|hey|hi|"
                   r"hello|cool|nice|(?:more\s+)?broadly|in\s+general|generally|overall|"
                   r"approximately|about)\b[\s,.!:;-]*)+")


@dataclass(frozen=True)
class CollectionIntent:
    kind: str  # "areas" | "count" | "trends"
    topic: str | None = None  # what a count or "what is new in" question is about (None: the whole collection)


CollectionAnswer = NamedTuple("CollectionAnswer", [("answer", Answer), ("stats", CollectionStats)])
# "of these papers" first, "of them" after an overview: the collection's; "… generation? name a few": before "?"
_THESE = re.compile(r"(?i)\b(?:of\s+)?(?:(?:these|those)\s+(papers|abstracts|works)|them)\b")
_AFTER = re.compile(r"\?\s+(?=\w)")


def collection_intent(question: str, retriever: HybridRetriever | None = None, first: bool = False
                      ) -> CollectionIntent | None:
    """The collection question this is, or None for a question about papers. With ``retriever``, a topic or
    question naming a paper (a name only a handful of papers contain, no paper contains, or a title's name) is about
    that paper; without it, any name-like word is taken to name a paper (a count's topic may name anything)."""
    text = _LEAD.sub("", _AFTER.split(" ".join(question.strip().split()), maxsplit=1)[0])
    text = _THESE.sub(lambda m: m.group(1) or "papers", text) if first else text  # (``first``: see ``Engine``)
    if not text or _LIST_FRAME.search(text):
        return None
    if _AREAS.search(text):
        return None if _names_a_paper(re.sub(_COLL, " ", text, flags=re.I), retriever) else CollectionIntent("areas")
    if match := _COUNT.search(text):
        rest = _COUNT_FILLER.sub("", match.group("rest").strip(" ?.!"), count=1).strip(" ?.!")
        adjective = re.sub(r"\b(?:indexed|accepted|iclr(?:\s*2026)?)\b", " ", match.group("adjective"), flags=re.I)
        verb = _VERB.match(rest + " ")
        if _REFERS.search(adjective) or (rest and not verb):  # "How many papers does TRIM-KV cite?"
            return None
        topic = _topic(" ".join((adjective, rest[verb.end():] if verb else "")))
        return CollectionIntent("count", topic) if topic or not (rest or adjective.strip()) else None
    for pattern in _TRENDS:
        if match := pattern.search(text):
            raw = (match.groupdict().get("topic") or "").strip(" ?.!")
            if raw and re.fullmatch(rf"{_COLL}(?:\s+\w+)?", raw, re.IGNORECASE):
                raw = ""  # "… across the collection", "… in ICLR 2026 papers"
            topic = _topic(raw) if raw else None
            if wants_comparison(text) or (raw and (_REFERS.search(raw) or not topic)):
                return None  # "What is new in X compared to Y?", "What is new about it?"
            named = _names_a_paper(topic or re.sub(_COLL, " ", text, flags=re.I), retriever)
            return None if named else CollectionIntent("trends", topic)
    return None


def _topic(raw: str) -> str | None:
    """The topic as written, without "… in the collection", an article or punctuation; None without topic words."""
    topic = _TOPIC_TAIL.sub("", raw.strip(" ?.!,;:")).strip(" ?.!,;:")
    topic = re.sub(r"^(?:the|a|an)\s+", "", " ".join(topic.split()), flags=re.IGNORECASE)
    return topic if any(w not in FUNCTION_WORDS for w in words(topic)) else None


def _names_a_paper(text: str, retriever: HybridRetriever | None) -> bool:
    index = retriever.names if retriever is not None else None
    return any(index is None or not index.papers_mentioning(n) or index.is_distinctive(n) for n in names_in(text)) \
        or bool(index and index.named_in_title(text))


def answer_collection(question: str, intent: CollectionIntent, retriever: HybridRetriever,
                      settings: Settings) -> CollectionAnswer:
    """Counts, groups and cited example papers for a collection question (``settings``: unused, one calling shape)."""
    started = time.perf_counter()
    vector = retriever.encoder.embed_query(intent.topic).astype(np.float64) if intent.topic else None
    stats = stats_for(retriever)
    with one_blas_thread():
        writer = _Writer(stats, retriever, vector)
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

    def __init__(self, stats: CorpusStats, retriever: HybridRetriever, vector: np.ndarray | None) -> None:
        self.stats, self.retriever, self.vector, self.papers = stats, retriever, vector, stats.papers
        self.everyone = list(range(stats.size))
        self.citations, self.sources = list[Citation](), list[Source]()
        self.quoted: dict[str, list[str]] = {}

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
        return [members[i] for i in np.argsort(-(vectors @ target), kind="stable")[:most]]

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
