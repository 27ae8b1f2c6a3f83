"""What an abstract's sentence says without writing it out: the words an acronym stands for, and the paper's name
behind "this benchmark" / "our method". Used twice: the evidence stage counts those words, and a quote shown out of
its abstract spells out the acronym ("… prior AD scaling. (AD: Algorithm Distillation)").

A question says "implicit reward models", the abstract's finding says "IM-RMs rely more heavily on …"; a question
names "CatalystBench", the sentence listing its tasks says "The tasks covered by this benchmark …". The evidence
stage counts a sentence's topic words with these additions, so the sentence that answers is not out-scored by
the one that merely repeats the question's wording. Rules, not a coreference model: no offline package ships one,
and an abstract defines its acronyms in one fixed pattern ("long form (ACR)").
"""

from __future__ import annotations

import re

from rag.tokens import content_words, stems

# "… an implicit reward model (IM-RM)", "Multi-head Full-task (MFT)", "discrete diffusion forcing (D2F)".
_DEFINED = re.compile(r"((?:[\w'-]+\s+){1,8})\(\s*([A-Z][A-Za-z0-9-]*[A-Z0-9])s?\s*\)")
# Acronyms every reader of ML abstracts knows: spelling them out would only lengthen the answer.
_KNOWN = frozenset("AI ML LLM LM VLM MLLM NLP CV RL GPU CPU CNN RNN GNN GAN VAE ViT KV QA API SOTA MoE".split())
_STOP = frozenset("a an the of for to with and in on by via from".split())
_KINDS = frozenset("framework method model approach module algorithm network strategy mechanism technique system "
                   "architecture pipeline".split())  # what a long form may end on outside the acronym
# What the commonest of them stand for, so that "in-context RL" finds "in-context reinforcement learning" in an
# abstract that never writes "RL" (and "reinforcement learning" finds "RL"): field-wide, not defined per abstract.
COMMON_LONG = {"rl": "reinforcement learning", "ml": "machine learning", "llm": "large language model",
               "lm": "language model", "vlm": "vision-language model", "nlp": "natural language processing",
               "cv": "computer vision", "gnn": "graph neural network", "cnn": "convolutional neural network",
               "rnn": "recurrent neural network", "gan": "generative adversarial network",
               "vae": "variational autoencoder", "moe": "mixture of experts", "sft": "supervised fine-tuning",
               "ssl": "self-supervised learning", "pde": "partial differential equation",
               "ood": "out-of-distribution", "sota": "state-of-the-art"}


def common_acronym(word: str) -> bool:
    """A field's common acronym (``COMMON_LONG``), in any case, singular or plural ("RL", "LLMs", "ML")."""
    return bool(common_long(word))


def short_acronyms(text: str) -> list[str]:
    """The short acronyms written in capitals ("RGM", "IAR"), not a field's common one ("RL", "LLM")."""
    return [a for a in re.findall(r"\b[A-Z][A-Z0-9]{1,4}\b", text) if not common_acronym(a)]


def common_long(word: str) -> str:
    """What a field's common acronym stands for ("LLMs" → "large language model"); "" for any other word."""
    return COMMON_LONG.get(word.lower().removesuffix("s"), "")


# "this benchmark", "our framework", "the proposed method": the paper's own contribution, by its kind.
_OWN = re.compile(r"\b(?:this|our|the\s+proposed)\s+(?:new\s+|novel\s+)?(?:method|approach|framework|model|benchmark|"
                  r"dataset|algorithm|system|technique|strategy|pipeline|architecture|suite|agent|tool)s?\b",
                  re.IGNORECASE)


