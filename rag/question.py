"""What shape a question has: one paper, a list of papers, or a comparison of named papers. Rules over surface forms,
deliberately simple and language-light (English and Chinese cue words); they only decide *how* to retrieve and how
many papers to keep, never what is true."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.coref import common_acronym
from rag.list_intent import SETTING_ASIDE, asks_for_list, offers_topics
from rag.multilingual import needs_multilingual
from rag.tokens import QUESTION_WORDS, WHERE_FIRST, content_words, keyword_query, stems
from rag.types import QuestionKind, QuestionShape

# Setting papers out side by side ("Put A next to B", "A and B side by side"): a comparison, whose setting-out words
# are no part of either piece.
_PUT, _BESIDE, _SIDE_BY_SIDE = r"(?:put|set|place|lay)", r"(?:next\s+to|beside|alongside)", r"side[\s-]+by[\s-]+side"
# Strong cues make a comparison of whatever pieces the question names; weak ones need two names.
_COMPARE = re.compile(r"\b(compare[sd]?|comparison|comparing|differ|differs|difference|differences|differently|vs\.?|"
                      r"versus|contrast|different\s+(?:from|than|to)|relates?\s+to|in\s+common|"
                      rf"(?:stack(?:s|ed)?|measures?)\s+up\s+(?:against|to|with)|{_SIDE_BY_SIDE}|"
                      r"juxtapos(?:e|es|ed|ing)|"
                      # ("Put the IAR provenance paper next to ShapeGen4D: …")
                      rf"{_PUT}\s(?:[^.?:;]{{0,80}}?\s)?{_BESIDE})\b|比较|对比|区别|不同",
                      re.IGNORECASE)
# "According to the paper on implicit reward models, why … compared to explicit ones?": one paper, whatever it compares
_ONE_PAPER = re.compile(r"\b(?:according\s+to|in|from|for)\s+the\s+(?:paper|work|study)\s+(?:on|about|that|which|"
                        r"where)\b", re.IGNORECASE)
_COMPARE_WEAK = re.compile(r"\b(each|both|respectively)\b|分别|各自", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[?:？：]|\.\s")
_PREAMBLE = re.compile(r"^[^:?.]{3,100}(?:[:：]|\s[–—-])\s")
# Where the papers being compared are separated from each other.
_SEPARATORS = re.compile(
    rf"\s*(?:,|;|:|\?|\.\s|\s(?:and|vs\.?|versus|with|from|to|or|against|{_BESIDE})\s|"
    r"和|与|跟|以及|、)\s*", re.IGNORECASE)
_SET_OUT = re.compile(rf"^{_PUT}\s+|\s+{_SIDE_BY_SIDE}$", re.IGNORECASE)
_DESCRIBED = re.compile(r"^(?:the|that|this)\s+(?:paper|work|study|one)\s+(?:about|on|that|which|where|with|for)\b",
                        re.IGNORECASE)
_CALLED = re.compile(r"^(?:the|that|this|these|those|its?|their|a|an|one)\b", re.IGNORECASE)
CUE_WORDS = frozenset("compare compared comparing comparison differ differs difference differences different "
                      "differently vs versus contrast each both way ways one".split())
# Name-like tokens: internal capitals or digits (SIGMark, D2F, ShapeGen4D), acronyms (ARPG), hyphenated
# compounds with a capital (TRIM-KV, OR-PRM). Used to tell "asks about a named thing" from topic words.
_NAME = re.compile(r"\b(?:[A-Za-z][a-z0-9]*[A-Z0-9][\w]*|[A-Z]{2,}[a-z]*|[A-Za-z]+[0-9][\w]*)(?:\.[0-9]+\w*)*"
                   r"(?:-[A-Za-z0-9]+(?:\.[0-9]+\w*)*)*\b|\b[A-Za-z]+(?:-[A-Za-z0-9]+(?:\.[0-9]+\w*)*)+\b", re.ASCII)
# (A version stays in the name: "Qwen2.5-VL", "Llama-3.1". ASCII: in "LLM里的attention" 里 ends the name.)
_KIND_OF = re.compile(r"-(?:style|like|based|related|type|inspired|driven|esque|something|whatever|ish)$", re.I)
MAX_PARTS = 4
# "(SIGMark is also about video.) Between the slowness study and SIGMark, where does … in each?": the pair it sets out
_BETWEEN = re.compile(r"(?:^|(?<=[.!?])\s)\W*(?:(?:so|now|and|ok(?:ay)?),?\s+)?between\s+(?P<pair>[^,?;:.]{2,160}?\s"
                      r"(?:and|vs\.?|versus)\s[^,?;:.]+?)\s*[,:?]", re.IGNORECASE)
LIKENED = re.compile(r"\b([\w.]+)-(?:style|like|esque|inspired)\b", re.IGNORECASE)  # "BERT-style", "GPT-like"
_LIKENED_TO = re.compile(r"\b(?:similar\s+to|à\s+la|a\s+la|akin\s+to|in\s+the\s+(?:spirit|style)\s+of|inspired\s+by|"
                         r"along\s+the\s+lines\s+of|(?:kind|sort)\s+of\s+like)\s+(?:the\s+)?([\w.-]+)", re.IGNORECASE)


# Two names joined by a word ("the MAs-in-DiTs paper"): each a name; not capitals on one side ("Best-of-N").
_ACRONYM_LIKE = r"[A-Za-z\d]*[A-Z][a-z\d]*[A-Z][A-Za-z\d]*"
_JOINED = re.compile(rf"({_ACRONYM_LIKE})-(?:in|for|on|of|with|vs|and|to|from)-({_ACRONYM_LIKE})")


def names_in(question: str) -> list[str]:
    found = []
    for match in _NAME.finditer(question):
        # "Dafny-style", "TRIM-KV-based", a name half remembered ("VeriEquiv-something"): the name is what comes before
        token = _KIND_OF.sub("", match.group(0))
        if token != match.group(0) and not _NAME.fullmatch(token) or question[match.start() - 1: match.start()] == "-":
            continue  # (and not the tail of a compound opening with a digit: "beats-8B" of "that 1B-beats-8B thing")
        if _common(token):  # (plain capitalised words and common acronyms are not names of methods)
            continue
        if "-" in token and all(part.isalpha() and part.islower() or common_acronym(part) or (
                i == 0 and part in ("N", "K", "M")) for i, part in enumerate(token.split("-"))):  # ("N-times")
            continue  # ordinary hyphenated words: "post-hoc", "long-context", "sci-ML", "diffusion-LLMs"
        joined = _JOINED.fullmatch(token)
        found.extend([piece for piece in joined.group(1, 2) if not _common(piece)] if joined else [token])
    return found


def _common(token: str) -> bool:
    """A question word or a short common acronym ("KV", "RL"): no method's name."""
    return token.lower() in QUESTION_WORDS or (token.isupper() and len(token) <= 3 and "-" not in token
                                               and not any(c.isdigit() for c in token))


