"""Decide stage: from the evidence alone, refuse or pick the papers (and how much of each) to answer from.

Every backend phrases the same decision; none of them can overrule a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rag.question import QuestionShape
from rag.settings import Settings
from rag.types import Evidence

# A further paper joins a one-paper answer only if its best sentence is nearly as good as the best one's.
# Measured with extractive answers, citation precision / recall of the name, number and paraphrase questions:
# own set on seeds + 4,302 0.761 / 0.973 at 0.85, 0.883 / 0.973 at 0.95, 0.972 / 0.946 with no second paper;
# seeds 0.941 → 0.986 (recall 1.0 both); the held-out set confirmed it (0.758 → 0.845, recall 0.976 both).
RELATIVE_CUT = 0.95
# A list answer keeps every paper whose best sentence reaches this share of the best paper's.
LIST_RELATIVE_CUT = 0.75
# Where e5 similarities of loosely related sentences crowd: a non-English list keeps the papers
# LIST_RELATIVE_CUT of the way from here to the best (the refusal floor was this until it dropped to 0.70).
E5_CROWD = 0.80


@dataclass
class Decision:
    refused: bool
    chosen: list[tuple[int, Evidence]] = field(default_factory=list)  # (source number n, evidence)
    sentences_per_paper: int = 2
    missing_names: list[str] = field(default_factory=list)  # named things no abstract mentions
    unknown_words: list[str] = field(default_factory=list)  # topic words no abstract of a large index has


def decide(shape: QuestionShape, evidence: list[Evidence], settings: Settings,
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
    floor = settings.min_evidence_multilingual if shape.multilingual else settings.min_evidence
    if top < floor and not name_found:
        return Decision(refused=True)
    # e5's sentence similarities barely tell Chinese questions the corpus lacks from answerable ones (on 35
    # blind dev questions, 8 of 30 answerable ones scored below 4 of the 5 out-of-corpus ones); how well the best
    # paper's title and first sentence fit does, for questions far off topic (a recipe: 0.78, the lowest
    # answerable: 0.80). Questions near the corpus (option pricing with neural networks) still pass.
    headline = max((e.hit.headline_score for e in evidence if e.hit.headline_score is not None), default=None)
    if shape.multilingual and headline is not None and headline < settings.min_headline_multilingual and not name_found:
        return Decision(refused=True)
    numbered = list(enumerate(evidence, start=1))
    if shape.kind == "comparison":
        chosen = [(n, e) for n, e in numbered
                  if e.hit.part is not None and (e.best_score >= settings.min_sentence or e.names_found)]
        if len(chosen) >= 2:
            return Decision(refused=False, chosen=chosen, sentences_per_paper=2)
    if shape.kind == "list":
        cut = max(settings.min_list_evidence, LIST_RELATIVE_CUT * top)
        if shape.multilingual:  # e5 similarities crowd: compare distances from where they do
            cut = E5_CROWD + LIST_RELATIVE_CUT * (top - E5_CROWD)
        chosen = [(n, e) for n, e in numbered if e.best_score >= cut][: settings.max_list_papers]
        return Decision(refused=False, chosen=chosen, sentences_per_paper=1)
    named = [(n, e) for n, e in numbered if e.names_found]
    if named:  # a question about a named thing: its best paper, and only papers that fit better than it
        best_named = max(named, key=lambda item: item[1].best_score)
        numbered = [(n, e) for n, e in numbered if e.names_found or e.best_score >= best_named[1].best_score]
    cut = max(settings.min_sentence, RELATIVE_CUT * top)
    # Fused retrieval ranks the right paper first more often than its best sentence alone does: the first
    # retrieved paper is kept whenever it has a quotable sentence, although another paper's sentence fits better.
    first = numbered[0] if numbered and not named and numbered[0][1].best_score >= settings.min_sentence else None
    chosen = [(n, e) for n, e in numbered
              if e.best_score >= cut or (named and (n, e) == best_named) or (n, e) == first]
    chosen = chosen[: settings.max_answer_papers]
    return Decision(refused=False, chosen=chosen, sentences_per_paper=settings.sentences_per_paper)
