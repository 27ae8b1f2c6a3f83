"""What an abstract sentence does there: background, problem, method, result or other; and what a question asks for
(its aspect), so an answer can lead with the sentence of the role the question wants.

Rules over the cue words abstracts are written with ("However, … suffer", "We propose …", "achieves 2.3×"),
not a trained classifier: they need no model, read the same on any corpus, and a wrong role costs only the order in
which true sentences are shown (every shown sentence is still the abstract's own, cited).
"""

from __future__ import annotations

import hashlib
import re
from enum import Enum
from pathlib import Path
from typing import Protocol

from rag.injection import addresses_model


class Role(str, Enum):
    BACKGROUND = "background"
    PROBLEM = "problem"
    METHOD = "method"
    RESULT = "result"
    OTHER = "other"
    INSTRUCTION = "instruction"  # addresses a language model (``rag.injection``): never quoted


class Aspect(str, Enum):
    """What a question about a paper wants to learn."""

    METHOD = "method"  # how does it work, what does it do, its components, how is it trained
    RESULT = "result"  # how much faster, what accuracy, does it outperform
    DATA = "data"  # which datasets, benchmarks, models it is evaluated on
    WHY = "why"  # why / what causes / what explains
    PROBLEM = "problem"  # what problem, what limitation, what motivates it
    WHICH = "which"  # is there a paper on X, which paper does X, what is X: what the paper does
    ANY = "any"


_WE = r"(?:we|this\s+(?:paper|work|study)|the\s+(?:paper|authors))"
_ADVERB = r"(?:(?:also|further|then|first|\w+ly)\s+)?"  # "we further propose", "we then train"
_METHOD = re.compile(
    rf"\b{_WE}\s+{_ADVERB}(?:propose|introduce|present|develop|design|construct|build|formulate|devise|train|"
    r"employ|leverage|use|adopt|apply|derive)\w*\b|\bour\s+(?:method|approach|framework|model|system|algorithm|"
    r"technique|pipeline|key\s+idea|design)\b|\b(?:key|main|core)\s+(?:components?|ideas?|insight|modules?)\b|"
    r"\b(?:consists?|composed|comprises?)\s+of\b|\bis\s+(?:trained|built|implemented|designed)\b|\bby\s+\w+ing\b",
    re.IGNORECASE)
_RESULT = re.compile(
    r"\d+(?:\.\d+)?\s*(?:x\b|×|\\?%|-?fold\b)|\b(?:outperform\w*|surpass\w*|state[-\s]of[-\s]the[-\s]art|"
    r"speed-?ups?|(?<!to\s)(?:achiev\w*|improv(?:es|ed|ement|ements)|gains?|reduc(?:es|ed|tion)|accelerat\w*)|"
    r"(?:experiments?|results?|evaluations?|analys[ie]s|we|stud(?:y|ies)|investigations?|ablations?|findings|"
    r"evidence)\s+(?:\w+\s+){0,3}(?:show|demonstrate|reveal|confirm|validate|verif|"
    r"indicate|find|found|observe|discover|identif)\w*|our\s+(?:main\s+)?findings?|matches|competitive|exhibits?|"
    r"provably|opens?\s+up|advantages|generali[sz]es\s+(?:well|across|to))\b", re.IGNORECASE)
_PROBLEM = re.compile(
    r"\b(?:however|but|yet|although|challeng\w*|limit(?:s|ed|ation|ations)?|suffer\w*|bottleneck\w*|costly|"
    r"expensive|struggl\w*|fail\w*|lack\w*|sub-?optimal|degrad\w*|rel(?:y|ies)\s+solely|vulnerab\w*|fragile|brittle|"
    r"(?:becomes?|remains?|is|are)\s+(?:extremely\s+|very\s+|rather\s+)?weak|remains?\s+(?:unclear|difficult|open|unexplored|"
    r"limited|challenging)|difficult\w*|overlook\w*|ignor\w*|hinder\w*|prohibitive|inefficien\w*|(?:un|under-?)explored|"
    r"biased|inconsistent|insufficient|unreliable|unavailable|constrained|obstacles?|absence|open\s+questions|risking)\b",
    re.IGNORECASE)
_WE_DO = re.compile(rf"\b{_WE}\s+{_ADVERB}(?!(?:show|find|found|demonstrate|observe|argue|believe|hope|note|"
                    r"conclude|hypothesi[sz]e|report|highlight|expect|discuss|achiev|discover|identif)\w*\b)[a-z]+",
                    re.IGNORECASE)
