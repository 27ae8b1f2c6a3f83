"""What the papers a turn is about do not state: a detail it asks for ("Which GPU did they use?") or a name it offers
("… Sora or HunyuanVideo?") that none of their abstracts mentions. Such a turn is refused, naming the papers and the
missing words, rather than answered with the papers' nearest sentences (which would read as if they answered it)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from bm25s.stopwords import STOPWORDS_EN_PLUS

from rag import prompts
from rag.coref import common_acronym, common_long
from rag.nearmiss import word_readings
from rag.own_limits import unlimited
from rag.asks import asked_thing, uncounted, unnamed, unreleased, unset, unstated
from rag.figures import unbased, unmeasured, unranked, unrivalled, unscored
from rag.question import names_in, sub_questions
from rag.retrieval.titles import coined_names
from rag.tokens import squash
from rag.tried_on import YES_NO, unfit, unqualified, unshared
from rag.types import QuestionKind

if TYPE_CHECKING:
    from rag.retrieval.names import NameIndex
    from rag.types import Paper, Turn

# Candidates the user offers at the end ("…, qwen or llama?", "… on Hyena or Mamba?", "… test on, helmholtz?
# poisson?", "which PDEs exactly, navier-stokes, darcy flow, burgers?", "… did they run - mujoco? atari?")
# or after the question ("… post-train? qwen2.5-vl?"): one word each.
_OFFERED = re.compile(r"(?:[,:;?]|\s[-–—]+|\b(?:on|in|with|like|at|from|using|via|say|against|than)\b)\s*"
                      r"((?:[A-Za-z][\w.\-]*(?:\s+[A-Za-z][\w\-]*)?\??\s*(?:,|/|\bor\b|\?)\s*)+[A-Za-z][\w.\-']*"
                      r"(?:\s+[a-z][\w\-]*){0,2})\s*"
                      r"(?:,?\s*(?:or\s+)?(?:something|anything)(?:\s+(?:else|like\s+that|similar))?)?\s*(?:\.{2,}|…)?"
                      r"\s*\?+\s*$")
# "… did they test, e.g. 1024 or 2048 tokens?", "… such as LRU?": the examples the user expects in the answer.
_EXAMPLES = re.compile(r"\b(?:e\.\s?g\.|such\s+as|for\s+(?:example|instance))\s*,?\s*([^?!;]+?)\s*"
                       r"(?:,?\s*(?:or\s+)?(?:something|anything)\s+else|,?\s*etc\.?)?\s*[?.!]*\s*$", re.IGNORECASE)
# "do they run gurobi or some other commercial solver …?": the example the user offers of what they ask about
_OR_OTHER = re.compile(r"\b([A-Za-z][\w.\-]*)\s+or\s+(?:some|any)\s+other\b", re.IGNORECASE)
_OFFERED_ONE = re.compile(r"\?\s+([A-Za-z][\w.\-]*\d[\w.\-]*|[A-Za-z]*[A-Z][\w.\-]*)\s*\?\s*$"
                          # "what preference data did they train on, ultrafeedback?": one guess after the question
                          r"|^\W*(?i:which|what)\b[^,?]*\s(?i:on|in|with|from|use|used|using)\s*,\s*"
                          r"([A-Za-z][\w.\-]*)\s*\?\s*$")
# One name at the end, after a preposition ("Does it work with Mamba?"): missing when no indexed abstract has it.
# ("was that cloud provider Azure?": one named as what the thing was)
_LONE = re.compile(r"(?:\b(?:with|on|to|against|for|in|using|via|like)|"
                   r"^\W*(?:was|is|were|are)\s+(?:that|it|this|the|their|its)"
                   r"(?:\s+[a-z][\w-]*){0,3})\s+([A-Z][A-Za-z0-9.\-]{2,})\s*\?+\s*$")
_ASKING = frozenset("what which how why who where when whats is are does do did can could would should".split())
_NOT_OFFERED = frozenset("or a an the maybe perhaps something anything else other others both either neither right "
                         "correct true".split())
_LOOSE = frozenset("whatever whichever etc".split())
_SOME = frozenset("some any a an the".split())
# An acronym, or one in the plural ("LLMs", "PDEs"), may be written out in an abstract: missing only when its long
# form is missing too.
_ACRONYM = re.compile(r"^[A-Z]{2,}[a-z]?s?$")


def unless_unstated(turn: Turn, papers: list[Paper], names: NameIndex | None = None,
                    long_form: Callable[[str], str] | None = None) -> None:
    """Refuses the turn when it asks for a detail or a metric ``papers`` do not state, a count they never give, which
    model did best on a benchmark naming none, whether the method works for something none mentions, or (given
    ``names``) offers a name none of them contains (an acronym, nor its ``long_form`` as the corpus defines it:
    "PINNs", "physics-informed …"). A choice among them only when asked yes or no ("Do any of those include
    Navier-Stokes?"); "which of them …?" says what each one holds instead."""
    texts = [f"{p.title} {p.search_text}" for p in papers]
    if turn.shape.kind is QuestionKind.CHOICE:
        if YES_NO.match(turn.question) and names and (absent := absent_names(turn.question, papers, names, long_form)
                                                      or unshared(turn.question, texts)):
            not_stated(turn, papers, absent)
        return
    # Each question of a turn asking several ("Which operators did they test on, and how large were the matrices?")
    clauses = sub_questions(turn.question) or [turn.question]
    missing = [w for c, thing in zip(clauses, map(asked_thing, clauses))
               for w in unstated(thing, texts) + unnamed(c, thing, texts) + unset(c, texts)] + unmeasured(
        turn.question, texts) + unreleased(turn.question, texts) + unbased(turn.question, texts) + (
        absent_names(_asked(turn), papers, names, long_form) if names else [])
    missing = missing or (none_offered(turn.question, texts) if names else [])  # "…, qwen or llama?": neither there
    missing = missing or unfit(turn.question, texts, names.unknown_words if names else None)  # "… for Chinese?"
    missing = missing or (unheard(turn.question, names) if names else [])  # "Does it work with Mamba?"
    missing = missing or unlimited(turn.question, [e for e in turn.evidence if e.hit.paper in papers])  # "limits?"
    missing = missing or (unshared(turn.question, texts) if len(papers) > 1 and YES_NO.match(turn.question) else [])
    missing = missing or (untitled(turn.question, names) if names else [])  # "… on Oxford Flowers?"
    missing = missing or (unindexed(turn.question, names) if names else [])  # "… against plain LRU for …?"
    missing = missing or (unqualified(turn.question, names.unknown_words, names.spelling_fixes) if names else [])
    counted = [w for c in clauses for w in uncounted(c, texts)]  # "How many problems are in it?": never counted
    counted += unscored(turn.question, texts)  # "What exact bit accuracy …?": no figure of it
    missing += [w for w in counted if unstated([w], texts)]  # "… how large were the matrices?": never mentioned
    counted = [w for w in counted if w not in missing]
    if missing:
        not_stated(turn, papers, missing)
    elif unranked(turn.question, [p.title for p in papers], texts):
        not_stated(turn, papers, ["models"], prompts.REFUSAL_NOT_RANKED)
    elif unrivalled(turn.question, texts):
        not_stated(turn, papers, ["models"], prompts.REFUSAL_NOT_RIVALS)
    elif counted:
        not_stated(turn, papers, counted, prompts.REFUSAL_NOT_COUNTED)
    elif spelled := unspelled(turn.question, papers):
        not_stated(turn, papers, spelled, prompts.REFUSAL_NOT_SPELLED)


def _asked(turn: Turn) -> str:
    """What the turn asks of the papers it points at: not a preface naming others ("Between A and B, what does the
    second one …?": the part after it, which ``references`` resolved)."""
    return turn.said if turn.said and turn.said in turn.question else turn.question


# "What does TAPO (actually) stand for?", "what's FTS short for?", "TAPO stands for what?": an acronym's long form.
_STANDS_FOR = re.compile(r"\b(?i:what(?:\s+(?:does|do|is|did)|['’]?s)\s+(?:the\s+)?)([A-Za-z][\w-]*[A-Z][\w-]*)\s+"
                         r"(?i:(?:\w+ly\s+)?(?:stand\s+for|mean|short\s+for))\b"
                         r"|\b([A-Za-z][\w-]*[A-Z][\w-]*)\s+(?i:stands?\s+for\s+what)\b")


def on_last(turn: Turn, papers: list[Paper]) -> bool:
    """A new search that found just the paper the last answer was about ("which PDEs exactly, navier-stokes, darcy
    flow, burgers?" after PBFM): asked of it, as a reference to it would be (the names it offers checked too)."""
    from rag.references import last_answered

    last = last_answered(turn.table)
    return last is not None and [p.paper_id for p in papers] == list(last.listed)


def unspelled(question: str, papers: list[Paper]) -> list[str]:
    """The acronym whose long form the question asks for when none of ``papers`` defines it ("long form (TAPO)")."""
    asked = _STANDS_FOR.search(question)
    acronym = (asked.group(1) or asked.group(2)) if asked else ""
    return [acronym] if acronym and not any(acronym.lower() in {a.lower() for a in p.acronyms} for p in papers) else []


def unless_offered(turn: Turn, papers: list[Paper], names: NameIndex) -> None:
    """Refuses a turn comparing ``papers`` with candidates it offers ("was it compared against LRU or Belady's
    optimal policy?") none of their abstracts mentions, or with a name or (in the piece compared with) a lower-case
    compound no abstract writes ("is it compared against Concorde on TSP?", "… against next-scale prediction
    models?"); other words it compares with are the comparison's own."""
    titles = {p.title for p in papers}
    if missing := none_offered(turn.question, [f"{p.title} {p.search_text}" for p in papers]) or unindexed(
            turn.question, names) or unwritten(" ; ".join(p for p in turn.shape.parts if p not in titles), names):
        not_stated(turn, papers, missing)


# A compound ending in a word that makes any noun an adjective ("LLM-based", "RL-driven"): no abstract need write it.
_LOOSE_TAILS = frozenset("based driven free like style aware level specific oriented only centric agnostic friendly "
                         "guided conditioned augmented enhanced powered related type wise".split())


def unwritten(text: str, names: NameIndex) -> list[str]:
    """The lower-case hyphenated compounds of ``text`` ("next-scale prediction models") that no indexed abstract
    writes, hyphenated or spaced: what a paper is compared with is in no paper."""
    found = []
    # (not one calling a paper: "… from the memory-classification paper's?")
    for compound in re.findall(r"(?<![\w-])([a-z]+(?:-[a-z]+)+)(?![\w-])(?!\s+(?:paper|one|work|study)\b)", text):
        if compound.rsplit("-", 1)[1] in _LOOSE_TAILS:
            continue
        if not names.papers_mentioning(compound):  # (which finds it spaced too: ``tokens.word_forms``)
            found.append(compound)
    return found


# Examples in brackets ("(gpt-4o/5, o3-mini etc)", "(e.g. Llama)"): illustrations, not names the papers must hold.
_ILLUSTRATED = re.compile(r"\(\s*(?:e\.g\.|such\s+as|like)[^()]*\)|\([^()]*(?:\betc\.?|…|\.\.\.)\s*\)", re.IGNORECASE)


def absent_names(question: str, papers: list[Paper], names: NameIndex,
                 long_form: Callable[[str], str] | None = None) -> list[str]:
    """The names in the question none of ``papers`` contains, but for names a handful of other papers hold ("Let's
    take MoH and MaskCO. What does the first one learn?": MaskCO is another paper's), of one paper only a name a paper
    calls itself ("was that run on DeepSeekMoE?" is refused), and acronyms they write out (or may: one other papers
    use but none defines)."""
    ids, text = {p.paper_id for p in papers}, " ".join(f"{p.title} {p.search_text}" for p in papers).lower()
    question = _ILLUSTRATED.sub(" ", question)  # ("… beating the big proprietary ones (gpt-4o/5, o3-mini etc)?")

    def written_out(name: str) -> bool:
        if (long := common_long(name)) and long in text:  # "small LMs": "language
            return True  # models" (a field's acronym, which an abstract need not define)
        spelled = long_form(name) if long_form and _ACRONYM.match(name) else ""
        return bool(_ACRONYM.match(name)) and (spelled in text if spelled else bool(names.papers_mentioning(name)))

    def owned(name: str) -> bool:  # some paper calls itself so ("MaskCO", "MoH"), not only mentions it ("DeepSeek-MoE")
        own = [{p.short_name, p.given_name, *coined_names(p), *names.title_words(pid)} for pid in
               names.papers_mentioning(name) if (p := names.papers.get(pid))]
        return any(squash(name) in {squash(o) for o in names_of if o} for names_of in own)

    return [n for n in dict.fromkeys(names_in(question)) if not written_out(n)
            and not ids & set(names.papers_mentioning_version(n)) and not (names.is_distinctive(n) and (
                owned(n) or len(papers) > 1))]  # (asked of several papers, a name may be another's: not refused)


# A short acronym ("… against plain LRU for the caching problem?") or a capitalised word ("… is there an Isabelle
# track too?", "… Rust repos?"), not opening a sentence: ``names_in`` leaves such words out (most short acronyms are a
# field's, most capitalised words open a sentence), but one no indexed abstract writes is a name the user offers,
# which the papers pointed at cannot hold.
_CAPITALISED = re.compile(r"(?<![\w-])([A-Z]{2,3}|[A-Z][a-z]{3,})(?![\w-])")
_OPENS = re.compile(r"(?:^|[.!?:;]\s+|\s-+\s+|\()\W*$")
_SHORTHAND = frozenset("imo imho tbh fyi btw asap lol afaik iirc ok vs and or not the yes no".split())


def unindexed(question: str, names: NameIndex) -> list[str]:
    """The short acronyms and capitalised words of the question (not opening a sentence) that no indexed abstract or
    title writes, in any case or version."""
    found = []
    for match in _CAPITALISED.finditer(question):
        word = match.group(1)
        if _OPENS.search(question[:match.start()]) or word.lower() in _SHORTHAND or common_acronym(word):
            continue
        if not names.papers_mentioning_version(word):
            found.append(word)
    return found


# A name of two to four capitalised words ("… on Oxford Flowers?", "results on Conceptual Captions?", "the
# Schema-Guided Dialogue dataset"), not opening a sentence: a dataset or benchmark named in English words.
_TITLE_WORD = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*"
_TITLED = re.compile(rf"(?<![\w-]){_TITLE_WORD}(?:\s+{_TITLE_WORD}){{1,3}}(?![\w-])")


def untitled(question: str, names: NameIndex) -> list[str]:
    """The question's names of capitalised words that no indexed abstract or title writes, the papers asked about
    among them (in any case, hyphens and punctuation read as spaces, as ``NameIndex.words`` holds them: "Test-Time
    Scaling" is there)."""
    found = []
    for match in _TITLED.finditer(question):
        words = match.group(0).split()[1 if _OPENS.search(question[:match.start()]) else 0:]  # ("Does Stable …")
        phrase = " ".join(re.findall(r"[0-9a-z]+", " ".join(words).lower()))
        if len(words) >= 2 and not any(phrase in text for text in names.words.values()):
            found.append(" ".join(words))
    return found


def offered(question: str) -> list[str]:
    """The candidates a question offers for its answer ("which base LLM …, qwen or llama?" → qwen, llama; "… e.g.
    1024 or 2048 tokens?" → 1024, 2048), each by its first word ("Belady's optimal policy" → Belady)."""
    for pattern, least in ((_OFFERED, 2), (_EXAMPLES, 1)):
        if match := pattern.search(question):
            # one candidate is an offer when the user hedges it ("… on, scannet or something?")
            least = 1 if re.search(r"\b(?:something|anything)\b", match.group(0), re.IGNORECASE) else least
            pieces = [p.split() for p in re.split(r"\s*(?:[,/?]|\bor\b|\band\b)\s*", match.group(1)) if p.strip()]
            if any(p[0].lower() in _ASKING | _LOOSE for p in pieces):  # "…, right? what is it?": a question, not an
                continue  # offer; nor "- data pipeline, schedule, whatever they emphasize?", aspects as examples
            if any(len(p) > 1 and p[0].islower() and "ADJ" in word_readings(p[0]) for p in pieces):
                continue  # "…, automatic metrics or actual people?": kinds of a thing described, no names offered
            if all(len(p) == 1 and _graded(p[0]) for p in pieces):  # "- heavy or light?": a scale, for the answer
                continue
            # each by its first word after "some" / "any" ("some SSM / mamba thing?": SSM, mamba)
            firsts = [next((w for w in p if w.lower() not in _SOME), "") for p in pieces]
            items = [re.sub(r"['’]s$", "", w) for w in firsts if w and w.lower() not in _NOT_OFFERED]
            if any(i.lower() in STOPWORDS_EN_PLUS for i in items):  # "… say about checking / verifying …?": no offer
                continue
            if least <= len(items) <= 5:
                return items
    match = _OFFERED_ONE.search(question) or _OR_OTHER.search(question)
    one = next((g for g in match.groups() if g), "") if match else ""
    return [one] if one and one.lower() not in _NOT_OFFERED | _ASKING | set(STOPWORDS_EN_PLUS) and not one.endswith(
        "ly") else []  # (not "…, exactly?")


def _graded(word: str) -> bool:
    """An adjective with a comparative ("heavy": "heavier"), from lemminflect's lexicon."""
    from lemminflect import getAllInflections

    return "JJR" in getAllInflections(word.lower(), upos="ADJ")


def without_offered(question: str) -> str:
    """The question without the candidates it offers ("which environments? meta-world, atari, something else?" →
    "which environments?"): the user's guesses, not what the question is about."""
    for pattern in (_OFFERED, _EXAMPLES):
        if (match := pattern.search(question)) and offered(question):
            return (question[:match.start(1)] + question[match.end():]).strip() or question
    return question


def unheard(question: str, names: NameIndex) -> list[str]:
    """The one name a question ends on ("… with Mamba?") when no indexed abstract or title holds it."""
    lone = _LONE.search(question)
    return [lone.group(1)] if lone and not names.papers_mentioning_version(lone.group(1)) else []


def none_offered(question: str, texts: list[str]) -> list[str]:
    """The candidates the question offers when ``texts`` hold none of them (in any case, with a version or a plural:
    "qwen" in "Qwen2.5", "A100s" in "A100"); [] when one of them is there ("and on TSP, speed-wise?") or none is
    offered."""
    held = " ".join(texts).lower()
    candidates = offered(question)
    return [] if any(re.search(rf"(?<![a-z0-9]){re.escape(c.lower().removesuffix('s'))}(?:[\d.]+[a-z]*)?s?(?![a-z])",
                               held) for c in candidates) else candidates


def not_stated(turn: Turn, papers: list[Paper], missing: list[str], says: str = prompts.REFUSAL_NOT_STATED) -> None:
    """Refused, naming the papers and the words none of their abstracts mentions (or counts, with ``says``)."""
    if papers and missing:
        listed = [p.short_name for p in papers]
        many = len(listed) > 1
        turn.decision.refused, turn.decision.chosen, turn.decision.about = True, [], [p.paper_id for p in papers]
        turn.decision.reason = says.format(
            abstracts="abstracts" if many else "abstract", verb="do" if many else "does",
            papers=" and ".join([", ".join(listed[:-1]), listed[-1]] if many else listed),
            things=" or ".join([", ".join(f"“{w}”" for w in missing[:-1]), f"“{missing[-1]}”"] if missing[:-1]
                               else [f"“{missing[0]}”"]), them="them" if many else "it")
