"""Broad fields a list question may ask for by name ("Which ones are about chemistry?", "Which other papers apply ML to
the natural sciences?"): abstracts write a field's objects (molecules, catalysts, proteins, rainfall), seldom its
name, and MiniLM puts the name far from them, so such lists were refused or missed the field's papers.

A small hand-written thesaurus, not a model: no offline package here maps a field to its words, and the corpus's own
area labels ("applications to physical sciences (physics, chemistry, biology, etc.)") name fields without their
words and are missing for most seed papers. Only words a field's abstracts use for its objects are listed, none that
other fields use loosely ("physical", "simulation", "materials" are left out).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from rag.properties import properties_asked, property_papers, property_query
from rag.released import RELEASE_QUERY, asks_only_release, released_papers
from rag.topic_words import SAYING_WORDS
from rag.types import Hit

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever
    from rag.retrieval.names import NameIndex
    from rag.types import Evidence, Paper, Turn

_WORDS = {
    "chemistry": "chemistry chemical chemicals molecule molecules molecular catalyst catalysts catalysis catalytic "
                 "polymer polymers crystal crystals reaction-yield retrosynthesis",
    "biology": "biology biological biomedical protein proteins gene genes genomic genomics dna rna tissue tissues "
               "enzyme enzymes single-cell cytometry",
    "physics": "physics pde pdes fluid fluids turbulence quantum navier-stokes thermodynamics",
    "earth science": "weather climate precipitation rainfall meteorological atmospheric oceanic seismic",
    "medicine": "medical clinical patients disease diseases healthcare radiology",
    "scientific computing": "pde pdes eigenvalue eigenvalues",
    # (not a field of science but asked for like one: "which papers back their claims with actual theory?")
    "theory": "theory theoretical theoretically theorem theorems prove proves proven proof proofs provably bounds",
}
# How a question names each field ("chemistry-related", "natural-science problems", "scientific ML").
_ASKED = [
    (re.compile(r"\bchemi(?:stry|cal)", re.I), ("chemistry",)),
    (re.compile(r"\bbio(?:logy|logical|medical)?\b|\blife\s+sciences?\b", re.I), ("biology",)),
    (re.compile(r"\bphysics\b", re.I), ("physics",)),
    (re.compile(r"\b(?:weather|climate|earth\s+sciences?|geoscience)", re.I), ("earth science",)),
    (re.compile(r"\b(?:medicine|medical|health\s*care|clinical)\b", re.I), ("medicine",)),
    (re.compile(r"\b(?:natural|physical)[\s-]sciences?\b|\b(?:sciences?|scientific)[\s-](?:applications?|problems?|"
                r"data|domains?|ml|machine\s+learning|computing|discovery)\b|\b(?:to|in|for)\s+(?:the\s+)?sciences\b",
                re.I),
     ("chemistry", "biology", "physics", "earth science", "scientific computing")),
    (re.compile(r"\btheor(?:y|ies|etical(?:ly)?|ems?)\b|\bproofs?\b|\bprove[sn]?\b|\bprovabl[ey]\b|\bbounds\b", re.I),
     ("theory",)),
]


def fields_asked(question: str) -> list[str]:
    """The fields the question names, in thesaurus order."""
    asked = {field for pattern, fields in _ASKED if pattern.search(question) for field in fields}
    return [field for field in _WORDS if field in asked]


def field_query(question: str) -> str:
    """The words of the fields the question names (and of a property it asks for, ``rag.properties``; its
    ``lone_noun``), to search with ("" when it names none)."""
    return " ".join([*(_WORDS[field] for field in fields_asked(question)), property_query(question),
                     *lone_noun(question), RELEASE_QUERY if asks_only_release(question) else ""]).strip()


def field_papers(question: str, retriever: HybridRetriever) -> tuple[set[str], str] | None:
    """For a count ("How many papers are chemistry-related?"): the papers using a word of a field the question names,
    and how they were found; None when it names no field."""
    if not (fields := fields_asked(question)):
        return None
    words = [w for field in fields for w in _WORDS[field].split()]
    found = set().union(*(_using(field, retriever.names) for field in fields))
    return found, "a word of the field such as " + " or ".join(f"“{w}”" for w in dict.fromkeys(words[:4]))


def field_terms(question: str, retriever: HybridRetriever) -> dict[str, set[str]]:
    """Each field the question names, as ``FIELD`` + its name → the indexed papers that use any of its words (as whole
    words): in a small collection such a paper is on topic (listed however its sentences fit). None in a large one
    (``unknown_word_min_papers``), where hundreds of papers use the words and sentences decide; there the words only
    add a search (``alternatives.search_each``)."""
    names = retriever.names
    if len(names.papers) >= names.decision.unknown_word_min_papers > 0:
        return {}
    found = {FIELD + field: _using(field, names) for field in fields_asked(question)}
    found |= {RELEASED: released_papers(retriever)} if asks_only_release(question) else {}  # ("… link to their code?")
    claimed = property_papers(question, retriever)  # (and the papers claiming a property it asks for)
    return found | ({FIELD + " and ".join(properties_asked(question)[0]): claimed} if claimed else {})


def field_words(question: str, among: frozenset[str] | None = None) -> re.Pattern[str] | None:
    """The words of the fields the question names (those ``among`` them, if given), as one pattern of whole words (None
    when it names none)."""
    words = [re.escape(w) for field in fields_asked(question) if among is None or FIELD + field in among
             for w in _WORDS[field].split()]
    return re.compile(rf"(?<![\w-])(?:{'|'.join(words)})(?![\w-])", re.I) if words else None


def lift_field_sentences(question: str, evidence: list[Evidence]) -> list[Evidence]:
    """A list or a choice asking for a qualifying field ("which papers back their claims with actual theory?", "which of
    the two has a proof?"): each paper's best sentence using the field's words lifted to the paper's best score, to
    lead its line: what the paper does for the property asked (what it proposes had led: "We provide evidence against
    alternative hypotheses …", not "Our main finding, backed by theory and experiments, is …"). Not for a field of
    science: what a chemistry paper proposes says more than its sentence naming molecules (blind graders said so)."""
    if (words := field_words(question, QUALIFIERS)) is None:
        return evidence
    for item in evidence:
        if (using := next((s for s in item.sentences if words.search(s.text)), None)) is None:
            continue
        item.leads = using.position
        item.sentences = sorted((replace(s, score=max(s.score, item.best_score)) if s is using else s
                                 for s in item.sentences), key=lambda s: s.score, reverse=True)
    return evidence


def _using(field: str, names: NameIndex) -> set[str]:
    """The indexed papers using any of the field's words, as whole words."""
    return {pid for word in _WORDS[field].split() for pid in names.papers_mentioning(word)}


FIELD = "field: "  # marks a field among a list's terms (``Evidence.terms_found``)
RELEASED = FIELD + "code release"  # (the papers saying where their code is: ``rag.released``)
QUALIFIERS = frozenset({FIELD + "theory", RELEASED})  # fields that qualify a topic rather than make one


def qualified(evidence: list[Evidence]) -> list[Evidence]:
    """A qualifying field ("theory") beside what else the list asks about ("any theory papers on best-of-N sampling?":
    a name or a rarer term some paper holds) marks only the papers holding that too: not every paper with a proof.
    A list asking for released code holds only papers saying where theirs is, when some do (``rag.released``)."""
    if released := [e for e in evidence if RELEASED in e.terms_found]:
        evidence = released
    if any(e.names_found or set(e.terms_found) - QUALIFIERS for e in evidence):
        for item in evidence:
            if not (item.names_found or set(item.terms_found) - QUALIFIERS):
                item.terms_found = [t for t in item.terms_found if t not in QUALIFIERS]
    return evidence




def lone_noun(query: str) -> list[str]:
    """The one property a list asks about, a noun of its own ("which papers here make a point about
    interpretability?", "… bring up safety?"; not "adversarial robustness", a phrase), with its
    adjective ("interpretable"): a term of its own; [] when it has none or several. (Lemminflect's parts of speech
    told too little: "variables", "activations" are nouns only; a property's suffix says more.)"""
    from rag.nearmiss import asking_words, word_readings
    from rag.tokens import content_words, topic_asked
    from rag.topic_words import own_topic_words

    topic = topic_asked(query)
    words = own_topic_words(topic) - SAYING_WORDS
    nouns = [w for w in words if w.isalpha() and _PROPERTY.search(w) and not any(  # (after a modifier: a phrase)
        m.group(1).lower() in words and _modifies(m.group(1).lower())
        for m in re.finditer(rf"([\w-]+)\s+{w}\b", topic, re.IGNORECASE))]
    word = next(iter(words)) if len(words) == 1 else ""
    if not nouns and word.isalpha() and "NOUN" in word_readings(word) and not _ACTIVITY.search(word) and not (
            word in asking_words() or re.match(rf"\W*{word}\b", topic, re.IGNORECASE)) and all(  # (not "list …")
            not content_words(m.group(1)) - SAYING_WORDS
            for m in re.finditer(rf"([\w-]+)\s+{word}\b", topic, re.IGNORECASE)):
        nouns = [word]  # (its one thing: "… work with video …?"; not "… data science?", a phrase, nor
        # "… about optimization?", an activity many papers mention in passing)
    return [*nouns, *(w.removesuffix("bility") + "ble" for w in nouns if w.endswith("bility"))] if len(nouns) == 1 else []


_ACTIVITY = re.compile(r"(?:tion|sion|ment|ing|ance|ence)$")
_PROPERTY = re.compile(r"(?:ity|ness|ety|acy|ency|ancy|ication)$")  # (interpretability, robustness, safety, privacy,
# latency; verification, classification: an activity named as a theme)


def _modifies(word: str) -> bool:
    """A word that may modify the noun after it ("adversarial robustness", "LLM safety"), not a verb ("pitch")."""
    from rag.nearmiss import word_readings

    readings = word_readings(word)
    return word not in SAYING_WORDS and ("ADJ" in readings or not readings or readings == {"NOUN"})


def list_terms(query: str, spelled: list[str], retriever: HybridRetriever, share: float) -> dict[str, set[str]]:
    """A list's terms (→ the papers using them), each listing the papers using it: a rarer term that is most of what
    the list asks ("… touch on the KV cache?", not "… tackle the memory cost of the KV cache when decoding …"), an
    acronym's long form as one term (``spelled``: "RLVR" ≠ "RL"), an item of an enumeration it gives, an acronym it
    writes in capitals ("which papers report FID numbers?"), the one property noun it asks about (``lone_noun``: "…
    make a point about interpretability?") and a field's words (``field_terms``)."""
    from rag.coref import written_acronyms
    from rag.tokens import listed_items

    asks = _asked_count(" ".join([query, *spelled]))
    lone = lone_noun(" ".join([query, *spelled]))
    # ("… work with 3D data or 3D scenes?": "3D", what the alternatives share, whatever it is of)
    shared = [m.group(1) for m in _SHARED_HEAD.finditer(query)]
    items = listed_items(query) | (written := written_acronyms(query)) | set(lone) | {w.lower() for w in shared}
    return {t: ids for t, ids in retriever.names.rare_terms(query, share, [*spelled, *written, *lone, *shared]).items()
            if 2 * len(t.replace("-", " ").split()) >= asks or t in items} | field_terms(query, retriever) | (
        family_terms(query, retriever))


def _asked_count(text: str) -> int:
    """How many topic words a list asks about (not where to look, its examples, nor "mention", "cover", …)."""
    from rag.tokens import topic_asked
    from rag.topic_words import own_topic_words

    return len(own_topic_words(topic_asked(text)) - SAYING_WORDS)


def with_term_papers(turn: Turn, terms: dict[str, set[str]], papers: dict[str, Paper], most: int) -> None:
    """A list's papers using one of its ``terms`` that the search ranked below its cut ("which papers describe their
    approach as two-stage?": "Trained with a two-stage strategy, Omni-View …", ranked 14th): taken in after the
    ones found, for a term that is all the list asks about (not "AI-generated images" of "… about watermarking or
    tracing the origin of AI-generated images?") and that few enough papers use (at most ``most``) to list them all;
    decided as the others. Not a field's words (``FIELD``: "speeding up" → any paper saying "faster"), which are
    loose. (Called for a small index only: on 4,302 papers those taken in were mostly wrong, one naming the
    "sim-to-real gaps" of other benchmarks, and the search ranks a term's papers high there.)"""
    asks = _asked_count(turn.query)
    found = {h.paper.paper_id for h in turn.hits}
    only = set(turn.paper_ids) if turn.paper_ids else None
    listed = [ids for term, ids in terms.items() if len(ids) <= most and not term.startswith(FIELD)
              and len(term.replace("-", " ").split()) >= asks]
    missed = list(dict.fromkeys(pid for ids in listed for pid in sorted(ids)
                                if pid not in found and pid in papers and (only is None or pid in only)))
    if missed:
        ranked = {h.paper.paper_id: h for h in turn.ranked}
        missed.sort(key=lambda pid: turn.ranked.index(ranked[pid]) if pid in ranked else len(turn.ranked))
        turn.ranked = turn.hits + [ranked.get(pid) or Hit(papers[pid], 0.0) for pid in missed] + [
            h for h in turn.ranked[turn.top_k:] if h.paper.paper_id not in missed]
        turn.top_k += len(missed)


_SHARED_HEAD = re.compile(r"(?<![\w-])([\w-]+)\s+[\w-]+\s+(?:or|and|/)\s+\1\s+[\w-]+", re.IGNORECASE)
# "… report pass@k-style metrics?": a metric family by its name, which "Pass@1", "Pass@5" and "Pass@k" all are
_AT_ANY = re.compile(r"(?<![\w@])([A-Za-z][A-Za-z-]*)@(?:k|n)\b", re.IGNORECASE)


def family_terms(query: str, retriever: HybridRetriever) -> dict[str, set[str]]:
    """Each metric family the query names ("pass@k") → the papers writing a member of it ("Pass@1", "pass@K")."""
    found = {}
    for match in _AT_ANY.finditer(query):
        member = re.compile(rf"(?<![\w@]){re.escape(match.group(1))}@(?:\d+|k|n)\b", re.IGNORECASE)
        if ids := {pid for pid, paper in retriever.papers.items() if member.search(f"{paper.title} {paper.text}")}:
            found[match.group(0).lower()] = ids
    return found
