"""Papers on the table the user points at by what they are called: their own enumeration ("MoH and MaskCO. … the
first one"), a name or title word ("TRIM-KV", "the jigsaw one"), a description ("the one asking why language models
make poor implicit reward models") or how many ("the two"); and the ones a question for "other papers" leaves out."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.coref import common_acronym, short_acronyms
from rag.tokens import QUESTION_WORDS
from rag.types import Shown

_DESCRIBED = re.compile(r"\bthe\s+(?:one|paper|work|study)\s+(?:about|on|asking|that|which|where|with|showing|arguing|"
                        r"proposing|studying|for)\s+([^:?;]+)", re.IGNORECASE)
# (Quoted, a longer piece of its title: "The 'poor implicit reward model' one"; "that multi-channel diffusion model":
# "that" points at a paper shown, where "the reward model" names none.)
# (not "this different from the work that …")
_WORD = r"(?!(?-i:the|a|an|of|from|to|with|and|or|in|on|for|by|than|is|are)\b)[\w\-]+"  # (in lower case: "the OR one")
_CALLED_AS = rf"(?:['‘\"“]([\w\-]+(?:\s+[\w\-]+){{0,5}})['’\"”]|({_WORD}(?:\s+{_WORD}){{0,2}}))"
_ONE_PHRASE = re.compile(rf"\b(?:the|that|this)\s+{_CALLED_AS}\s+(?:one|paper|method|approach|work|study)\b|"
                         rf"\b(?:that|this)\s+{_CALLED_AS}\s+(?:model|framework|benchmark)\b|"
                         # (or what the question is about, up front: "the catalysis benchmark - what tasks …?")
                         # ("going back to the creative-ideation framework: what are its …?")
                         rf"(?:^\W*|\bback\s+to\s+)the\s+{_CALLED_AS}\s+(?:model|framework|benchmark|dataset)"
                         r"\s*(?:[-–—:,])",
                         re.IGNORECASE)
_ASKS = re.compile(r"\W*(?:in|on|at|for|by|with|from|of|to|under|across)\s+(?:which|what|whose)\b",  # ("on which
                   re.IGNORECASE)  # benchmarks?": a clause asking, no paper's name; "what does trim-kv keep?" may be)
_PAPERS = re.compile(r"\b(?:papers|works|studies|articles)\b", re.IGNORECASE)


def user_order(question: str, candidates: list[str], title_words: Callable[[str], set[str]],
               named_in: Callable[[str], list[str]] | None = None) -> list[str]:
    """The papers of ``candidates`` in the order ``question`` names them, if one of its clauses names two or more
    ("Compare MetaMuse and MoH: …", "I'm comparing: TRIM-KV, Tactic and D2F"); given ``named_in``, by the names only
    their abstracts hold too (``called_by``)."""
    from rag.question import names_in
    from rag.tokens import stems

    title_words = called_by(question, title_words, named_in) if named_in else title_words

    if _searches(question):  # "what's here on watermarking … images and videos …?": no paper named
        return []
    for clause in re.split(r"[:.?!]\s+|:", question):
        pieces = re.split(r",\s*(?:and\s+)?|\s+(?:and|vs\.?|versus)\s+|;", clause)
        asking = next((i for i, piece in enumerate(pieces) if i and _ASKS.match(piece)), len(pieces))
        pieces = pieces[:asking]  # (the names come before what is asked: not "…, and on which benchmarks?")
        papers: list[str] = []
        for piece in pieces if len(pieces) >= 2 else []:
            plain = {w.lower() for w in re.findall(r"[\w\-]+", piece)} - QUESTION_WORDS
            words = stems(plain)
            # (a hyphenated word's parts only tell apart papers its whole words match alike: "in-context regression")
            parts = stems({part for w in plain if "-" in w for part in w.split("-") if len(part) > 2}) - words
            named = stems({n.lower() for n in names_in(piece)})  # ("ARPG … a KV cache": ARPG, not TRIM-KV's cache)
            titles = {pid: title_words(pid) for pid in candidates if pid not in papers}
            stemmed, each = {pid: stems(title) for pid, title in titles.items()}, {w: stems({w}) for w in plain}
            # a word beginning a longer title word counts last ("the rain model": RainPro-8's "rainfall")
            overlap = {pid: (len(named & stemmed[pid]), len(words & stemmed[pid]), len(parts & stemmed[pid]), sum(
                any(t.startswith(w) for t in title) for w in plain if len(w) >= 4 and not each[w] <= stemmed[pid]))
                for pid, title in titles.items()}
            best = max(overlap, key=lambda pid: overlap[pid], default=None)
            if best is not None and (overlap[best][1] or overlap[best][3]):
                papers.append(best)
        if len(papers) >= 2:
            return papers
    return []


def called_by(question: str, title_words: Callable[[str], set[str]],
              named_in: Callable[[str], list[str]]) -> Callable[[str], set[str]]:
    """``title_words``, and for a paper the question calls by a name only its abstract holds ("between logits-SAM and
    SquaredPO, … the second one"), that name too: what ``user_order`` matches the user's pieces against."""
    from rag.question import names_in

    names = {name.lower(): set(named_in(name)) for name in names_in(question)}
    return lambda pid: title_words(pid) | {name for name, ids in names.items() if pid in ids}


def mention_order(question: str, papers: list[str], title_words: Callable[[str], set[str]],
                  distinctive: Callable[[str], bool] = lambda _: True) -> list[str]:
    """A comparison's ``papers`` in the order its question first calls each by a name or a distinctive title word
    ("GtR … also decides … How does its way of picking tokens compare with TRIM-KV's?": GtR, then TRIM-KV, whichever
    the answer showed first), when it calls them all; else []. "The former" is the one the user named first.
    ``distinctive``: a word only a handful of abstracts use ("Compare it with the paper about … human-like visual
    experience" does not call Visual Jigsaw by "visual")."""
    from rag.question import wants_comparison

    if len(papers) < 2 or not wants_comparison(question):
        return []
    words = {pid: title_words(pid) for pid in papers}  # (a word their titles share calls neither: "optimal transport")
    shared = {w for pid in papers for w in words[pid] if sum(w in other for other in words.values()) > 1}
    # (the sentence comparing them first, when it calls them all: "I'm also skimming TikZilla. Setting TRIM-KV and
    # TikZilla side by side, …" names TRIM-KV first)
    comparing = [s for s in re.split(r"(?<=[.!?])\s+", question) if wants_comparison(s)]
    for text in dict.fromkeys([" ".join(comparing).lower(), question.lower()]):
        first = {}
        for pid in papers:
            spots = [found.start() for word in words[pid] - shared if len(word) > 2 and distinctive(word)
                     if (found := re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text))]
            if spots:
                first[pid] = min(spots)
        if len(first) == len(papers):
            return sorted(first, key=first.__getitem__)
    return []


