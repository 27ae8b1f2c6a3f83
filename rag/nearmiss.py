"""Near-misses: the question's qualifier that none of the papers answering it holds ("How can I watermark *speech*?"
answered from a video-watermarking paper), so the answer can say first what is missing instead of answering as if
the closest paper fit.

A qualifier is a topic word of the question that
* no chosen paper's title or abstract holds (stemmed; also its hyphen parts and the acronyms the abstract defines),
* can be a noun or an adjective (lemminflect's English lexicon), or is a name ("Whisper" mid-sentence), and is
  used as one: a word that may be a verb ("help", "video") only where a noun phrase starts ("for video …"),
* is attached to a topic word they do hold: next to it ("speech watermarking", "AI-generated speech") or in a
  phrase after it ("the KV cache of Whisper"), so a word the question merely asks with ("What does it measure?",
  "to make …") is not one, and
* is never found with that word in any indexed abstract (BM25's own stemmed postings): had some paper held both,
  the papers chosen would simply be the wrong ones, and nothing could be said to be missing from the index.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rag.coref import COMMON_LONG
from rag.properties import written_property
from rag.tokens import content_words, without_where

if TYPE_CHECKING:
    from rag.retrieval.rankers import BM25Ranker
    from rag.types import Paper

_TOKEN = re.compile(r"[a-z0-9][a-z0-9\-]*[a-z0-9]|[a-z0-9]")
_TOKEN_CASED = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]|[A-Za-z0-9]")
# "the KV cache of Whisper", "watermarking for speech": a qualifier in a phrase after the word it qualifies.
_LINKS = frozenset("of for in on to with from across under over within".split())
_NOUN_PHRASE_STARTS = _LINKS | frozenset("a an the its their any some each every".split())
_REACH = 3  # how many words before the linking word may hold the qualified one
_PARTICLES = frozenset("up out off down away around keep keeps kept start starts started stop stops stopped".split())
# Words that ask rather than name a topic, beyond those shared with reference resolution (``_asking``).
_ASKING_NOUNS = frozenset("way ways kind kinds type types sort sorts part parts lot lots number amount thing things "
                          "aspect aspects example examples case cases gain gains improvement improvements speedup "
                          "speedups accuracy cost costs technique techniques tool tools benefit benefits advantages "
                          # adjectives that grade rather than name a topic ("a big EEG dataset", "the original order")
                          "big large small huge tiny new novel recent good simple fast efficient strong original "
                          "different similar existing current bigger larger smaller better worse stronger weaker "
                          "exact exactly precise precisely specific actual "  # ("the exact FID")
                          "real realistic practical little "  # ("… for real cloud systems?", "a little data")
                          # and words that pick one out rather than say which ("a given image", "a concrete figure")
                          "given certain particular arbitrary concrete whole entire typical "
                          # and ones saying it is the usual kind ("as good as a normal RM?", "a standard transformer")
                          "normal standard regular usual ordinary conventional plain vanilla classic common "
                          # and ones pointing at earlier work ("what's wrong with the earlier … methods?")
                          "earlier prior previous older past traditional "
                          "individual respective separate single proper "  # ("each individual step", "RL proper")
                          "nutshell gist "  # and chat's ways of asking for the gist ("explain it in a nutshell")
                          "stuff complaint complaints gripe "  # and vague or complaining nouns ("suggesting stuff …")
                          # and places and hedges the stop-word list lacks ("what do they actually do inside DiTs?")
                          "inside outside beneath underneath alongside amid near actually really basically simply "
                          "just".split())
# Words that ask which one ("for which region?", "which smoothed variant do they study?"): what follows is asked for.
_WHICH = frozenset("which what".split())


@dataclass(frozen=True)
class Missing:
    """A qualifier no chosen paper holds and the held words it qualifies, each as the user wrote them
    ("automatic speech recognition", "KV cache")."""

    words: str
    qualifies: str


def missing_qualifiers(question: str, papers: list[Paper], bm25: BM25Ranker) -> list[Missing]:
    """The question's qualifiers that no paper of ``papers`` holds and no indexed abstract has with the word they
    qualify."""
    from rag.alternatives import examples_in
    from rag.choice_words import choice_query, without_denied
    from rag.question import without_examples, without_likened

    # (a paper writing one of the examples the question gives of what it means fits it: "discrete optimization
    # problems - routing, TSP, bin packing, …" of MaskCO's "Travelling Salesman Problem (TSP)")
    if not papers or any(re.search(rf"(?<!\w){re.escape(e)}s?(?!\w)", f"{p.title} {p.text}", re.IGNORECASE)
                         for e in examples_in(question) for p in papers):
        return []
    question = without_likened(question)  # ("kind of BERT-style": what the user means, not a qualifier)
    question = without_examples(question)  # ("… (TSP, bin packing, that sort of thing)": examples, none required)
    question = without_own_story(question)  # ("I keep hand-writing TikZ for my thesis …": why, not what is asked)
    question = without_denied(choice_query(question))  # ("… instead of falling back on …", "… not rely on …")
    cased = _TOKEN_CASED.findall(without_where(question))
    tokens = [t.lower() for t in cased]
    topic = content_words(question) - asking_words()
    held_stems = set().union(*(_stems(p, bm25) for p in papers))
    held_words = set().union(*(_words(p) for p in papers))

    def held(i: int) -> bool:
        stems = bm25.tokens(tokens[i])
        return tokens[i] in topic and bool(stems) and all(s in held_stems for s in stems)

    def missing(i: int) -> bool:
        word = tokens[i]
        singular = word[:-1] if word.endswith("s") and len(word) > 3 else ""  # "PDEs", which the stemmer keeps
        return (word in topic and not word.isdigit() and bool(bm25.tokens(word)) and not held(i)
                and not _part_of(word, held_words)
                and not (singular and set(bm25.tokens(singular) or ["-"]) <= held_stems)
                and not spelled_out(singular or word) and not made_by_held(word)
                and not any(written_property(word, p.text) for p in papers))  # ("faster": "a 3.7× speedup")

    def made_by_held(word: str) -> bool:  # "LLM-written code", "transformer-based": how a held thing takes part
        head, _, tail = word.rpartition("-")
        return bool(head) and tail.endswith(("ed", "en")) and "VERB" in word_readings(tail) and any(
            set(bm25.tokens(form) or ["-"]) <= held_stems for form in (head, f"{head}s"))  # ("LLMs" stems as written)

    def spelled_out(acronym: str) -> bool:  # "ML" where the paper writes "machine learning"
        return acronym in COMMON_LONG and set(bm25.tokens(COMMON_LONG[acronym])) <= held_stems

    qualifiers: dict[int, int] = {}  # a missing word's place → the place of the held word it qualifies
    for i in (i for i in range(len(tokens)) if missing(i)):
        place = _anchor(i, cased, tokens, held)
        if place is None and i >= 2 and tokens[i - 1] in ("or", "and") and i - 2 in qualifiers:
            place = qualifiers[i - 2]  # "watermarking audio or speech": both qualify "watermarking"
        if place is not None and not _together(tokens[i], tokens[place], bm25):
            qualifiers[i] = place
    found: list[Missing] = []
    for i, place in qualifiers.items():
        if i - 1 in qualifiers:
            continue  # inside a run already reported
        words = _run(i, cased, lambda j: j == i or (missing(j) and nounish(tokens[j])))
        found.append(Missing(words, _run(place, cased, held)))
    return found


# "hey, I keep hand-writing TikZ for my thesis figures and saw …. What do they say …?": a sentence about the user.
_OWN_STORY = re.compile(r"^\W*(?:(?:hey|hi|hello|ok(?:ay)?|so|well)\W+)?(?:i|i'm|i’m|i've|i’ve|we|we're|we’re|my|"
                        r"our)\b", re.IGNORECASE)


# ("I'm looking for …", "we need …": about the user, but what they ask)
_REQUEST = re.compile(r"\b(?:looking|want|wanted|need|needs|wonder\w*|search\w*|curious|interested|find|know|ask\w*|"
                      r"recommend\w*|suggest\w*|trying)\b", re.IGNORECASE)
# ("… Mistral-7B; does it …?": what the rest points back at may be the user's own thing)
_POINTS_BACK = re.compile(r"\b(?:it|its|they|them|their)\b", re.IGNORECASE)


def without_own_story(question: str) -> str:
    """The question without the sentences before its last that tell about the user and ask nothing, nor the clauses
    doing so before a ";" or a dash ("I'm serving Mistral-7B on one GPU; is there a paper …?") unless the rest points
    back at what they tell ("we use Llama-3 - does TRIM-KV support it?") or they ask ("I'm looking for …")."""
    split = re.split(r"((?<=[.!?;])\s+|\s[-–—]\s)", question.strip())  # pieces, each followed by its separator
    pieces, rest = split[0::2], split[-1]

    def story(piece: str) -> bool:
        if piece.endswith("?") or not _OWN_STORY.match(piece):
            return False
        return piece.endswith((".", "!")) or not (_REQUEST.search(piece) or _POINTS_BACK.search(rest))

    return "".join(piece + (split[2 * i + 1] if 2 * i + 1 < len(split) else "") for i, piece in enumerate(pieces)
                   if i == len(pieces) - 1 or not story(piece))


def _anchor(i: int, cased: list[str], tokens: list[str], held: Callable[[int], bool]) -> int | None:
    """The place of the held word the missing word at ``i`` qualifies, if it qualifies one: next to it in a noun
    phrase ("speech watermarking", "AI-generated speech", "watermark speech") or in a phrase after it ("the KV cache
    of Whisper"); None for a word that only asks along ("How does Tactic pick …?")."""
    word = tokens[i]
    named = i > 0 and cased[i][:1].isupper()  # "Whisper" mid-sentence: a name, whatever it also means in English
    readings = word_readings(word)
    if not named and (_graded(word) or _asked_for(i, tokens)):  # "tokenized at a coarser level", "which region?"
        return None
    noun = named or "NOUN" in readings
    if not noun and "ADJ" not in readings:
        return None
    # A word that may be a verb ("help", "video") is read as a noun only where a noun phrase starts: "for video …".
    verb = "VERB" in readings and not named
    nominal = not verb or (i > 0 and tokens[i - 1] in _NOUN_PHRASE_STARTS)
    if verb and i > 0 and tokens[i - 1] == "to":  # "to make …", "to meet …": an infinitive, not "to chemistry"
        return None
    before_held = i + 1 < len(tokens) and held(i + 1) and nounish(tokens[i + 1])
    if before_held:  # a modifier of a held noun ("speech watermarking"); "DiT image generators" is not one
        return i + 1 if nominal else None
    # "watermarking audio?", "watermark audio": an adjective that ends the phrase after a verb stands for a noun
    # (the lexicon has "audio" only as an adjective); a comparative ("… research easier?") is no such thing
    head = noun or (i > 0 and _takes_object(tokens[i - 1]) and not word.endswith(("er", "est")) and (
        i + 1 == len(tokens) or tokens[i + 1] in asking_words() or not nounish(tokens[i + 1])))
    if nominal and head and i > 0 and held(i - 1) and _modifies(tokens[i - 1]):
        return i - 1
    link = next((j for j in range(i - 1, max(-1, i - 4), -1) if tokens[j] in _LINKS), None)
    if link is not None and noun and not _verb_of(i, tokens):
        return next((j for j in range(link - 1, max(-1, link - 1 - _REACH), -1)
                     if held(j) and nounish(tokens[j]) and not _gerund(j, tokens)), None)
    return None


def _gerund(j: int, tokens: list[str]) -> bool:
    """A verb's "-ing" form after a particle ("what role do they end up playing in the image?"): it asks."""
    return tokens[j].endswith("ing") and j > 0 and tokens[j - 1] in _PARTICLES


def _graded(word: str) -> bool:
    """A comparative or superlative ("coarser", "earlier"): it grades what it qualifies, and names no topic."""
    lemmas = _lemmas(word)
    return word.endswith(("er", "est")) and any(
        lemma != word for part in ("ADJ", "ADV") for lemma in lemmas.get(part, ()))


def _asked_for(i: int, tokens: list[str]) -> bool:
    """The word the question asks to be told ("for which region?", "which smoothed variant …?"), not one it requires."""
    return i > 0 and (tokens[i - 1] in _WHICH or i > 1 and tokens[i - 2] in _WHICH
                      and tokens[i - 1] not in asking_words() and bool(word_readings(tokens[i - 1]) & {"ADJ", "VERB"}))


# Words after which a word that may be a verb is one: "… that uses …", "… who pick …".
_RELATIVES = frozenset("that which who".split())


def _verb_of(i: int, tokens: list[str]) -> bool:
    """A word that may be a verb, used as one: after its subject ("how humans pick up …", "the model for biological
    data cope with …") or a relative pronoun ("… of LLMs that uses …")."""
    if i == 0 or "VERB" not in word_readings(tokens[i]):
        return False
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    before = tokens[i - 1]  # (the stop words hold every word that starts a noun phrase: "for", "the", "its", …)
    return before in _RELATIVES or (before not in ENGLISH_STOP_WORDS and nounish(before)
                                    and not before.endswith(("ed", "ing", "al", "ic", "ive")))


def _takes_object(word: str) -> bool:
    return word.endswith("ing") or "VERB" in word_readings(word)


def _modifies(word: str) -> bool:
    """A word that can stand before a head noun other than as a noun: "AI-generated speech", "watermark speech" (not
    "fact lookups", two nouns the abstract may just call otherwise)."""
    readings = word_readings(word)
    return bool(readings & {"ADJ", "VERB"}) or (not readings and (word.endswith(("ed", "ing", "al", "ic", "ive"))
                                                    or any(c.isdigit() for c in word)))  # "4D human avatars"


def _run(i: int, cased: list[str], belongs: Callable[[int], bool]) -> str:
    """The words around place ``i`` that belong with it, as written ("automatic speech recognition")."""
    start, end = i, i
    while start > 0 and belongs(start - 1):
        start -= 1
    while end + 1 < len(cased) and belongs(end + 1):
        end += 1
    return " ".join(cased[start:end + 1])


@lru_cache(maxsize=1)
def asking_words() -> frozenset[str]:
    """Words that ask rather than name a topic: English function words, the words any abstract answers to ("results",
    "dataset"), how a figure is asked for ("max", "gain") and how papers on the table are pointed at ("the top two")."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from rag.topic_words import FIGURE_WORDS, GENERIC_WORDS, REFERENCE_WORDS

    return frozenset(ENGLISH_STOP_WORDS | GENERIC_WORDS | FIGURE_WORDS | REFERENCE_WORDS | _ASKING_NOUNS)


def word_readings(word: str) -> set[str]:
    """The parts of speech an English word can be (lemminflect's lexicon; empty for a word it does not know)."""
    return set(_lemmas(word))


def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Each part of speech the word can be → its lemmas ("coarser": ADJ → "coarse"), from lemminflect's lexicon."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


def nounish(word: str) -> bool:
    """A word that can be a noun, a gerund ("speculative decoding", "speech watermarking"), or one the lexicon does
    not know (a name: "KV", "TRIM-KV")."""
    readings = word_readings(word)
    return not readings or "NOUN" in readings or word.endswith("ing")


def _part_of(word: str, words: set[str]) -> bool:
    """"rain" in "rainfall", "chemistry" beside "chemical": a word that begins a held word, or is begun by one, or
    shares its first five letters with one, is not missing."""
    return len(word) >= 4 and any(len(w) >= 4 and (w.startswith(word) or word.startswith(w) or w[:5] == word[:5])
                                  for w in words)


def _words(paper: Paper) -> set[str]:
    return set(_TOKEN.findall(f"{paper.title} {paper.search_text}".lower()))


def _stems(paper: Paper, bm25: BM25Ranker) -> set[str]:
    long_forms = " ".join(paper.acronyms.values())
    return set(bm25.tokens(f"{paper.title} {paper.search_text} {long_forms}"))


def _together(word: str, anchor: str, bm25: BM25Ranker) -> bool:
    """Some indexed abstract holds both words."""
    papers: set[str] | None = None
    for stem in bm25.tokens(word) + bm25.tokens(anchor):
        papers = bm25.papers_with(stem) if papers is None else papers & bm25.papers_with(stem)
    return bool(papers)
