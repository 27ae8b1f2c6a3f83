"""The stages of one question, in order, each filling its part of the ``Turn``: understand → retrieve → gather
evidence → decide (here), then write → check (``rag.generate``); the logic each stage applies has its own module."""

from __future__ import annotations

from rag.alternatives import alternatives, each_alternative, examples_in, offered_among, search_each
from rag.asks import against_baselines, asks_existence, bare_comparison, wants_others
from rag.named import mention_order, others_than
from rag.errors import RagError
from rag.followup import leans_back, refers_back, standalone_query, stays_on
from rag.multilingual import needs_multilingual
from rag.choice_words import choice_query, mark_denials, rather_than
from rag.question import analyse, sets_out_pieces, sub_questions, wants_comparison, without_examples
from rag.retrieval import HybridRetriever
from rag.retrieval.acronyms import spelled_out
from rag.settings import Settings
from rag.spelling import apply_corrections, frame_typos
from rag.subject import compared_anew, new_search, retarget, without_calling, without_set_aside
from rag.topic_words import REFERENCE_WORDS, coverage, own_topic_words
from rag.types import Hit, QuestionKind, Turn


def understand(turn: Turn, retriever: HybridRetriever, settings: Settings) -> None:
    """Reads the user's words, history, table, rewrite and carried papers; writes ``said``, ``query``,
    ``corrections``, ``unknown_words``, ``shape``, ``on_table``, ``reference``, ``follow_up`` and ``top_k``."""
    from rag.references import Reference, ReferenceKind, implicit, last_answered, resolve, without_switch

    turn.question = turn.question.strip()
    if not turn.question:
        raise RagError("the question is empty; ask something about the indexed papers")
    names, rules = retriever.names, settings.decision
    asked = frame_typos(turn.question)  # ("How is it diffrent from MoH?" compares, whatever the index holds)
    reference = implicit(resolve(asked, turn.table, names.title_words, names.named_papers, names.mentioned_words,
                                 lambda pid: retriever.papers[pid].title if pid in retriever.papers else ""),
                         turn.table, retriever.papers)  # (with nothing on the table: what it names, or nothing)
    if turn.table:  # (a paper called by its title's words, on the table or not: "the Decision … one – …")
        reference = retarget(turn.question, reference, turn.table, retriever, settings)
        turn.carried = [] if reference.kind is ReferenceKind.SWITCH else turn.carried
    if turn.leans_back and (last := last_answered(turn.table)):
        reference = Reference(ReferenceKind.PRONOUN, last.listed[:3], turn.question)
    turn.reference = reference.kind.value
    own = reference.kind is ReferenceKind.NONE  # neither a reference nor a switch: the old follow-up rules
    # A reference names its papers, ranked for the question itself; a short one ("How fast?") reads earlier turns.
    kept = without_set_aside(reference.question)  # ("apart from the scores, what else …?": no topic of its own)
    leans = len(own_topic_words(kept)) < 2 and reference.kind is not ReferenceKind.SWITCH and not (
        against_baselines(reference.question))
    history = turn.history if own or leans else []  # (not "and vs the baselines?", about the paper's own baselines)
    history = [] if own and history and new_search(reference.question, turn.carried, retriever) else history
    turn.said = standalone_query(reference.question, history)
    query = (turn.rewrite if own else None) or turn.said
    # A word of the user's that no abstract of a large index contains: a typo is read as the corpus word it
    # almost spells; any other such word makes an English question a refusal (decided later). Words an LLM
    # chose (a translation, a follow-up rewrite) are never refused: a small model's wording is not the user's.
    # (On a small index a typo is still read as the word it almost spells, "benchmakr papers"; none is refused.)
    refusing = len(retriever.papers) >= rules.unknown_word_min_papers > 0 and not needs_multilingual(turn.said)
    unknown = names.unknown_words(without_switch(turn.question)) if not turn.compare_ids else []  # (no history)
    turn.corrections = names.spelling_fixes(unknown) if rules.spelling else {}
    turn.query = apply_corrections(query, turn.corrections)
    turn.unknown_words = [w for w in unknown if w not in turn.corrections and refusing]
    # The shape comes from the user's words: an LLM rewrite of a follow-up ("… than the previous version?" →
    # "… compared to the previous version?") must not make it a comparison of papers. A translation is the
    # only English there is, so a Chinese question uses it.
    rewritten = bool(history) and turn.query != turn.said and not needs_multilingual(turn.question)
    turn.shape = analyse(apply_corrections(turn.said, turn.corrections) if rewritten else turn.query)
    only = set(turn.paper_ids) if turn.paper_ids else None
    switched = reference.kind is ReferenceKind.SWITCH  # a scoped chat stays scoped; a switch carries nothing
    turn.carried = [pid for pid in turn.carried if (only is None or pid in only) and not switched]
    # A follow-up keeps the last answer's papers first in its sources; a turn about papers on the table has exactly
    # those as sources instead. "Which papers besides this one …" refers back only to leave those out (``retrieve``).
    others = turn.shape.kind is QuestionKind.LIST and (wants_others(turn.question) or (  # (a list's "it" is no
        reference.kind is ReferenceKind.PRONOUN and analyse(turn.question).kind is QuestionKind.LIST  # paper; but
        and not turn.leans_back))  # "which vanilla ones?" of the last answer's paper)
    turn.on_table = [pid for pid in reference.paper_ids if pid in retriever.papers and (only is None or pid in only)
                     and not others]
    if len(turn.on_table) == 1 and turn.shape.kind is QuestionKind.LIST and (turn.leans_back or analyse(
            turn.question).kind is not QuestionKind.LIST):  # ("real-time?" about the one paper on the table, after a
        # list question: of it; "which vanilla ones?", of the last answer's paper)
        turn.shape.kind = QuestionKind.SINGLE
    turn.follow_up = not turn.on_table and not others and bool(turn.carried and history and refers_back(turn.question))
    if turn.on_table:
        _answer_from_table(turn, reference.choice, retriever)
    elif turn.follow_up and turn.shape.kind is not QuestionKind.COMPARISON and wants_comparison(turn.question):
        _compare_with_new(turn, turn.carried, retriever)
    elif turn.carried and history and turn.shape.kind is QuestionKind.SINGLE and bare_comparison(turn.question):
        _compare_with_new(turn, turn.carried[:1], retriever)  # "How does ShapeGen4D compare?": with the last paper
    turn.top_k = turn.top_k or settings.retrieval.top_k
    if turn.shape.kind is QuestionKind.LIST:  # as many papers as pass the relevance cut, not a fixed k
        turn.top_k, turn.query = max(turn.top_k, rules.max_list_papers), without_examples(turn.query)
    if turn.compare_ids:
        turn.shape.kind = QuestionKind.COMPARISON