def named_on_table(question: str, table: list[Shown], title_words: Callable[[str], set[str]],
                   mentioned: Callable[[str], set[str]] = lambda _: set(),
                   titled: Callable[[str], str] = lambda _: "") -> list[str]:
    """Papers on the table the question names by a distinctive title word, most recent turns first (``mentioned``: the
    distinctive names a paper's abstract mentions, lower case), or, of the latest answer's papers, by title words
    setting one apart from the others there (``titled``: a paper's title)."""
    from rag.question import comparison_parts, names_in, wants_comparison
    from rag.tokens import content_words, stems

    # "Which other papers in the collection use Best-of-N …?": a search for papers using it, not a pointer at the
    # table's paper that does.
    if _searches(question) and _PAPERS.search(question):
        return []
    # "the jigsaw one": the words before "one" name it by its title; elsewhere only a name ("TRIM-KV") does.
    phrase = _ONE_PHRASE.search(question)
    called_as = next((g for g in phrase.groups() if g), "") if phrase else ""
    # Names, words written capitalised mid-sentence ("from Tactic") and short acronyms ("RGM", which ``names_in``
    # leaves out as it does "LLM": here only a table paper's own name can match it).
    # (of a comparison of two or more pieces, the names in its pieces: "ARPG vs the IAR provenance paper - does each
    # change how the AR model generates …?" calls no paper "AR")
    pieces = comparison_parts(question) if wants_comparison(question) else []
    naming = " ; ".join(pieces) if len(pieces) >= 2 else question
    named = (names_in(naming) + re.findall(r"(?<=[\w,;:] )[A-Z][a-z][\w\-]*", naming)
             + short_acronyms(naming))
    # (a field's common acronym, "RL", "LLMs", names no paper)
    named = [n for n in named if not common_acronym(n)] + _lower_case_names(question)
    wanted = stems({w.lower() for w in [*called_as.split(), *named]} - QUESTION_WORDS)
    # "the OR one": an acronym in capitals that is a common word in lower case, and part of a hyphenated name
    # ("OR-PRM").
    acronyms = {w.lower() for w in re.findall(r"\b[A-Z][A-Z0-9]{1,4}\b", called_as)}

    # The latest answer's papers are called by the names their abstracts mention too ("Max gain in Best-of-N?" after
    # OR-PRM, which reports Best-of-N); any other paper only by its own ("FID on ImageNet?" names no paper).
    # (not a refusal's closest papers: "… its best ImageNet result" after "any astronomy papers in here?")
    latest = set(next((shown.listed for shown in reversed(table) if shown.listed and not (
        shown.refused and not shown.about)), []))

    def called(paper_id: str) -> bool:
        words = title_words(paper_id) | (mentioned(paper_id) if paper_id in latest else set())
        return bool(stems(words) & wanted) or bool(acronyms & {p for w in words for p in (w, *w.split("-"))}) or any(
            _same_root(word, own) for word in called_as.lower().split() for own in words)

    # The latest turn first; its answered papers, then its other sources.
    on_table = list(dict.fromkeys(pid for shown in reversed(table) for pid in [*shown.listed, *shown.sources]))
    found = [paper_id for paper_id in on_table if called(paper_id)]
    # A word several papers on the table are called by calls none of them beside words calling one ("CalibRL … RLVR
    # … MENTOR": the two it names, not every RLVR paper shown)
    held = {pid: stems(title_words(pid) | (mentioned(pid) if pid in latest else set())) & wanted for pid in found}
    alone = {w for w in wanted if sum(w in h for h in held.values()) == 1}
    found = [pid for pid in found if held[pid] & alone or not held[pid]] if len(found) > 1 and alone else found
    # "the video one" after a video and an image watermarking paper: a word many titles use, but only one of those
    if not found and (asked := stems(content_words(called_as))) and len(latest) >= 2:
        apart = [pid for pid in on_table if pid in latest and asked <= stems(content_words(titled(pid)))]
        found = apart if len(apart) == 1 else []
    # "the one asking why LMs make poor …": the paper whose title's rare words it uses most
    if not found and (described := _DESCRIBED.search(question)):
        found = [pid] if (pid := _most_titled(described.group(1), on_table, title_words, 1)) else []
    # "Compare the modular chemical language model and the multi-channel diffusion paper": each piece of a comparison
    # calling a paper by two or more of its title's rare words (one, called a paper), more than any other paper.
    for piece in pieces:
        if not re.match(r"(?i)(?:(?:compare|contrast|between)\s+)?(?:the|that|this)\s", piece):  # (a description,
            # not "Visual Jigsaw is also about making models understand images better")
            continue
        least = 1 if re.search(r"(?i)\b(?:paper|one|work|study)\s*$", piece) else 2  # ("the … paper": called so)
        if (pid := _most_titled(piece, on_table, title_words, least)) and pid not in found:
            found.append(pid)
    return found


