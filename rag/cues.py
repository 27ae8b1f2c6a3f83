"""Cue words of the answer plan (``rag.plan``): what tells, beyond its role, that a sentence answers what a question
asks (a named dataset, a cause, what is still unknown), or that it goes with the sentence before it ("Specifically, …",
"To this end, …"). Cues beside ``roles.ASPECT_CUES``: an edit there makes every index's stored roles stale; edits here
do not."""

from __future__ import annotations

import re

from rag.roles import ASPECT_CUES, Aspect
from rag.tokens import NAMED_THING, stems
from rag.types import Evidence

_WORD = re.compile(r"[a-z]+")
NAMING = re.compile(r"\b(?:named|called|dubbed|termed|coined)\b")  # ("… a simple strategy named D2F")
LINK = re.compile(r"(?:https?://|www\.)\S+|\\url\{[^}]*\}")
# A dataset, benchmark or model by its name: with a figure ("GSM8K", "Llama-7B") or named as benchmarks are
# ("LiveCodeBench", "SWE-bench", "AlpacaEval", "HotpotQA", "Chatbot Arena"; not the paper's own: "CatalystBench")
_NAMED_THING, _BENCHMARK = re.compile(NAMED_THING), re.compile(r"\b[A-Z][\w-]*(?:Bench|-bench|Eval|QA|Arena|Gym)\b")
# What they ran it on, opening the sentence ("Experiments on 430 FDA-approved drugs …", "When tested on 122 …").
RAN_ON = re.compile(r"^\W*(?:When\s+)?(?i:experiments?|evaluations?|tested|evaluated)\s+(?:on|across|with)\b")
# What a sentence says the paper was run on, wherever in it ("… apply the proposed method to Llama-7B …, and evaluate it
# on WikiText-2 …", "The authors benchmark their method across three representative PDE benchmarks.")
TRIED_ON = re.compile(r"\b(?:experiments?\s+(?:on|across|with)|(?:evaluat|test|validat|benchmark)\w*\s+"
                      r"(?:[\w-]+\s+){0,3}?(?:on|across|against)|trained\s+on)\b", re.IGNORECASE)
# "The authors benchmark their method across three representative PDE benchmarks." answers "benchmarks?" too.
DATA_CUE = re.compile(rf"{ASPECT_CUES[Aspect.DATA].pattern}|\b(?:benchmark|evaluate|test|validate)s?\s+(?:\w+\s+){{0,3}}"
                      r"(?:on|across)\s+(?:\w+\s+){0,3}(?:benchmarks|datasets|tasks)\b"
                      # (opening the sentence: "Experiments on 430 FDA-approved drugs …")
                      rf"|{RAN_ON.pattern}"
                      # ("We validate our theoretical claims with language modeling experiments")
                      r"|\b(?:with|through|via)\s+(?!(?i:some|the|our|their|these|extensive|several|many|various|"
                      r"additional|further|comprehensive|numerous|empirical)\b)(?:[\w-]+\s+){1,3}?"
                      r"(?i:experiments|evaluations|simulations)\b")
# "To understand this gap, we … identify the primary bottleneck: the datasets themselves, …" says why, too.
WHY_CUE = re.compile(rf"{ASPECT_CUES[Aspect.WHY].pattern}|\b(?:identif\w*|pinpoint\w*)\s+(?:\w+\s+){{0,3}}?"
                     r"(?:bottlenecks?|causes?|culprits?|reasons?|sources?)\b", re.I)
CUES = {**ASPECT_CUES, Aspect.DATA: DATA_CUE, Aspect.WHY: WHY_CUE}
# What others did ("However, existing in-generation approaches are non-blind: …"), in a sentence of the problem role.
OTHERS_WORK = re.compile(r"\b(?:existing|prior|previous|earlier|current|conventional|traditional)\s+(?:[\w-]+\s+){0,3}?"
                         r"(?:methods?|approaches|works?|models?|techniques|metrics|systems|efforts|architectures|llms|"
                         r"frameworks|strategies|benchmarks|datasets|studies|solutions|pipelines|schemes)\b", re.I)
