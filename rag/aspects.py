"""What a question asks of a paper (its aspect: a method, a result, the data, a why, the problem, which paper), read
from the user's words. Question-side only: the sentence roles and the cue words their sentences hold are in
``rag.roles``, whose edits make every index's stored roles stale; edits here do not."""

from __future__ import annotations

import re

from rag.roles import Aspect

_KIND_OF = r"(?:kinds?|types?|sorts?)\s+of"  # ("what kind of experiments …?")
# "where is PBFM tested?", "where did they test it?": what the paper was run on
_WHERE_TRIED = (r"where\s+(?:is|are|was|were|did|do|does)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:tested|evaluated|validated|benchmarked|tried|test|evaluate|validate|try)\b")
_LEAD_IN = r"(?:(?:[\w-]+\s+){0,3}[\w-]+\s*[,:]\s*)"  # what a question opens with before asking ("the latter paper:")
_WHY_OPENS = rf"^\W*(?:{_LEAD_IN}|(?:so|and|but|then|ok(?:ay)?)[\s,]+)?why\b"  # ("OR-PRM: why …", "so why …")
_ASPECTS = (
    # "what do they think is behind it?", "what's behind the gap?": a cause, which the authors' finding says
    (Aspect.WHY, re.compile(r"[,;:–—-]\s*(?:and\s+|but\s+|so\s+)?why\W*$|"  # ("… went badly, why?")
                            r"\bwhat(?:['’]?s|\s+(?:is|are|was|were))?\s+(?:really\s+|actually\s+)?behind\b|"
                            r"\b(?:think|thinks|say|says|believe|suspect)\s+(?:is|are|was|were)\s+behind\b|"
                            # "what went wrong when they first trained on …?": what their analysis found (not "what
                            # goes wrong with current methods?", the problem)
                            r"\bwhat\s+went\s+wrong\s+(?:when|once|after)\s+(?:they|the\s+authors|it|we)\b", re.I)),
    # ("What's MaskCO?", not "What's wrong with the existing …?", a problem)
    # (not "what is PBFM evaluated on?", what it was run on)
    (Aspect.WHICH, re.compile(r"^\W*(?:(?:what\s+(?:is|are)|what's|who\s+(?:is|are))\s+(?!the\b|its\b|their\b|his\b|her\b|"
                              r"this\b|that\b|these\b|those\b|a\b|an\b|"
                              r"(?:actually\s+|really\s+|so\s+)?(?:wrong|missing)\b|"
                              r"[^?]*\b(?:evaluated|tested|trained|validated|benchmarked)\s+(?:on|with|against)\b)|"
                              r"tell\s+me\s+(?:more\s+)?about|describe|"
                              r"explain|summari[sz]e|give\s+(?:me\s+)?an?\s+overview)|"
                              r"^\W*(?:(?:(?:\w+\s+){0,2}\w+\s*[-,:–—]\s*)?(?:is|are)\s+there\b|"
                              # ("Any benchmark for …?")
                              r"any(?:thing|\s+papers?|\s+work|\s+(?:benchmarks?|datasets?|methods?|models?|"
                              r"frameworks?|approaches|tools?))?\s+(?:on|about|regarding|for)\b|"
                              r"(?:which|what)\s+(?:\w+\s+)?(?:paper|work|study|method)s?\b|"
                              r"(?:find|show|give)\s+(?:me\s+)?(?:a\s+|the\s+)?(?:paper|work)s?\b)|"
                              r"\b(?:is|are)\s+there\s+(?:a|any)\s+(?:paper|work|study)", re.I)),
    # "has anyone looked at …?", "looking for flow matching work that …", "any work that tokenizes …?", "know of a paper
    # on …?": a search for a paper, whatever it asks the paper to have done
    (Aspect.WHICH, re.compile(r"^\W*(?:[\w-]+(?:\s+[\w-]+)?\s*[:,–—-]\s*)?(?:so\s+|and\s+|but\s+)?"
                              r"(?:(?:has|have|did|does)\s+any(?:one|body)\b(?![^?]*\bwhy\b)|"
                              r"any\s+(?:[\w-]+\s+)?(?:work|papers?|stud(?:y|ies))\s+(?:that|which|where)\b)|"
                              r"\b(?:looking|searching)\s+for\s+(?:a\s+|an\s+|any\s+|some\s+)?"
                              r"(?:[\w-]+\s+){0,4}?(?:papers?|work|stud(?:y|ies))\b|"
                              r"\b(?:know|aware)\s+of\s+(?:a\s+|an\s+|any\s+)?(?:papers?|work|stud(?:y|ies))\b|"
                              # ("I want a KV cache eviction method that learns … . anything?")
                              r"(?:^|[.,;:!?]\s*|\s[-–—]\s*)(?:anything|any(?:one|body)|any\s+(?:papers?|work|"
                              r"stud(?:y|ies)))\s*(?:here|out\s+there)?\s*\?+\s*$", re.I)),
    # "what was actually wrong with the data people trained on before?": a problem, whatever it is about
    (Aspect.PROBLEM, re.compile(r"\bwhat(?:['’]s|\s+(?:is|was|were|are))\s+(?:actually\s+|really\s+|so\s+)?wrong\b|"
                                # ("what did they find wrong with the existing datasets?")
                                r"\bwhat\s+(?:did|do|does)\s+(?:\S+\s+){1,3}(?:find|see|say)\s+(?:is\s+|was\s+)?"
                                r"wrong\b|"
                                r"\bwhat\s+(?:went|goes|can\s+go)\s+wrong\b|"  # (and "what is missing from RLVR?")
                                r"\bwhat(?:['’]s|\s+(?:is|was|are|were))\s+(?:still\s+)?missing\b|"
                                r"\b(?:is|are|was|were)\s+(?:still\s+)?missing\s+(?:from|in)\b", re.I)),
    (Aspect.DATA, re.compile(r"\b(?:datasets?|benchmarks?|(?:evaluated|tested|trained|validated|benchmarked)\s+on|"
                             rf"what\s+data|{_WHERE_TRIED}|"
                             r"what\s+(?:does|do)\s+(?:\S+\s+){1,3}(?:evaluate|measure|test|cover|assess)|"
                             rf"(?:what|which|the)\s+{_KIND_OF}\s+(?:[\w-]+\s+)?(?:data|experiments?|evaluations?|"
                             r"evidence)\b|"  # ("what sort of biological data is it built for?")
                             r"which\s+(?:models?|llms?|tasks?|domains?|data)|what\s+(?:models?|llms?|tasks?)|"
                             r"the\s+data\s+(?:each|they|it|both)\b|"  # ("… in terms of the data each one relies on?")
                             r"models?\s+and\s+(?:(?:evaluation\s+)?data(?:sets?)?|evaluations?)|"
                             r"(?:evaluation|test|held-out)\s+(?:data|sets?|splits?|suites?)|"
                             r"evaluat\w*\s+(?:on|with)|(?:evaluat|test|validat|benchmark)\w*\s+"  # ("… test it on?")
                             r"(?:it|them|this|that|(?:the|their|its)\s+[\w-]+)\s+on)\b", re.I)),
    # "How does D2F make dLLMs faster?", "How do they reduce memory?": the mechanism, unless it asks how well.
    # (also after what sets it up: "OR-PRM and RGM both rely on PRMs - how does each get its supervision?")
    (Aspect.METHOD, re.compile(r"(?:^|[?:;]\s+|\s[–—-]\s)\W*(?:(?:and|so|ok(?:ay)?|then)\W+)?how\s+(?:does|do|did|can|"
                               r"could|is|are|was|"
                               r"were)\b(?!.*\b(?:perform\w*|fare[sd]?|compare[sd]?|stack\s+up|rank\w*|"
                               r"do(?:es)?\s+(?:on|against|with|in)|score[sd]?\s+on|work\s+(?:on|in))\b)", re.I)),
    # "what makes it robust when frames get disturbed?", "what makes GtR fast?": how the paper's method does it (not
    # "what makes a task harder?", a finding)
    (Aspect.METHOD, re.compile(r"\b(?i:what\s+makes)\s+(?:(?i:it|them|this|that|their\s+\w+|its\s+\w+|the\s+"
                               r"(?:method|model|approach|framework))|[A-Z][\w-]*[A-Z0-9][\w-]*|"
                               r"[A-Z][a-z]+[A-Z][\w-]*)\s+(?i:so\s+|more\s+)?[a-z]+")),
    # "Where does each one get its speedup from?", "where does the signal come from?": its source, a mechanism.
    (Aspect.METHOD, re.compile(r"\bwhere\s+(?:does|do|did|is|are)\b[^?.]*\b(?:come|comes|get|gets|obtain\w*|deriv\w*)"
                               r"\b[^?.]*\bfrom\b", re.I)),
    # "what's the core trick that lets diffusion LLMs beat AR decoding speed?": how they do it, not the speed itself
    # (not "is there a trick to sharpen details …?", which asks for a paper)
    (Aspect.METHOD, re.compile(r"\b(?:the|their|its|what|which)\s+(?:[\w-]+\s+)?(?:tricks?|secret\s+sauce|recipe)\b",
                               re.I)),
    (Aspect.RESULT, re.compile(r"\b(?:how\s+(?:much|many|fast|well|large|big|good|accurate)|speed-?ups?|faster|"
                               r"accuracy|results?|perform\w*|gains?|improv\w*|outperform\w*|score\w*|reduc\w*|"
                               r"by\s+how\s+much|what\s+(?:figure|number)|numbers|stats|"  # ("speed numbers?")
                               r"beat(?:s|en|ing)?|"
                               r"empirical(?:ly)?|"
                               r"compared\s+(?:to|with)\s+baselines?|fare[sd]?|stack\s+up|(?:do|does|did)\s+(?:on|against)|"
                               r"(?:success|error|win|pass)\s+rates?|rates?\s+on|fid|bleu|perplexity|percentage|"
                               r"(?:does|do|did)\s+(?:[\w-]+\s+){1,3}(?:reach|achieve|attain|report|score|(?:obtain|get)"
                               # (not "where does each get it from?", "… get as input?", "… get so expensive?")
                               r"(?![^?.]*\bfrom\b|\s+(?:as|so|too|that|this|very)\b)))\b", re.I)),
    # "Why does provenance tracing matter?": why the work is needed, which the motivation says, not a finding.
    # ("For the second, why does that matter …?", "why do they think relying on X is a problem in the first place")
    (Aspect.PROBLEM, re.compile(rf"^\W*{_LEAD_IN}?why\b.*\b(?:matters?|important|needed|necessary|crucial|worth\w*|"
                                r"(?:a|the)\s+problem|an\s+issue)"
                                r"\b|\bwhy\s+(?:do|does|would|should)\s+(?:we|you|anyone|one|people)\s+"
                                r"(?:need|care|want)\b",
                                re.I)),
    # "What is their main finding?": what the authors found, as a "why" question's answer is.
    # ("… what role do they actually play?": what the authors found they do)
    (Aspect.WHY, re.compile(rf"{_WHY_OPENS}|\b(?:what\s+(?:causes|explains|drives)|(?:is|are)\s+causing|"
                            r"root\s+cause|reason|blam(?:e|es|ed|ing)|"
                            r"what\s+roles?\s+(?:do|does|did)\b|"
                            r"findings?|takeaways?|conclu(?:de|des|ded|sion|sions)|"
                            r"f[ae]ll(?:s|ing)?\s+short|struggl\w*|weak\s+spots?|"  # ("where do they fall short?")
                            r"what\s+(?:did|do|does)\s+(?:\S+\s+)"
                            r"{1,3}(?:find|conclude|show|reveal)|"
                            # ("what did that paper on massive activations in diffusion transformers find?")
                            r"what\s+(?:did|do|does)\s+(?:\S+\s+){4,10}?(?:find|conclude|reveal)(?=\W*$))\b", re.I)),
    (Aspect.PROBLEM, re.compile(r"\b(?:(?:what|which)\s+(?:[\w-]+\s+)?(?:problem|issue|limitation|challenge|gap|harm|"
                                r"risk|threat|danger|bottleneck)s?|"  # (not "what flaws do they find?", a finding)
                                r"(?:what|which)\s+(?:[\w-]+\s+)?(?:shortcoming|drawback|flaw|weakness(?:es)?|"
                                r"deficienc(?:y|ies))s?(?![^?]*\b(?:find|found|identif\w*|uncover\w*|reveal\w*|"
                                r"observe\w*|expose\w*|spot\w*|show\w*|pin\w*\s+down|point\w*\s+(?:out|to)|"
                                r"diagnos\w*)\b)|"
                                r"what(?:['’]s|\s+(?:is|are|was|were))\s+(?:the\s+|their\s+|its\s+)?(?:main\s+|key\s+|"
                                r"core\s+)?(?:problem|issue|limitation|challenge|gap)s?\b|"
                                r"motivat\w*|"
                                r"(?:problem|issue|limitation|challenge|gap)s?\s+(?:does|do|did)\b)", re.I)),
    (Aspect.METHOD, re.compile(r"\b(?:how\s+(?:does|do|did|is|are|was|were|can)|what\s+(?:does|do|did)\b|"
                               r"mechanism|approach|method|technique|components?|architectur(?:e|al)|ideas?|"
                               r"innovations?|trained|"
                               r"building\s+blocks?|"
                               r"training|objective|loss|works?|exploit\w*|algorithm|strategy|design|"
                               r"fix(?:es)?|remed(?:y|ies)|workarounds?)\b", re.I)),  # ("… each one's fix?")
)


