"""Reference resolution, deterministic (no LLM: a rewrite only helps retrieval afterwards): which papers already on
the table (what earlier turns showed, sources [n], and cited, in the order listed) a turn points at with pronouns
("it", "both", "these methods", "the latter"), positions ("the top two", "[2]", "#3"), a partial name ("the jigsaw
one", "TRIM-KV") or a choice ("which of those …"). A topic switch ("New question: …") refers to nothing before it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from rag.asks import against_baselines, asks_which, bare_comparison
from rag.coref import named_before_pronoun, without_bound_its
from rag.followup import complete_ellipsis
from rag.question import comparison_parts, wants_comparison
from rag.named import counted_papers, from_turn, mention_order, named_ahead, named_on_table, recent, subject, user_order
from rag.positions import NUMBER_WORDS, ordinal as position, source_numbers
from rag.topic_words import GENERIC_WORDS, coverage, own_topic_words
from rag.types import Paper, Shown

_OVERVIEW = 12  # an answer showing more papers surveyed the collection: "which of them" searches it
_SWITCH = re.compile(r"^\s*(?:(?:now|ok(?:ay)?|alright|right|so|and|also|but|oh)\W+)?(?:(?:a\s+)?(?:new|different|"
                     r"separate|unrelated|another|random)\s+(?:question|topic|subject|thing|matter|area|field|"
                     r"direction|q\b)(?:\s+(?:entirely|altogether))?|"
                     r"on\s+(?:a(?:nother)?|a\s+different)\s+(?:[\w-]+\s+)?(?:subject|topic|note)|"
                     r"(?:switching|shifting|changing)\s+(?:topics?|gears|subjects?)|"
                     r"(?:switching|pivoting|tangent)(?=\s*[:;,.–—-])|change\s+of\s+(?:topic|subject)|"
                     r"off[\s-]topic|"
                     r"(?:(?:off\s+)?on\s+)?a\s+tangent|"
                     r"changing\s+(?:the\s+)?(?:subject|topic)|moving\s+on|next(?:\s+(?:up|question|topic))?(?=\s*:)|"
                     r"side\s+(?:q|question|note)|(?:quick\s+)?unrelated(?:\s+(?:question|one))?|"
                     r"separately(?=\s*[,:;])|"
                     r"(?:totally|completely|entirely|something)\s+(?:different|else|unrelated)|"
                     r"let\s+me\s+ask\s+(?:you\s+)?(?:about\s+)?something\s+else|"
                     r"let['’]?s\s+(?:talk|turn|switch|move\s+on)"
                     r"(?!(?:\s+(?:about|to|on))?\s+(?:it|them|this|that|these|those|the\s+(?:first|second|third|last|"
                     r"latter|former|other|two))\b)(?:\s+(?:about|to|on))?|"
                     r"i['’]?m\s+(?:also\s+|now\s+)?(?:curious|interested)\s+(?:about|in))"
                     r"\s*[:,.;!-]*\s*", re.IGNORECASE)
_THESE_PAPERS = re.compile(r"\b(?:these|those)\s+(?:papers|works|studies|abstracts)\b", re.IGNORECASE)
_PLURAL = re.compile(r"\b(?:both(?:\s+of\s+them)?|(?:the|these|those|all)\s+(?:two|three|four|five)|these|those|them|"
                     r"they|their|each\s+(?:of\s+them|one|paper|method|approach)|all\s+of\s+them|neither|"
                     # (not "either as the subject or as a training stage": one of two things asked of, no paper)
                     r"either(?!\s+(?:as|in|by|for|to|with|through|via|on|at|from|the|a|an)\b))\b",
                     re.I)
# Bare "this" / "that" only for a thing ("What does this achieve?"), not "methods that …"; not "how does each do it?"
_SINGULAR = re.compile(r"\b(?:its|it's)\b|\bit\b(?!\s*(?:[?.!,]|$))|(?<!\bdo\s)(?<!\bdoes\s)(?<!\bdoing\s)\bit\b"
                       r"|\b(?:this|that|the)\s+(?:paper|method|approach|model|work|authors?"
                       r"|framework|benchmark|dataset|technique|system|one|study)\b|\b(?:this|that)\s*\?"
                       r"|\b(?:does|is|did|can|was)\s+(?:this|that)\b"  # ("How would you contrast that with …?")
                       r"|\b(?:this|that)\s+(?:and|vs\.?|versus)\s"  # ("between that and the MoH paper, which …?")
                       r"|\b(?:contrast|compare|comparing|contrasting|set)\s+(?:this|that)\b", re.IGNORECASE)
_ELLIPSIS = re.compile(r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(?P<rest>.+?)\s*\??\s*$"
                       r"|^\s*(?:(?:and|but)\s+(?:even\s+)?|even\s)(?P<rest2>(?:for|in|on|with)\s+.+?)\s*\??\s*$", re.I)
# ("even for images online?": a fragment too.) "Is TRIM-KV better than Tactic …?": a choice between what it names
_BETTER_THAN = re.compile(r"^\W*(?:is|are|does|do|would)\s+[^?]{1,60}?\b(?:\w+er|(?:more|less)\s+\w+)\s+than\b", re.I)
# "Is it faster than Tactic?": the pronoun and the name are two papers set against each other.
_COMPARATIVE = re.compile(r"\b(?:than|unlike|against|relative\s+to|respectively)\b", re.IGNORECASE)
# "and versus the jigsaw paper, what kind of supervision does each need?": the subject against the paper it names
_VERSUS = re.compile(r"^\W*(?:(?:and|but|ok(?:ay)?|so|now)\W+)?(?:versus|vs\.?|compared\s+(?:to|with)|against)\s", re.I)
_OTHER = re.compile(r"\bthe\s+other\s+(?:one|paper|method|model|approach|work)\b", re.IGNORECASE)
_EVERY = re.compile(r"\b(?:all|each|both|either|neither|every)\b", re.IGNORECASE)  # ("what do they all share?")
# A compared piece calling a paper ("the IAR provenance paper", "the temporal slowness / central vision study")
_CALLING = re.compile(r"\W*(?:(?:compare|contrast|between)\s+)?(?:the|that|this)\s.*\b(?:paper|one|work|study|method|"
                      r"approach|model|framework|benchmark)s?\W*$", re.IGNORECASE)
# "both", "the two", "which of the three": as many papers as it says.
_COUNTED = re.compile(r"\b(?:(?:the|these|those|all|of)\s+(two|three|four|five)|(both|two))\b(?!\s+(?:of\s+)?(?:papers|"
                      r"works|methods|approaches)\s+(?:that|which|on|about))", re.IGNORECASE)
# "Which papers use diffusion?", "Anything on video?": a new search, however few its words.
_ASKS_FOR_PAPERS = re.compile(r"\b(?:papers|works|studies|articles|anything|any\s+(?:paper|work|study|method))\b|"
                              r"\b(?:is|are)\s+there\b|\b(?:what|which|any)\s+other\s+(?!ones?\b)", re.IGNORECASE)
# "the LLM heuristic-generation paper, what does it do …?": "it" is the paper the question opens with
_TOPIC_FIRST = re.compile(r"^\W*(?:(?:ok(?:ay)?|and|so|now|then|also)\W+)*(?:the|that|this)\s+[^,?]{1,60}?\b"
                          r"(?:paper|one|work|method|study|model)\s*(?:,|:|\s[–—-])\s*(?:what|how|which|why|does|do|"
                          r"did|is)\b", re.I)
# "and what makes a task harder?": the same subject, asked on.
_GOES_ON = re.compile(r"^\W*(?:and|also|plus)\W+(?:what|how|which|why|who|where|when|does|do|did|is|are|the|its|"
                      r"their|as|if|once|without)\b", re.I)  # ("and the speedup versus …?", "and as more of …?")


class ReferenceKind(str, Enum):
    NONE = "none"  # refers to nothing on the table (a question of its own, or the table is empty)
    SWITCH = "switch"  # says it changes the subject
    SOURCE_NUMBER = "source_number"  # "[2]", "#3", "paper 2"
    ORDINAL = "ordinal"  # "the top two", "the second paper", "the last one", "the latter"
    PARTIAL_NAME = "partial_name"  # "the jigsaw one", "TRIM-KV" (a paper on the table)
    PLURAL = "plural"  # "both", "these methods", "them", "which of those"
    PRONOUN = "pronoun"  # "it", "this method"
    ELLIPSIS = "ellipsis"  # "What about MaskCO?", "And for video?"


@dataclass
class Reference:
    kind: ReferenceKind
    paper_ids: list[str] = field(default_factory=list)  # papers on the table the turn is about, in table order
    question: str = ""  # the question without a switch marker, or an ellipsis completed from the last turn
    choice: bool = False  # asks to pick among the papers ("which of them …")


def last_answered(table: list[Shown], refusals: bool = True) -> Shown | None:
    """The latest turn that answered, or (``refusals``) refused naming its papers ("The abstract of DPT …")."""
    return next((shown for shown in reversed(table) if (shown.stands if refusals else not shown.refused)
                 and shown.listed), None)


def resolve(question: str, table: list[Shown], title_words: Callable[[str], set[str]],
            named_in: Callable[[str], list[str]] = lambda _: [], mentioned: Callable[[str], set[str]] = lambda _: set(),
            titled: Callable[[str], str] = lambda _: "") -> Reference:
    """What on the table ``question`` refers to. ``title_words(paper_id)``: the distinctive lower-case words of a
    paper's title, for partial names ("the jigsaw one"); ``named_in(text)``: the indexed papers a text names, for the
    user's own enumerations ("take MetaMuse, MoH and OR-PRM in that order"); ``mentioned``, ``titled``: ``named``."""
    if (last := last_answered(table)) is None:
        return _named_choice(question, named_in(question), title_words) or Reference(
            ReferenceKind.NONE, question=without_switch(question))
    if _SWITCH.match(question):
        return Reference(ReferenceKind.SWITCH, question=without_switch(question))
    if earlier := from_turn(question, table):  # "back to the benchmark from my first question - …", "of the three …"
        return Reference(ReferenceKind.ORDINAL, earlier, question, len(earlier) > 1 and asks_which(
            question.split(",")[-1]))
    # Positions ("the second one", "#3") count in the latest turn that showed several papers; papers the user named
    # one by one ("MetaMuse, MaskCO and OR-PRM", in this turn too: "I'll look at A and B. …") in the user's order.
    every = list(dict.fromkeys(p for s in table for p in s.sources))
    own = named_in(question)  # the indexed papers this turn names, on the table or not
    if not set(own) <= set(every) and (chosen := _named_choice(question, own, title_words)):
        return chosen  # (papers not on the table, named to choose between)
    several, enumerated = last, user_order(question, [*every, *own], title_words, named_in)
    # "Take MetaMuse, MoH and OR-PRM in that order. Which problems does the first one …": what a position asks.
    pieces = re.split(r"(?<=[.:])\s+|^\W*(?i:between|among|of)\b[^,?]*,\s+", question, maxsplit=1) if enumerated else []
    positioned = pieces[1] if len(pieces) == 2 else None
    for shown in (shown for shown in reversed(table) if not enumerated):  # (a refused turn's enumeration counts)
        found = user_order(shown.question, [*every, *named_in(shown.question)], title_words)
        if shown.stands and not set(found) <= set(shown.listed) and not set(shown.listed) <= set(found):
            found = []  # (what the answer showed disagrees: not "… with Lyra - …, but whose video, …" as ShapeGen4D)
        if found or (shown.stands and len(shown.listed) >= 2):
            several, enumerated = shown, found
            break
    # (A choice's answer leads with its pick; positions still count in the order the papers were numbered.)
    ordered = enumerated or mention_order(several.question, several.listed, title_words) or (
        [p for p in several.sources if p in several.listed] if asks_which(several.question) else several.listed)
    listed = last.listed
    ellipsis = _ELLIPSIS.match(question)
    asked = question  # what a reference is read from: the user's words (a fragment asks the last question again)
    if ellipsis:
        asked_last = last_answered(table, refusals=False) or last
        question = complete_ellipsis(ellipsis.group("rest") or ellipsis.group("rest2"),
                                     asked_last.query or asked_last.question)
    asks_choice = bool(  # (or its last sentence: "I can't fine-tune anything. Which one …?")
        asks_which(asked) or asks_which(re.split(r"(?<=[.!])(?<!e\.g\.)(?<!i\.e\.)\s+", asked.strip())[-1]))
    choice = asks_choice and len(listed) >= 2
    numbered = enumerated or several.sources  # "[2]" after "I'll take them as RGM, T1, ReVeal": T1
    if (numbers := source_numbers(asked)) and all(1 <= n <= len(numbered) for n in numbers):
        return Reference(ReferenceKind.SOURCE_NUMBER, [numbered[n - 1] for n in numbers], positioned or question,
                         choice)
    among = ordered if enumerated or len(ordered) >= len(listed) else listed
    if len(among) < 2 and re.search(r"\b(?:former|latter)\b", asked, re.IGNORECASE):  # after one paper a turn:
        among = recent(table, 2)[::-1]  # the two discussed last, in the order discussed
    if _OTHER.search(asked) and len(listed) == 1 and (others := [p for p in several.listed if p not in listed]):
        return Reference(ReferenceKind.ORDINAL, others[:1], positioned or question)  # "same for the other one?"
    # ("the third one" after a turn about two of the three listed before it: the latest listing that has a third)
    wider = next((s.listed for s in reversed(table) if s.stands and len(s.listed) > len(among)), [])
    if ordinal := position(asked, among) or (not enumerated and position(asked, wider)):
        return Reference(ReferenceKind.ORDINAL, ordinal, positioned or question,
                         choice or asks_choice and len(ordinal) > 1)
    if against_baselines(asked):  # "vs other AR models - speed and memory?": the last paper against its baselines
        return Reference(ReferenceKind.PRONOUN, listed[:1], question)
    # "their main finding" after a turn about one paper: its authors, not that paper and the one before it.
    singular = bool(_SINGULAR.search(unbound := without_bound_its(asked)))
    weak = {m.group(0).lower() for m in _PLURAL.finditer(unbound)} <= {"they", "them", "their"}
    # (not "small LMs …, do they", "Which papers … trace … to its source?", "does it cover, … do they propose?")
    plural = bool(_PLURAL.search(unbound)) and not (weak and (named_before_pronoun(asked) or singular))
    if plural and weak and last.picked and not own and not asks_choice and not _EVERY.search(asked):  # "what do they
        return Reference(ReferenceKind.PRONOUN, [last.picked], question)  # evaluate on?" after a pick: its authors
    if (plural and not weak) or asks_choice:  # "the two" after a turn about one paper: the turns before it too
        counted = _COUNTED.search(asked)
        count = NUMBER_WORDS[(counted.group(1) or counted.group(2)).lower()] if counted else 2
        listed = counted_papers(table, count, every, named_in, title_words) if counted else recent(table, 2)
        # "Lyra also builds on video diffusion. How do the two papers …?": the one it names, and the chat's subject
        new = [p for p in own if p not in last.listed] if len(own) == 1 else []  # (it names one: not "A vs B")
        beside = counted and re.search(r"\b(?:to|with|against|than|from|vs|versus)\W+$", asked[:counted.start()], re.I)
        if len(new) == 1 and (count == 2 or beside) and (not asks_choice or counted and not beside):  # ("I'm
            return Reference(ReferenceKind.PARTIAL_NAME, [*new, *listed] if beside else [subject(table), *new],
                             question, asks_choice)  # weighing that against X. Which of the two …?"; "X to these two")
    choice = asks_choice and len(listed) >= 2
    named = named_on_table(asked, table, title_words, mentioned, titled) or [  # ("veriequivbench", not "papers …")
        p for p in own if p in every and not _ASKS_FOR_PAPERS.search(asked)]
    if named:  # "How does it differ from Tactic?": what the pronoun points at, and the paper it names
        # "how do they avoid …" next to a name: "they" are that paper's authors, not the papers before it ("how do
        # the best-of-n paper and this one differ in what they say …": "this one" is the last paper all the same).
        pointed = listed[:1] if singular and (weak or not plural) else listed if plural and not weak else []
        pointed = [] if _TOPIC_FIRST.match(asked) and len(named) == 1 else pointed
        if bare_comparison(asked) and not pointed:  # "How is Tactic's approach different?": from the last paper
            pointed = [pid for pid in last.listed if pid not in named][:1]
        elif not (wants_comparison(asked) or _COMPARATIVE.search(asked) or asks_choice) or (
                len({*named, *own}) >= 2 and not singular) or against_baselines(asked, anywhere=True):
            pointed = []  # "the biology one, what does it target?"; "DPT vs the Bellman one - … each one", "either";
            # "back to ShapeGen4D, what Chamfer distance does it get vs the baselines?": against its own
        if len(_called_pieces(asked)) >= 2:  # "the IAR provenance paper vs the temporal slowness / central vision
            pointed = []  # study: … each of them": the papers it calls, not the last ones shown
        papers = list(dict.fromkeys([*pointed, *named, *own]))  # and a paper named not on the table
        if pieces and len(enumerated) == 2 and wants_comparison(asked) and plural and not singular and {
                *named, *own} <= {*enumerated}:  # "T1 vs the reflective generative model paper - both do …"
            papers = enumerated  # "both" are the two it names, not the last two papers
        choice = choice or asks_choice or bool(_BETTER_THAN.match(asked))  # ("Which one …, TRIM-KV or Tactic?")
        return Reference(ReferenceKind.PARTIAL_NAME, papers, question, choice and len(papers) >= 2)
    if len(new := named_ahead(asked, named_in, every)) == 1 and not wants_comparison(asked):  # "VeriEquivBench - …"
        return Reference(ReferenceKind.PARTIAL_NAME, new, question)
    if (singular or _VERSUS.match(asked)) and len(own) == 1 and own[0] not in listed and (
            wants_comparison(asked) or _COMPARATIVE.search(asked)):
        return Reference(ReferenceKind.PARTIAL_NAME, [listed[0], *own], question)  # "How is its approach … from MoH?"
    if (choice or plural) and (len(listed) > _OVERVIEW or len(set(own) - set(every)) > 1 and wants_comparison(asked)):
        return Reference(ReferenceKind.NONE, question=question)  # "Which of …" after a survey; "A vs B - each one …?"
    if (choice or plural) and len(listed) >= 2:
        return Reference(ReferenceKind.PLURAL, list(listed), question, choice)
    if _THESE_PAPERS.search(asked) and len(recent(table, 2)) < 2:  # "Which methods in these papers are …?" after
        return Reference(ReferenceKind.SWITCH, question=question)  # turns on one paper: a search of the collection
    if singular or (plural and listed):  # "what does it buy them?" with one paper on the table: its authors
        return Reference(ReferenceKind.PRONOUN, listed[:1], question)
    if not ellipsis and _says_too_little(asked):  # "Which models and datasets?", "how many splits?"
        return Reference(ReferenceKind.PRONOUN, listed[:3], question)
    if ellipsis:
        return Reference(ReferenceKind.ELLIPSIS, [], question)
    return Reference(ReferenceKind.NONE, question=question)