def _answer_from_table(turn: Turn, choice: bool, retriever: HybridRetriever) -> None:
    """A turn about papers on the table: pick among them, compare them, or ask each of them."""
    titles = [retriever.papers[pid].title for pid in turn.on_table]
    compares = wants_comparison(turn.question) or turn.shape.kind is QuestionKind.COMPARISON  # ("A and B: … each?")
    if choice:  # each paper's sentences are ranked for what the choice turns on, not the earlier turns' words
        turn.shape.kind, turn.shape.parts = QuestionKind.CHOICE, titles
        # "… about text rather than images?": what it is not about would count for the paper about images.
        turn.query = choice_query(apply_corrections(turn.question, turn.corrections))
    elif against_baselines(turn.question, len(turn.on_table) == 1):  # "vs other AR models - speed?": against its own
        turn.shape.kind = QuestionKind.SINGLE
    elif (wants_comparison(turn.question) and retriever.names.names_elsewhere(turn.question, turn.on_table)
          and _compare_with_new(turn, turn.on_table, retriever)):  # "How does SIGMark compare to these two?"
        turn.on_table = []
    elif (compares or bare_comparison(turn.question)) and len(turn.on_table) >= 2:  # ("A and that one: … each?")
        turn.compare_ids = mention_order(turn.question, turn.on_table, retriever.names.title_words,  # (as named:
                                         retriever.names.is_distinctive) or list(turn.on_table)  # "GtR … TRIM-KV's?")
    elif sets_out_pieces(turn.question) and _compare_with_new(turn, turn.on_table, retriever):  # ("A and B - each")
        turn.on_table = []  # compared with something new: searched for, the table's paper pinned first
    elif turn.shape.kind is QuestionKind.COMPARISON:
        turn.shape.kind = QuestionKind.SINGLE  # one paper on the table and no other named: ask it


def _compare_with_new(turn: Turn, carried: list[str], retriever: HybridRetriever) -> bool:
    """"How does it differ from Tactic?": the papers referred to against what this turn names."""
    papers = [retriever.papers[pid] for pid in carried if pid in retriever.papers]
    titles = [paper.title for paper in papers]
    parts = titles + compared_anew(turn.question, papers, retriever)
    if len(parts) < 2 or len(parts) == len(titles):
        return False
    turn.carried, turn.follow_up = list(carried), True
    turn.shape.kind, turn.shape.parts = QuestionKind.COMPARISON, parts
    return True