def _most_titled(text: str, on_table: list[str], title_words: Callable[[str], set[str]], least: int) -> str | None:
    """The paper on the table whose title's rare words ``text`` uses most: at least ``least`` of them, and more than it
    uses any other paper's."""
    from rag.tokens import content_words, stems

    words = stems(set(content_words(text)))
    best = sorted(((pid, len(stems(title_words(pid)) & words)) for pid in on_table), key=lambda item: item[1],
                  reverse=True)[:2]
    return best[0][0] if best and best[0][1] >= least and (len(best) < 2 or best[0][1] > best[1][1]) else None


def _same_root(word: str, title_word: str) -> bool:
    """A word calling a paper by its title word in another form: "catalysis" for "CatalystBench" (their first seven
    letters alike)."""
    return len(word) >= 7 and title_word.startswith(word[:7])


def named_ahead(question: str, named_in: Callable[[str], list[str]], every: list[str]) -> list[str]:
    """The papers not on the table (``every``) that the question names up front, before what it asks of them
    ("veriequivbench - what does its equivalence score replace?", "MaskCO: how does it …"): its pronouns are theirs."""
    ahead = head.group(1) if (head := re.match(r"^\W*([^,:;?!–—-]+?)\s*(?:[,:;–—]|\s-)\s", question)) else ""
    # (or a clause before the pronoun: "what is SCSF and what does it solve?"; all before "its": "How does SIGMark …")
    if not ahead and (pronoun := re.search(r"\b(?:it|its|they|them|their)\b", question, re.IGNORECASE)):
        before = question[:pronoun.start()].rstrip()
        clause = re.match(r"^(.+?)(?:\s+and\s+|,\s*)(?:\w+\s+){0,4}?\S*$", before)
        ahead = clause.group(1) if clause else before if pronoun.group(0).lower() in ("its", "their") else ""
    return [p for p in named_in(ahead) if p not in every] if ahead else []