def _called_pieces(question: str) -> list[str]:
    """The pieces of a comparison each calling a paper ("the IAR provenance paper", "the … vision study")."""
    return [part for part in comparison_parts(question) if _CALLING.match(part)] if wants_comparison(question) else []


def _named_choice(question: str, named: list[str], title_words: Callable[[str], set[str]]) -> Reference | None:
    """"Which is faster, D2F or ARPG?", "Is TRIM-KV better than Tactic …?": a choice between the papers it names."""
    return None if len(named) < 2 or not (asks_which(question) or _BETTER_THAN.match(question)) else Reference(
        ReferenceKind.PARTIAL_NAME, user_order(question, named, title_words) or named, question, True)


def without_switch(question: str) -> str:
    """The question without its marker of a new subject ("separate question: what's in here on chemistry?")."""
    return (question[switched.end():].strip() or question) if (switched := _SWITCH.match(question)) else question


def implicit(reference: Reference, table: list[Shown], papers: dict[str, Paper]) -> Reference:
    """A question with no word of reference that still asks about the one paper just discussed ("How many questions,
    and in which languages?" after LEXam): no name, no request for papers, a few topic words of its own and every one
    of them in that paper's abstract; a fragment also of the two just compared ("memory savings?" after GtR vs ARPG),
    or naming only what a paper just discussed writes ("numbers on qwen2.5-7b?" after Critique-RL, of that paper)."""
    from rag.question import names_in
    last, asked = last_answered(table), reference.question
    if reference.kind is not ReferenceKind.NONE or last is None or len(last.listed) not in (1, 2) or any(
            pid not in papers for pid in last.listed) or _ASKS_FOR_PAPERS.search(asked):
        return reference
    named = [n.lower() for n in names_in(asked)]
    if _EITHER_OR.match(asked) and not named and len(last.listed) == 1:  # "real deployment or a toy setting?": which
        return Reference(ReferenceKind.PRONOUN, list(last.listed), asked)  # the paper is, whatever words it uses
    listed = [p for p in last.listed if all(n in f"{papers[p].title} {papers[p].search_text}".lower() for n in named)]
    if named and (not listed or _ASKING.match(asked)) or not (1 if named else 2) <= len(own_topic_words(asked)) <= 4:
        return reference
    # A fragment ("value-based or policy-gradient?", "model sizes?") leans on the last turn if its abstract has half.
    fragment = not _ASKING.match(asked) and len(own_topic_words(asked)) <= 2
    if listed[1:] and not fragment or coverage(asked, [papers[p] for p in listed]) < (0.5 if fragment else 1.0):
        return reference
    return Reference(ReferenceKind.PLURAL if listed[1:] else ReferenceKind.PRONOUN, listed, asked)


