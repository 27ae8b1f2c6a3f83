"""Whether a question is about the collection as a whole ("Which research areas?", "How many papers deal with
diffusion?", "What is new in test-time scaling?") or about papers: rules over the words, and whether a name identifies
a paper (``collection_intent``). ``rag.collection`` answers it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rag.question import EXCLUDED, names_in, wants_comparison
from rag.tokens import HEDGE
from rag.topics import FUNCTION_WORDS, words

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever

_COLL = (r"(?:(?:the|this|your|our)\s+)?(?:whole\s+|entire\s+|full\s+)?(?:collection|corpus|index|database|library|set|"
         r"iclr(?:\s*2026)?(?:\s+(?:papers|abstracts|conference))?|conference|(?:all\s+(?:the\s+)?|the\s+)?(?:indexed|"
         r"accepted)\s+(?:papers|abstracts|works)|all\s+(?:the\s+)?(?:papers|abstracts|works))")
_AREA = (r"(?:(?:research|main|major|different|broad|applications?|applied|scientific|science|(?:kinds?|types?|sorts?)"
         r"\s+of)\s+)*(?:areas?|fields?|topics?|subjects?|domains?|categor(?:y|ies)|subfields?|disciplines?)"
         r"(?:\s+(?:outside|beyond|besides|other\s+than)(?:\s+[\w-]+){1,3}?(?=\s+(?:are|is|show|appear|have)\b))?")
_PAPERS, _END = r"(?:papers|works|studies|articles|abstracts|submissions|publications)", r"\s*[?.!]*\s*$"
_ROUGHLY = r"(?:roughly|approximately|overall|altogether|in\s+total|in\s+all)"
_AREAS = re.compile("|".join((
    rf"^(?:what|which)\s+{_AREA}\s+(?:(?:show|shows)\s+up|appears?|come\s+up)(?:\s+(?:here|(?:in|across)\s+{_COLL}))?"
    r"\s*(?:[?.!,]|$)",
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
_PREP = r"(?:with|on|to|at|into|about|under|within|in|against)"  # (two verbs joined: "use or compare against Llama")
_VERB = re.compile(r"(?i)(?:(?:are|is|were)\s+(?=(?:about|on|into|related|concerned|focused|based|built|devoted|mostly|"
                   r"mainly|all|\w+ing)\b)|that\s+)?(?!(?:does|do)\s+(?:(?-i:[A-Z])|(?:they|it|we|you|the|"
                   r"th(?:ese|ose|is|at|eir)|its)\b)|(?:did|has|had|can|will|would|cite|cited|written|published|"
                   r"authored|by|than|per|each|in|from)\b)"
                   rf"[a-z]+(?:\s+{_PREP})?(?:\s+(?:or|and|and/or)\s+[a-z]+(?:\s+{_PREP})?)?\s+")
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
_AREA_WORD = re.compile(r"(?i)\b(?:areas?|categor(?:y|ies)|tracks?)\b")
_LIST_FRAME = re.compile(rf"^\s*(?:which|what|list|find|show\s+me)\s+(?:\w+\s+)?{_PAPERS}\b", re.IGNORECASE)
# A topic that refers to papers already in the conversation ("What is new in this method?"), not to a field.
_REFERS = re.compile(r"(?i)^(?:this|that|these|those|it|its|their|our|your|the\s+(?:proposed|paper|papers|method|model|"
                     r"authors?|approach)\b)|\b(?:cited|above|listed|retrieved|previous|mentioned)\b")
_TOPIC_TAIL = re.compile(rf"(?i)(?:\s+(?:in|across|among|within|from|at|of)\s+{_COLL}|\s+(?:{HEDGE})|\s+(?:are|is|were|"
                         rf"there|(?<!operations\s)research|work|papers|literature|area|field|category|track|"
                         rf"this\s+year|{_ROUGHLY}|"
                         rf"in\s+general|generally|broadly|at\s+iclr(?:\s*2026)?),?)+\s*$")
# Words before a question or around a count that do not change it ("OK. So what is new …", "Roughly how many …").
_LEAD = re.compile(r"(?i)^(?:(?:ok(?:ay)?|so|and|now|alright|great|thanks|well|then|also|next|hmm|right|roughly|hey|hi|"
                   r"btw|by\s+the\s+way|oh|quick\s+question|stepping\s+back|(?:taking|take)\s+a\s+step\s+back|zooming\s+out|"
                   r"hello|cool|nice|(?:more\s+)?broadly|in\s+general|generally|overall|"
                   r"approximately|about)\b[\s,.!:;-]*)+")


@dataclass(frozen=True)
class CollectionIntent:
    kind: str  # "areas" | "count" | "trends"
    topic: str | None = None  # what a count or "what is new in" question is about (None: the whole collection)
    area: bool = False  # a count says "area" ("How many papers fall under the optimization area?")


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
        area = bool(topic and _AREA_WORD.search(text))
        return CollectionIntent("count", topic, area) if topic or not (rest or adjective.strip()) else None
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
    # What a bracket spells out or an exclusion leaves out is not the topic ("RL in the classic sense (agents acting in
    # environments), not RL fine-tuning of LLMs", "diffusion models rather than GANs")
    raw = EXCLUDED.split(re.sub(r"\s*\([^()]*\)", "", raw), maxsplit=1)[0]
    head = re.split(r"\s+[-–—]+\s+", raw, maxsplit=1)[0]  # "3d in some way - scenes, shapes, …": what it says after
    raw = head if head != raw and _topic(head) else raw  # a dash spells out the topic before it
    topic = _TOPIC_TAIL.sub("", raw.strip(" ?.!,;:")).strip(" ?.!,;:")
    topic = re.sub(r"^(?:the|a|an)\s+", "", " ".join(topic.split()), flags=re.IGNORECASE)
    return topic if any(w not in FUNCTION_WORDS for w in words(topic)) else None


def _names_a_paper(text: str, retriever: HybridRetriever | None) -> bool:
    index = retriever.names if retriever is not None else None
    return any(index is None or not index.papers_mentioning(n) or index.is_distinctive(n) for n in names_in(text)) \
        or bool(index and index.named_in_title(text))