def likened(question: str) -> list[str]:
    """The names a question uses only to describe a kind of thing ("kind of BERT-style", "a GPT-like decoder",
    "evolving heuristics, similar to AlphaEvolve"): an absent one says what the user means, not what a paper names."""
    return [m.group(1) for pattern in (LIKENED, _LIKENED_TO) for m in pattern.finditer(question)]


def without_likened(question: str) -> str:
    """The question without the names it likens what it asks to ("kind of BERT-style", "similar to AlphaEvolve")."""
    return _LIKENED_TO.sub(" ", LIKENED.sub(" ", question))


# "which papers report a concrete speedup factor (like 3x or 10x)?": what the user would count, not what a paper must
# say; "… a new benchmark (not just a training dataset)?": what the papers are not ("… (ignoring the TikZ one)": what
# it leaves out; "… problems (TSP, bin packing, LP/MIP modeling, that sort of thing)?", "(building PRMs, analyzing RMs,
# improving verifiers...)", after a dash, open-ended: "… - routing, TSP, bin packing, that sort of thing?": examples)
# (what closes a run of examples, open-ended: "…", "etc.", "and so on"; after a dash also "and the like")
OPEN_ENDS = r"\.\.\.|…|\betc\.?|\bthat\s+sort\s+of\s+thing|\band\s+so\s+on|\bor\s+similar"
DASHED_EXAMPLES = (r"\s+[-–—:]\s+((?:[^()?;!,:–—]{1,40},\s*)+[^()?;!,:–—]*?"
                   rf"(?:{OPEN_ENDS}|\band\s+the\s+like))\s*(?=[?!]|$)")