def _lower_case_names(question: str) -> list[str]:
    """Names typed in lower case ("omni-view", "trim-kv", "d2f"): a word with a hyphen or a digit, a part of which no
    English lexicon knows (not "self-supervised", "test-time")."""
    from rag.nearmiss import word_readings

    return [w for w in re.findall(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b|\b[a-z]+\d[a-z0-9]*\b", question)
            if any(not word_readings(part) for part in w.split("-"))]


def counted_papers(table: list[Shown], count: int, every: list[str], named_in: Callable[[str], list[str]],
                   title_words: Callable[[str], set[str]]) -> list[str]:
    """The papers "the two" / "which of the three" means: the user's own enumeration of that many ("take MetaMuse,
    MoH and OR-PRM in that order"), unless a search since showed that many; else the latest answers' (``recent``)."""
    for shown in reversed(table):
        found = user_order(shown.question, [*every, *named_in(shown.question)], title_words)
        if len(found) == count:
            return found
        if _listed(shown, count):
            break
    return recent(table, count)[:count]


def _listed(shown: Shown, count: int) -> bool:
    """The turn showed exactly ``count`` papers (a new set on the table): a search for papers, or a comparison of
    that many ("which of the two …" after a comparison of two is about those two, not an enumeration before it)."""
    from rag.question import wants_comparison

    return shown.stands and len(shown.listed) == count and (_searches(shown.question) or count > 1 and (
        wants_comparison(shown.question)))


def recent(table: list[Shown], count: int) -> list[str]:
    """The latest answered turn's papers; when it has fewer than ``count``, those of the turns before it too. A
    list question's answer is its sources in order (the user asked for papers and sees them all): "the two" after
    "Which papers reduce the KV cache?" are its first two sources, even when the answer cited only one."""
    papers: list[str] = []
    for shown in (shown for shown in reversed(table) if shown.stands):
        latest = not papers
        papers += [pid for pid in shown.listed if pid not in papers]
        if len(papers) < count and latest and _searches(shown.question):
            papers += [pid for pid in shown.sources if pid not in papers][: count - len(papers)]
        if len(papers) >= count:
            break
    return papers


def subject(table: list[Shown]) -> str:
    """The paper the chat is about: the latest answer's first paper, unless that answer was a list holding the paper a
    turn before it answered about alone ("Are there other papers on tracing …?" after three turns on SIGMark)."""
    answered = _answered(table)
    latest = answered[-1].listed
    alone = next((shown.listed[0] for shown in reversed(answered[:-1]) if len(shown.listed) == 1), None)
    return alone if len(latest) > 1 and alone in latest else latest[0]


def _answered(table: list[Shown]) -> list[Shown]:
    """The earlier turns that put papers on the table, in turn order."""
    return [shown for shown in table if shown.stands and shown.listed]


def _searches(question: str) -> bool:
    """The question asks for papers (a list question): a search, naming none of them."""
    from rag.question import analyse
    from rag.types import QuestionKind

    return analyse(question).kind is QuestionKind.LIST


def others_than(question: str, table: list[Shown]) -> list[str]:
    """"Which other papers …": the papers the last answer gave; [] for a question not asking for others."""
    from rag.asks import wants_others
    from rag.references import last_answered

    last = last_answered(table) if table and wants_others(question) else None
    return list(last.listed) if last else []


# "back to the benchmark from my first question", "the paper from your second answer": a turn called by its place
_TURN_CALLED = re.compile(r"\b(?:from|in|of)\s+(?:my|your|the)\s+(first|second|third|1st|2nd|3rd|last|previous|earlier|"
                          r"original)\s+(?:question|answer|turn|message|reply)\b", re.IGNORECASE)
_SEVERAL = re.compile(r"\b(?:two|three|four|five|both|all|those|these|papers|ones|works|methods)\b", re.IGNORECASE)
_TURN_PLACES = {"first": 0, "1st": 0, "original": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}


def from_turn(question: str, table: list[Shown]) -> list[str]:
    """The papers the turn the question calls by its place answered from: its first ("the benchmark from my first
    question"), or all of them when the question counts them ("of the three from my first question, which one …?");
    [] when it calls no turn."""
    called = _TURN_CALLED.search(question)
    answered = _answered(table)
    if not called or not answered:
        return []
    place = _TURN_PLACES.get(called.group(1).lower(), len(answered) - 1)
    several = _SEVERAL.search(question[:called.start()])
    return (answered[place].listed if several else answered[place].listed[:1]) if place < len(answered) else []