def retrieve(turn: Turn, retriever: HybridRetriever) -> None:
    """Reads ``query``, ``shape``, ``top_k``, the papers asked for; writes ``vector``, ``ranked`` (and ``top_k``)."""
    from rag.retrieval.comparison import hits_for, search_comparison

    # One vector for the dense rankings and the evidence ("Which papers …" in it picked fewer right papers)
    turn.vector = retriever.embed_topic(turn.query)
    depth = max(turn.top_k, turn.rank_depth)
    only = set(turn.paper_ids) if turn.paper_ids else None
    if turn.compare_ids:
        turn.ranked = hits_for(retriever, turn.compare_ids)
        turn.top_k = max(turn.top_k, len(turn.ranked))
    elif turn.on_table:  # exactly those papers, in the order the user saw them
        scored = {h.paper.paper_id: h for h in retriever.search(turn.query, len(turn.on_table), vector=turn.vector,
                                                                 only=set(turn.on_table))}
        turn.ranked = [scored.get(pid) or Hit(retriever.papers[pid], 0.0) for pid in turn.on_table]
        turn.top_k = len(turn.ranked)
    elif turn.shape.kind is QuestionKind.COMPARISON and only is None:
        turn.ranked = search_comparison(retriever, turn.query, turn.shape.parts, depth, vector=turn.vector)
    else:
        searched = turn.query  # "any other RL papers?": "reinforcement learning" too (not a paper's own name)
        if turn.shape.kind is QuestionKind.LIST and (searched := spelled_out(turn.query, retriever.names,
                                                                             retriever.acronyms)) != turn.query:
            turn.vector = retriever.embed_topic(searched)
        found = retriever.search(searched, depth, vector=turn.vector, only=only)
        if turn.shape.kind is QuestionKind.LIST:  # "… on chemistry or molecule design?": papers on either
            found = search_each(turn.query, found, retriever, depth, only, examples_in(turn.question))
        turn.ranked = retriever.names.in_named_order(turn.query, found, turn.top_k)
    if turn.follow_up:
        turn.ranked = _pinned(retriever, turn.ranked, turn.carried)
    elif turn.shape.kind is QuestionKind.LIST and (discussed := others_than(turn.question, turn.table)):
        turn.ranked = ([h for h in turn.ranked if h.paper.paper_id not in discussed]  # "Which other papers …": the
                       + [h for h in turn.ranked[: turn.top_k] if h.paper.paper_id in discussed])  # ones discussed last


def _pinned(retriever: HybridRetriever, ranked: list[Hit], carried: list[str]) -> list[Hit]:
    """A follow-up that refers back keeps the papers the last answer cited at the top of its sources."""
    top = ranked[0].score if ranked else 1.0
    pinned = [next((h for h in ranked if h.paper.paper_id == pid), None) or Hit(retriever.papers[pid], top)
              for pid in carried if pid in retriever.papers]
    ids = {h.paper.paper_id for h in pinned}
    return pinned + [h for h in ranked if h.paper.paper_id not in ids]