_STRONG_RESULT = re.compile(
    r"\d+(?:\.\d+)?\s*(?:x\b|×|\\?%)|\b(?:outperform\w*|surpass\w*|state[-\s]of[-\s]the[-\s]art|(?:experiments?|results?|"
    r"evaluations?|analys[ie]s|ablations?|studies)\b[^.;]{0,120}?\b(?:show|demonstrate|reveal|confirm|indicate|validate|"
    r"verif)\w*|we\s+(?:\w+\s+){0,2}(?:prove|demonstrate|validate|verify|achieve|discover)\w*|(?:these|our|this)\s+"
    r"findings?|underscores?|showing\s+that|demonstrat\w+\s+(?:that|its|the)\s+(?:\w+\s+)?(?:effective|superior|"
    r"robust)\w*|demonstrat\w+\s+(?:strong|superior|significant|consistent|competitive|remarkable|substantial)|"
    r"confirmed\s+by|\b(?:finds?|found|reveal(?:s|ing)?|shows?|showing|suggests?)\s+(?:\w+\s+){0,2}that\b|"
    # ("we establish a stability bound", "a theoretical guarantee that our method ensures …": what is proved)
    r"substantiat\w*|(?<!lacking\s)(?<!without\s)(?:theoretical|convergence|provable)\s+guarantees?|"
    r"(?:universal\s+approximation|stability|generali[sz]ation(?:\s+error)?|error|regret)\s+(?:bound|theorem)s?|"
    r"(?:this|our)\s+(?:work|paper|study)\s+(?:\w+ly\s+)?(?:establishes|isolates|offers|opens|provides|"
    r"paves|sheds|highlights)|"
    r"(?:dramatically|significantly|substantially|consistently|markedly)\s+(?:improv|outperform|reduc|boost|accelerat)\w*|"
    # "our method improves … compared with the baselines", "our approach attains an FID of 1.83"
    r"our\s+(?:method|approach|model|framework|system)\s+(?:\w+\s+){0,2}(?:improv|outperform|attain|surpass|beat|"
    r"reduc|achiev)\w*|compared\s+(?:with|to)\s+(?:the\s+)?(?:baselines|existing|prior|previous)|"
    r"\b(?:FID|accuracy|BLEU|F1|perplexity|AUC|success\s+rate|pass@\d+)\s+of\s+\d)"
    r"\b", re.IGNORECASE)
# What others did, with a shortcoming ("Existing methods to enhance diversity are limited, …"): a problem, whatever
# method words it holds.
_PRIOR_WORK = re.compile(r"\b(?:existing|prior|previous|current|conventional|traditional|most)\s+(?:[\w-]+\s+){0,3}?"
                         r"(?:methods?|approaches|works?|models?|techniques|metrics|systems|efforts|architectures|llms|"
                         r"frameworks|strategies|benchmarks|studies|solutions|pipelines)\b", re.IGNORECASE)
_PROPOSES = re.compile(rf"\b{_WE}\s+{_ADVERB}(?:propose|introduce|present|develop|design)\w*\b", re.IGNORECASE)
_RELEASE = re.compile(r"\b(?:code|data|models?|datasets?|weights|implementation|benchmark)s?\s+(?:\w+\s+){0,3}(?:is|are|"
                      r"will\s+be)\s+(?:publicly\s+|freely\s+)?(?:available|released|open-?sourced)|\bwill\s+(?:publicly\s+)?"
                      r"(?:release|open-?source)|\bopen-?sourced\s+at\b|https?://|\bmade\s+(?:publicly\s+)?(?:available|public)\b|"
                      r"\bwe\s+(?:publicly\s+)?(?:release|open-?source)\b", re.IGNORECASE)
_CONTRAST = re.compile(r"^\W*(?:however|but|yet|although|though|despite|unfortunately|nevertheless|while|whereas)\b",
                       re.IGNORECASE)
# "It supports parallel inference by …", "This design lets …": the method, by a pronoun that opens the sentence.
_ITS_OWN = re.compile(r"^\W*(?:it|this\s+(?:method|approach|framework|model|design|technique|mechanism|strategy|"
                      r"module|architecture))\s+(?!is\s+(?:unclear|challenging|difficult|hard|known|well)\b)[a-z]+",
                      re.IGNORECASE)
