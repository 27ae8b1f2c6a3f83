"""Answer plans: which of each chosen paper's sentences an answer shows, and in what order, so that the first one
answers the question ("How is TikZilla trained?" leads with the training sentence, not the field's background).

A paper's sentences are ranked by how well they fit the question (the evidence score) plus how well their role fits
what the question asks (``rag.roles``): a method question prefers method sentences, a "how much" question result
sentences with figures, a "which datasets" question the experiments sentence. The lead comes first; the paper's best
sentences for the question (by evidence score), what it proposes and, for an overview, a result follow in the
abstract's own order. Every shown sentence is made to stand on its own (``rag.standalone``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rag.coref import common_acronym
from rag.cues import (ACTS_ON, ALSO_DOES, CUES, FINDING, GAP, IMPROVES, LINK, OTHERS_WORK, RAN_ON, SPELLS_OUT, WHY_CUE,
                      NAMING, holds_verb, names_data, ran_on)
from rag.roles import WANTED, Aspect, Role, proposes, releases, role_of
from rag.standalone import Quote, enumeration_rest, leans_back, quotes_of
from rag.tokens import content_words, stems
from rag.types import Evidence, EvidenceSentence

# How much a sentence's role and cue words count against its fit to the question (cosine-blend units, where the
# evidence scores of one abstract's sentences typically span 0.2–0.3): enough to prefer a method sentence that fits
# almost as well, never enough to lead with a sentence that does not fit at all.
ROLE_BONUS = (0.08, 0.04)  # the aspect's first and second wanted role
WHICH_BONUS = 0.15  # "Is there a paper on X?": what the paper does answers it, whichever sentence words X best
# "Which datasets?" is answered by the sentence naming them, not by one that says "datasets"; "Why …?" by the one
# saying what the authors found, not by one restating the question: their cues count more.
CUE_BONUS, STRONG_CUE_BONUS = 0.06, 0.15
IMPROVE_ASKED = stems(set("gain gains improve improves improvement improvements better help helps benefit benefits "
                          "outperform outperforms advantage advantages".split()))
REPORTED = 2  # more sentences reporting the measured property asked for, beside the lead
RELATIVE_REST = 0.8  # a paper's best sentence under the evidence floor is shown if it fits this share of the lead's fit
GAP_PENALTY = 0.3  # what "remains largely unexplored" never leads an answer to what they do, how or how well
BACKGROUND_PENALTY = 0.08  # the field's background, or a sentence of no role ("Code is available at …")
# In a comparison or a list, a proposal that says no more than the method's name ("To address this challenge, we
# introduce Robust Preference Optimization (RPO).") brings the next sentence, saying what it is ("RPO uses EM …").
_ONLY_PROPOSING = frozenset("address tackle overcome challenge challenges issue issues problem problems limitation "
                            "limitations gap gaps end introduce propose present novel new simple method approach "
                            "framework paper work study authors call dub dubbed term termed named".split())
# "What is an EX-RM?", "remind me what OR-ProcessQA is": a name asked to be explained (an acronym or a coined word).
_WHAT_IS = re.compile(r"(?i:\bwhat(?:['’]?s|\s+(?:is|are|was|were))?\s+(?:an?\s+|the\s+)?)((?=[\w-]*[A-Z])[A-Za-z][\w-]*"
                      r"[A-Z][\w-]*)(?i:\s+(?:is|are|exactly|again|actually|mean|means|stands?\s+for)\b|\s*[?.!]*\s*$)")
# (… or a phrase in quotes: 'What are the "fallen angels" in …?')
_WHAT_IS_QUOTED = re.compile(r"(?i)\bwhat(?:['’]?s|\s+(?:is|are|was|were))\s+(?:an?\s+|the\s+)?"
                             r"[\"“‘]([^\"”’]{2,60})[\"”’]")


def _others_named(evidence: Evidence) -> list[str]:
    """The names the question asks about that the paper holds and that are not its own (its name, title, acronyms
    of either); a part's acronym is not ("What's GF-PRC in SIGMark?": the sentence bringing it in leads)."""
    paper = evidence.hit.paper
    own = " ".join([paper.short_name, paper.display_title, *(a for a, long in paper.acronyms.items() if a == (
        paper.short_name) or long.lower() in paper.display_title.lower() or common_acronym(a))]).lower()
    return [n for n in evidence.names_found if n.lower() not in own  # (a word made with one, "AI-generated", is none)
            and not any(part.isalpha() and part.islower() and len(part) > 2 for part in n.split("-"))]