# A question's own first word, in whatever case the user typed it ("… generation. whats the actual mechanism in each")
_ASKING = r"(?i:what(?:['’]?s)?|how|which|why|who|where)\b"
# "compare them in terms of memory use", "… when it comes to training cost?": what follows is what is asked of them
IN_TERMS = re.compile(r"\b(?:in\s+terms\s+of|when\s+it\s+comes\s+to|with\s+(?:respect|regard)\s+to)\s", re.I)


# How a question calls its paper before asking ("the AutoExperiment benchmark", "the TikZilla paper")
_CALLED = re.compile(r"^\W*(?:the|that|this)\s+(?:[\w-]+\s+){1,4}?(?:benchmark|dataset|paper|method|model|framework|"
                     r"one)\W*$", re.IGNORECASE)


def aspect(question: str) -> Aspect:
    """What the question asks of a paper, by its words (the first rule in ``_ASPECTS`` that fits); of a question after
    what sets it up ("VeriEquivBench and OR-PRM both say the existing datasets are bad. What's the problem in each
    case?", "the paper that claims to beat AR models on speed - what's the trick?"), what the question itself asks,
    if it says; of one asking "in terms of" something, what that asks (how they work, unless it says)."""
    question = unabbreviated(question)
    # ("How does ARPG stack up against DG, in terms of whether you …?": what "in terms of" names is how they work,
    # unless it says what else: "in terms of accuracy")
    if termed := IN_TERMS.search(question):
        return asked if (asked := _aspect(question[termed.end():])) is not Aspect.ANY else Aspect.METHOD
    # (typed in lower case and without "?" too: "both pitch faster generation. whats the actual mechanism in each")
    said = re.split(rf"(?<=[.!])\s+(?=[A-Z]|{_ASKING})|\s[–—-]\s+(?={_ASKING})", question.strip())
    # (Not "… Is there a paper on that?": the whole turn says what about the paper answers it.)
    if len(said) > 1 and (said[-1].endswith("?") or re.match(_ASKING, said[-1])) and (
            asked := _aspect(said[-1])) not in (Aspect.ANY, Aspect.WHICH):
        return asked
    if len(said) == 2 and _CALLED.match(said[0]) and _aspect(said[1]) is Aspect.ANY:  # ("the AutoExperiment
        return Aspect.ANY  # benchmark - what is an agent handed …?": what the rest asks, not a question for data)
    # ("how does it stack up against D2F? mainly curious which bottleneck each one is going after": the afterthought)
    after = re.split(r"(?<=\?)\s+", question.strip())
    if len(after) > 1 and _CURIOUS.match(after[-1]) and (asked := _aspect(after[-1])) not in (Aspect.ANY, Aspect.WHICH):
        return asked
    return _aspect(question)