_ADDING = re.compile(r"^\W*(?:furthermore|moreover|additionally|also|in\s+addition|notably|importantly|specifically|"
                     r"consequently|thus|hence|therefore|finally),\s*", re.IGNORECASE)  # "Furthermore, it supports …"
# "The tasks covered by this benchmark …": what the paper's own contribution is or holds.
_THIS_ONE = re.compile(r"\b(?:this|the\s+proposed)\s+(?:new\s+|novel\s+)?(?:benchmark|dataset|framework|method|model|"
                       r"approach|suite|system|pipeline)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(rf"\b(?:{_WE}|our|us)\b", re.IGNORECASE)


_CUES = (_METHOD, _RESULT, _PROBLEM, _WE_DO, _STRONG_RESULT, _PRIOR_WORK, _PROPOSES, _RELEASE, _CONTRAST,
         _FIRST_PERSON, _THIS_ONE)


def cues(text: str) -> list[float]:
    """Which of the rules' cue patterns the sentence holds (each 0 or 1, whichever rule wins), whether it opens with
    its own subject ("It supports …"), holds a figure, and its length: inputs of ``role_model`` beside the winning
    role, so a sentence with both a problem and a result cue is weighed by both. No words of the topic."""
    return [*(float(bool(c.search(text))) for c in _CUES), float(bool(_ITS_OWN.match(_ADDING.sub("", text)))),
            float(bool(re.search(r"\d", text))), min(len(text.split()), 60) / 60]


def role(text: str, position: int, name: str = "") -> Role:
    """The sentence's role in its abstract (``position``: 0 for the abstract's first sentence; ``name``: what the
    paper calls its method, if known: a sentence with it as a word says what the method does or achieves).

    In order: where the code or data is ("Code is available at …") is other; a clear result ("Experiments show
    …", "outperforms", a figure with x or %) is a result unless the sentence proposes; "we propose …" is method;
    "However, …" with a limitation is a problem (even one naming the method); what the paper does ("We simulate
    …", "D2F equips …") is method; another finding is a result; a limitation is a problem; an opening sentence
    that is none of those, before the paper speaks in the first person, is background; the rest is method (past
    the opening, a sentence without a cue mostly goes on describing it)."""
    if addresses_model(text):
        return Role.INSTRUCTION
    named = (bool(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None) or bool(
        _ITS_OWN.match(_ADDING.sub("", text)) or _THIS_ONE.search(text))
    if releases(text):  # "Code is available at …", "We will release …": says where, not what
        return Role.OTHER
    # (Not the opening's "Recent models have demonstrated remarkable …": the field's, before the paper speaks.)
    opening = position <= 1 and not named and not _FIRST_PERSON.search(text)
    if _STRONG_RESULT.search(text) and not proposes(text) and not opening:  # "Experiments show that our model …"
        return Role.RESULT
    if _PRIOR_WORK.search(text) and _PROBLEM.search(text) and not proposes(text) and not _FIRST_PERSON.search(text):
        return Role.PROBLEM  # "Current molecule LLMs are limited by representing molecules based on atoms."
    if _METHOD.search(text):
        return Role.METHOD  # "We propose …", "Our method …"
    if _CONTRAST.match(text) and _PROBLEM.search(text):  # "However, none of the existing … have achieved …"
        return Role.PROBLEM
    if (_WE_DO.search(text) or named) and not _RESULT.search(text):
        return Role.METHOD  # "We simulate five months of …", "D2F equips dLLMs with …": what the paper does
    if _RESULT.search(text) and (position > 0 or named or _FIRST_PERSON.search(text)):
        return Role.RESULT
    if _PROBLEM.search(text):
        return Role.PROBLEM
    if not _FIRST_PERSON.search(text) and position <= 2:
        return Role.BACKGROUND
    # "These augmented embeddings are then …", "Equipped with …, RGM is …": 15 of the 27 such sentences in the
    # development half of the blind labels were method (docs/benchmarks.md).
    return Role.METHOD


class _Sentence(Protocol):
    text: str
    position: int
    role: Role | None


def role_of(sentence: _Sentence, name: str = "") -> Role:
    """The sentence's role as stored at ingest, else (an index written by other rules, or before roles were
    stored) worked out now."""
    return sentence.role or role(sentence.text, sentence.position, name)


# Which rules wrote a stored role: after any edit of these files the stored roles are stale (worked out at question
# time, by the rules alone, until the next `rag ingest` stores them again).
RULES = hashlib.sha256(b"".join(Path(__file__).with_name(name).read_bytes() for name in (
    "roles.py", "injection.py", "role_model.py", "role_weights.json"))).hexdigest()[:16]


def rules_hash() -> str:
    return RULES


def tagged(metadata: dict, its_role: Role) -> dict:
    """A sentence row's metadata with its role (``role_model.roles_of``) and the rules that gave it: stored at
    ingest, read back by ``stored_role``."""
    return {**metadata, "role": its_role.value, "role_rules": rules_hash()}


def stored_role(metadata: dict) -> Role | None:
    """The role a sentence row was stored with, if these rules wrote it."""
    value = metadata.get("role")
    if not value or metadata.get("role_rules") != rules_hash() or value not in Role._value2member_map_:
        return None
    return Role(value)


def releases(text: str) -> bool:
    """The sentence says where the code or data is ("Code is available at …")."""
    return bool(_RELEASE.search(text))


def proposes(text: str) -> bool:
    """The sentence says what the paper proposes ("We propose TRIM-KV, …", "This paper presents Omni-View")."""
    return bool(_PROPOSES.search(text))


# The roles whose sentences answer each aspect, best first.
WANTED: dict[Aspect, tuple[Role, ...]] = {
    Aspect.METHOD: (Role.METHOD,),
    Aspect.RESULT: (Role.RESULT,),
    Aspect.DATA: (Role.RESULT, Role.METHOD),
    Aspect.WHY: (Role.RESULT, Role.METHOD),
    Aspect.PROBLEM: (Role.PROBLEM, Role.BACKGROUND),
    Aspect.WHICH: (Role.METHOD,),
    Aspect.ANY: (Role.METHOD, Role.RESULT),
}
# Words a sentence answering the aspect tends to hold (beyond its role): names of data, figures, causes.
ASPECT_CUES: dict[Aspect, re.Pattern[str]] = {
    # What a paper was run on: experiments' wording, or a named dataset or model ("Llama-7B", "WikiText-2", "GSM8K").
    Aspect.DATA: re.compile(r"\b(?:experiments?\s+(?:on|across|with)|evaluat\w*\s+(?:on|it\s+on|across)|"
                            r"(?:tested|validated|trained|benchmarked)\s+on|apply\s+.*\s+to|"
                            r"(?:datasets?|benchmarks?)\s+(?:such\s+as|including|like)|on\s+(?:the\s+)?[A-Z][\w-]+\s+"
                            r"(?:datasets?|benchmarks?)|(?:tasks?|subsets?|splits?|categories|dimensions|domains)\s+"
                            r"(?:\w+\s+){0,4}(?:cover\w*|encompass\w*|includ\w*|span\w*|compris\w*))\b|"
                            r"\b[A-Z][A-Za-z]*[-]?\d[\w.-]*\b"),
    Aspect.RESULT: re.compile(r"\d+(?:\.\d+)?\s*(?:x\b|×|%)|\d", re.I),
    # How it works, not that it exists: "by caching …", "equips dLLMs with two key capabilities: (1) …".
    Aspect.METHOD: re.compile(r"\b(?:by\s+\w+ing|equips?|consists?\s+of|compris\w+|key\s+(?:ideas?|capabilit\w+|"
                              r"components?|insights?|steps?)|(?:two|three)\s+(?:stages?|steps?|components?|modules?)|"
                              r"first\s+\w+s?\b.*\bthen)\b|\(1\)|\(i\)", re.I),
    # Why the work is needed: what is at stake or missing.
    Aspect.PROBLEM: re.compile(r"\b(?:critical|crucial|important|essential|necessary|required|vital|to\s+prevent|"
                               r"risks?|concerns?|threats?|harmful|misuse|bottlenecks?|limitations?|limited|lacks?|"
                               r"remains?\s+(?:unexplored|underexplored|open|unclear|challenging))\b", re.I),
    Aspect.WHY: re.compile(r"\b(?:because|due\s+to|rel(?:y|ies)|caused\s+by|explain\w*|findings?|stem\w*|"
                           r"attribut\w*|(?:we|analysis|theory|experiments)\s+(?:\w+\s+){0,2}(?:find|show|reveal|demonstrate)s?"
                           r"\s+that)\b", re.I),
}
