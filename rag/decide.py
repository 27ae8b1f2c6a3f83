"""Decide stage: from the evidence alone, refuse or pick the papers (and how much of each) to answer from. Every
backend phrases the same decision; none of them can overrule a refusal."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from rag.fields import FIELD
from rag.figures import by_figure
from rag.settings import DecisionSettings
from rag.tokens import content_words, stems
from rag.types import Decision, Evidence, QuestionKind, QuestionShape, Shown

if TYPE_CHECKING:
    from rag.retrieval.names import NameIndex


def decide(shape: QuestionShape, evidence: list[Evidence], rules: DecisionSettings,
           missing_names: list[str] | None = None, unknown_words: list[str] | None = None) -> Decision:
    if missing_names:
        return Decision(refused=True, missing_names=list(missing_names))
    # A paper containing a name the question asks about is on topic however the question is phrased:
    # no evidence rule below refuses it.
    name_found = any(e.names_found for e in evidence)
    # A word absent from thousands of abstracts ("monsoon") marks a topic the corpus lacks, unless the
    # question also names something a retrieved paper contains (then the odd word is incidental).
    if unknown_words and not name_found:
        return Decision(refused=True, unknown_words=list(unknown_words))
    top = max((e.best_score for e in evidence), default=0.0)
    floor = rules.min_evidence_multilingual if shape.multilingual else rules.min_evidence
    # (a list's papers using its rarer term or its field's words are on topic however loosely their sentences fit)
    termed = shape.kind is QuestionKind.LIST and any(e.terms_found for e in evidence)
    if top < floor and not name_found and not termed:
        return Decision(refused=True)
    # e5's sentence scores barely tell Chinese questions the corpus lacks from answerable ones; how well the
    # best paper's title and first sentence fit does, for questions far off topic (docs/benchmarks.md).
    headline = max((e.hit.headline_score for e in evidence if e.hit.headline_score is not None), default=None)
    if shape.multilingual and headline is not None and headline < rules.min_headline_multilingual and not name_found:
        return Decision(refused=True)
    numbered = list(enumerate(evidence, start=1))
    if shape.kind is QuestionKind.COMPARISON:
        chosen = [(n, e) for n, e in numbered
                  if e.hit.part is not None and (e.best_score >= rules.min_sentence or e.names_found)]
        if len(chosen) >= 2:
            return Decision(refused=False, chosen=chosen, sentences_per_paper=2)
    if shape.kind is QuestionKind.LIST:
        cut = max(rules.min_list_evidence, rules.list_relative_cut * top)
        if shape.multilingual:  # e5 similarities crowd: compare distances from where they do
            cut = rules.e5_crowd + rules.list_relative_cut * (top - rules.e5_crowd)
        # The first retrieved papers are listed when they clear the evidence floor and the relative cut, though the
        # list floor is higher: sentences of a broad topic fit loosely ("Which papers are about faster
        # generation?": fused retrieval ranked the right three first, each best sentence under the list floor).
        # (Not with e5's crowded scores, where the floor says nothing.)
        ranks = 0 if shape.multilingual else rules.list_top_ranks
        # A paper holding a name the question asks about ("Which papers work with TikZ code?", "… report results on
        # ImageNet?") or using a rarer term of it verbatim ("… touch on the KV cache?") is listed whenever its best
        # sentence is not far off (one naming the term in passing scores low: "… in Best-of-N settings"); one using a
        # field's words when the list asks for the field by name ("… about chemistry?", ``rag.fields``), always; the
        # paper retrieved first for an alternative the question offers ("… watermarking or tracing where …"), whenever
        # it clears the floor.
        chosen = [(n, e) for n, e in numbered if e.best_score >= cut or (
            n <= ranks and (e.best_score >= rules.min_list_evidence or not name_found and e.best_score >= max(
                rules.min_evidence, rules.list_top_relative_cut * top))) or (
            (e.names_found or e.terms_found) and e.best_score >= rules.named_list_floor) or (
            _fielded(e)) or (
            e.hit.part is not None and e.best_score >= rules.min_evidence)][: rules.max_list_papers]
        if not chosen and shape.multilingual and numbered:  # e5's cut can pass over the best paper itself
            chosen = [max(numbered, key=lambda item: item[1].best_score)]
        # A list asking for a field or a property ("any papers on speeding up autoregressive image generation?"): the
        # papers using the field's words or claiming the property first, so that "the top two" are two that do.
        chosen.sort(key=lambda item: not _fielded(item[1]))
        # No paper fits well enough to be listed: nothing to list ("Are there papers on federated learning?").
        return Decision(refused=not chosen, chosen=chosen, sentences_per_paper=1)
    named = [(n, e) for n, e in numbered if e.names_found]
    # A question about named things: each name's best paper ("Tell me about VeriEquivBench and AutoExperiment"
    # answers from both), and only papers that fit better than the weakest of them.
    best_named = [max((item for item in named if name in item[1].names_found), key=lambda item: item[1].best_score)
                  for name in dict.fromkeys(name for _, e in named for name in e.names_found)]
    if named:
        floor = min(e.best_score for _, e in best_named)
        numbered = [(n, e) for n, e in numbered if e.names_found or e.best_score >= floor]
    cut = max(rules.min_sentence, rules.relative_cut * top)
    # Fused retrieval ranks the right paper first more often than its best sentence alone does: the first
    # retrieved paper is kept whenever it has a quotable sentence, although another paper's sentence fits better.
    first = numbered[0] if numbered and not named and numbered[0][1].best_score >= rules.min_sentence else None
    chosen = [(n, e) for n, e in numbered if e.best_score >= cut or (n, e) in best_named or (n, e) == first]
    chosen = chosen[: rules.max_answer_papers]
    return Decision(refused=False, chosen=chosen, sentences_per_paper=rules.sentences_per_paper)


def _fielded(evidence: Evidence) -> bool:
    """The paper uses the words of a field the list asks for by name (``rag.fields``)."""
    return any(t.startswith(FIELD) for t in evidence.terms_found)


def decide_on_table(shape: QuestionShape, evidence: list[Evidence], rules: DecisionSettings,
                    coverage: float = 1.0, specific: bool = True, against: list[float] | None = None,
                    question: str = "", names: NameIndex | None = None) -> Decision:
    """A turn about papers the user already has on screen: every one of them answered from; a comparison or a
    choice is never refused (a choice picks the paper whose best sentence fits the question clearly better than
    the others', by ``choice_margin``, else says it is not settled); a question of fact is refused only when no
    sentence of those papers reaches the evidence floor, their abstracts lack most of its own topic words
    (``coverage``: the best paper's share of them; 1.0 when it has none, as in "Tell me more about [2]") and it
    asks for a figure or a named thing (``specific``), which the abstracts may simply not hold. ``against``: each
    paper's best score for what the choice says the pick is not ("… rather than speed?"), counted against it;
    ``question``: a choice for the lower or higher figure of a metric ("whose abstract reports the lower FID?") is
    decided by the figures, when each paper gives one (``figures.by_figure``); ``names``: which indexed papers use a
    word, for a choice the sentences leave unsettled (``_word_holder``)."""
    numbered = list(enumerate(evidence, start=1))[: rules.max_list_papers]
    if not numbered:  # nothing left to answer from (as "Which other papers …" about the only ones on the table)
        return Decision(refused=True)
    top = max((e.best_score for e in evidence), default=0.0)
    if (shape.kind in (QuestionKind.SINGLE, QuestionKind.LIST) and top < rules.min_evidence
            and coverage < rules.min_table_coverage and specific):
        # A fact the abstracts on the table do not hold ("How many GPU hours did it take?"): not guessed.
        return Decision(refused=True)
    per_paper = 1 if len(numbered) > rules.max_answer_papers else rules.sentences_per_paper
    decision = Decision(refused=False, chosen=numbered, sentences_per_paper=per_paper)
    if shape.kind is QuestionKind.CHOICE and len(numbered) >= 2:
        # "Which of the two compares itself against GPT-5?": the one paper whose abstract holds a name the question
        # asks about, other than the papers' own, decides it whatever the sentences' fit.
        own = " ".join(f"{e.hit.paper.title} {e.hit.paper.short_name}" for _, e in numbered).lower()
        holding = [n for n, e in numbered if any(name.lower() not in own for name in e.names_found)]
        if len(holding) == 1:
            decision.pick = holding[0]
            return decision
        if (figured := by_figure(question, [[s.text for s in e.sentences] for _, e in numbered])) is not None:
            decision.pick = numbered[figured][0]
            return decision
        fitting = [(n, e) for n, e in numbered if not e.denies]  # (not one saying it does not: ``mark_denials``)
        holder = fitting[0][0] if len(fitting) == 1 < len(numbered) else None  # (the one the others' denials leave)
        if holder is not None or (holder := _term_holder(question, fitting)) is not None or (
                holder := _releasing(question, fitting)) or (holder := _field_holder(question, fitting)):
            decision.pick = holder
            return decision
        fits = {n: e.best_score * (not e.denies) - (against[i] if against else 0.0)
                for i, (n, e) in enumerate(numbered)}
        ranked = sorted(numbered, key=lambda item: fits[item[0]], reverse=True)
        margin = fits[ranked[0][0]] - fits[ranked[1][0]]
        if ranked[0][1].best_score >= rules.min_sentence and margin >= rules.choice_margin:
            decision.pick = ranked[0][0]
        elif names is not None:  # (unsettled by the sentences: "… pitched as a safety thing?", one abstract's word)
            decision.pick = _word_holder(question, numbered, names, rules.list_phrase_share)
    return decision


_WHICH = re.compile(r"\b(?:which|whichever|who)\b", re.IGNORECASE)
# "… without retraining?", "… doesn't need any training?": held by "training-free"
_WITHOUT = re.compile(r"\b(?:without|(?:does|do|did)(?:\s+not|n['’]?t)\s+(?:need|require)|(?:needs?|requires?)\s+no)\s+"
                      r"(?:any\s+|extra\s+|additional\s+|further\s+)?(?:re-?)?([a-z]+)", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no|never|without|neither|nor|none|lacks?)\b|n['’]t\b", re.IGNORECASE)


def _releasing(question: str, numbered: list[tuple[int, Evidence]]) -> int | None:
    """A choice asking which paper's code or data is out ("which of the two can I download right now?"): the one paper
    whose abstract says it is (not only that it will be: "We will publicly release …"; unless asked so)."""
    from rag.asks import asks_release
    from rag.released import as_asked

    if not asks_release(question):
        return None
    out = [n for n, e in numbered if any(map(as_asked(question), (s.text for s in e.sentences)))]
    return out[0] if len(out) == 1 else None


def _from_which(question: str) -> str | None:
    """What a choice asks the pick to be: the question from its last "which" on (None without one)."""
    return question[which[-1].start():] if (which := list(_WHICH.finditer(question))) else None


def _term_holder(question: str, numbered: list[tuple[int, Evidence]]) -> int | None:
    """A choice whose criterion uses a term of two or more words ("… which one was tested at a cloud provider?", or a
    hyphenated one: "… says it's training-free?") that one paper's abstract alone writes: that paper, however loosely
    its sentences match the rest. Not when negated ("which one does not use reinforcement learning?"). (Verbatim
    terms, as ``coverage``'s topic words: the sentence scores rank the whole question and may leave a margin too
    small to settle.)"""
    from rag.tokens import search_text, topic_phrases
    from rag.topic_words import REFERENCE_WORDS

    asked = _from_which(question) or ""
    # (and the runs within a longer one: "uses reinforcement learning" holds "reinforcement learning")
    runs = [[w for w in t.split() if w not in REFERENCE_WORDS] for t in topic_phrases(asked)] if asked and not (
        _NEGATED.search(asked)) else []
    terms = {" ".join(run[i:j]) for run in runs for i in range(len(run)) for j in range(i + 2, len(run) + 1)}
    # (or its acronym in capitals, undefined: "state space models" held by "… inherent in SSMs")
    initials = [re.compile(rf"\b{''.join(w[0] for w in t.split()).upper()}s?\b") for t in terms if t.count(" ") >= 2]
    texts = {n: f"{e.hit.paper.title} {e.hit.paper.search_text}" for n, e in numbered}
    lowered = {n: search_text(text).lower() for n, text in texts.items()}
    holders = {n for n, text in texts.items() if any(t in lowered[n] for t in terms)
               or any(a.search(text) for a in initials)}
    if not holders:  # (a hyphenated word only when no longer term is: not "long-context" of "long-context LLMs")
        hyphenated = {w for run in runs for w in run if "-" in w.strip("-")} | {  # ("… without any training?":
            f"{m.group(1).lower()}-free" for m in _WITHOUT.finditer(asked)}  # "training-free")
        holders = {n for n in texts if any(w in lowered[n] for w in hyphenated)}
    return holders.pop() if len(holders) == 1 else None


def _word_holder(question: str, numbered: list[tuple[int, Evidence]], names: NameIndex, rare: float) -> int | None:
    """A choice whose criterion's rare words (each in at most ``rare`` of the indexed papers; not "faster") one paper on
    the table alone writes, all of them ("which one is pitched as a safety thing?": SIGMark, "… a crucial role in AI
    safety"): that paper, its sentence using the word leading (``Evidence.leads``). Not when negated, nor by what it
    says the pick is not ("… rather than topic?"). (Single words, which ``_term_holder`` leaves out.)"""
    from rag.nearmiss import word_readings
    from rag.topic_words import REFERENCE_WORDS, SAYING_WORDS, own_topic_words

    asked = re.split(r"\b(?:rather\s+than|instead\s+of)\b", _from_which(question) or "")[0]  # (not what it is not)
    if not asked or _NEGATED.search(asked):
        return None
    owners: dict[int, str] = {}
    words = [w for w in own_topic_words(asked) - REFERENCE_WORDS - SAYING_WORDS if 0 < len(names.papers_mentioning(
        w)) <= rare * len(names.papers)]  # (what it is, not a verb naming it: "… says the thing it learns is …?")
    for word in [w for w in words if word_readings(w) != {"VERB"}] or words:
        using = {*names.papers_mentioning(word), *names.papers_mentioning(f"{word}s")}  # (the index's own lookup)
        holders = {n for n, e in numbered if e.hit.paper.paper_id in using or stems({word}) <= stems(content_words(
            e.hit.paper.abstract))}  # (in any form: "shared" is held by "we share the backbone network")
        if len(holders) != 1:
            return None  # ("… filtering what the drafter trains on?": "data-centric" and "filtering" are no one's)
        owners[holders.pop()] = word
    if len(owners) != 1:
        return None
    n, word = owners.popitem()
    evidence = dict(numbered)[n]
    using = re.compile(rf"(?<![\w-]){re.escape(word)}s?(?![\w-])", re.IGNORECASE)
    evidence.leads = next((s.position for s in evidence.sentences if using.search(s.text)), evidence.leads)
    return n


def _field_holder(question: str, numbered: list[tuple[int, Evidence]]) -> int | None:
    """A choice asking for a field ("which of the two actually has a proof in it?", "… is about chemistry?") that one
    paper's abstract alone writes the words of ("Within T1 we prove that …"): that paper. Not when negated."""
    from rag.fields import field_words

    asked = _from_which(question) or question
    if _NEGATED.search(asked) or (words := field_words(asked)) is None:
        return None
    holders = [n for n, e in numbered if words.search(f"{e.hit.paper.title} {e.hit.paper.abstract}")]
    return holders[0] if len(holders) == 1 else None


def in_asked_order(decision: Decision, pieces: list[str]) -> None:
    """A list offering alternatives ("papers on catalysis and on rainfall forecasting"): the papers retrieved first
    for each alternative (``Hit.part``) in the order the question asks for them, in the places they hold, so that
    "the first of those" is the catalysis paper; the others stay where they are."""
    _in_their_places(decision, {n: pieces.index(e.hit.part) for n, e in decision.chosen if e.hit.part in pieces})


def _in_their_places(decision: Decision, rank: dict[int, int]) -> None:
    """The chosen papers ``rank`` holds (paper number → its place asked) put in that order, in the places they hold
    among the chosen; the others stay where they are."""
    places = [i for i, (n, _) in enumerate(decision.chosen) if n in rank]
    ordered = sorted((decision.chosen[i] for i in places), key=lambda item: rank[item[0]])
    for i, item in zip(places, ordered):
        decision.chosen[i] = item


def others_last(decision: Decision, discussed: list[str]) -> None:
    """"Which other papers …": the papers just discussed that fit too are listed last, said to be discussed above (a
    reader of "other" may count them in or out); refused when no other paper fits."""
    if not discussed:
        return
    decision.chosen.sort(key=lambda item: item[1].hit.paper.paper_id in discussed)
    decision.discussed = [n for n, e in decision.chosen if e.hit.paper.paper_id in discussed]
    decision.refused = len(decision.discussed) == len(decision.chosen)


def leave_out(decision: Decision, question: str, table: list[Shown], named_papers: Callable[[str], list[str]]) -> None:
    """A list question's papers: the ones just discussed last ("Which other papers …"), and none it leaves out
    ("… (ignoring the TikZ one)", the papers ``named_papers`` finds in what it leaves out)."""
    from rag.named import others_than
    from rag.question import left_out

    others_last(decision, others_than(question, table))
    excluded = named_papers(text) if (text := left_out(question)) else []
    if excluded and (kept := [item for item in decision.chosen if item[1].hit.paper.paper_id not in excluded]):
        decision.chosen = kept


def in_topic_order(decision: Decision, question: str) -> None:
    """"Two things: LLMs that produce scientific figures from text, and agents that re-run ML experiments. Which paper
    covers each?": the papers answering each topic of the user's enumeration in the order of the topics, in the places
    they hold, so that "the first one" is the figures paper to the user and to the chat. Each topic's paper is the one
    holding the most of its topic words (at least two), more than any other; nothing moves unless every topic has its
    own paper."""
    held: dict[int, set[str]] = {}  # each chosen paper's stemmed words, worked out only for an enumeration
    for clause in re.split(r"[.?!;]\s+|:\s*", question):
        topics = [t for t in (stems(content_words(p)) for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", clause))
                  if len(t) >= 2]
        if len(topics) < 2:
            continue
        held = held or {n: stems(content_words(f"{e.hit.paper.title} {e.hit.paper.text}")) for n, e in decision.chosen}
        order: list[int] = []
        for topic in topics:
            fits = sorted(((len(topic & words), n) for n, words in held.items() if n not in order), reverse=True)
            if fits and fits[0][0] >= 2 and (len(fits) < 2 or fits[0][0] > fits[1][0]):
                order.append(fits[0][1])
        if len(order) == len(topics):
            _in_their_places(decision, {n: place for place, n in enumerate(order)})
            return