GAP = re.compile(r"(?i)\b(?:remains?|remained|is|are)\s+(?:still\s+|largely\s+)?(?:unexplored|underexplored|"
                 r"under-explored|unclear|unknown|understudied|open(?![\w-])|(?:poorly|not\s+well)\s+understood)\b|"
                 r"\blittle\s+is\s+known\b|\bopen\s+questions?\b")
# A sentence that spells out the one before it: shown after a lead that only announces ("We provide evidence against
# alternative hypotheses." → "Most notably, we challenge the claim that …").
SPELLS_OUT = re.compile(r"(?i)^\W*(?:specifically|in\s+particular|(?:most\s+)?notably|for\s+(?:example|instance)|"
                        r"concretely|namely|more\s+precisely|in\s+detail)\b")
# What the paper does about the sentence before ("Our key insight is that … necessitates explicit guidance …. To this
# end, we propose a … framework that …"): how it acts on it.
ACTS_ON = re.compile(r"(?i)^\W*(?:to\s+this\s+end|to\s+(?:achieve|realize|implement|enable|do)\s+(?:this|that|so)\b|"
                     r"accordingly|(?:building|based)\s+on\s+(?:this|these|that)\b|to\s+(?:overcome|address|tackle|"
                     r"solve|mitigate|remedy|alleviate|resolve|bridge|close|fill)\s+(?:this|these|that|those|such)\b)")
# One more thing the authors do of the kind the sentence before began ("We also study the regret gap, …" after "We
# analyze … by providing bounds on the KL divergence …"): the rest of it.
ALSO_DOES = re.compile(r"(?i)^\W*(?:(?:we|they|the\s+authors)\s+(?:also|additionally)|(?:additionally|in\s+addition),"
                       r"\s+(?:we|they|the\s+authors))\s+[a-z]+")
# A result saying the method does better ("… improving performance in hard-exploration and long-horizon tasks").
IMPROVES = re.compile(r"\b(?:improv\w*|outperform\w*|surpass\w*|gains?|boost\w*|better|superior)\b", re.I)
# What the authors found, as a finding or a cause ("Our main finding … is that …"), not how well it worked
# ("Extensive experiments demonstrate that DG consistently improves …").
FINDING = re.compile(r"\b(?:findings?|(?:we|they|authors)\s+(?:\w+\s+){0,2}(?:find|found)\s+that|root\s+cause|because|"
                     r"due\s+to|caused\s+by|attribut\w*\s+to|stems?\s+from)\b", re.I)


def names_data(text: str, own: str = "") -> bool:
    """The sentence names what the paper was run on, a dataset or model by a name with a figure ("GSM8K, MATH-500",
    "Llama-7B and Llama-2-13B"; not "three representative PDE benchmarks") or a benchmark's ("LiveCodeBench"), other
    than ``own``, the paper's."""
    text = LINK.sub("", text)
    return bool(_NAMED_THING.search(text)) or any(m.group(0) != own for m in _BENCHMARK.finditer(text))


def names_its_data(evidence: Evidence) -> bool:
    """One of the paper's sentences names what it was run on (``names_data``)."""
    return any(names_data(s.text, evidence.hit.paper.short_name) for s in evidence.sentences)


# Verbs one asks by and another answers by: "what did they evaluate on?" is answered by "We benchmark our method
# across three representative PDE benchmarks."
_TRIED = ("evaluat", "test", "benchmark", "validat", "assess", "experiment")  # (prefixes: not "valid", "experience")
_SAME_VERB = dict.fromkeys(stems(set("evaluate test benchmark validate assess experiment".split())), _TRIED)


def holds_verb(text: str, verb: str) -> bool:
    """A word of the text in the verb's family ("trained", "training" for "train"; "constraint" for "constrain"; any
    of ``_SAME_VERB``'s for one of them)."""
    stem = next(iter(stems({verb})))
    family = _SAME_VERB.get(stem, (stem,))
    return any(word.startswith(one) for word in _WORD.findall(text.lower()) for one in family)


def ran_on(text: str, name: str) -> bool:
    """The sentence says what the paper was run on ("We benchmark our method across three … PDE benchmarks.")."""
    return bool(CUES[Aspect.DATA].search(LINK.sub("", text)) or names_data(text, name))
