"""Follow-up questions → standalone queries, deterministically (an LLM rewrite arrives with the LLM backends).

A follow-up such as "What speedup does it claim?" names nothing itself; the earlier turn does. When a
question refers back (a pronoun or "this/that method") or carries almost no topic words, the topic
words of the most recent earlier turn are put in front of it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.tokens import content_words, without_where

if TYPE_CHECKING:
    from rag.backends import LLMBackend
    from rag.retrieval import HybridRetriever
    from rag.settings import Settings
    from rag.types import Turn

# "that" only where it stands for a thing ("How is that different …", "… of that?"), not "a paper that turns …".
_REFERS_BACK = re.compile(
    r"^\W*that\b|\bthat\s*\?|\b(?:is|does|did|was|can|of|from|than|with|about|like|to)\s+that\b"
    r"(?!\s+(?:is|are|was|were|can|could|does|do|did|has|have|uses?|used|needs?|makes?|turns?|learns?)\b)|"
    r"\b(it|its|it's|they|them|their|this|these|those|that (?:paper|method|model|approach|work|one|framework|benchmark|"
    r"dataset)|the (paper|method|model|approach|authors|work|"
    r"framework|benchmark|dataset|new|previous|proposed|original|authors?)|both|former|latter|same)\b|它|其|这|该|那", re.IGNORECASE)
_FEW_TOPIC_WORDS = 2
_ONES = re.compile(r"\bones\b", re.IGNORECASE)  # "which ones …": of those on the table
STAY_MARGIN = 0.15  # (see ``stays_on``)
FRAGMENT_MARGIN = 0.3  # (measured: "any cost at inference time?" stays on TRIM-KV 0.28 below the paper it found)
_ASKS_FOR_ONE = re.compile(r"\b(?:is|are)\s+there\s+(?:one|any|a|an|another)\b|\banother\s+(?:one|paper)\b",
                           re.IGNORECASE)
MAX_LEANING_WORDS = 3  # a question with more topic words of its own is one of its own, even when it finds nothing
_FRAGMENT_WORDS = 6  # …but a fragment this short may have two more ("inference cost / arch changes?")
# "and robustness when frames get dropped?": a fragment going on from the last answer (not "and is there …"; unlike
# ``references._GOES_ON``, "and what …", a whole question going on with the same subject)
_AND_FRAGMENT = re.compile(r"^\W*(?:and|also|plus)\s+(?!(?:what|how|which|why|who|where|when|is|are|was|were|do|"
                           r"does|did|can|could|will|would|has|have|had)\b)", re.IGNORECASE)
# A finite verb of its own ("What is the capital of France?", "How do I bake bread?"): a question, not a fragment.
_FINITE = re.compile(r"\b(?:is|are|was|were|am|be|been|do|does|did|can|could|will|would|shall|should|may|might|must|"
                     r"has|have|had)\b|['’](?:s|re|ve|ll|d|m)\b|n['’]t\b", re.IGNORECASE)

# "how big were the gains?", "how big is the memory cut, and relative to what?": a thing named by "the" alone, nothing
# said of which, is the last answer's.
_THE_THING = re.compile(r"\bthe\s+[a-z]+(?:[\s-][a-z]+)?(?:\s*,\s*(?:and|or)\s[^,;:?]*)?\W*$", re.IGNORECASE)
# "does the tool trick help other kinds of verifiers too?": asked yes or no of a thing named by "the" alone
_THE_SUBJECT = re.compile(r"^\W*(?:(?:and|so|but|ok(?:ay)?)\W+)?(?:does|do|did|is|are|was|were|can|could|would|will)\s+"
                          r"the\s+(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+[a-z]+\b", re.IGNORECASE)


def refers_back(question: str) -> bool:
    """A pronoun or "the method"-style reference, or too little of its own: neither a name nor topic words."""
    from rag.coref import without_bound_its
    from rag.question import names_in

    # (not "… in this collection?", nor "… back to its source" in a search for papers)
    if _REFERS_BACK.search(without_bound_its(without_where(question))):
        return True
    if content_words(question) and _searches_papers(question):  # "Are any papers about robotics?": a new search
        return False
    return not names_in(question) and len(content_words(question)) < _FEW_TOPIC_WORDS


def _searches_papers(question: str) -> bool:
    """A list question for papers of the collection ("Papers on reward models?"), not for ones on the table."""
    from rag.question import analyse
    from rag.types import QuestionKind

    return analyse(question).kind is QuestionKind.LIST and not _ONES.search(question)


def leans_back(turn: Turn, retriever: HybridRetriever) -> bool:
    """A fragment that found nothing on its own, right after an answer, asks about that answer's papers ("how far
    ahead, and for which region?" after RainPro-8): refused for weak evidence alone (no missing name or word, no
    detail the papers lack), no reference, no name and no verb of its own (or one ending on a bare "the gains", or
    on a thing the last answer's first paper writes of: "the memory cut"), one paper's question of a few topic words.
    A whole question that finds nothing ("What is the capital of France?", "How do I bake the bread?") stays
    refused."""
    from rag.asks import asks_existence
    from rag.references import last_answered
    from rag.tokens import stems
    from rag.topic_words import own_topic_words, written_words
    from rag.types import QuestionKind

    d, last = turn.decision, last_answered(turn.table)
    goes_on = bool(_AND_FRAGMENT.match(turn.question))  # ("and robustness when frames are dropped?": a verb too)
    thing = _THE_THING.search(turn.question)
    theirs = [retriever.papers[pid] for pid in (last.listed[:1] if last else []) if pid in retriever.papers]
    subject = _THE_SUBJECT.match(turn.question)  # (a thing the last answer's first paper writes of)
    held = bool(subject) and any(stems(own_topic_words(subject.group("thing"))) & written_words(p) for p in theirs)
    return (d.refused and not (d.missing_names or d.unknown_words or d.reason or turn.leans_back)
            and turn.reference == "none" and not turn.shape.names and (turn.shape.kind is QuestionKind.SINGLE or (
                turn.shape.kind is QuestionKind.LIST and bool(_ONES.search(turn.question))))  # ("which vanilla ones?")
            and last is not None and len(own_topic_words(turn.question)) <= MAX_LEANING_WORDS + 2 * (
                goes_on or held or _fragment(turn.question) and not asks_existence(turn.question))  # ("any
            # extension past single-step backups?"; not "Anything on speech recognition or audio?", a search)
            and (goes_on or held or not _FINITE.search(turn.question) or bool(thing) and (
                not (own := stems(own_topic_words(thing.group(0)))) or any(own & written_words(p) for p in theirs))))


def standalone_query(question: str, history: list[str]) -> str:
    """The question, preceded by the earlier turns it leans on: back to the latest one that stands alone."""
    if not history or not refers_back(question):
        return question
    context = []
    for turn in reversed(history):
        context.insert(0, turn)
        if not refers_back(turn):
            break
    return " ".join([*context, question])


def llm_rewrite(llm: LLMBackend, question: str, history: list[str], settings: Settings) -> str | None:
    """A follow-up rewritten by the LLM into a standalone question, or None to use the deterministic one.

    Only questions that lean on the conversation are rewritten. A small model's rewrite is accepted only if
    it is a single short line that keeps the question's own topic words (so it cannot change the subject);
    it is then joined to the deterministic rewrite, so retrieval keeps the earlier turn's names too."""
    from rag import prompts
    from rag.backends import Message

    if not refers_back(question):
        return None
    turns = "\n".join(f"User: {turn}" for turn in history[-settings.llm.rewrite_history_turns:])
    messages = [Message("system", prompts.REWRITE_SYSTEM),
                Message("user", prompts.REWRITE_USER.format(history=turns, question=question))]
    try:
        text = "".join(llm.stream(messages, settings.llm.rewrite_tokens)).strip().strip('"')
    except Exception:  # a failed rewrite is not worth failing the question: the fallback is deterministic
        return None
    line = text.splitlines()[0].strip() if text else ""
    own = content_words(question)
    if not line or len(line) > settings.llm.rewrite_max_chars or (own and not own & content_words(line)):
        return None
    return f"{line} {standalone_query(question, history)}"


def stays_on(turn: Turn, retriever: HybridRetriever, weight: float) -> bool:
    """A question of its own words right after a one-paper answer ("What's the complexity of generation?" after
    FutureFill) that the last paper answers about as well as the paper it found (best sentences within
    ``STAY_MARGIN``): about the last paper, the way a reader takes it. A question another paper fits clearly better,
    one naming anything, asking for a paper ("Is there one built for …?") or of more than a few topic words of its
    own is a new subject, and so is one calling the paper it found by that paper's title words ("token retention for
    memory-bounded KV caches?": TRIM-KV). A fragment ("step-level labels required?") has no subject of its own: it
    stays on the last answer's papers (any of them) within ``FRAGMENT_MARGIN``."""
    from rag.asks import asks_existence
    from rag.evidence import evidence_for
    from rag.references import last_answered
    from rag.tokens import stems
    from rag.topic_words import own_topic_words
    from rag.types import Hit, QuestionKind
    from rag.unstated import without_offered

    d, last, fragment = turn.decision, last_answered(turn.table), _fragment(turn.question)
    if (turn.leans_back or d.refused or not d.chosen or turn.reference != "none" or turn.shape.names
            or asks_existence(turn.question) or _ASKS_FOR_ONE.search(turn.question)
            or len(own_topic_words(without_offered(turn.question))) > MAX_LEANING_WORDS + 2 * fragment
            or turn.shape.kind is not QuestionKind.SINGLE or last is None or not last.listed
            or len(last.listed) > 1 and not fragment or d.chosen[0][1].hit.paper.paper_id in last.listed):
        return False
    # (scored by what it asks about, not by the candidates it offers: "which environments? meta-world, atari?")
    asked, found = without_offered(turn.corrected_question), d.chosen[0][1]
    mine = max((e.best_score for pid in last.listed[:3] if pid in retriever.papers
                for e in evidence_for(asked, [Hit(retriever.papers[pid], 0.0)], retriever, weight)), default=None)
    titled = len(stems(own_topic_words(asked)) & stems(own_topic_words(found.hit.paper.title))) >= 2
    return mine is not None and not titled and mine >= found.best_score - (FRAGMENT_MARGIN if fragment else STAY_MARGIN)


def _fragment(question: str) -> bool:
    """A few words, no finite verb, no question word ("inference cost / arch changes?"): it goes on from the last
    answer (not "list every paper here that introduces a new benchmark")."""
    return len(question.split()) <= _FRAGMENT_WORDS and not _FINITE.search(question) and not re.match(
        r"\W*(?:what|how|which|why|who|where|when)\b", question, re.I)


# "What about MaskCO, how fast is it?": a question of its own after "what about", not a fragment to complete.
_OWN_QUESTION = re.compile(r"[,;:–—-]\s*(?:so\s+|and\s+)?(?:what|how|which|why|where|when|who|do|does|did|is|are|"
                           r"can)\b", re.IGNORECASE)


def complete_ellipsis(rest: str, previous: str) -> str:
    """"What about MaskCO?" after "What speedup does ARPG report?" → "What speedup does MaskCO report?": the
    previous question with its named thing replaced; without one, the new words joined to it."""
    from rag.question import names_in
    from rag.topic_words import own_topic_words

    rest = rest.strip().rstrip("?").strip()
    # "what about small LMs as verifiers, what tasks do they struggle with?": its own; "and for video, what got
    # better?" asks the last one's again, for video.
    if _OWN_QUESTION.search(rest) and not re.match(r"(?:for|in|on|with|at|under)\b", rest, re.IGNORECASE):
        return f"{rest}?"
    # "what about a big intracranial EEG dataset for epilepsy surgery?": a thing of its own to search for
    if re.match(r"(?:a|an|any|some)\s", rest, re.IGNORECASE) and len(own_topic_words(rest)) >= 3:
        return f"{rest}?"
    names = names_in(previous)
    if names and names_in(rest):
        return previous.replace(names[0], rest, 1)
    pronoun = re.search(r"\b(?:it|they|this (?:method|paper|approach|model))\b", previous, re.IGNORECASE)
    if pronoun and names_in(rest):  # "What speedup does it report?" + "MaskCO"
        return previous[: pronoun.start()] + rest + previous[pronoun.end():]
    return f"{previous.rstrip('?').strip()} {rest}?"


def llm_query(question: str, history: list[str], llm: LLMBackend, settings: Settings) -> str | None:
    """Before understanding, with an LLM backend: a Chinese question translated, or a follow-up rewritten into a
    standalone question; both checked, None when the check fails (the deterministic path is used then)."""
    from rag.multilingual import needs_multilingual
    from rag.translate import llm_translate

    if settings.llm.llm_translate and needs_multilingual(question):
        english = llm_translate(llm, question, settings.llm)
        return standalone_query(english, history) if english else None
    if history and settings.llm.llm_rewrite_followups:
        return llm_rewrite(llm, question, history, settings)
    return None
