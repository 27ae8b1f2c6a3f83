"""Properties a question asks papers to have, by a comparative or a verb ("faster", "speeding up", "cheaper",
"smaller"): abstracts write a speedup ("3.72× speedup"), acceleration, latency, memory, cost, pruning or
compression. Beside the question's other topic words ("making *generation* faster") they find the papers it asks for,
which its words as written miss ("making generation faster": no abstract says "making", few say "faster"; MiniLM ranks
such a loose topic poorly).

Hand-written word lists, like ``rag.fields`` (no offline package maps "faster" to "speedup"). A paper has the property
when it claims it, not when it mentions it in passing ("competitive inference speed"): its title uses one of the
words, or a sentence using one also holds a ratio ("3.5×", "30 times", "75 percent"), or two of its sentences use
them. It must also use the question's other topic words, all those of one "or" alternative ("generation or inference").
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rag.retrieval import HybridRetriever

# Asked for (question) → written (abstracts). Speed and cost read each other's words and memory: "making inference
# faster" or "cheaper" is asked of KV-cache eviction papers that claim less memory and of decoders claiming speedups.
_PROPERTIES = {
    "speed": (r"\b(?:fast(?:er|est)?|quick(?:er|est|ly)?|speed(?:s|ing|ed)?(?:[\s-]*up)?|speedups?|accelerat(?:e|es|ed|"
              r"ing|ion)|latency|throughput)\b",
              r"\b(?:fast(?:er|est)?|quick(?:er|ly)?|speed(?:s|ed|ing)?|speed-?ups?|accelerat\w*|latency|throughput|"
              r"memory)\b"),
    "cost": (r"\b(?:cheap(?:er|est|ly)?|cost(?:s|ly)?|expensive)\b",
             r"\b(?:cheap(?:er|est)?|cost(?:s|ly)?|expensive|overhead|memory|footprint|fast(?:er|est)?|speed(?:s|ed|"
             r"ing)?|speed-?ups?|accelerat\w*|latency|throughput)\b"),
    "size": (r"\b(?:small(?:er|est)|shrink\w*|compress(?:ed|ing)?|light(?:er|weight))\b",
             r"\b(?:small(?:er|est)|compress\w*|prun\w*|quantiz\w*|sparsif\w*|compact|lightweight|footprint)\b"),
}
_ASKED = {name: re.compile(asked, re.I) for name, (asked, _) in _PROPERTIES.items()}
_WRITTEN = {name: re.compile(written, re.I) for name, (_, written) in _PROPERTIES.items()}
_SAID = {"speed": ("faster", "speedup", "accelerate", "latency", "memory"),
         "cost": ("cheaper", "cost", "memory", "faster"), "size": ("smaller", "compress", "prune", "quantize")}
_RATIO = re.compile(r"\d[\d.,]*\s*(?:×|x\b|times\b|%|percent\b|-?fold\b)", re.I)
_HEDGES = frozenset("roughly approximately overall broadly generally mostly mainly "
                    # (and how a figure is asked for: "Which papers report a concrete speedup factor?")
                    "report reports reported reporting concrete factor factors figure figures number numbers "
                    "give gives giving claim claims claimed actual actually exact specific put puts putting "
                    "quantify quantifies quantified "  # ("which papers put an actual number on a speedup?")
                    # (a ratio's placeholder: "a concrete N-times speedup")
                    "n-times n-fold x-times x-fold k-times k-fold nx".split())
_CACHE: weakref.WeakKeyDictionary[HybridRetriever, dict] = weakref.WeakKeyDictionary()


def written_property(word: str, text: str) -> bool:
    """``word`` asks for a property ("faster") the ``text`` writes in its own words ("a 3.7× speedup")."""
    return any(asked.fullmatch(word) and _WRITTEN[name].search(text) for name, asked in _ASKED.items())


def properties_asked(text: str) -> tuple[list[str], list[list[str]]]:
    """The properties the text asks for and the other topic words of each of its "or" alternatives ("making
    generation/inference faster" → ["speed"], [["generation"], ["inference"]]): no words of reference, place ("in the
    collection") or generic verbs ("making"); an alternative with none left ("… faster or cheaper") adds none."""
    from rag.topics import alternatives

    asked = [name for name, pattern in _ASKED.items() if pattern.search(text)]
    if not asked:
        return [], []
    others = [words for option in alternatives(text) if (words := _other_words(option))]
    return asked, [list(o) for o in dict.fromkeys(map(tuple, others))]


def _other_words(text: str) -> list[str]:
    from rag.topic_words import own_topic_words
    from rag.tokens import stems, without_where
    from rag.topics import GENERIC, STOPWORDS

    rest = without_where(text)
    for pattern in _ASKED.values():
        rest = pattern.sub(" ", rest)
    return sorted(w for w in own_topic_words(rest) if w not in STOPWORDS and w not in _HEDGES
                  and not stems({w}) & GENERIC)


def property_papers(text: str, retriever: HybridRetriever) -> set[str] | None:
    """The ids of the papers claiming a property the text asks for, using every other topic word of one of its "or"
    alternatives (module docstring); None when it asks for no property."""
    from rag.tokens import stems

    asked, others = properties_asked(text)
    if not asked:
        return None
    cache = _CACHE.setdefault(retriever, {})
    key = (tuple(asked), tuple(map(tuple, others)))
    if key not in cache:
        written = [_WRITTEN[name] for name in asked]
        options = [[re.compile(rf"\b{re.escape(stem)}\w*", re.I) for stem in stems(set(o))] for o in others]
        using: dict[str, int] = {}
        index = retriever.sentences
        for row, sentence in enumerate(index.texts):
            if any(p.search(sentence) for p in written):
                pid = index.paper_ids[row]
                using[pid] = using.get(pid, 0) + (2 if _RATIO.search(sentence) else 1)
        found = set()
        for pid, paper in retriever.papers.items():
            whole = f"{paper.display_title} {paper.search_text}"
            if (using.get(pid, 0) >= 2 or any(p.search(paper.display_title) for p in written)) and (
                    not options or any(all(u.search(whole) for u in option) for option in options)):
                found.add(pid)
        cache[key] = found
    return cache[key]


def property_how(text: str, retriever: HybridRetriever | None = None) -> str | None:
    """How ``property_mentions`` found them, for a count's answer; None when the text asks for no property (or, given
    ``retriever``, names no field)."""
    from rag.fields import field_papers

    asked, others = properties_asked(text)
    if not asked:
        return field[1] + ", in any word form" if retriever and (field := field_papers(text, retriever)) else None
    said = " or ".join(dict.fromkeys(f"“{w}”" for name in asked for w in _SAID[name]))
    beside = " or ".join(" and ".join(f"“{w}”" for w in option) for option in others)
    return f"a claim using a word such as {said}" + (f", with {beside}" if beside else "") + ", in any word form"


def property_query(text: str) -> str:
    """The property's words beside the other topic words, to search with ("" when it asks for none)."""
    asked, others = properties_asked(text)
    return " ".join([*(w for name in asked for w in _SAID[name]), *(w for o in others for w in o)]) if asked else ""


def property_mentions(topic: str, ids: list[str], retriever: HybridRetriever
                      ) -> tuple[list[int], list[int], list[str]] | None:
    """``CorpusStats.mentions`` for a topic asking for a property (or naming a field, ``rag.fields``): the positions in
    ``ids`` of the papers claiming it (or using the field's words)."""
    from rag.fields import field_papers

    found = property_papers(topic, retriever)
    if found is None and (field := field_papers(topic, retriever)) is not None:  # ("… chemistry-related?")
        found = field[0]
    return None if found is None else ([i for i, pid in enumerate(ids) if pid in found], [], [topic])


# "How big is their model?", "how big is it", "How many parameters?": the sentence giving the size ("with only 3B
# parameters"; a benchmark's size, in problems, has no such words and takes no sentence's place).
_SIZE_ASKED = re.compile(r"\bhow\s+(?:big|large|small)\s+(?:is|are|was|were)\s+(?:(?:the|their|its|this|that|each)\s+"
                         r"(?:[\w-]+\s+)?models?|it|they)\b(?!\s+(?:the|a|an)\b)|\b(?:model|parameter)\s+(?:size|count)s?\b"
                         r"|\bhow\s+many\s+(?:parameters|params)\b|\bnumber\s+of\s+parameters\b"
                         r"|多少(?:个)?参数|参数(?:量|规模|数量)|模型(?:有)?多大|模型(?:的)?大小", re.I)  # (in Chinese too)
_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s*[BMK]\b|\b\d+(?:\.\d+)?\s*(?:billion|million)\b|\bparameters\b"
                   # (or, of a benchmark or a dataset, how many items it holds: "2,389 complex algorithmic problems")
                   r"|(?<![\w.-])\d[\d,]*\+?\s+(?:[\w-]+\s+){0,2}?(?i:problems|tasks|questions|samples|examples|images|"
                   r"videos|clips|instances|pairs|items|prompts|documents|programs|molecules|scenes|episodes|"
                   r"trajectories|annotations|queries|hours|frames|categories|tokens)\b")