def gather(turn: Turn, retriever: HybridRetriever, settings: Settings) -> None:
    """Reads ``query``, ``vector``, ``hits``, ``shape``; writes ``evidence`` (a compared paper's: for its piece)."""
    from rag.evidence import best_of, evidence_for, for_comparison, gather_evidence, lead_new_words
    from rag.fields import lift_field_sentences, list_terms, qualified, with_term_papers
    from rag.references import last_answered
    from rag.tokens import content_words
    names, sentences, weight = retriever.names, retriever.sentences, settings.answer.lexical_weight
    terms: dict[str, set[str]] = {}
    if turn.shape.kind is QuestionKind.LIST:  # (a term's papers the search missed, taken in: ``with_term_papers``)
        spelled = retriever.acronyms.long_forms(turn.query) if len(own_topic_words(turn.query)) <= 2 else []
        terms = list_terms(turn.query, spelled, retriever, settings.decision.list_phrase_share)
        large = len(retriever.papers) >= settings.decision.unknown_word_min_papers > 0  # (as for fields' words)
        if not turn.on_table and not large:
            with_term_papers(turn, terms, retriever.papers, settings.decision.max_list_papers)
    examples = examples_in(turn.question) if turn.shape.kind is QuestionKind.LIST else []  # ("(GSM8K, AIME, …)?")
    named_papers = {n: retriever.acronyms.mentioning(n, names) for n in dict.fromkeys(
        [*names.distinctive_names(turn.query), *(n for e in examples for n in names.distinctive_names(e))])}
    # Acronyms spelled out for the lexical part ("RL" also matches "reinforcement learning"), only where the acronym is
    # most of the topic ("any other RL papers?"): beside other words, "LLMs" spelled out let any LLM paper pass a list.
    query, vector = turn.query, turn.vector
    if len(own_topic_words(turn.query)) <= 2:
        query = retriever.acronyms.expand(turn.query, {h.paper.short_name for h in turn.hits})
    elif turn.shape.kind is QuestionKind.LIST:  # (its sentences scored with the long forms few papers write, too)
        query = spelled_out(turn.query, retriever.names, retriever.acronyms)
    # A follow-up with topic words of its own ("how do they keep the noise distribution intact?") was searched for
    # with the earlier turns' words; its sentences are ranked for its own (on the table's, "benchmarks?": by both, but
    # a choice's, whose query is its own words already, and without title words that found the paper, as below).
    if turn.follow_up and not turn.compare_ids and len(own_topic_words(turn.question)) >= 2:
        query, vector = turn.corrected_question, retriever.encoder.embed_query(turn.corrected_question)
    asked = without_calling(turn.query)  # "the Decision Pre-Trained Transformer one – which training choice …":
    if asked != turn.query and len(content_words(asked)) >= 2:  # the words that found the paper are not the question
        query, vector = asked, retriever.encoder.embed_query(asked)
    # A turn about papers on the table (not refused for a weak match) may read "calibration-free" as "calibration".
    turn.evidence = gather_evidence(query, vector, turn.hits, sentences, named_papers, turn.shape.multilingual,
                                    lexical_weight=weight, word_parts=bool(turn.on_table))
    own = "" if turn.shape.kind is QuestionKind.CHOICE else without_calling(turn.corrected_question)  # (choice: own)
    if turn.on_table and not turn.compare_ids and content_words(own) - REFERENCE_WORDS:
        turn.evidence = best_of(turn.evidence, [evidence_for(own, turn.hits, retriever, weight, True)])
    if turn.reference == "ellipsis" and not turn.compare_ids and (last := last_answered(turn.table, refusals=False)):
        lead_new_words(turn.evidence, turn.corrected_question, last.query or last.question, turn.query, retriever,
                       weight)
    if turn.shape.kind is QuestionKind.LIST:  # (each sentence also scored by the alternative it fits best)
        turn.evidence = each_alternative(turn.query, turn.evidence, retriever, weight, bool(turn.on_table), examples)
        for item in turn.evidence:
            item.terms_found = [term for term, ids in terms.items() if item.hit.paper.paper_id in ids]
        turn.evidence = qualified(turn.evidence)
    if turn.shape.kind in (QuestionKind.LIST, QuestionKind.CHOICE):  # ("… actual theory?": its sentence on theory)
        turn.evidence = lift_field_sentences(turn.corrected_question, turn.evidence)
    if turn.shape.kind is QuestionKind.COMPARISON and not turn.shape.multilingual:
        turn.evidence = for_comparison(turn.corrected_question, turn.evidence, retriever, named_papers, weight)