_CURIOUS = re.compile(r"^\W*(?:(?:mainly|mostly|really|just|especially|i'?m|i\s+am|(?:i\s+)?want\s+to\s+know|"
                      r"curious|wondering|interested|asking)\W+)+(?:about\s+|in\s+)?(?:what|which|how|why|where|whether)\b",
                      re.IGNORECASE)
# What users shorten in a chat ("models + eval data?", "perf numbers?"): read as written out, for what is asked.
_SHORTHAND = {"eval": "evaluation", "evals": "evaluations", "perf": "performance", "params": "parameters",
              "expts": "experiments", "exps": "experiments", "expt": "experiment", "arch": "architecture",
              "impl": "implementation", "hw": "hardware", "+": "and", "&": "and",
              "bottom line": "takeaway", "tl;dr": "takeaway", "tldr": "takeaway"}  # ("bottom line when …?": no topic)
_SHORT = re.compile(r"(?<![\w+&-])(?:" + "|".join(re.escape(k) for k in _SHORTHAND) + r")(?![\w+&-])", re.IGNORECASE)


def unabbreviated(question: str) -> str:
    """"models + eval data?" → "models and evaluation data?"."""
    return _SHORT.sub(lambda m: _SHORTHAND[m.group(0).lower()], question)


# "evaluated on?", "what is PBFM tested on?", "where did they test it?": what the paper was run on, by the verb
_TRIED_ON = re.compile(r"\b(?:evaluated|tested|validated|benchmarked|tried|run)\s+(?:it\s+|them\s+)?"
                       rf"(?:on|against|across)\b|\b{_WHERE_TRIED}", re.IGNORECASE)