# "Which fine-tuning strategy worked best?": the sentence saying which did ("the MFT strategy consistently achieves
# the most substantial performance improvements").
_BEST_ASKED = re.compile(r"\b(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:worked|works|performed|performs|did|does|was|is|"
                         r"came\s+out)\s+(?:the\s+)?(?:best|most\s+(?:effective|useful))\b", re.I)
_BEST = re.compile(r"\b(?:most\s+(?:substantial|significant|effective)|best|outperform\w*|surpass\w*|superior|"
                   r"highest|strongest)\b", re.I)

# "and as more of the code is taken away?", "what happens as the context grows?": a trend, which the sentence saying how
# a result moves with it answers ("performance degrades rapidly as n increases").
_TREND_ASKED = re.compile(r"^\W*(?:(?:and|so|but)\s+)?(?:as|when|if)\s+(?:(?:the|it|they)\s+)?(?:more|fewer|less|larger|"
                          r"longer|bigger|smaller|harder)\b|\bas\s+(?:the\s+)?(?:[\w-]+\s+){0,3}(?:grows?|increases?|"
                          r"gets?\s+(?:larger|longer|bigger|harder)|scales?\s+up)\b|\bwhat\s+happens\s+(?:to\s+(?:[\w-]+\s+)"
                          r"{0,3})?(?:as|when)\b", re.I)
