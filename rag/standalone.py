"""Quotes that stand on their own: an abstract sentence shown outside its abstract keeps its meaning.

- A discourse opener that points back ("However,", "To overcome these challenges,", "In this paper,") is dropped.
- "we propose X, a …" becomes "X is a …"; any other "we / our / us" becomes "the authors / their / them".
- A sentence that still leans on the one before it ("This improvement translates to …", "These methods …") brings
  that sentence along.

Only those words change: names, figures and claims are the abstract's own, and the caller keeps the original
sentences for highlighting the abstract and for checking citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.types import EvidenceSentence

_BACK = r"(?:this|these|that|those|such|the\s+above|the\s+(?:aforementioned|identified))"
_OPENER = re.compile(
    r"^(?:(?:however|moreover|furthermore|additionally|in\s+addition|notably|specifically|importantly|crucially|"
    r"consequently|therefore|thus|thereby|hence|accordingly|as\s+such|similarly|likewise|in\s+turn|"
    r"(?:in|by)\s+doing\s+so|meanwhile|instead|also|in\s+particular|in\s+contrast|by\s+contrast|"
    r"to\s+this\s+end|in\s+this\s+(?:paper|work|study)|here|in\s+response|as\s+a\s+result|"
    r"(?:to|in\s+order\s+to)\s+(?:address|overcome|tackle|solve|bridge|fill|mitigate|alleviate|close|remedy|"
    r"resolve|handle|fix|avoid|explore|investigate|study|understand|examine|probe|answer|narrow)\s+"
    r"(?:\w+\s+){0,2}?" + _BACK + r"(?:\s+[\w-]+){0,4}|"
    r"(?:building|based|drawing|inspired|motivated|grounded)\s+(?:on|by|from)\s+" + _BACK + r"(?:\s+[\w-]+){0,3}|"
    r"(?:leveraging|using|exploiting|with)\s+" + _BACK + r"(?:\s+[\w-]+){0,3}|"
    r"(?:given|despite|faced\s+with|in\s+light\s+of|because\s+of|due\s+to)\s+" + _BACK + r"(?:\s+[\w-]+){0,3}|"
    r"to\s+(?!this\s+end)[a-z]+\s+(?:\w+\s+){0,2}?" + _BACK + r"(?:\s+[\w-]+){0,4}),\s+)+", re.IGNORECASE)
# "We propose TRIM-KV, a novel approach that …" → "TRIM-KV is a novel approach that …": what is proposed (up to six
# words before the comma) is what its appositive ("a …", "the …") says it is.
_PROPOSE = re.compile(
    r"^(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+)?(?:propose|proposes|introduce|introduces|present|presents|develop|"
    r"develops|design|designs|construct|constructs)(?:\s+and\s+(?:release|releases|open-source|open-sources))?"
    r"\s+(?!(?:and|or)\b)(?P<name>(?:[\w\-().*]+\s+){0,5}?[\w\-().*]*[A-Z0-9][\w\-().*]*)"
    r"\s*(?:—|--|,)\s+(?P<article>an?|the)\s+", re.IGNORECASE)
_PRONOUNS = ((re.compile(r"\bWe\b"), "The authors"), (re.compile(r"\bwe\b"), "the authors"),
             (re.compile(r"\bOur\b"), "Their"), (re.compile(r"\bour\b"), "their"), (re.compile(r"\bus\b"), "them"),
             (re.compile(r"\bourselves\b"), "themselves"),
             (re.compile(r"\b(?:This|The present)\s+(?:paper|work|study)\b"), "The paper"),
             (re.compile(r"\b(?:this|the present)\s+(?:paper|work|study)\b"), "the paper"))
# Still leaning on the sentence before: "This improvement …", "These methods …", "It …", "… breaks this barrier".
_LEANS = re.compile(r"^(?:this|these|that|those|such|it|its|they|their|both|the\s+latter|the\s+former|"
                    r"the\s+(?:above|resulting|same))\b(?!\s+(?:paper|work|study)\b)|"
                    r"\b(?:this|these|those|such)\s+(?!(?:paper|work|study|article|abstract|end|as|that)\b)[a-z]|"
                    # ("When applied to modern video diffusion models …, their robustness … becomes extremely
                    # weak": a clause with no subject of its own; not "While LLMs have …, their application …")
                    r"^(?:(?:when|while|if|once|after|although|though|because|since)\s+[a-z]+(?:ed|ing)|despite|"
                    r"under)\b[^,;]{0,120},\s*(?:its|their|they|it)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Quote:
    """What the answer shows (``text``) for the abstract sentences it stands for (``sentences``, abstract order)."""

    text: str
    sentences: tuple[EvidenceSentence, ...]


def rewrite(text: str) -> str:
    """The sentence without its pointing-back opener, in the third person."""
    out = _OPENER.sub("", text.strip(), count=1)
    if match := _PROPOSE.match(out):
        out = f"{match.group('name')} is {match.group('article')} {out[match.end():]}"
    for pattern, replacement in _PRONOUNS:
        out = pattern.sub(replacement, out)
    return out[:1].upper() + out[1:] if out[:1].islower() and not re.match(r"[a-z]+[A-Z0-9]", out) else out


def leans_back(text: str, opener: bool = False) -> bool:
    """The sentence leans on the one before, after its discourse opener ("However, these methods …"); (``opener``)
    or in it ("To understand this gap, we …")."""
    text = text.strip()
    found = _OPENER.match(text)
    return bool(_LEANS.search(text[found.end() if found else 0:]) or (
        opener and found and re.search(rf"\b{_BACK}\b", found.group(0), re.IGNORECASE)))


def quote(sentence: EvidenceSentence, abstract: list[EvidenceSentence]) -> Quote:
    """``sentence`` made to stand on its own; ``abstract``: its paper's sentences (any order), for the sentence it
    leans on."""
    if sentence.position > 0 and leans_back(sentence.text):
        before = next((s for s in abstract if s.position == sentence.position - 1), None)
        if before is not None:
            return Quote(f"{rewrite(before.text)} {rewrite(sentence.text)}", (before, sentence))
    return Quote(rewrite(sentence.text), (sentence,))


def quotes_of(shown: list[EvidenceSentence], abstract: list[EvidenceSentence], defined: dict[str, str]) -> list[Quote]:
    """Each shown sentence as a quote, without showing one sentence twice (a quote brings the sentence it leans on,
    which may be shown anyway), an acronym the abstract defined elsewhere (``defined``: its ``acronyms``) spelled out
    where first shown."""
    from rag.coref import spell_out

    spelled, seen, quotes = set[str](), set[int](), list[Quote]()  # (acronyms spelled out, positions shown)
    for sentence in shown:
        if sentence.position in seen:
            continue
        made = quote(sentence, abstract)
        if made.sentences[0].position in seen:  # it leans on a sentence already shown: that one is there
            made = Quote(rewrite(sentence.text), (sentence,))
        seen.update(s.position for s in made.sentences)
        quotes.append(Quote(spell_out(made.text, defined, spelled), made.sentences))
    return quotes


# An enumeration running on into the next sentence ("… contains two novelties: 1) … . 2) Eliminating …"): its rest.
_LIST_OPENS = re.compile(r"(?:^|[\s:;,])(?:1\)|\(1\)|\(i\)|i\))\s")
_LIST_GOES_ON = re.compile(r"^\W*(?:2\)|\(2\)|\(ii\)|ii\)|3\)|\(3\)|\(iii\))\s")
_ITEM_MARKER = re.compile(r"^\(?(?:\d{1,2}|[ivx]{1,4})\)\s+")  # any item's marker: "2) …", "(ii) …", "4) …"


def without_item_marker(text: str) -> str:
    """A quote that is one item of an enumeration, shown alone, without its marker ("By contrast, in RGM, 2)
    Eliminating …" reads as a fragment); shown with the rest of the enumeration the marker stays."""
    return _ITEM_MARKER.sub("", text, count=1)


def enumeration_rest(sentence: EvidenceSentence, in_order: list[EvidenceSentence]) -> list[EvidenceSentence]:
    """The sentences after ``sentence`` going on with the enumeration it opens or continues ("2) Eliminating …")."""
    more: list[EvidenceSentence] = []
    if not (_LIST_OPENS.search(sentence.text) or _LIST_GOES_ON.match(sentence.text)):
        return more
    by_position = {s.position: s for s in in_order}
    while (after := by_position.get((more[-1] if more else sentence).position + 1)) and _LIST_GOES_ON.match(after.text):
        more.append(after)
    return more
