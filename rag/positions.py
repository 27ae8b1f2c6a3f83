"""Position words of a turn ("the second one", "the top two", "the latter", "[2]", "#3"): which of the papers listed
on the table they point at (``rag.references`` decides which listing counts)."""

from __future__ import annotations

import re

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "both": 2}
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "fifth": 4, "5th": 4}
_SOURCE_NUMBER = re.compile(r"\[(\d)\]|#(\d)\b|\b(?:source|paper|reference|ref\.?|option|item|entry|(?<!\ba\s)number)"
                            r"\s*(?:no\.?\s*)?\[?(\d)\]?|\bno\.\s?(\d)\b"  # ("number 2", not "a number 2 …"; "No. 2")
                            r"|\b(?:source|paper|option|item)\s+(one|two|three|four|five)\b", re.I)  # ("paper two")
_TOP_N = re.compile(r"\b(?:the\s+)?(?:top|first)\s+(two|three|four|five|\d)\b", re.IGNORECASE)
# "the first and (the) second", "first vs third", "third one - what does FTS stand for?"; not "the second problem …"
_PARTS = "problem|stage|step|component|task|principle|contribution|module|phase|part|challenge|finding|objective|round"
_ORDINAL = re.compile(r"(?:\bthe\s+|(?<=\band\s)|(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)"
                      r"|^\W*(?:(?:and|so|ok(?:ay)?|now|then)\W+)?)"
                      r"(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|final|former|latter)"
                      rf"(?!\s+(?:{_PARTS})s?\b)(?:\s+(?:one|paper|method|approach|work|model|study|result))?\b", re.I)
# "claims to be the first method of its kind", "the first to …": a claim to come first, no position
_A_CLAIM = re.compile(r"\s+(?:of\s+its\s+kind|to\s+(?!the\b|it\b|them\b)[a-z]+|ever)\b", re.IGNORECASE)
_CORRECTED = re.compile(r"\b(?:no\s+wait|wait\s+no|i\s+meant?|scratch\s+that|or\s+rather|correction)\b", re.I)
_PAIRED = re.compile(r"\s*(?:vs\.?|versus|and|or|&|with)\s+(?:the\s+)?(?:first|1st|second|2nd|third|3rd|fourth|4th|"
                     r"fifth|5th|last)(?:\s+(?:one|ones|paper|papers))?\s*(?:[,?:;.!\-–—]|$)", re.IGNORECASE)


def source_numbers(question: str) -> list[int]:
    """"[2]", "#3", "paper 2", "number 2": the source numbers a turn gives."""
    return [NUMBER_WORDS.get(said.lower()) or int(said) for m in _SOURCE_NUMBER.finditer(question)
            for said in [next(g for g in m.groups() if g)]]


# "the one I brought up second", "the paper you listed first": a position in the order the papers were named
_NAMED_AS = re.compile(r"\bthe\s+(?:one|paper|method|work|study)\s+(?:that\s+|which\s+)?(?:I|you|we)\s+"
                       r"(?:[a-z]+\s+){1,3}?(first|1st|second|2nd|third|3rd|last)\b", re.IGNORECASE)
# "the top one", "the one at the bottom", "the middle one" (of three): the first, the last, the one between
_PLACE = re.compile(r"\bthe\s+(top|bottom|middle)\s+(?:one|paper|entry|item)\b|\bthe\s+(?:one|paper)\s+(?:at\s+the\s+"
                    r"(top|bottom)|in\s+the\s+(middle))\b", re.IGNORECASE)
_PLACES = {"top": "the first one", "bottom": "the last one"}
# "first of those two, how fast?", "second on the list": a bare position of the papers shown
_OF_THEM = re.compile(r"\s+(?:of\s+(?:those|them|these|the\s+(?:two|three|four|five|list))|on\s+the\s+list)\b", re.I)
# "the one after the 'vs'", "the one before the versus": the second or the first of "A vs B"
_BY_VERSUS = re.compile(r"\bthe\s+(?:one|paper)\s+(after|before)\s+(?:the\s+)?\W?(?:vs\.?|versus)\b\W?", re.I)


def ordinal(question: str, listed: list[str]) -> list[str]:
    """The papers of ``listed`` a turn's position words point at ("the top two", "the second one", "the latter")."""
    question = _NAMED_AS.sub(lambda m: f"the {m.group(1)} one", question)
    middle = "the second one" if len(listed) == 3 else "the middle"
    question = _PLACE.sub(lambda m: _PLACES.get(next(g for g in m.groups() if g).lower(), middle), question)
    question = _BY_VERSUS.sub(lambda m: f"the {'second' if m.group(1).lower() == 'after' else 'first'} one", question)
    if top := _TOP_N.search(question):
        count = NUMBER_WORDS.get(top.group(1).lower()) or int(top.group(1))
        return listed[:count] if count <= len(listed) else []
    if (fix := _CORRECTED.search(question)) and _ORDINAL.search(question, fix.end()):  # "the first … no wait, I
        question = question[fix.end():]  # meant the latter": what the user settled on
    picked = []  # (after "and", only when an ordinal with "the" came before it: not "first and second order")
    for match in (m for m in _ORDINAL.finditer(question) if (m.group(0)[:3].lower() == "the" or picked
                  or _bare_ordinal(m, question)) and not _A_CLAIM.match(question, m.end())
                  and not re.search(r"\bbe\s+$", question[:m.start()], re.I)):
        word, end = match.group(1).lower(), len(listed) - 1
        index = {"last": end, "final": end, "former": 0, "latter": 1 if len(listed) == 2 else end}.get(
            word, _ORDINALS.get(word, -1))
        if 0 <= index < len(listed) and listed[index] not in picked:
            picked.append(listed[index])
    return picked


def _bare_ordinal(match: re.Match[str], question: str) -> bool:
    """An ordinal opening the question without "the" points at a paper when a noun follows it ("third one - what
    does FTS stand for?") or another ordinal does ("first vs third, …"); not "First, tell me …"."""
    return match.start() < 12 and match.group(1).lower() in _ORDINALS and (  # ("last one: which papers …?" is
        match.group(0).split()[-1].lower() not in _ORDINALS or bool(_PAIRED.match(question, match.end()))  # a turn)
        or bool(_OF_THEM.match(question, match.end())))