_TREND = re.compile(r"\bas\s+(?:[\w-]+\s+){0,3}(?:increases?|grows?|decreases?|rises?|scales?)\b|\bdegrad\w*|"
                    r"\b(?:with|for)\s+(?:increasing|growing|more|larger|longer)\b", re.I)

# "what are the two things it adds?", "the three main contributions?": a sentence enumerating as many
_NUMBERED_ASKED = re.compile(r"\b(?:the|its|their)\s+(two|three|four|2|3|4)\s+(?:main\s+|key\s+|big\s+|core\s+)?"
                             r"(?:things|parts|pieces|ideas|contributions|innovations|novelties|components|modules|"
                             r"stages|steps|capabilities|ingredients|changes|tricks|mechanisms|principles)\b", re.I)
_DIGITS = {"two": "2", "three": "3", "four": "4", "2": "two", "3": "three", "4": "four"}
# "what are its main building blocks?": the sentences bringing in a part of the method ("we further design a Segment
# Group-Ordering module (SGO)", "… using a Global set of … keys (GF-PRC)").
_PARTS_ASKED = re.compile(r"\b(?:building\s+blocks?|components?|modules?|ingredients?|main\s+parts|key\s+pieces)\b", re.I)
_PART = re.compile(r"\b(?:modules?|components?|building\s+blocks?)\b|\b(?:design|introduc|propos|us|employ|develop)\w*\b"
                   r"[^.;]*\([A-Z][\w-]*\)", re.I)

# "and the gain in the end?", "how big an improvement?": the sentence giving an improvement with its figure
# ("achieving a maximum absolute improvement of 12.5%"), not another figure ("over 30% of annotations are … flawed")
_GAIN_ASKED = re.compile(r"\b(?:gains?|improvements?|boosts?|uplift)\b|"  # ("and how much did it help in the end?")
                         r"\bhow\s+much\s+(?:[\w-]+\s+){0,3}(?:help|improve|boost|raise|lift)\w*\b", re.I)
_GAIN = re.compile(r"\b(?:improv\w*|gains?|boost\w*|outperform\w*|surpass\w*|better|higher|increas\w*|"
                   r"reduc\w*|lower|fewer)\b", re.I)  # (and less of something bad: "reducing cache misses by up to 35.76%")


