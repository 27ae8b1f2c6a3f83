"""What a yes/no question asks a method to work for, to have been tried on or done in ("does it work for Chinese?",
"did MaskCO try knapsack instances too?", "did they synthesize any of them in a wet lab?"), and whether the papers'
abstracts hold any of it: ``rag.unstated`` refuses such a turn, naming the missing words, rather than answering with
the papers' nearest sentences."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.asks import unstated
from rag.tokens import content_words
from rag.topic_words import GENERIC_WORDS

_CHAT = frozenset("btw imo tbh fyi ok okay oh hmm".split())  # chat words, no topic
# Asked yes or no ("Do any of those …?", "does it work for …?"), and what the method is asked to work for.
_LEAD = r"^\W*(?:(?:for|about|on|re|back\s+to)\s+[^,?:]{1,60}[,:]\s*)?"  # ("for TikZilla, do they …?")
_OPENS = _LEAD + r"(?:(?:and|so|ok(?:ay)?|but|also|then|btw|oh)\W+)?"  # (and a chat opener: "so did they …?")
YES_NO = re.compile(_OPENS + r"(?:do|does|did|is|are|was|were|can|could|"
                     r"has|have|would|will)\b", re.IGNORECASE)
_WORKS_FOR = re.compile(r"\b(?:(?:works?|apply|applies|applied|used|usable|adapted|generali[sz]es?|transfers?|"
                        r"carry\s+over|carries\s+over|"
                        r"holds?\s+up|scales?|extends?)\s+"
                        r"(?:also\s+|well\s+)?(?:to|for|on|with)"
                        # "did they apply it to graph coloring?": the method, then what it was applied to
                        r"|(?:apply|applied|extend|extended|transfer|transferred)\s+(?:it|them|this|that|the\s+"
                        r"(?:method|model|approach|framework|idea))\s+(?:also\s+)?(?:to|on)"
                        # "does it cover Lean or Coq as well?", "did they validate any of their molecules in a wet lab?"
                        r"|(?:cover|covers|support|supports|include|includes|handle|handles)"
                        r"|(?:test|tested|validate|validated|evaluate|evaluated|try|tried)\s+(?:[\w-]+\s+){0,5}?"
                        r"(?:in|on|with|against)"
                        # "did MaskCO try knapsack instances too?": what it was tried on, named right after the verb
                        r"|(?:try|tried|test|tested)(?=\s+(?!(?:it|its|them|their|this|that|these|those|the|a|an|any|"
                        r"on|in|with|against|out|to|whether|if|how)\b)[\w-]+\s+[\w-]+))\s+(?P<what>[^?.!;]+)",
                        re.IGNORECASE)
# "did they synthesize any of the molecules in a wet lab?": where the paper's authors did it, named at the end (asked of
# them: not "is there work on … using where people look?", a search)
_DONE_IN = re.compile(_OPENS + r"(?:do|does|did|is|are|was|were)\s+"
                      r"(?:they|it|the\s+authors)\b(?!\s+have\s+(?:any|some)thing)[^?]*\s(?:in|on|with|using|via|"
                      r"against|for)\s+(?P<what>(?:[\w-]+\s+){0,3}[\w-]+)\s*\?+\s*$", re.IGNORECASE)
# "are shallow water equations one of them?", "is Darcy flow among those?": a thing offered as one of what was shown
_ONE_OF = re.compile(_OPENS + r"(?:is|are|was|were)\s+(?P<what>(?:[\w-]+\s+){0,4}?[\w-]+)\s+"
                     r"(?:(?:(?:one|some|any|part)\s+of|among)\s+(?:them|those|these|it|the\s+[\w-]+)|"
                     r"in\s+(?:them|those|these|there))\s*\?+\s*$", re.IGNORECASE)
# "are perovskite catalysts covered among its tasks?", "is Lean supported?": what is asked about, in the passive
_COVERED = re.compile(_OPENS + r"(?:is|are|was|were)\s+(?P<what>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:also\s+)?"
                      r"(?:covered|included|supported|handled|considered|addressed)\b", re.IGNORECASE)
# "does it predict snowfall as well, or only rain?", "can they handle video too?", "did they plug it into an
# actor-critic method too?": one more thing it is asked to do
_ASKED_OF = (r"(?:do|does|did|can|could|will|would)\s+(?:it|they|this|that|the\s+(?:method|model|approach|paper|"
             r"authors))\s+")
_AS_WELL = re.compile(_OPENS + _ASKED_OF + r"(?:also\s+)?[a-z]+\s+(?P<what>(?:[\w-]+\s+){0,4}?[\w-]+)\s+"
                      r"(?:as\s+well|too|also)\b[^?]*\?+\s*$", re.IGNORECASE)
# "can it also give lightning probabilities?", "does it also predict snowfall?": "also" before what it is asked to do
_ALSO_DOES = re.compile(_OPENS + _ASKED_OF + r"also\s+[a-z]+\s+(?P<what>(?:[\w-]+\s+){0,4}?[\w-]+)\s*\?+\s*$",
                        re.IGNORECASE)
# "is there a separate enzyme catalysis track in it?": a part the paper is asked to have
_HAS_IN = re.compile(_OPENS + r"(?:is|are)\s+there\s+(?:also\s+)?(?:an?|any|some)?\s*"
                     r"(?P<what>(?:[\w-]+\s+){0,4}?[\w-]+)\s+(?:in|within|inside)\s+(?:it|them|this|that|these|those|"
                     r"(?:its|their|the)\s+(?:benchmark|dataset|paper|method|framework|suite|model))\s*\?+\s*$",
                     re.IGNORECASE)
# "is there a dedicated subset on platinum-group metal catalysts?": a part of the paper on something
_PART_ON = re.compile(_OPENS + r"(?:is|are)\s+there\s+(?:also\s+)?(?:an?|any|some)?\s*(?:[\w-]+\s+){0,2}?"
                      r"(?:subsets?|splits?|tracks?|sections?|categor(?:y|ies)|portions?|experiments?|ablations?|"
                      r"analys[ie]s|evaluations?|tasks?|modules?|components?)\s+(?:on|about|for|covering|of)\s+"
                      r"(?P<what>(?:[\w-]+\s+){0,4}?[\w-]+)\s*\?+\s*$", re.IGNORECASE)
_SUCH_AS = r"(?:like|such\s+as|say|e\.\s?g\.)"  # (an example follows: "…, like a running dog?")
# "could it generate time-lapse sequences, like …?", "can they handle video?": one thing it is asked to be able to do
_CAN_DO = re.compile(_OPENS + r"(?:can|could)\s+(?:it|they|this|that|the\s+(?:method|model|approach|framework))\s+"
                     rf"(?!be\b|also\b)[a-z]+\s+(?P<what>(?:[\w-]+\s+){{0,3}}?[\w-]+)\s*(?:\?+\s*$|,\s*{_SUCH_AS}\s|"
                     # ("can it take a hand-drawn sketch as the conditioning input?": what it is to take)
                     r"\s(?:as|for)\s+(?:an?|the|its|their)\s+(?:[\w-]+\s+){0,2}[\w-]+\s*\?+\s*$)",
                     re.IGNORECASE)
# "did they report antibiotic activity for any of the molecules?": what the paper is asked to have reported
_REPORTED = re.compile(_OPENS + r"(?:do|does|did)\s+(?:they|it|the\s+authors|the\s+paper)\s+(?:also\s+)?"
                       r"(?:report|measure|mention|discuss|give|provide|assess|quantify|analy[sz]e|study|examine|"
                       r"investigate|explore|address|look\s+(?:at|into)|touch\s+on|talk\s+about)\s+(?:any\s+)?"
                       r"(?P<what>(?:[\w-]+\s+){0,2}?[\w-]+)\s*(?:\?+\s*$|\s(?:for|on|in|of|with|across|under)\s)",
                       re.IGNORECASE)
# "any remote sensing results for it?": results on a thing, asked of the paper on the table
_ANY_FOR = re.compile(_OPENS + r"(?:are\s+there\s+)?any\s+(?P<what>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:results?|"
                      r"experiments?|evaluations?|numbers|tests?|findings?)\s+(?:for|on|in|from|with)\s+"
                      r"(?:it|them|this|that|this\s+one)\s*\?+\s*$", re.IGNORECASE)
_ASKED_WHOLE = (_ONE_OF, _AS_WELL, _COVERED, _ALSO_DOES, _HAS_IN, _PART_ON, _CAN_DO, _REPORTED)  # (from the start)
_ONLY = re.compile(r",?\s+(?:or|and|but)\s+(?:only|just|merely|solely)\b|,?\s+(?:rather|instead)\s+(?:than|of)\b",
                   re.IGNORECASE)
_EXAMPLE = re.compile(rf",?\s+(?:{_SUCH_AS}|for\s+(?:example|instance))\s", re.IGNORECASE)
_NEGATED = re.compile(r"(?:un|non-?)([a-z]{4,})$")  # "unstructured", "non-convex": the opposite of "structured", …
_FOR_PART = re.compile(r"\s+(?:(?:specifically|particularly|especially|just|only)\s+)?(?:for|in|within|during|of)\s+"
                       r"(?:the|their|its|this|that|these|those)\b", re.IGNORECASE)
# What a thing asked about is of ("knapsack instances"): held by an abstract, it does not make the thing held.
_HEADS = frozenset("instance instances setting settings scenario scenarios case cases domain domains example examples "
                   "variant variants version versions input inputs data too also well either specifically particular "
                   "particularly exactly separately individually explicitly".split())


def unfit(question: str, texts: list[str], unknown: Callable[..., list[str]] | None = None) -> list[str]:
    """"does it work for Chinese or multilingual chats?": the topic words of what the method is asked to work for,
    when no text holds any of them (one held, "does it work on video?", is for the answer to say); or (``unknown``:
    the words of a text no indexed abstract writes, ``NameIndex.unknown_words``) the words no abstract writes when
    each thing offered has one ("perovskite catalysts", "needle-in-a-haystack retrieval tests": a kind of what the
    paper has, which no paper has; not "video or audio", where the answer says what it does with video; nor a head
    no paper writes, "one-step backups", which abstracts may word otherwise)."""
    # (each reading of what it is asked about: "do they also look at verbosity bias in the rewards?" asks of
    # "verbosity bias", although "in the rewards" is where, as "in a wet lab" is)
    asked = [_WORKS_FOR.search(question), _DONE_IN.search(question), *(p.match(question) for p in _ASKED_WHOLE)] if (
        YES_NO.match(question)) else [_ANY_FOR.match(question)]
    for match in (m for m in asked if m):
        # (not what the user says the paper did: "… on state space models, or only on convolutional ones?")
        what = _ONLY.split(match.group("what"))[0]
        # ("tested on animal videos, like a running dog?": what the example illustrates, if no abstract holds it)
        main = _EXAMPLE.split(what)[0]
        if unheld := (main != what and _unheld(main, texts, unknown)) or _unheld(what, texts, unknown):
            return unheld
    return []


def _unheld(what: str, texts: list[str], unknown: Callable[..., list[str]] | None) -> list[str]:
    """``unfit`` for what the method is asked to work for."""
    from rag.nearmiss import asking_words

    # ("point cloud inputs specifically for the 3D part": what is tried, not the part of the paper it is tried for)
    tried = _FOR_PART.split(what)[0]
    what = tried if content_words(tried) - asking_words() else what
    topic = content_words(what) - asking_words()
    own = [w for w in dict.fromkeys(re.findall(r"[\w-]+", what)) if w.lower() in topic  # (as the user wrote them)
           and w.lower() not in _HEADS | GENERIC_WORDS]
    # ("does it only handle one-step backups?" of an abstract extending to "multi-step" operators: for the answer)
    other_kind = any(re.search(rf"\w-{re.escape(w.lower().rpartition('-')[2])}\b", t.lower()) for w in own if "-" in w
                     for t in texts)
    if own and not other_kind and len(unstated([w.lower() for w in own], texts)) == len(own):
        return [" ".join(own)] if " ".join(own).lower() in what.lower() else own  # ("state space", as one)
    # "does it also work for image super-resolution?" of an image paper: a term of art (hyphenated) as the thing's head,
    # which no text writes although a word before it ("image") is the paper's own
    if own[1:] and "-" in (head := own[-1]) and not other_kind and what.lower().rstrip(" ?").endswith(head.lower()) \
            and unstated([head.lower()], texts):
        return [head]
    # "does it also work for unstructured pruning?" of a paper on structured pruning: the opposite of what it does
    if opposite := [w for w in own if (base := _NEGATED.match(w.lower())) and unstated([w.lower()], texts)
                    and not unstated([base.group(1)], texts)]:
        return opposite
    # (only words before the thing's head: a head no abstract writes, "backups" of "one-step backups", may be what
    # abstracts call "operators")
    offered = [alternative.split() for alternative in re.split(r",|/|\bor\b|\band\b", what) if alternative.strip()]
    # (the word right before the head counts as an adjective too: "speculative decoding")
    unheard = [unknown(" ".join(words[:-1]).replace("-", " ")) + (unknown(words[-2], "ADJ") if words[1:] else [])
               for words in offered] if (unknown and own and not other_kind) else []
    said = sorted({w for words in unheard for w in words}, key=what.lower().find)  # (in the user's order)
    return said if unheard and all(unheard) else []


def unshared(question: str, texts: list[str]) -> list[str]:
    """"btw do any of these papers forecast stock prices?": the topic words of a yes/no question about the papers on
    the table when none of their ``texts`` writes any of them (one written, "do any of them handle video?", is for
    the answer to say which)."""
    from rag.nearmiss import asking_words
    from rag.topic_words import own_topic_words

    words = sorted((w for w in own_topic_words(question) - asking_words() if w.isalpha() and w not in _CHAT),
                   key=question.lower().find)  # (in the user's order)
    return words if words and len(unstated(words, texts)) == len(words) else []


# "which toxicity assays did they run?", "what tissue or cancer types are in their data?": what is asked for, qualified
_QUALIFIED = re.compile(r"\b(?:which|what)\s+(?P<by>(?:[a-z][\w-]*\s+){1,3}?)[a-z][\w-]*\s+(?:did|do|does|were|are|"
                        r"was|is|have|has|had)\b", re.IGNORECASE)


def unqualified(question: str, unknown: Callable[[str], list[str]], misspelt: Callable[[list[str]], dict]) -> list[str]:
    """"which toxicity assays did mCLM run?": a noun qualifying what is asked for that no indexed abstract writes
    (``unknown``: ``NameIndex.unknown_words``), so no abstract can say which. Only an English noun, or a word the
    lexicon lacks that is not shorthand or a misspelling (``misspelt``: ``NameIndex.spelling_fixes``): not "which
    familiar heuristics", "which spec language", "what other benchmakr papers". (The head, "assays", may be what
    abstracts word otherwise; measured on the development sets: five refusals gained, no answered turn refused.)"""
    from rag.nearmiss import word_readings

    asked = _QUALIFIED.search(question)
    words = sorted(unknown(asked.group("by")), key=question.lower().find) if asked else []  # (in the user's order)
    return [w for w in words if (readings := word_readings(w)) == {"NOUN"} or not readings and len(w) >= 6
            and not misspelt([w])]
