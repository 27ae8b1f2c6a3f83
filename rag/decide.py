"""Decide stage: from the evidence alone, refuse or pick the papers (and how much of each) to answer from.

Every backend phrases the same decision; none of them can overrule a refusal.
"""

from __future__ import annotations

from rag.settings import DecisionSettings
from rag.types import Decision, Evidence, QuestionKind, QuestionShape


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
    if top < floor and not name_found:
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
        chosen = [(n, e) for n, e in numbered if e.best_score >= cut][: rules.max_list_papers]
        return Decision(refused=False, chosen=chosen, sentences_per_paper=1)
    named = [(n, e) for n, e in numbered if e.names_found]
    if named:  # a question about a named thing: its best paper, and only papers that fit better than it
        best_named = max(named, key=lambda item: item[1].best_score)
        numbered = [(n, e) for n, e in numbered if e.names_found or e.best_score >= best_named[1].best_score]
    cut = max(rules.min_sentence, rules.relative_cut * top)
    # Fused retrieval ranks the right paper first more often than its best sentence alone does: the first
    # retrieved paper is kept whenever it has a quotable sentence, although another paper's sentence fits better.
    first = numbered[0] if numbered and not named and numbered[0][1].best_score >= rules.min_sentence else None
    chosen = [(n, e) for n, e in numbered
              if e.best_score >= cut or (named and (n, e) == best_named) or (n, e) == first]
    chosen = chosen[: rules.max_answer_papers]
    return Decision(refused=False, chosen=chosen, sentences_per_paper=rules.sentences_per_paper)
