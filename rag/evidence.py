"""Evidence stage: the sentences of each retrieved paper ranked by how well they answer the question.

Sentence vectors come from the index (embedded at ingest), so this stage costs one matrix product.
A sentence's score mixes embedding similarity (meaning) with the share of the question's topic words
it contains, in any form (names, numbers and acronyms such as ``TRIM-KV`` or ``5.14x`` that a small embedding
model blurs; "distributed" for "distribution"; "SSL" where the sentence writes "Self-Supervised Learning").
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from rag.coref import acronym_words, implied_words, initials_written, spelled_acronyms, written_acronyms
from rag.settings import AnswerSettings
from rag.tokens import content_words, stems, without_where
from rag.types import Evidence, EvidenceSentence, Hit

# A part's best sentence of the role its aspect asks for answers it when it scores this share of the part's best.
_PART_ROLE_SHARE = 0.5
_KIND_OF = re.compile(r"-(?:style|like|type|esque|based|driven|inspired|oriented|related|centric)$")

if TYPE_CHECKING:
    import numpy as np

    from rag.retrieval import HybridRetriever
    from rag.retrieval.rankers import SentenceIndex


def blend(cosine: float, overlap: float, lexical_weight: float) -> float:
    """A sentence's score against a question or claim: cosine similarity mixed with the share of topic words
    it contains (the evidence stage and the citation check score alike)."""
    return (1 - lexical_weight) * cosine + lexical_weight * overlap


def gather_evidence(question: str, vector: np.ndarray, hits: list[Hit], sentences: SentenceIndex,
                    named_papers: dict[str, list[str]] | None = None, multilingual: bool = False,
                    lexical_weight: float | None = None, word_parts: bool = False) -> list[Evidence]:
    """``vector``: the question's embedding; ``sentences``: the retriever's ``SentenceIndex``;
    ``named_papers``: each distinctive name of the question → the papers that contain it (on topic);
    ``multilingual``: score with multilingual-e5 (embedding the retrieved papers' sentences now);
    ``lexical_weight``: see ``blend`` (default: the settings'); ``word_parts``: a sentence's hyphenated word also
    counts as its parts ("calibration-free" holds "calibration")."""
    weight = AnswerSettings().lexical_weight if lexical_weight is None else lexical_weight
    wanted = content_words(without_where(question))  # "… in the collection?" says where to look, not what about
    # A word counts in any of its forms ("distributed" for "distribution"), an acronym the user writes where the
    # sentence spells it out ("SSL" for "Self-Supervised Learning").
    # ("operations-research" is held by "… Operations Research (OR) …": a hyphenated word by all of its parts)
    # ("Pass@k-style numbers", "DPO-like methods": of that kind, held by what the kind is called)
    kinds = {w for w in wanted if _KIND_OF.search(w)}  # (a sentence's "value-based" holds the asked "value-based")
    wanted = {_KIND_OF.sub("", w) or w for w in wanted}
    wanted_stems = {w: stems({w}) if "-" not in w else stems({p for p in w.split("-") if len(p) > 2}) or stems({w})
                    for w in wanted}
    written = written_acronyms(question)
    spelled = acronym_words(spelled_acronyms(question)) if wanted else {}
    acronyms = written & wanted
    # An acronym in the plural ("PDEs") is held by a sentence writing it in the singular, and the other way round: the
    # stemmer keeps "pdes" as it is.
    plurals = {w: w[:-1] for w in wanted if w.endswith("s") and w[:-1] in written}
    cosines = _multilingual_cosines(question, hits, sentences) if multilingual else None
    evidence = []
    for hit in hits:
        rows = sentences.quotable_rows(hit.paper.paper_id)
        paper_cosines = [cosines[row] for row in rows] if cosines is not None else (
            sentences.vectors[rows] @ vector if rows else [])
        scored = []
        defined = acronym_words(hit.paper.acronyms, common=True) if wanted else {}
        for row, cosine in zip(rows, paper_cosines):
            text = sentences.texts[row]
            score = float(cosine)
            if wanted:
                words = content_words(text)
                spelled_here = {a: spelled[a] for a in written_acronyms(text) if a in spelled}  # in capitals only
                words |= implied_words(text, words, wanted, {**spelled_here, **defined}, hit.paper.given_name)
                words |= initials_written(text, acronyms)
                words |= {w.replace("-", "") for w in words if "-" in w}  # ("in-painting" for "inpainting")
                words |= {_KIND_OF.sub("", w) for w in words & kinds}  # (not "sign-based" for "sign language")
                words |= {w for w, one in plurals.items() if one in words} | {a for a in acronyms if f"{a}s" in words}
                have = _with_parts(words) if word_parts else words
                have_stems = stems(have)
                overlap = sum(1 for w in wanted if w in have or wanted_stems[w] <= have_stems
                              or "-" in w and w.replace("-", "") in have) / len(wanted)  # ("pre-trained")
                score = blend(score, overlap, weight)
            scored.append(EvidenceSentence(text, score, sentences.positions[row], sentences.role(row)))
        scored.sort(key=lambda s: s.score, reverse=True)
        named = [n for n, ids in (named_papers or {}).items() if hit.paper.paper_id in ids]
        evidence.append(Evidence(hit=hit, sentences=scored, names_found=named))
    return evidence


def best_of(whole: list[Evidence], parts: list[list[Evidence]]) -> list[Evidence]:
    """A question asking two things ("What modules does it have, and what does it score on VSI-Bench?"): each
    sentence scored by the part it answers best (``parts``: the evidence for each part, same papers in the same
    order as ``whole``), so each part's answer can lead or follow."""
    merged = []
    for i, item in enumerate(whole):
        best = {s.position: s for s in item.sentences}
        for part in parts:
            for s in part[i].sentences:
                if s.score > best[s.position].score:
                    best[s.position] = s
        merged.append(Evidence(item.hit, sorted(best.values(), key=lambda s: s.score, reverse=True),
                               item.names_found, item.terms_found))
    return merged


def evidence_for(text: str, hits: list[Hit], retriever: HybridRetriever, weight: float,
                 word_parts: bool = False) -> list[Evidence]:
    """The hits' sentences ranked against ``text`` alone (a part of the question, an alternative, what a choice is
    not about); see ``gather_evidence`` for ``weight`` and ``word_parts``."""
    return gather_evidence(text, retriever.encoder.embed_query(text), hits, retriever.sentences, lexical_weight=weight,
                           word_parts=word_parts)


def by_parts(chosen: list[Evidence], parts: list[str], retriever: HybridRetriever, weight: float,
             word_parts: bool) -> list[Evidence]:
    """"What modules does it have, and what does it score on VSI-Bench?": each chosen paper's sentences ranked by the
    part they answer best (which papers answer was decided on the whole question), the sentence answering each part
    best lifted to the paper's best score, so each part is answered ("… and how much faster is it on TSP?": "… a 10x
    speedup on the Travelling Salesman Problem (TSP)"), whichever fits the question's aspect better (not the field's
    background: blind graders found it padding)."""
    from rag.aspects import aspect
    from rag.roles import WANTED, Aspect, Role, role_of
    from rag.tried_on import YES_NO

    each = [evidence_for(part, [e.hit for e in chosen], retriever, weight, word_parts) for part in parts]
    merged = best_of(chosen, each)
    # ("Have diffusion LMs beaten AR LLMs on speed? What's the trick?": the first part's answer is a result, not the
    # problem sentence its words fit best, "none of the existing dLLMs have achieved superior inference speed …"; a
    # figure asked, "how big is it, and …?", is not: "a new benchmark with 2,389 … problems")
    roles = [WANTED[Aspect.RESULT] if aspect(part) is Aspect.RESULT and YES_NO.match(re.split(r"(?<=[.!])\s+", part)[
        -1]) else () for part in parts]  # (after "Moving on.")
    for i, item in enumerate(merged):
        name = item.hit.paper.short_name

        def best(k: int) -> EvidenceSentence:  # (measured against the best sentence that could answer at all)
            found = each[k][i].sentences
            floor = _PART_ROLE_SHARE * max((s.score for s in found if role_of(s, name) not in (
                Role.BACKGROUND, Role.PROBLEM)), default=0.0)
            return max((s for s in found if role_of(s, name) in roles[k] and s.score >= floor), key=lambda s: s.score,
                       default=max(found, key=lambda s: s.score))
        answering = {found.position for k in range(len(parts)) if each[k][i].sentences and role_of(
            found := best(k), name) is not Role.BACKGROUND}
        item.sentences = sorted((replace(s, score=item.best_score) if s.position in answering else s
                                 for s in item.sentences), key=lambda s: s.score, reverse=True)
        item.answering = answering  # (shown when the paper fits the question loosely: "how big is it, and why …?")
    return merged


def for_comparison(question: str, evidence: list[Evidence], retriever: HybridRetriever,
                   named_papers: dict[str, list[str]], weight: float) -> list[Evidence]:
    """A comparison's papers: each one's sentences ranked against its own piece of the question with the question,
    and, when the question asks something of each ("… how does each get its step-level supervision?"), also against
    that alone (``rag.question.comparison_aspect``), so the sentence answering it can lead."""
    from rag.question import comparison_aspect

    evidence = list(evidence)
    for i, item in enumerate(evidence):
        if item.hit.part is not None:
            own = f"{item.hit.part} {question}"
            evidence[i] = gather_evidence(own, retriever.encoder.embed_query(own), [item.hit], retriever.sentences,
                                          named_papers, lexical_weight=weight)[0]
    if asked := comparison_aspect(question, *compared_names(evidence)):
        # (only a sentence holding a word of it: a few words' embedding alone matches loosely)
        aspect = [Evidence(e.hit, [s for s in e.sentences if answers_aspect(s.text, asked)])
                  for e in evidence_for(asked, [e.hit for e in evidence], retriever, weight)]
        evidence = best_of(evidence, [aspect])
    return evidence


def counted_against(negated: str, asked: str, evidence: list[Evidence], hits: list[Hit], retriever: HybridRetriever,
                    weight: float) -> list[float]:
    """What a choice says its pick is not ("… on the optimizer rather than on the heuristics themselves?"): each
    paper's best score for it, counted against the paper; not against one whose best sentence joins it to what is
    ``asked`` in one compound, a kind of the thing asked ("MoH … discovering effective heuristic-optimizers": the word
    "heuristic" there names optimizers; a sentence merely holding the word, "… LLM inference", still counts)."""
    wanted, avoided = stems(content_words(asked)), stems(content_words(negated))

    def sets_apart(e: Evidence) -> bool:
        best = max(e.sentences, key=lambda s: s.score).text if e.sentences else ""
        return any(parts & avoided and parts & wanted for word in content_words(best) if "-" in word
                   for parts in [stems({part for part in word.split("-") if len(part) > 2})])

    return [0.0 if sets_apart(e) else a.best_score for e, a in zip(evidence, evidence_for(negated, hits, retriever,
                                                                                          weight))]


def compared_names(evidence: list[Evidence]) -> tuple[list[str], list[str]]:
    """What calls each compared paper (those the question names, else all): its short name and the piece of the
    question naming it; and their titles (``rag.question.comparison_aspect``)."""
    compared = [e for e in evidence if e.hit.part is not None] or evidence
    return ([name for e in compared for name in (e.hit.paper.short_name, e.hit.part or "") if name],
            [e.hit.paper.title for e in compared])


def answers_aspect(text: str, aspect: str) -> bool:
    """The sentence holds a word (in any form) of what a comparison asks of each paper."""
    return bool(stems(_with_parts(content_words(text))) & stems(_with_parts(set(aspect.split()))))


def _with_parts(words: set[str]) -> set[str]:
    """A sentence's words and the parts of its hyphenated ones: "calibration-free" answers to "calibration"."""
    return words | {part for word in words if "-" in word for part in word.split("-") if len(part) > 2}


def _multilingual_cosines(question: str, hits: list[Hit], sentences: SentenceIndex) -> dict[int, float]:
    """Each quotable sentence row of the hits → its e5 cosine to the question."""
    from rag.multilingual import embed_passages, embed_query

    query = embed_query(question)
    flat = [row for h in hits for row in sentences.quotable_rows(h.paper.paper_id)]
    vectors = embed_passages([sentences.texts[row] for row in flat])
    return dict(zip(flat, (float(c) for c in vectors @ query)))


def lead_new_words(evidence: list[Evidence], fragment: str, earlier: str, query: str, retriever: HybridRetriever,
                   weight: float) -> None:
    """"even for images already published?": an ellipsis searched for as the ``earlier`` question with its words
    joined on (the ``query``), which chose the papers. In each paper, the sentence fitting the fragment alone best
    leads (``Evidence.leads``) when it holds a word of the fragment the earlier question did not ask ("published": "…
    such as for generated content that is already published without additional marks"), and is not the field's
    background or the problem, which answer nothing the fragment asks. Not a question of its own after "what about" ("what
    about a big intracranial EEG dataset …?"), nor the earlier question asked of another name ("What about MaskCO?")."""
    from rag.roles import Role, role_of

    new = stems(content_words(fragment)) - stems(content_words(earlier))
    if not new or not evidence or earlier.rstrip("? ") not in query:
        return
    for item, own in zip(evidence, evidence_for(fragment, [e.hit for e in evidence], retriever, weight)):
        top = own.sentences[0] if own.sentences else None
        if item.leads is None and top is not None and stems(content_words(top.text)) & new and role_of(
                top, item.hit.paper.short_name) not in (Role.BACKGROUND, Role.PROBLEM):
            item.leads = top.position