# (the words that leave something out, in brackets and after a comma alike; examples closing it: ", like 'N× faster'?")
_LEAVING = r"excluding|ignoring|apart\s+from|aside\s+from|not\s+counting|leaving\s+out|but\s+not"
_EXAMPLES = re.compile(r"\s*\((?:(?:like|e\.\s?g\.?|eg|such\s+as|for\s+(?:example|instance)|say|not|except|"
                       rf"other\s+than|besides|{_LEAVING})\b[^()]*|[^()]*,[^()]*(?:{OPEN_ENDS})\s*)\)|"
                       + DASHED_EXAMPLES +
                       r"|,\s*(?:(?:something|anything|stuff|things)\s+)?(?:like|e\.\s?g\.?|such\s+as|say)\s+"
                       r"[^,;()?!]{1,40}?(?=\s*[?!]*\s*$)"
                       r"|,\s*[^,;()?!]{1,40}?\s+(?:and|or)\s+the\s+like(?=\s*[?!]*\s*$)", re.I)  # ("…, or the like")
# What such a bracket or clause leaves out ("ignoring the TikZ one", "Besides the X one, …"): its papers are not listed
_LEAVES_OUT = re.compile(rf"\((?:except(?:\s+for)?|other\s+than|{_LEAVING}|not)\s+([^()]*)\)|,\s*(?:except(?:\s+for)?|"
                         rf"{_LEAVING})\s+([^,?.;!()]*)|^\W*{SETTING_ASIDE}\s+([^,?.;!()]{{3,60}}),", re.IGNORECASE)


def left_out(question: str) -> str:
    """What a search leaves out ("which papers … (ignoring the TikZ one)?", "Besides the TikZ one, which …?")."""
    return " ".join(part for m in _LEAVES_OUT.finditer(question) for part in m.groups() if part)


# "… rather than GANs", ", not RL fine-tuning of LLMs": what a search leaves out, to the end of its clause
EXCLUDED = re.compile(r"(?i)\s*(?:,\s*(?:but\s+)?not|,?\s*(?:rather\s+than|as\s+opposed\s+to|instead\s+of)"
                      r"|,\s*except(?:ing)?|,\s*excluding)\s+")


def without_examples(question: str) -> str:
    """A search for papers without the examples it gives, or what it excludes, in brackets or after "rather than"
    ("which ones are about visual perception rather than generating images?": not a search for image generation)."""
    return re.sub(rf"{EXCLUDED.pattern}[^,?.;!]*", "", _EXAMPLES.sub("", question))


def comparison_parts(question: str) -> list[str]:
    """The pieces of a comparison's first clause that each point at one paper (those with topic words); the first
    clause naming several, after a preamble ("I have three papers open: the one on …, ARPG, and GtR. …")."""
    def pieces(clause: str) -> list[str]:  # ("the paper about central vision and slowness in …": one paper described;
        # what follows it joined on, unless a name or a word calling another: "… and the jigsaw one", "… and ARPG")
        found: list[str] = []
        for p in (_SET_OUT.sub("", p.strip()) for p in _SEPARATORS.split(clause)):
            if found and _DESCRIBED.match(found[-1]) and p and not (names_in(p) or _CALLED.match(p)):
                found[-1] = f"{found[-1]} and {p}"
            elif [w for w in content_words(p) if w not in CUE_WORDS]:
                found.append(p)
        return found

    if (pair := _BETWEEN.search(question)) and len(found := pieces(pair.group("pair"))) >= 2:
        return found[:MAX_PARTS]
    clauses = _CLAUSE_END.split(question, maxsplit=2)
    head = re.split(r"\s[–—-]\s", clauses[0], maxsplit=1)[0]  # ("OR-PRM and RGM both … - how does each …?")
    parts = pieces(head) if len(pieces(head)) >= 2 else pieces(clauses[0])
    if len(parts) < 2 and len(clauses) > 1 and question[len(clauses[0])] in ":：" and not (  # (not "Compare it
            parts and wants_comparison(clauses[0])):  # with the paper about …: where does each …?", one piece named)
        parts = pieces(clauses[1]) if len(pieces(clauses[1])) >= 2 else parts
    named = [i for i, part in enumerate(parts) if _NAME.search(part)]
    if len(named) >= 2:  # unnamed pieces after the named ones say how they are compared, not what else:
        parts = parts[: named[-1] + 1]  # "… differ from Diff-NPO in the way it learns from negative preferences"
    return parts[:MAX_PARTS]


def comparison_context(question: str) -> str:
    """What a comparison asks about every compared piece: the topic words after its first clause ("ARPG vs GtR:
    how does each accelerate visual autoregressive generation?" → "accelerate visual autoregressive generation").
    Names there are left out: they would pull every piece's search to the paper naming them ("" if no topic word)."""
    pieces = _CLAUSE_END.split(question, maxsplit=1)
    if len(pieces) < 2:
        return ""
    rest = pieces[1]
    for name in names_in(rest):
        rest = rest.replace(name, " ")
    return "" if not content_words(rest) else " ".join(w for w in keyword_query(rest).split() if w not in CUE_WORDS)