def definitions(text: str) -> dict[str, str]:
    """Each acronym the text defines → its long form as written: the longest run of words before the parenthesis
    whose initials (stop words aside) appear in order among the acronym's letters, a digit standing for any letter
    ("implicit reward model (IM-RM)", "discrete diffusion forcing (D2F)"), starting with its first letter ("a
    promising alternative to autoregressive (AR)" → "autoregressive")."""
    found: dict[str, str] = {}
    for match in _DEFINED.finditer(text):
        words, short = match.group(1).split(), match.group(2)
        letters = [c.lower() for c in short if c.isalnum()]
        if len(words) > 1 and words[-1].lower() in _KINDS and words[-1][0].lower() != letters[-1]:
            words = words[:-1]  # ("Permutation-Consistent Variational Encoding framework (PCVE)")
        # (or before a phrase qualifying it: "Spurious Correlation-Aware Embedding Regularization for Worst-Group
        # Robustness (SCER)")
        tail = next((i for i in range(len(words) - 1, max(0, len(words) - 4), -1) if words[i].lower() in _STOP), 0)
        for run in (words, words[:tail]) if tail else (words,):
            window = run[-(len(letters) + 2):]
            long = next((" ".join(window[start:]) for start in range(len(window)) if window[start].lower() not in _STOP
                         and (initials := [w[0].lower() for w in window[start:] if w.lower() not in _STOP])
                         and initials[0] == letters[0] and _in_order(initials, letters)), "")
            if long:
                found.setdefault(short, long)
                break
        else:
            if long := _by_capitals(words, short):
                found.setdefault(short, long)
    return found


def _by_capitals(words: list[str], short: str) -> str:
    """The run of words whose capitals spell the acronym exactly, from a capitalised word on ("a Global set of
    Frame-wise PseudoRandom Coding keys (GF-PRC)"): a long form whose lower-case words are not in the acronym."""
    capitals = "".join(c for c in short if c.isupper())
    return next((" ".join(words[start:]) for start in range(len(words)) if len(capitals) >= 3 and words[start][:1]
                 .isupper() and "".join(c for w in words[start:] for c in w if c.isupper()) == capitals), "")


def acronym_words(defined: dict[str, str], common: bool = False) -> dict[str, set[str]]:
    """Each acronym of ``defined`` (``definitions``; lower case) → the topic words of its long form; with
    ``common``, the common acronyms (``COMMON_LONG``) too, unless ``defined`` gives them another."""
    both = {**(COMMON_LONG if common else {}), **{short.lower(): long for short, long in defined.items()}}
    return {short: words for short, long in both.items() if (words := content_words(long))}


def spell_out(text: str, defined: dict[str, str], done: set[str]) -> str:
    """``text`` followed by the long form of each acronym in it that its abstract defined (``defined``): "… prior AD
    scaling. (AD: Algorithm Distillation)", unless ``done`` (spelled out before in this answer), widely known, or
    defined or written out in the text itself; updates ``done``. The gloss follows the quote rather than entering
    it, so the quote stays the abstract's words, phrase for phrase."""
    glosses = []
    for short, long in defined.items():
        if short in done or short in _KNOWN or not re.search(rf"(?<![\w-]){re.escape(short)}s?(?![\w-])", text):
            continue
        done.add(short)
        if f"({short}" not in text and long.lower() not in text.lower():
            glosses.append(f"{short}: {long}")
    return f"{text} ({'; '.join(glosses)})" if glosses else text


# An acronym as the user writes it ("the SSL objective", "PINNs"): three to six capitals, maybe a plural "s".
_WRITTEN_ACRONYM = re.compile(r"\b([A-Z]{3,6})s?\b")


def written_acronyms(question: str) -> set[str]:
    """The acronyms the question writes in capitals, lower-cased ("and the SSL objective?" → {"ssl"})."""
    return {a.lower() for a in _WRITTEN_ACRONYM.findall(question)}


def initials_written(sentence: str, acronyms: set[str]) -> set[str]:
    """Which of ``acronyms`` the sentence writes out as a run of words whose initials spell it, stop words aside
    ("a time-contrastive Self-Supervised Learning model" writes out "ssl"): an abstract need not define the acronym
    a reader uses for it."""
    if not acronyms:
        return set()
    words = [w for w in re.split(r"[\s\-/]+", sentence.lower()) if w and w not in _STOP and w[0].isalpha()]
    initials = "".join(w[0] for w in words)
    return {a for a in acronyms if a in initials and any(
        "".join(w[0] for w in words[i:i + len(a)]) == a and len(words[i]) > 1 for i in range(len(words)))}