def decide(turn: Turn, retriever: HybridRetriever, settings: Settings) -> None:
    """Reads ``shape``, ``evidence`` and ``unknown_words``; writes ``decision`` and the retrieval time."""
    import time

    from rag.decide import decide as decide_from_evidence, decide_on_table, in_asked_order, in_topic_order, leave_out
    from rag.unstated import on_last, unless_offered, unless_unstated

    if turn.on_table:  # the user points at these papers: answered from them
        from rag.aspects import asks_figure, asks_kind, aspect
        from rag.cues import names_its_data
        from rag.properties import reported
        from rag.roles import Aspect

        asked = turn.said if turn.said and turn.said in turn.question else turn.question  # what a reference left of it
        held = coverage(asked, [h.paper for h in turn.hits])  # ("Take A, B and C in that order. Which problems …")
        # Only a question for a figure or a named thing ("How many GPU hours …?") asks for a fact an abstract may lack
        said = [s.text for e in turn.evidence for s in e.sentences]  # (not "what kind of experiments …?", described)
        specific = ((kind := aspect(asked)) is Aspect.DATA and not asks_kind(asked) or kind is Aspect.RESULT and
                    asks_figure(asked)) and not (reported(asked, said) or kind is Aspect.DATA and all(
                        map(names_its_data, turn.evidence)))  # (each: "on GSM8K, …")
        against = None  # "… about local detail rather than speed?": what fits "speed" counts against a paper
        if turn.shape.kind is QuestionKind.CHOICE:  # (as a paper denying what is asked: ``mark_denials``)
            mark_denials(turn.corrected_question, turn.evidence)
        if turn.shape.kind is QuestionKind.CHOICE and (negated := rather_than(turn.corrected_question)):
            from rag.evidence import counted_against
            against = counted_against(negated, turn.query, turn.evidence, turn.hits, retriever,
                                      settings.answer.lexical_weight)
        turn.decision = decide_on_table(turn.shape, turn.evidence, settings.decision, held, specific, against,
                                        turn.corrected_question, retriever.names)  # ("the lower FID?")
        unless_unstated(turn, [h.paper for h in turn.hits], retriever.names, retriever.acronyms.long_form)  # (or why)
    else:
        missing = retriever.names.missing_names(turn.shape.names, turn.said)
        if turn.shape.kind is QuestionKind.LIST:  # ("… such as GSM8K, MATH, AIME or HMMT?": any of them will do)
            missing = [m for m in missing if m not in offered_among(missing, turn.question)]
        turn.decision = decide_from_evidence(turn.shape, turn.evidence, settings.decision, missing,
                                             turn.unknown_words)
        if not turn.decision.refused and turn.shape.kind is QuestionKind.SINGLE:
            found = [e.hit.paper for _, e in turn.decision.chosen]  # "Who are the authors of MaskCO?"
            unless_unstated(turn, found, *((retriever.names, retriever.acronyms.long_form) if on_last(turn, found)
                                           else ()))  # (the last paper found again: as if pointed at)
        elif not turn.decision.refused and turn.follow_up and turn.shape.kind is QuestionKind.COMPARISON:
            unless_offered(turn, [e.hit.paper for _, e in turn.decision.chosen], retriever.names)  # "… LRU or …?"
        if (not turn.decision.refused and turn.shape.kind in (QuestionKind.SINGLE, QuestionKind.LIST)
                and not turn.shape.multilingual):  # a near-miss: what none of the papers answering it holds
            from rag.nearmiss import missing_qualifiers

            turn.decision.missing = missing_qualifiers(apply_corrections(turn.said, turn.corrections),
                                                       [e.hit.paper for _, e in turn.decision.chosen], retriever.bm25)
            if turn.decision.missing and asks_existence(turn.question):  # "Is there a paper here on …?": no
                from rag.answer import no_paper_reason

                turn.decision.refused, turn.decision.reason = True, no_paper_reason(turn.decision)
    if not turn.decision.refused and (turn.shape.kind is QuestionKind.SINGLE or turn.decision.pick) and not (
            turn.shape.multilingual) and (parts := sub_questions(turn.corrected_question)):  # (choice: "…, and …?")
        from rag.evidence import by_parts

        chosen = by_parts([e for _, e in turn.decision.chosen], parts, retriever, settings.answer.lexical_weight,
                          bool(turn.on_table))
        turn.decision.chosen = [(n, item) for (n, _), item in zip(turn.decision.chosen, chosen)]
        turn.decision.sentences_per_paper += len(parts) - 1
    if not turn.decision.refused and not turn.on_table and turn.shape.kind in (QuestionKind.SINGLE, QuestionKind.LIST):
        in_topic_order(turn.decision, turn.corrected_question)  # ("…: X, and Y. Which paper covers each?")
    if turn.shape.kind is QuestionKind.LIST and not turn.decision.refused:  # "Which other papers …"
        in_asked_order(turn.decision, alternatives(turn.query))  # ("… on catalysis and on rainfall …")
        leave_out(turn.decision, turn.question, turn.table, retriever.names.named_papers)  # ("… (ignoring X)")
    turn.timings["retrieve"] = (time.perf_counter() - turn.started) * 1000


def prepare(turn: Turn, retriever: HybridRetriever, settings: Settings) -> Turn:
    """Everything but the wording: the stages up to the refuse-or-answer decision."""
    understand(turn, retriever, settings)
    retrieve(turn, retriever)
    gather(turn, retriever, settings)
    decide(turn, retriever, settings)
    if leans_back(turn, retriever) or stays_on(turn, retriever, settings.answer.lexical_weight):  # (``rag.followup``)
        again = Turn(turn.question, turn.history, turn.carried, turn.table, turn.paper_ids, rank_depth=turn.rank_depth,
                     started=turn.started, rewrite=turn.rewrite, leans_back=True)
        return prepare(again, retriever, settings)
    return turn