def _names(text: str, name: str) -> bool:
    """The text names it as a whole word, in the singular or plural ("EX-RM" in "… (EX-RMs) …")."""
    return bool(re.search(rf"(?<![\w-]){re.escape(name)}s?(?![\w-])", text, re.IGNORECASE))


def defined_name(question: str) -> str:
    """The name a "what is …" question asks to be explained ("" for none)."""
    match = _WHAT_IS.search(question) or _WHAT_IS_QUOTED.search(question)
    return match.group(1).strip() if match else ""


@dataclass
class PaperPlan:
    """One paper's part of an answer: its source number, evidence, and the quotes shown (lead first)."""

    n: int
    evidence: Evidence
    quotes: list[Quote]

    @property
    def name(self) -> str:
        return self.evidence.hit.paper.short_name

    @property
    def sentences(self) -> list[str]:
        """The abstract sentences shown (for highlighting them in the abstract)."""
        return [s.text for q in self.quotes for s in q.sentences]


def fit(sentence: EvidenceSentence, wanted: Aspect, name: str = "", its_role: Role | None = None,
        reports: Callable[[str], bool] | None = None, verb: str = "", earlier: bool = False) -> float:
    """The sentence's evidence score adjusted by how well its role and words fit the question's aspect (``name``:
    the paper's method name, see ``roles.role``; ``its_role``: the sentence's role, if known; ``reports``: whether a
    sentence reports the measured property asked for, ``properties.reports``; ``verb``: the verb a "how" question
    asks about, ``aspects.asked_verb``, which the sentence saying how holds in some form; ``earlier``: it asks about
    earlier work, ``asks.asks_earlier``)."""
    its_role = role_of(sentence, name) if its_role is None else its_role
    score = sentence.score
    roles = WANTED[wanted]
    if wanted is Aspect.WHICH and proposes(sentence.text):
        score += WHICH_BONUS
    elif its_role in roles:
        score += ROLE_BONUS[min(roles.index(its_role), len(ROLE_BONUS) - 1)]
    cue = CUES.get(wanted)
    # (Not in a link: "…/anonymous-llm-pruning-D884/" names no model. The field's background holds what a problem
    # question's cues look for: why the work is needed.)
    if (cue is not None and (its_role is not Role.BACKGROUND or wanted is Aspect.PROBLEM)
            and cue.search(LINK.sub("", sentence.text)) and not (  # (what others' work relies on is no finding:
                wanted is Aspect.WHY and its_role is Role.PROBLEM and not earlier and OTHERS_WORK.search(
                    sentence.text))):  # "Current benchmarks rely on …", unless asked why earlier work fell short)
        score += STRONG_CUE_BONUS if wanted in (Aspect.DATA, Aspect.WHY, Aspect.PROBLEM) else CUE_BONUS
    # (… and, asked how it works, what is wrong with earlier work: "what are its main building blocks?")
    if (its_role is Role.BACKGROUND and wanted is not Aspect.PROBLEM) or its_role is Role.OTHER or (
            its_role is Role.PROBLEM and wanted is Aspect.METHOD):
        score -= BACKGROUND_PENALTY
    if reports is not None and reports(sentence.text):
        score += STRONG_CUE_BONUS
    # ("… apply it to Llama-7B …", "Experiments on 430 FDA-approved drugs …"; not "… massive datasets")
    if wanted is Aspect.DATA and (names_data(sentence.text, name) or RAN_ON.match(sentence.text)):
        score += CUE_BONUS
    # "how do they train …?": "… is trained by …"; "what … do they propose?": "we propose …" (a word ``content_words``
    # leaves out); what the paper does, not what others do ("Current molecule LLMs are limited by representing …")
    if verb and its_role in (Role.METHOD, Role.RESULT) and holds_verb(sentence.text, verb):
        score += STRONG_CUE_BONUS
    if wanted in (Aspect.METHOD, Aspect.RESULT, Aspect.WHY, Aspect.DATA) and GAP.search(sentence.text):
        score -= GAP_PENALTY  # what is not yet known answers no question but what the problem is
    return score