def spelled_acronyms(question: str) -> dict[str, str]:
    """Each acronym of three to five letters the question could be writing out: the initials of each run of its words,
    stop words aside → the run ("state space models" → {"ssm": "state space models"}), so a sentence writing "SSMs"
    holds the question's words although its abstract never defines the acronym (``initials_written`` the other way
    round). Only read where a sentence writes the acronym, so a run spelling nothing costs nothing."""
    words = [w for w in re.split(r"[\s\-/]+", re.sub(r"[^\w\s\-/]", " ", question.lower()))
             if len(w) > 1 and w not in _STOP and w[0].isalpha()]
    return {"".join(w[0] for w in words[i:i + n]): " ".join(words[i:i + n])
            for n in range(3, 6) for i in range(len(words) - n + 1)}


def _in_order(initials: list[str], letters: list[str]) -> bool:
    """``initials`` appear in ``letters`` in order (a digit in ``letters`` matches any initial)."""
    position = 0
    for initial in initials:
        while position < len(letters) and letters[position] != initial and not letters[position].isdigit():
            position += 1
        if position == len(letters):
            return False
        position += 1
    return True


def implied_words(sentence: str, words: set[str], wanted: set[str], defined: dict[str, set[str]],
                  name: str = "") -> set[str]:
    """Which of the question's topic words ``wanted`` the sentence (its own topic words: ``words``) stands for
    without writing them: a long form the question spells out in full where the sentence uses the acronym
    ("implicit reward models" ← "IM-RMs"; a long form only partly in the question adds nothing, so "LLMs" never
    answers for "models"), an acronym the question uses where the sentence writes the long form, and ``name``
    (the paper's short name) where the sentence says "this benchmark" / "our method"."""
    extra: set[str] = set()
    wanted_stems = {w: stems({w}) for w in wanted}
    for short, long_words in defined.items():
        written = short in words or f"{short}s" in words
        if not written and not (short in wanted or f"{short}s" in wanted):
            continue
        long_stems = stems(long_words)
        if written and long_stems <= stems(wanted):
            extra |= {w for w, s in wanted_stems.items() if s <= long_stems}
        elif long_stems <= stems(words) and (short in wanted or f"{short}s" in wanted):  # ("… language models")
            extra |= {short, f"{short}s"} & wanted
    if name and _OWN.search(sentence):
        extra |= content_words(name) & wanted
    return extra - words


# "what about small LMs acting as verifiers, what kind of tasks do they struggle with": "they" are the small LMs, named
# in an earlier clause of the same question by a plural noun of the user's own (no "these", "the", "both" before it).
_CLAUSE = re.compile(r"[,;:?!–—]|\s-\s|\band\b", re.IGNORECASE)
_WEAK_PRONOUN = re.compile(r"\b(?:they|them|their)\b", re.IGNORECASE)
_DETERMINERS = frozenset("the these those both all its their his her our my your two three four each which "
                         "what".split())


def named_before_pronoun(question: str) -> bool:
    """The question's first "they"/"them"/"their" follows, in an earlier clause, a plural noun the user described
    with a word of their own and nothing pointing back ("small LMs", "diffusion models"; not "images", "the
    results"): the pronoun's antecedent is in the question itself."""
    from rag.topic_words import REFERENCE_WORDS
    from rag.tokens import content_words

    pronoun = _WEAK_PRONOUN.search(question)
    if pronoun is None:
        return False
    clauses = _CLAUSE.split(question[: pronoun.start()])
    for clause in clauses[:-1]:  # (not the pronoun's own clause: "which benchmarks do they use?")
        words, topic = re.findall(r"[\w-]+", clause.lower()), content_words(clause)
        for i, word in enumerate(words):
            if (len(word) >= 3 and word.endswith("s") and not word.endswith("ss") and word in topic
                    and word not in REFERENCE_WORDS and i and words[i - 1] not in _DETERMINERS
                    and words[i - 1] in topic):  # a described thing ("small LMs"), not "images"
                return True
    return False


