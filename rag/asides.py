"""A trailing aside after the question mark: the user's own guess or a note on what to include ("… have verification as
their main theme? i think it's even in their titles", "which other papers mask out part of the data …? include that
one"). Its words are neither searched for nor scored: they would dilute the question's (each sentence fits it less)."""

from __future__ import annotations

import re

_ASIDE = re.compile(r"(?<=\?)\s+(?P<aside>(?:i\s+(?:think|guess|believe|suspect|recall|remember|assume|imagine)|"
                    r"i['’]?m\s+(?:not\s+sure|guessing|thinking|pretty\s+sure)|not\s+sure|pretty\s+sure|iirc|"
                    r"(?:and\s+|also\s+|please\s+)?(?:include|including|count|counting)|thanks|thank\s+you|thx|"
                    r"just\s+curious)\b[^?]*)$", re.IGNORECASE)
# "include that one": the paper just discussed is wanted in the list too, so "which other papers" asks for all
_INCLUDES = re.compile(r"^(?:and\s+|also\s+|please\s+)?(?:include|including|count|counting)\s+(?:that|this|it|them|"
                       r"those|these|the\s+(?:last|previous|first)|both)\b", re.IGNORECASE)
_OTHER = re.compile(r"\b(?:other\s+(?=(?:[\w-]+\s+){0,2}(?:papers|works|studies|ones)\b)|(?<=\w)\s+else\b)",
                    re.IGNORECASE)

# "what's OR-ProcessQA, in one line?", "in a nutshell, what does it do?": how to answer, not what the question is about
_HOW_SAID = (r"in\s+(?:one|a|two|three|a\s+few|\d+)\s+(?:short\s+)?(?:lines?|sentences?|words|paragraphs?)|in\s+a\s+"
             r"nutshell|in\s+short|in\s+brief|briefly|in\s+simple\s+terms|in\s+plain\s+(?:english|words|terms)|tl;?dr")
_SAID_SO = re.compile(rf"(?:,\s*|\s+[-–—]+\s*|\s+)(?:(?:just|please)\s+)?(?:{_HOW_SAID})(?:\s*,?\s*please)?"
                      rf"(?=\s*[?.!]*\s*$)|^\W*(?:{_HOW_SAID})\s*[,:–—-]\s*", re.IGNORECASE)


def without_aside(question: str) -> str:
    """The question without a trailing aside or a word on how to answer ("…, in one line?"); one asking to include the
    paper discussed no longer asks for others ("which other papers …? include that one" → "which papers …?")."""
    question = _SAID_SO.sub("", question).strip() or question
    aside = _ASIDE.search(question)
    if aside is None:
        return question
    asked = question[: aside.start()].rstrip()
    return _OTHER.sub("", asked, count=1) if _INCLUDES.match(aside.group("aside")) else asked