# "They compare several fine-tuning strategies on it, right?", "Do they compare against SnapKV?": what the paper
# compares, not a request to compare papers ("How do they compare?" is one).
_THEY_COMPARE = re.compile(r"(?:^|[.!?]\s+)\W*(?:(?:do|does|did)\s+)?(?:they|it|the\s+authors|the\s+paper)\s+"
                           r"(?:also\s+)?(?:compare[sd]?|contrast)\b", re.IGNORECASE)

# "which other fine-tuning strategies do they compare it against?", "which strategies did they compare and which
# won?": the paper's own baselines, not two papers
_BASELINES = re.compile(r"\b(?:which|what)\b[^?]*?\b(?:do|does|did)\s+(?:they|it|the\s+authors|the\s+paper)\s+"
                        r"(?:also\s+)?compare(?:\s+(?:it\s+|them\s+|\w+\s+)?(?:against|with|to)\b|\s*(?:[?,]|and\b|$))"
                        # (nor is "which papers (in the collection) compare themselves against GPT-5?")
                        r"|\b(?:which|what|any)\s+(?:other\s+)?(?:papers|works|studies)\s+(?:[\w-]+\s+){0,4}?compare\s+"
                        r"(?:themselves|their\s+[\w-]+)\s+(?:against|with|to)\b", re.IGNORECASE)

# "how many turns, in training vs at test time?": two settings of one method set against each other, not two papers
_SETTING = (r"(?:in\s+|at\s+|during\s+|for\s+)?(?:the\s+)?(?:training|train(?:ing)?[\s-]time|inference(?:[\s-]time)?|"
            r"test(?:ing)?(?:[\s-]time)?|evaluation|deployment|decoding|prefill(?:ing)?|pre-?training|fine-?tuning)")
_SETTINGS = re.compile(rf"\b{_SETTING}\s+(?:vs\.?|versus)\s+{_SETTING}\b", re.IGNORECASE)


def wants_comparison(question: str) -> bool:
    return bool(_COMPARE.search(_SETTINGS.sub(" ", question))) and not _THEY_COMPARE.search(question) and not (
        _BASELINES.search(question))


def sets_out_pieces(question: str) -> bool:
    """The question compares (``wants_comparison``), or a preamble sets out what it compares, then asks of each ("A
    and the paper on B - what does each …?")."""
    return wants_comparison(question) or bool(_COMPARE_WEAK.search(re.sub(  # (not "… for each response token?")
        r"\bfor\s+each\s+(?!one\b|of\b|paper)", "", question)) and _PREAMBLE.match(question))


def analyse(question: str) -> QuestionShape:
    described = likened(question)
    names = [n for n in names_in(question) if n not in described]  # (not "BERT" of "BERT-style")
    shape = QuestionShape(kind=QuestionKind.SINGLE, names=names, multilingual=needs_multilingual(question))
    # (a weak cue compares two names, or the pieces a preamble sets out: "PBFM and that diffusion model: … in each?")
    weak = _COMPARE_WEAK.search(question) and (len(set(shape.names)) >= 2 or _PREAMBLE.match(question) or (
        _BETWEEN.search(question)))
    if (_COMPARE.search(_SETTINGS.sub(" ", question)) or weak) and not (
            (_ONE_PAPER.search(question) or _BASELINES.search(question)) and len(shape.names) < 2):
        parts = comparison_parts(question)
        if len(parts) < 2 and len(set(shape.names)) >= 2:
            parts = list(dict.fromkeys(shape.names))[:MAX_PARTS]
        if len(parts) >= 2:
            shape.kind, shape.parts = QuestionKind.COMPARISON, parts
            return shape
    if asks_for_list(WHERE_FIRST.sub("", question)) or offers_topics(question):  # ("across the collection, which
        shape.kind = QuestionKind.LIST  # papers …?")
    return shape


# "What modules does it have, and what does it score on VSI-Bench?", "What data? …", "…, and with what metric?"
_SUB_QUESTION = re.compile(r"\?\s+|(?:[,;]?\s+and|(?<=\.))\s+(?=(?:(?:with|in|on|by|at|for|under)\s+)?(?:what|how|"
                           r"which|who|where|when|why|does|do|did|is|are|can)\b)", re.IGNORECASE)


def sub_questions(question: str) -> list[str]:
    """The questions a turn asks one after another, each with topic words of its own; [] for one question."""
    parts = [p.strip() for p in _SUB_QUESTION.split(question) if p.strip()]
    return parts if len(parts) >= 2 and all(content_words(p) for p in parts) else []