# A search for papers ("How many papers … deal with tracing AI-generated content back to its source?"): its "its" is
# bound in its own phrase, unless the search is for others than a paper ("Which other papers cut its memory?").
_FOR_PAPERS = re.compile(r"\b(?:which|what|how\s+many|any|list)\b[^?]*\b(?:papers|works|studies)\b", re.IGNORECASE)
_BEYOND = re.compile(r"\b(?:other|others|besides|apart|aside|except|like|than|similar)\b", re.IGNORECASE)


# "which datasets did they run those experiments on?": the experiments of the paper discussed, not several papers
_THEIR_THINGS = re.compile(r"\b(?:these|those)\s+(?=(?:experiments?|results|numbers|findings|gains|claims|evaluations|"
                           r"ablations|runs|scores|figures|improvements)\b)", re.IGNORECASE)
# "how does each one actually get its speedup?", "… each one use … when it checks answers?": each one's, not the
# paper discussed
_EACH = re.compile(r"\beach(?:\s+(?:one|paper|method|approach|of\s+(?:them|the\s+\w+)))?\b(?!\s+other\b)[^.?!;]*",
                   re.IGNORECASE)
_SEARCH_AFTER = re.compile(r"(?:\s[-–—]\s|[:;.?!]\s+)(?=(?:(?:so|and|then|ok(?:ay)?)\W+)?(?:which|what|any)\s+"
                           r"(?:papers|works|studies)\b)", re.IGNORECASE)
_PRONOUNS = re.compile(r"\b(?:it|its|it's|they|them|their|this|that|these|those)\b", re.IGNORECASE)
_SEEKS_FIRST = re.compile(r"^\W*(?:[\w-]+(?:\s+[\w-]+){0,2}\s*[:,–—-]\s*)?(?:is\s+there|are\s+there|"
                          r"any(?:thing|one|body)?|"
                          r"(?:has|have|did|does)\s+any(?:one|body)|(?:i\s+am\s+|i['’]?m\s+)?looking\s+for)\b[^?]*\?")


def without_bound_its(question: str) -> str:
    """The question without an "its" or "their" that belongs to its own phrase in a search for papers (``_FOR_PAPERS``:
    "Which papers … frame their contribution as test-time scaling?"), without "it" / "its" after "each one" ("how
    does each one actually get its speedup?"), with "those experiments" read as "the experiments" (of the paper
    discussed), and without the pronouns of a remark leading to a search of its own ("it mentions flow matching -
    which papers in the set use flow matching?": the search asks nothing about the paper discussed)."""
    # ("is there an LLM that proposes molecules …? how does it represent them": "it" is the LLM searched for)
    if (seeks := _SEEKS_FIRST.match(question)) and all(  # (its own "that" is a relative pronoun: "an LLM that …")
            m.group(0).lower() == "that" for m in _PRONOUNS.finditer(seeks.group(0))):
        question = seeks.group(0) + _PRONOUNS.sub(" ", question[seeks.end():])
    if (search := _SEARCH_AFTER.search(question)) and not _BEYOND.search(question[search.end():]):
        question = _PRONOUNS.sub(" ", question[:search.start()]) + question[search.start():]
    question = _EACH.sub(lambda m: re.sub(r"\b(?:its|it|their|they)\b", " ", m.group(0), flags=re.I),
                         _THEIR_THINGS.sub("the ", question))
    if _FOR_PAPERS.search(question) and not _BEYOND.search(question):  # (and "…, whether they build one or …")
        return re.sub(r"\b(?:its|their|(?<=whether\s)they|(?<=if\s)they)\b", " ", question, flags=re.IGNORECASE)
    return question