def reports(question: str, result: bool) -> Callable[[str], bool] | None:
    """What tells a sentence reporting the measured property the question asks for, if it asks for one: the model's
    size, which of its variants worked best, how a result moves with something (a trend), the method's parts, a count
    ("how many approved drugs …?": a number before "drugs"), or (``result``: it asks how much, not how) a speedup,
    memory or cost saving or a gain with a figure ("the acceleration can be more than 50×" answers "speedup numbers?"
    without "speedup")."""
    from rag.asks import count_written

    # (what the asking sentence asks: not "… into functional building blocks instead of atoms. How many FDA-approved
    # drugs did they test it on?", whose preface names no part asked for)
    said = re.split(r"(?<=[.!])\s+(?=[A-Z])", question.strip())
    question = said[-1] if len(said) > 1 and said[-1].endswith("?") else question
    asked = [name for name, pattern in _ASKED.items() if pattern.search(question)] if result else []
    if numbered := _NUMBERED_ASKED.search(question):  # "what are the two things it adds?": "two key capabilities: (1)"
        count = numbered.group(1).lower()
        enumerating = re.compile(  # (compiled once per question, not per sentence)
            rf"\b(?:{count}|{_DIGITS[count]})\s+(?:[\w-]+\s+){{0,2}}?[\w-]+s\b[^.;]*(?:\(1\)|\b1\)|:)", re.I)
        return lambda sentence: bool(enumerating.search(sentence))
    if _SIZE_ASKED.search(question):
        return lambda sentence: bool(_SIZE.search(sentence))
    if _BEST_ASKED.search(question):
        return lambda sentence: bool(_BEST.search(sentence))
    if _TREND_ASKED.search(question):
        return lambda sentence: bool(_TREND.search(sentence))
    if _PARTS_ASKED.search(question):
        return lambda sentence: bool(_PART.search(sentence))
    if counted := count_written(question):  # "how many approved drugs …?": "430 FDA-approved drugs"
        return lambda sentence: bool(counted.search(sentence))
    if _CARRIES_OVER.search(question):  # "does it help other kinds of verifiers as well?": "Moreover, T1 improves …"
        return lambda sentence: bool(_CARRIED.search(sentence))
    if asked:
        return lambda sentence: bool(_RATIO.search(sentence)) and any(_WRITTEN[n].search(sentence) for n in asked)
    if result and _GAIN_ASKED.search(question):
        return lambda sentence: bool(_RATIO.search(sentence)) and bool(_GAIN.search(sentence))
    return None


# "does its tool trick help other kinds of verifiers as well?", "does it generalize to other tasks?"
_CARRIES_OVER = re.compile(r"^\W*(?:[^?]{0,60}?[,:–—-]\s*)?(?:does|do|did|can|could|would|will)\s+"
                           r"(?:[\w-]+\s+){1,5}?(?:help|improve|benefit|transfer|generali[sz]e|carry|extend)\w*\s+"
                           r"(?:[\w-]+\s+){0,3}?(?:other|others|beyond)\b", re.I)
_CARRIED = re.compile(r"\b(?:moreover|additionally|also|generali[sz]\w*|transfer\w*|beyond|(?:improves?|boosts?|"
                      r"benefits?)\s+(?:[\w-]+\s+){0,4}?both)\b", re.I)


# A figure standing alone ("75 percent", "2,389 problems"), not a name's digits ("GSM8K", "Llama-3.2", "SD3.5")
_FIGURE = re.compile(r"(?<![\w.-])\d[\d.,]*(?![\w-])")


def reported(question: str, sentences: list[str]) -> bool:
    """One of ``sentences`` reports the measured property the question asks for ("How big is it, and …?" of an
    abstract saying "with only 3B parameters"), or, asked for a figure, gives one beside one of the question's own
    topic words ("how big is the memory cut?" of "a 75 percent reduction in memory consumption"): that may be it."""
    from rag.aspects import asks_figure
    from rag.tokens import content_words, stems
    from rag.topic_words import FIGURE_WORDS, own_topic_words

    check = reports(question, True)
    own = stems(own_topic_words(question) - FIGURE_WORDS) if asks_figure(question) else set()
    return any(check(s) if check is not None else bool(own & stems(content_words(s))) and bool(
        _RATIO.search(s) or _FIGURE.search(s)) for s in sentences)
