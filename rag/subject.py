"""Whether a turn keeps to the papers already discussed or changes the subject, beyond its words of reference
(``rag.references``): a paper called by title words none of them has, or rarer terms only other papers use."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rag.list_intent import SETTING_ASIDE
from rag.question import wants_comparison
from rag.tokens import content_words, squash, stems

if TYPE_CHECKING:
    from rag.references import Reference
    from rag.retrieval import HybridRetriever
    from rag.settings import Settings
    from rag.types import Paper, Shown

_SEEKS = re.compile(r"\b(?:is|are)\s+there\s+(?:an?\s+|any\s+|some\s+)?(?:[\w-]+\s+){0,3}?(?:work|works|papers?|methods?|"
                    r"approach(?:es)?|benchmarks?|stud(?:y|ies)|frameworks?|models?|datasets?|something|anything)"
                    r"(?:\s+(?:that|which|where|on|about|for|to)\b|\s*[,;?])|^\W*(?:anything|something)\s+(?:here\s+)?"
                    r"(?:on|about|regarding)\b"
                    # ("is there an RL agent that …?": a thing of any kind, asked for by what it does)
                    r"|\b(?:is|are)\s+there\s+(?:an?|any|some)\s+(?:[\w-]+\s+){1,4}?(?:that|which|where)\b"
                    # "… - something that teaches code models to check their own work?", "any sparse attention method
                    # that doesn't rely on …?": a paper asked for by what it does
                    r"|\b(?:something|anything|any\s+(?:[\w-]+\s+){0,3}?(?:work|papers?|methods?|approach(?:es)?|"
                    r"techniques?|frameworks?|models?))\s+(?:that|which)\b"
                    # "physics-constrained flow matching that doesn't need … - anything like that?": "that" is
                    # what the question describes, not a paper on the table
                    r"|(?:^|[-–—:;.?!])\s*(?:(?:is\s+there|has|have)\s+)?(?:any|some)(?:thing|one|body)\s+"
                    r"(?:like|done|tried|doing)\s+that\s*\?"
                    r"|\bis\s+that\s+a\s+thing\b|\bdoes\s+(?:that|such\s+a\s+thing)\s+exist\b", re.IGNORECASE)
# "Does their method add any cost at inference time?": the method of the paper discussed, whoever else writes the words
_THEIRS = re.compile(r"\b(?:their|its)\s+(?:proposed\s+)?(?:method|approach|model|framework|technique|system|"
                     r"algorithm)\b", re.IGNORECASE)
# "Does it need to change the architecture, or add some cost at inference time?", "what failure mode of LLMs motivated
# it?": a pronoun in the question's first clause points at no thing the question names before it (not "is it
# possible …", "do they have anything on …": the collection's)
_PRONOUN = re.compile(r"\b(?:it|its|they|them|their)\b(?!\s+(?:possible|true|known|the\s+case|have\s+(?:anything|"
                      r"something|any|papers?|work))\b)", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:?]|\s(?:and|[-–—])\s")
# "another angle on the kv cache memory problem: learning each token's importance when it's created and evicting the
# low ones?" after Tactic: a question describing its subject in this many topic words of its own, which the paper
# searched first holds far more of than the papers referred to, is about that paper.
DESCRIBING_WORDS, COVERED, COVERED_MORE = 5, 0.6, 0.3
SEEKING_WORDS = 3  # a paper asked for by at least this many topic words of its own is searched for by them
TITLED = re.compile(r"\bthe\s+((?:[A-Z][\w-]*\s+){1,5}[A-Z][\w-]*)\s+(?:one|paper|work|method|model)\b")
# "the catalysis benchmark paper, what fine-tuning trick do they propose?": how the question calls its paper, first
_THEN_ASKS = (r"(?:paper|one|work|study)\s*(?:[,:;]|\s[-–—]+)\s*(?=(?:what|how|which|why|who|where|when|does|do|did|"
              r"is|are|can)\b)")  # ("… paper, what …", "… one - how …")
_CALLED_FIRST = re.compile(rf"^\W*(?:(?:so|ok(?:ay)?|and|now|also|then)\W+)?(?:the|that)\s+(?:[\w'’\"-]+\s+){{1,6}}?"
                           rf"{_THEN_ASKS}|^\W*(?:the|that)\s+['\"‘“][^'\"’”]{{3,100}}['\"’”]\s+{_THEN_ASKS}",  # (or
                           re.IGNORECASE)  # by its title, quoted)
# "there's also the lane-level navigation one that matches SD maps with … maps - what dataset did they build?"
_DESCRIBED_FIRST = re.compile(r"^\W*(?:(?:so|ok(?:ay)?|and|now|also|then)\W+)?(?:there['’]?s|there\s+is|"
                              r"i\s+(?:remember|recall|saw))\s+(?:also\s+)?(?:the|that|a|an)\s+[^?]{3,140}?\s[-–—]+\s*"
                              r"(?=(?:what|how|which|why|who|where|when|does|do|did|is|are|can)\b)", re.IGNORECASE)

# "going back to the first one, what kind of applications …?", "back to ShapeGen4D, what …": the return to a paper
_BACK_TO = re.compile(r"^\W*(?:(?:ok(?:ay)?|so|and|now|also)\W+)?(?:(?:going|coming|getting|turning|circling)\s+)?"
                      r"back\s+to\s+[^,:;?]{1,60}?(?:\s*[,:;]\s*|\s+[-–—]+\s*)(?=\w)", re.IGNORECASE)


# "the second paper - besides small LMs as verifiers, what other verifier types …?": what the user already knows
_BESIDES = re.compile(rf"(?:^\W*|(?<=[-–—:,])\s*){SETTING_ASIDE}\s+[^,?;]{{3,80}},\s*"
                      r"(?=(?:what|which|how|who|where|when|does|do|did|is|are|can)\b)", re.IGNORECASE)


def without_set_aside(question: str) -> str:
    """The question without what it says it knows ("apart from the segmentation scores, what else …?")."""
    return _BESIDES.sub(" ", question)


# "what did that paper on massive activations in diffusion transformers find?": the paper called by its subject
_PAPER_ON = re.compile(r"\b(?:that|the|this)\s+(?:paper|work|study)\s+(?:on|about)\s+[^?,:;.]{3,80}?"
                       r"(?=\s+(?:find|found|show|shows|say|says|report|reports|claim|claims|point|points|propose|"
                       r"proposes)\b)", re.IGNORECASE)
# "Physics-constrained flow matching: what trade-off does that paper point out?": its subject, then the question (a
# description: not a name, "omni-view: what modules …?", nor a position, "second one: …")
_SUBJECT_FIRST = re.compile(r"^\W*([^:?.!()]{3,60}):\s+(?=(?:what|how|which|why|who|where|when|does|do|did|is|are|"
                            r"can)\b)", re.IGNORECASE)
# (what the rest asks about it by)
_POINTS_AT = re.compile(r"\b(?:it|its|they|their|them|(?:that|this|the)\s+(?:paper|work|study|method)|the\s+authors)\b",
                        re.IGNORECASE)


def _without_subject(question: str) -> str:
    """The question without a subject it describes before asking about it (``_SUBJECT_FIRST``)."""
    from rag.question import names_in
    from rag.topic_words import REFERENCE_WORDS

    first = _SUBJECT_FIRST.match(question)
    subject = first.group(1).strip() if first else ""
    described = len(content_words(subject) - REFERENCE_WORDS) >= 2 and not names_in(subject[:1].lower() + subject[1:])
    # (the rest asks about it: "… what does that paper point out?"; not "Stepping back: which papers …?")
    rest = question[first.end():] if first else ""
    asks_it = _POINTS_AT.search(rest) and not re.search(r"\b(?:papers|works|studies|ones)\b", rest, re.IGNORECASE)
    return rest if described and asks_it else question


def without_calling(question: str) -> str:
    """The question without a marker of a new subject ("switching gears: …"), the words that call its paper ("the
    Decision Pre-Trained Transformer one – …", "the catalysis benchmark paper, …", "back to the first one, …", "what
    did that paper on … find?") and what it says it knows ("besides …, what …?"): the rest is what it asks of it."""
    from rag.references import without_switch

    question = _PAPER_ON.sub("it", without_set_aside(without_switch(question)))
    question = _DESCRIBED_FIRST.sub("", _without_subject(question))
    return _CALLED_FIRST.sub("", TITLED.sub(" ", _BACK_TO.sub("", question)))


def retarget(question: str, reference: Reference, table: list[Shown], retriever: HybridRetriever,
             settings: Settings) -> Reference:
    """The reference, unless the question calls another paper by its title's words than the ones it would refer to:
    one on the table ("the generative 3D scene reconstruction one — what's it motivated by?" after SIGMark and Lyra:
    Lyra), or one off it ("the Decision Pre-Trained Transformer one – …": a new subject, as ``about_elsewhere``)."""
    from rag.references import Reference, ReferenceKind

    papers = [p for pid in reference.paper_ids if (p := retriever.papers.get(pid))]
    shown = {pid for turn in table for pid in turn.sources if pid in retriever.papers}
    called = _called_anew(question, papers)
    if called and len(titled := [pid for pid in shown if in_titles(called, [retriever.papers[pid].title])]) == 1:
        return Reference(ReferenceKind.PARTIAL_NAME, titled, reference.question)
    elsewhere = (p.title for pid, p in retriever.papers.items() if pid not in shown)  # (read only when called)
    if titled_elsewhere(question, papers, called, elsewhere) or about_elsewhere(question, reference, retriever,
                                                                                   settings):
        return Reference(ReferenceKind.SWITCH, question=question)
    return reference


def _called_anew(question: str, papers: list[Paper]) -> str:
    """The words the question opens by calling its paper with ("the OR process reward model one:"), when none of
    ``papers`` writes them all; else ""."""
    from rag.question import CUE_WORDS
    from rag.topic_words import own_topic_words, written_words

    called = _CALLED_FIRST.match(question)
    own = stems(own_topic_words(called.group(0)) - CUE_WORDS) if called else set()
    return called.group(0) if called and own and not any(own <= written_words(p) for p in papers) else ""


def titled_elsewhere(question: str, papers: list[Paper], called: str, titles: Iterable[str]) -> bool:
    """The question calls a paper by capitalised words ("the Decision Pre-Trained Transformer one") that none of
    ``papers`` writes, or opens by calling one (``called``, ``_called_anew``) by words another paper's title holds (one
    of ``titles``) ("the OR process reward model one: how did they …?" after MaskCO and MetaMuse)."""
    if titled := TITLED.search(question):
        return not any(titled.group(1).lower() in f"{p.title} {p.abstract}".lower() for p in papers)
    return bool(called) and in_titles(called, titles)


def about_elsewhere(question: str, reference: Reference, retriever: HybridRetriever, settings: Settings) -> bool:
    """"Where do massive activations show up in diffusion transformers, and what modulates them?" after GtR: "them"
    points at no paper; the question's rarer terms are other papers', and the papers it would refer to hold few of its
    words. A new subject (not a choice, a comparison or a question for a detail such as "GPU hours")."""
    from rag.asks import asked_thing
    from rag.references import ReferenceKind
    from rag.topic_words import coverage

    papers = [retriever.papers[pid] for pid in reference.paper_ids if pid in retriever.papers]
    if not (reference.kind in (ReferenceKind.PRONOUN, ReferenceKind.PLURAL) and not reference.choice and papers
            and not wants_comparison(question) and not _THEIRS.search(question)
            and coverage(question, papers) < settings.decision.min_table_coverage):
        return False
    # "… is there RL work where the model writes its own tests …?": a search for a paper (whatever detail it then asks
    # of it); "its" is the model's
    seeks = bool(_SEEKS.search(question))
    # Its pronoun pointing at the table ("Does it need …"), it goes elsewhere only for a paper's title words ("how did
    # they get the decision pretrained transformer to scale …"), not for terms others use more ("inference time").
    if (pronoun := _PRONOUN.search(question)) and not _CLAUSE_BREAK.search(question[:pronoun.start()]) and not seeks:
        terms = retriever.names.rare_terms(question, settings.decision.list_phrase_share)
        # (not a term the papers referred to write too: "… step-level labels for the reward model?" after RGM; nor a
        # short one several papers share, a subject rather than a paper: "… when you run it at test time?")
        return any(squash(term) in squash(retriever.papers[pid].title) for term, ids in terms.items()
                   if not ids & set(reference.paper_ids) and (len(ids) == 1 or len(term.split()) >= 3)
                   for pid in ids if pid not in reference.paper_ids)
    return (seeks or not asked_thing(question)) and (seeks or retriever.names.terms_elsewhere(
        question, reference.paper_ids, settings.decision.list_phrase_share) or covered_elsewhere(question, papers,
                                                                                                retriever))


def new_search(question: str, carried: list[str], retriever: HybridRetriever | None) -> bool:
    """A follow-up with no word of reference (``carried``: the ids of the papers it would carry) that asks for a paper
    by what it does ("ok, other angle on the same bottleneck: any sparse attention method that doesn't rely on a fixed
    token budget?") or describes a subject another paper covers (``covered_elsewhere``: "the same problem for
    convolutional sequence models - how does generation time scale …?"): searched for by its own words, not the
    earlier turns' ("same" says the subject is related, not that the papers are those)."""
    from rag.topic_words import own_topic_words

    if _SEEKS.search(question) and len(own_topic_words(question)) >= SEEKING_WORDS:
        return True
    if retriever is not None and len(set(retriever.names.named_papers(question)) - set(carried)) >= 2:
        return True  # ("contrast DPT with the spectral Bellman one - what is each of them …?": those two, by name)
    return retriever is not None and covered_elsewhere(
        question, [retriever.papers[pid] for pid in carried if pid in retriever.papers], retriever)


def in_titles(part: str, titles: Iterable[str]) -> bool:
    """A compared piece calling a paper already compared by its title's words ("contrast the referring segmentation
    paper with …" after AMLRIS, "… for Referring Image Segmentation"): that paper, not another to search for."""
    from rag.question import CUE_WORDS
    from rag.topic_words import own_topic_words
    from rag.tokens import content_words, stems

    own = stems({w.replace("-", "") for w in own_topic_words(part) - CUE_WORDS})  # ("autoregressive": Auto-Regressive)
    return bool(own) and any(own <= stems({w.replace("-", "") for w in content_words(title)}) for title in titles)


# "… compared to the other KV cache paper?": a compared piece that calls a paper, whatever words its abstract shares
_CALLS_PAPER = re.compile(r"\b(?:papers?|ones?|works?|stud(?:y|ies)|articles?|submissions?|authors?)\b", re.IGNORECASE)
_AGAINST = re.compile(r"\W*(?:and\s+|but\s+)?(?:vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to)\s",
                      re.IGNORECASE)


def own_baseline(part: str, papers: list[Paper], place: int) -> bool:
    """A piece compared against (after the first, ``place``, or opening with "vs") that the compared paper's own
    abstract describes ("and how good is it compared to operational models?" after RainPro-8, which "surpasses current
    operational NWP systems"): what that paper measures itself against, answered from it, not another paper to search
    for. (The first piece says what is compared: "And the speedup versus …".)"""
    from rag.question import CUE_WORDS
    from rag.topic_words import own_topic_words, written_words
    from rag.tokens import stems

    own = stems(own_topic_words(part) - CUE_WORDS)
    return bool(own) and (place > 0 or bool(_AGAINST.match(part))) and not _CALLS_PAPER.search(part) and any(
        own <= written_words(p) for p in papers)


def compared_anew(question: str, papers: list[Paper], retriever: HybridRetriever) -> list[str]:
    """The pieces of a comparison naming something beyond ``papers`` ("How does it differ from Tactic?"). Pieces that
    point back ("… compare to these two?", "How does its use of tools … differ") or call them by their titles' words
    are those papers, already there; so is one whose names only they hold ("and vs vanilla LLaDA / Dream?" after D2F:
    what D2F's abstract compares itself with), and one compared against that their abstracts describe."""
    from rag.coref import short_acronyms
    from rag.question import comparison_parts, names_in
    from rag.references import points_back
    from rag.topic_words import own_topic_words

    titles, ids = [paper.title for paper in papers], {paper.paper_id for paper in papers}

    def theirs(part: str) -> bool:  # (or a short acronym a field does not use: "the IAR provenance paper")
        found = names_in(part) or short_acronyms(part)
        return bool(found) and all(ids & set(retriever.names.papers_mentioning(name)) for name in found)

    parts = comparison_parts(question)
    baseline = [own_baseline(part, papers, place) for place, part in enumerate(parts)]
    # (set against the paper's own baseline, the first piece is what is compared: "speedup vs the solvers?")
    compared = any(baseline[1:])
    return [part for place, part in enumerate(parts) if own_topic_words(part) and not points_back(part) and not (
        in_titles(part, titles) or baseline[place] or theirs(part)) and not (compared and place == 0 and not names_in(
            part))]


def covered_elsewhere(question: str, papers: list[Paper], retriever: HybridRetriever) -> bool:
    """The question describes its subject in ``DESCRIBING_WORDS`` or more topic words of its own, and the paper
    retrieved first for it is none of ``papers`` and holds ``COVERED`` of them, ``COVERED_MORE`` more than they do."""
    from rag.topic_words import coverage, own_topic_words

    if len(own_topic_words(question)) < DESCRIBING_WORDS or not papers:
        return False
    first = next(iter(retriever.search(question, 1)), None)
    if first is None or first.paper.paper_id in {p.paper_id for p in papers}:
        return False
    found = coverage(question, [first.paper])
    return found >= COVERED and found - coverage(question, papers) >= COVERED_MORE