def plan_paper(n: int, evidence: Evidence, wanted: Aspect, count: int, floor: float,
               method_too: bool = False, result_too: bool = False,
               reports: Callable[[str], bool] | None = None, asked: frozenset[str] = frozenset(),
               lead_proposal: bool = False, release_asked: bool = False, defines: str = "",
               figure_too: bool = False, verb: str = "", method_more: bool = False,
               earlier: bool = False, echo: frozenset[str] = frozenset(), tried_on: bool = False) -> PaperPlan:
    """The sentence that answers leads ("Is there a paper on X?": what the paper proposes), then the paper's
    ``count`` sentences that fit the question best and reach ``floor`` (by evidence score or fit) or nearly the
    lead's fit, the field's background and where the code is aside; and
    (``method_too``) the sentence saying what the paper proposes, which a reader needs to place it, and
    (``result_too``) its first result with a figure (a "why" question: its first finding); (``lead_proposal``) led by
    what the paper proposes, whatever the question asks of it (a comparison's first sentence sets the two apart);
    (``release_asked``) with where the code is, if the abstract says ("is its code public, and how many …?");
    (``defines``) led by the sentence bringing in that name, when it is not the paper's own ("What is an EX-RM?":
    "… explicit reward models (EX-RMs) that apply a dedicated linear head …"); (``figure_too``, a question for
    results) its first result with a figure, unless a sentence shown gives one; (``verb``) see ``fit``;
    (``method_more``, a comparison of approaches) also the first sentence after the proposal saying how the method
    works and not shown yet ("Tactic leverages clustering-based sorting …"), which the question's words rarely fit
    best; (``earlier``, a question about earlier work: "what's wrong with the existing …?") led by the problem sentence
    saying what is wrong with others' work, if the paper has one; (``echo``, a question asking nothing the aspects
    name: "what kind of applications do they pitch it for?") a sentence holding one of these stemmed words of it
    fits better ("… in accuracy-sensitive applications"), as a cue word would; (``tried_on``, "evaluated on?") led by a
    sentence saying what it was run on."""
    name = evidence.hit.paper.short_name
    roles = {s.position: role_of(s, name) for s in evidence.sentences}
    fits = {s.position: fit(s, wanted, name, roles[s.position], reports, verb, earlier) for s in evidence.sentences}
    in_order = sorted(evidence.sentences, key=lambda s: s.position)
    # (the question's own words order the sentences, not how many of them are shown: no padding)
    echoed = {s.position: fits[s.position] + CUE_BONUS * bool(echo & stems(content_words(s.text))) for s in in_order}
    ranked = sorted(evidence.sentences, key=lambda s: echoed[s.position], reverse=True)
    if not ranked:
        return PaperPlan(n, evidence, [])
    proposal = next((s for s in in_order if proposes(s.text)), None) or next(
        (s for s in in_order if roles[s.position] is Role.METHOD), None)
    lead = proposal if (wanted is Aspect.WHICH or lead_proposal) and proposal is not None else ranked[0]
    # "and compared with vanilla LLaDA or Dream?": a thing the question names, not the paper's own, is asked about:
    # the sentence naming it leads ("Compared to the vanilla dLLMs like LLaDA and Dream, the acceleration …").
    # (a list's line says what the paper does; a comparison's, what it proposes, not the sentence bringing in an acronym
    # of its own: "… an LLM-based heuristic design paper for COPs here (MoH?). how does its approach differ …?")
    others = [n for n in _others_named(evidence) if not (lead_proposal and n.removesuffix("s") in (
        evidence.hit.paper.acronyms))] if count else []
    if others and not any(_names(lead.text, n) for n in others):
        lead = next((s for s in ranked if any(_names(s.text, n) for n in others)), lead)
    if reports is not None and count and lead is ranked[0] and not reports(lead.text):  # "how big is it?": the
        lead = next((s for s in ranked if reports(s.text)), lead)  # sentence giving its size, whatever else fits
    if tried_on and count and not ran_on(lead.text, name) and (tried := [  # "evaluated on?": the sentence saying on
            s for s in ranked if ran_on(s.text, name) and roles[s.position] not in (Role.BACKGROUND, Role.PROBLEM)]):
        lead = next((s for s in tried if names_data(s.text, name)), tried[0])  # what (a named one first: "Llama-7B")
    # "how does discrete diffusion forcing make diffusion llms faster?": not "… a strategy named discrete diffusion
    # forcing (D2F)", which the question's words fit, but how it works ("D2F equips dLLMs with two key capabilities …")
    if wanted is Aspect.METHOD and count and NAMING.search(lead.text) and not CUES[Aspect.METHOD].search(lead.text):
        lead = next((s for s in in_order if s.position > lead.position and roles[s.position] is Role.METHOD
                     and CUES[Aspect.METHOD].search(s.text)), lead)
    if defines and defines.lower() != name.lower() and (brings := next(
            (s for s in in_order if _names(s.text, defines.removesuffix("s"))), None)):
        lead = brings
    if earlier and wanted in (Aspect.PROBLEM, Aspect.WHY) and (faults := [
            s for s in ranked if roles[s.position] is Role.PROBLEM and OTHERS_WORK.search(s.text)]):
        lead = faults[0]  # "what's wrong with the earlier methods?": the sentence saying what is wrong with them
    elif not earlier and wanted in (Aspect.DATA, Aspect.METHOD, Aspect.ANY) and OTHERS_WORK.search(lead.text) and roles[
            lead.position] in (Role.PROBLEM, Role.BACKGROUND):  # (else the paper's own sentence leads, not others')
        lead = next((s for s in ranked if roles[s.position] not in (Role.PROBLEM, Role.BACKGROUND)), lead)
    lead = next((s for s in ranked if s.position == evidence.leads), lead)
    # "how does it keep the compensation from overfitting …?": the problem it words leads to what the paper does
    # about it, right after it ("To overcome this difficulty, we update the pruned parameters under a rotation …")
    fix = next((s for s in in_order if s.position == lead.position + 1 and ACTS_ON.match(s.text)
                and not proposes(s.text)), None)  # (not "To overcome these challenges, we propose SIGMark, …")
    if wanted is Aspect.METHOD and roles[lead.position] is Role.PROBLEM and fix is not None and count:
        lead, fits[fix.position] = fix, max(fits[fix.position], fits[lead.position])
    near = RELATIVE_REST * fits[lead.position]
    # Beside the lead, the ``count`` sentences that fit the question best, by evidence score or by fit (a sentence
    # of the role asked for, with its cue words, may word the question less closely); the field's background only
    # when the question asks what problem the paper takes on or what data it works with.
    rest = [s for s in ranked[:count + 1] if s is not lead
            and (max(s.score, fits[s.position]) >= floor or fits[s.position] >= near)
            and (roles[s.position] is not Role.BACKGROUND or wanted in (Aspect.PROBLEM, Aspect.DATA))
            and not releases(s.text)]  # where the code is: only as the lead, when asked
    rest += [s for s in in_order if s.position in evidence.answering and evidence.best_score < floor and s is not lead
             and s not in rest and not releases(s.text) and (roles[s.position] is not Role.PROBLEM or  # (a part's
                                                             OTHERS_WORK.search(s.text))]  # answer, ``by_parts``)
    if release_asked:
        rest += [s for s in in_order if releases(s.text) and s is not lead and s not in rest][:1]
    if method_too and proposal is not None and proposal is not lead and proposal not in rest:
        rest.append(proposal)
    if method_more and proposal is not None:  # (a comparison of approaches: how each works, beyond what it is)
        rest += [s for s in in_order if s.position > proposal.position and roles[s.position] is Role.METHOD
                 and s is not lead and s not in rest][:1]
    if reports is not None and count:  # "speedup?": each sentence reporting it ("… 5.14x decode attention speedup",
        # "… an overall 1.51x end-to-end inference speedup"), not only the one fitting the question best
        rest += [s for s in ranked if reports(s.text) and s is not lead and s not in rest][:REPORTED]
    # "Which models did they prune?" is answered by the sentence naming them ("Llama-7B and Llama-2-13B"), whichever
    # sentences echo the question's other words.
    if wanted is Aspect.DATA and not any(names_data(s.text, name) for s in [lead, *rest]):
        rest += [s for s in ranked if names_data(s.text, name)][:1]
    # "eval set?": each sentence saying what they ran it on ("Experiments on 430 …", "When tested on 122 …")
    if wanted is Aspect.DATA and count:
        rest += [s for s in in_order if RAN_ON.match(s.text) and s is not lead and s not in rest][:REPORTED]
    # An overview ("Is there a paper on X?") also says what the paper found: its first result with a figure; a
    # "why" question the first sentence saying what the authors found ("Our main finding … is that …").
    def found(s: EvidenceSentence) -> bool:
        if wanted is Aspect.WHY:
            return bool(WHY_CUE.search(s.text)) and roles[s.position] is not Role.BACKGROUND
        return roles[s.position] is Role.RESULT and any(c.isdigit() for c in s.text)

    after = next((s for s in in_order if s.position == lead.position + 1), None)
    # (What is at stake often follows the problem it leans on: "… is required to trace …. This is critical to …"; one
    # goes on about the lead's subject with a word of the question the lead lacks: "we update the pruned parameters
    # under a rotation constraint. This constrained update preserves …" for "what does it preserve?"; asked how, what
    # the paper does about the lead: "… necessitates explicit guidance …. To this end, …")
    bare = (lead_proposal or not count) and _bare(lead.text, evidence)  # (brings what it is: a comparison, a list)
    if after is not None and after not in rest and (
            SPELLS_OUT.match(after.text) or wanted is Aspect.METHOD and ACTS_ON.match(after.text) or (
                lead is fix and leans_back(after.text)) or (
                bare and roles[after.position] is Role.METHOD) or leans_back(after.text) and (
                wanted is Aspect.PROBLEM or stems(content_words(after.text)) & asked - stems(content_words(lead.text)))
            or count and ALSO_DOES.match(after.text) and roles[after.position] is roles[lead.position]
            or wanted is Aspect.PROBLEM and leans_back(after.text, opener=True) and CUES[wanted].search(after.text)):
        rest.append(after)
    at = {s.position for s in [lead, *rest]}  # ("why … help?": what a shown step buys follows it, "This constrained …")
    rest += [s for s in in_order if wanted is Aspect.WHY and s.position - 1 in at and s.position not in at
             and leans_back(s.text) and roles[s.position - 1] is Role.METHOD
             and roles[s.position] not in (Role.METHOD, Role.BACKGROUND)][:1]
    # A shown problem brings what the paper does about it, right after it ("… tends to overfit to the limited
    # calibration set, …" → "To overcome this difficulty, we update the pruned parameters under a rotation
    # constraint."); not when the question asks what the problem is (graders read the fix as padding there)
    rest += [s for s in in_order if s.position - 1 in at and s.position not in at and ACTS_ON.match(s.text)
             and roles[s.position - 1] is Role.PROBLEM and wanted in (Aspect.ANY, Aspect.WHICH, Aspect.METHOD)][:1]
    for sentence in [lead, *rest]:  # each shown item of an enumeration brings the rest of it
        rest += [s for s in enumeration_rest(sentence, in_order) if s is not lead and s not in rest]
    result = None
    # Asked where or how much it improves, of an abstract with no figure for it: the result saying it does better
    # ("… improving performance in hard-exploration and long-horizon tasks"; not for "how big is its cache?")
    unreported = bool(asked & IMPROVE_ASKED) and (reports is None or not any(reports(s.text) for s in in_order))

    def gained(s: EvidenceSentence) -> bool:
        return unreported and roles[s.position] is Role.RESULT and bool(IMPROVES.search(s.text))

    if figure_too and not any(found(s) or gained(s) for s in [lead, *rest]):  # (none shown: the first result with
        result = next((s for s in in_order if found(s) or gained(s)), None)  # a figure, or saying it does better)
    if result_too:  # (an abstract with no figure: its first result, "reduces … from quadratic to quasilinear")
        result = next((s for s in in_order if found(s)), None) or next(
            (s for s in in_order if wanted is not Aspect.WHY and roles[s.position] is Role.RESULT), None)
    if result is not None and result is not lead and result not in rest:
        rest.append(result)
    # A sentence between two shown ones, of the role of both, is shown too: "… via a lightweight retention gate. [Each
    # gate predicts a scalar retention score …] Tokens with low scores are evicted …" reads as one account.
    at = {s.position for s in [lead, *rest]}
    rest += [s for s in in_order if count and s.position not in at and {s.position - 1, s.position + 1} <= at
             and roles[s.position - 1] == roles[s.position] == roles[s.position + 1]]
    shown = [lead, *sorted(rest, key=lambda s: s.position)]
    if lead is fix and after in rest:  # (what the fix does goes on from it: "This constrained update preserves …")
        shown = [lead, after, *(s for s in shown[1:] if s is not after)]
    if result is not None and result in rest and (wanted is Aspect.WHY and FINDING.search(result.text) or figure_too
                                                  and gained(result) and roles[lead.position] is not Role.RESULT):
        shown = [result, *(s for s in shown if s is not result)]  # "what is causing the gap?": what they found;
        # "where do they show gains?": the result saying it does better
    quotes = quotes_of(shown, evidence.sentences, evidence.hit.paper.acronyms)
    if bare and len(quotes) > 1 and quotes[1].sentences[0].position == lead.position + 1 and roles[
            lead.position + 1] is Role.METHOD and quotes[0].sentences[-1] is lead:  # one quote: what it is
        quotes[:2] = [Quote(f"{quotes[0].text} {quotes[1].text}", quotes[0].sentences + quotes[1].sentences)]
    return PaperPlan(n, evidence, quotes)


def _bare(text: str, evidence: Evidence) -> bool:
    """A proposal saying no more than the paper's name (``_ONLY_PROPOSING``)."""
    named = f"{evidence.hit.paper.short_name} {evidence.hit.paper.title}".lower()
    return proposes(text) and len(content_words(text) - set(re.findall(r"[a-z0-9][\w-]*", named))
                                  - _ONLY_PROPOSING) <= 1