def asks_tried_on(question: str) -> bool:
    """The question asks what the paper was run on by the verb ("evaluated on?"): a sentence saying so answers it."""
    return bool(_TRIED_ON.search(question))


def asks_kind(question: str) -> bool:
    """"what kind of experiments …?": a description answers it, not a name (see ``pipeline.decide``)."""
    return bool(re.search(rf"\b{_KIND_OF}\b", question, re.IGNORECASE))


def _aspect(question: str) -> Aspect:
    why = re.match(_WHY_OPENS, question, re.I)  # ("why didn't training on the existing datasets
    for name, pattern in _ASPECTS:  # work?" asks why, not for data)
        if pattern.search(question) and not (why and name is Aspect.DATA):
            return name
    return Aspect.ANY


# "how do they train the retention part?", "how is the reward computed?", "what fine-tuning trick do they propose?": the
# verb asked, which the sentence answering holds in some form ("TRIM-KV is trained … through distillation"); not one
# any method does ("how does it work?").
_HOW_VERB = re.compile(r"\b(?:how|what(?:\s+[\w-]+){0,3}?)\s+(?:do|does|did|can|could)\s+"
                       r"(?:they|it|we|you|the\s+authors|each(?:\s+one)?)\s+"
                       r"(?:\w+ly\s+)?(?P<verb>[a-z]{4,})\b"  # ("how is the reward computed?": its participle)
                       r"|\bhow\s+(?:is|are|was|were)\s+(?:[\w-]+\s+){1,4}?(?P<done>[a-z]{3,}ed)\s*[?.!]*\s*$", re.I)