# Words that ask how to compare, not what: "how does each of them work / get it / do it?"
_NOT_AN_ASPECT = frozenset("approach approaches idea method methods technique work works paper papers model models "
                           "similar same actually try trying tries roughly really exactly get gets do does done seem "
                           "seems say says said touch touches interested curious wondering wonder know want some "
                           "any whether anything something fix fixes remedy workaround end ends ability "
                           "abilities capability capabilities role roles play plays played".split())
_OF_EACH = re.compile(r"\b(?:each|either|respectively)\b", re.IGNORECASE)
_SETTING_APART = re.compile(r"\b(?:compar\w*|differ\w*|contrast\w*|vs\.?|versus|unlike|relates?|stacks?\s+up)\b", re.I)


# What a paper is said to stand on, asked of each, is the aspect, not the verb ("… does each one build on?")
_BUILT_ON = re.compile(r"\b(?:build|builds|built|rely|relies|draw|draws|depend|depends|based|rest|rests)\s+(?:up)?on\b",
                       re.IGNORECASE)


def comparison_aspect(question: str, names: list[str], titles: Sequence[str] = ()) -> str:
    """What a comparison asks of each paper, beyond telling them apart ("OR-PRM and RGM both … - how does each get its
    step-level supervision?" → "step-level supervision"): the topic words (in their order) of the clauses asking it of
    each ("each", "either", "respectively") that are not words of the compared papers' ``names`` (short names, the
    pieces naming them) nor words of comparing or referring; "" for "How do these two differ?". Words of their
    ``titles`` count as theirs when two titles share them: asked of each, a word of one title is an aspect
    ("MetaMuse vs ARPG - randomness comes up in both, what role does it play in each?", ARPG's title saying
    "Randomized")."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    from rag.aspects import IN_TERMS
    from rag.nearmiss import word_readings
    from rag.topic_words import GENERIC_WORDS, REFERENCE_WORDS

    def only_a_verb(word: str) -> bool:
        readings = word_readings(word)
        return bool(readings) and "NOUN" not in readings and not word.endswith("ing")  # ("verifying": a gerund)

    split = re.split(r"[?:;？：]|\.\s|\s[–—-]\s", question)
    # ("… in terms of memory use?": what follows, whatever it asks of each; the words any abstract has count there)
    termed = [c[found.end():] for c in split if (found := IN_TERMS.search(c))]
    # (else the clauses setting the papers apart: "how does it decide where to push exploration, compared with
    # RGSD?"; not a sentence before them saying what one does: "Lyra also does dynamic scenes. How does it differ …?")
    clauses = termed or [c for c in split if _OF_EACH.search(c)] or [c for c in split if _SETTING_APART.search(c)]
    titled = [content_words(title) for title in titles]
    theirs = set().union(*(content_words(name) for name in names), *(
        {w for w in words if sum(w in other for other in titled) > 1} for words in titled))
    theirs |= {piece for word in theirs for piece in [*word.split("-"), word.replace("-", "")]}  # ("autoregressive")
    # (English function words too: "against", "but", "out" would make any sentence holding them answer it)
    dropped = theirs | CUE_WORDS | REFERENCE_WORDS | _NOT_AN_ASPECT | {"either", "respectively", "relate", "relates",
                                                                       "stack", "stacks"} | set(
        STOPWORDS_EN_PLUS) | (set() if termed else GENERIC_WORDS)

    def aspect_words(clauses: list[str]) -> list[str]:
        words = []
        for clause in clauses:
            for name in names_in(clause):
                clause = clause.replace(name, " ")  # a name is never an aspect, whichever paper it belongs to
            clause = _BUILT_ON.sub(" ", clause)  # ("what learning paradigm does each build on?": the paradigm)
            words += [w for w in keyword_query(clause).split() if w in content_words(clause) and w not in dropped
                      and not stems({w}) & their_stems and not only_a_verb(w)]  # ("… each one generate?")
        return words

    # ("I'm interested in the gap between generating and verifying. Both … touch on it. What does each say?": what
    # the sentences before it naming neither paper set out)
    their_stems = stems(theirs)
    before = [s for s in re.split(r"(?<=[.!?])\s+", question)
              if not names_in(s) and not stems(content_words(s)) & {stem for stem in their_stems if len(stem) > 3}]
    words = aspect_words(clauses) or (aspect_words(before) if clauses else [])
    return " ".join(dict.fromkeys(words))