_ASKING = re.compile(r"^\W*(?:\w+\W+)?(?:what|which|how|why|who|whom|whose|where|when|is|are|was|were|does|do|did|can|"
                     r"could|would|will|should|has|have|tell|describe|explain|list|find|show|give|compare|summari[sz]e|"
                     r"anything|i|i'm|we|please)\b", re.IGNORECASE)  # ("any annotations needed?" is a fragment)


# A bare either-or, no question word ("synthetic or real data?"; not "speedup vs the solvers?", against its baselines)
_EITHER_OR = re.compile(r"^\W*(?:and\s+|so\s+)?[\w-]+(?:\s+[\w-]+){0,3}\s+or\s+(?:an?\s+|the\s+)?"
                        r"[\w-]+(?:\s+[\w-]+){0,3}\s*\?+\s*$", re.IGNORECASE)


def points_back(text: str) -> bool:
    """The text refers to papers already discussed ("its use of tools", "these two") and names none of its own (not
    even a short acronym: "How does RGM get its …"; nor "I remember a paper that … so it …": that paper)."""
    from rag.question import names_in

    return bool(_SINGULAR.search(text) or _PLURAL.search(text)) and not names_in(text) and not re.search(
        r"\b[A-Z][A-Z0-9]+\b|\b(?:a|an|another)\s+(?:[\w-]+\s+)?(?:paper|work|method|approach|study|framework)\b|"
        r"^\W*the\s+(?:paper|work|study)\s+(?:on|about)\s", text)  # ("the paper on LMs as poor …": described)


def _says_too_little(question: str) -> bool:
    """No name and fewer than two topic words of its own (generic ones and offered guesses aside), or a question going
    on with "and …" ("and what makes a task harder?"): it leans on the turn before ("Which models and datasets?")."""
    from rag.aspects import unabbreviated
    from rag.question import content_words, names_in
    from rag.unstated import without_offered

    # (the guesses aside: "which environments? meta-world, atari, something else?"; shorthand written out: "eval set?")
    question = unabbreviated(without_offered(question))
    return (not names_in(question) and (len(content_words(question) - GENERIC_WORDS) < 2 or bool(_GOES_ON.match(
        question))) and not _ASKS_FOR_PAPERS.search(question))