_ANY_METHOD_VERBS = frozenset("work works worked make makes made does done using used help helps handle handles deal "
                              "deals compare compared differ differs perform performed manage relate relates fare "
                              "achieve achieved improve improved look know mean stand scale scaled need needs "
                              "have want show shows".split())


# "what do they compare MFT with?", "it compares MFT with which alternatives?": what the paper sets its method against,
# which the sentence comparing says ("We systematically compare with other three … strategies: …"; not "how does it
# compare with ARPG?", a comparison of two papers)
_COMPARED_WITH = re.compile(r"\bcompar(?:e|es|ed)\s+(?:[\w-]+\s+){0,4}?(?:with|against|to)\s+(?:which|what)\b|"
                            r"\b(?:what|which)\b[^?]*?\bcompare[sd]?\s+(?:[\w-]+\s+){0,4}?(?:with|against|to)"
                            r"\s*\??\s*$", re.I)


def asked_verb(question: str) -> str:
    """The verb a "how" or "what … do they" question asks about ("train" in "how do they train the retention part?"),
    or ""."""
    if _COMPARED_WITH.search(question):
        return "compare"
    found = _HOW_VERB.search(question)
    verb = (found.group("verb") or found.group("done")).lower() if found else ""
    return "" if verb in _ANY_METHOD_VERBS else verb


# A question for a figure ("How many GPU hours …?", "by how much …?", "what accuracy …?", "what mIoU do they get?"):
# one an abstract may lack.
_FIGURE_ASKED = re.compile(r"\bhow\s+(?:much|many|fast|big|large|long|well|high|low)\b|\bby\s+how\s+much\b|"
                           r"\bwhat\s+(?:is\s+|was\s+|are\s+|were\s+)?(?:the\s+|its\s+|their\s+)?"
                           r"(?:exact\s+|actual\s+)?(?:speed-?ups?|accuracy|scores?|percentage|numbers?|figures?|fid|"
                           r"bleu|rates?|sizes?|gains?)\b|\bnumbers?\b|\bscores?\b|%|"
                           r"\b(?:do|does|did)\s+(?:they|it)\s+(?:get|reach|achieve|obtain|attain|score)\b|"
                           r"\b(?:concrete|exact|actual|specific)\s+(?:[\w-]+\s+)?(?:speed-?ups?|factors?|figures?|"
                           r"gains?)\b", re.I)  # ("which papers report a concrete speedup factor?")


def asks_figure(question: str) -> bool:
    """The question asks for a figure (or a metric by its name), which an abstract may simply not give."""
    from rag.figures import names_metric

    return bool(_FIGURE_ASKED.search(question)) or names_metric(question)
