"""Names and vocabulary of the indexed papers: which papers contain a name, which titles a question names, which
question words no abstract has (and the corpus word a typo of one was meant as). A small embedding model blurs rare
tokens ("TRIM-KV", "D2F"); the user does not. These exact lookups let retrieval put the papers a question names
first and let the decision refuse what no abstract mentions."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rag.coref import acronym_words, common_acronym, common_long
from rag.nearmiss import asking_words, without_own_story, word_readings
from rag.retrieval.rankers import BM25Ranker
from rag.retrieval.titles import coined_names, own_names, paper_words, title_initialisms, title_names
from rag.settings import DecisionSettings, RetrievalSettings
from rag.spelling import Speller
from rag.tokens import QUESTION_WORDS, content_words, squash, stems, topic_phrases, without_quoted, word_forms
from rag.types import Hit, Paper

_ACRONYM = r"(?=\w*[A-Z])[A-Za-z][A-Za-z0-9]*[A-Z0-9]"  # "MLLM", "dLLM", "sLM": an acronym, perhaps lower-case first
_HYPHENATED = rf"{_ACRONYM}-{_ACRONYM}"  # two joined by a hyphen ("EX-RM", "IM-RM"): one name in either number
_ACRONYM_NAME = rf"(?:{_ACRONYM}-)?{_ACRONYM}"
# "the rainfall one", "the jigsaw paper", "the multi-channel biology diffusion model", "the temporal slowness / central
# vision paper": words a paper is called by
_CALLED = re.compile(r"\bthe\s+((?:[A-Za-z][\w-]*(?:\s*/\s*|\s+)){0,3}?[A-Za-z][\w-]{3,})\s+"
                     r"(?:one|paper|work|method|model)\b", re.IGNORECASE)
# A phrase the user puts in quotes ("What are the “fallen angels” …?") is a name, however plain its words.
_QUOTED = re.compile(r'"([^"\n]{3,60})"|“([^”\n]{3,60})”|‘([^’\n]{3,60})’')
_TITLE_CASE = re.compile(r"(?<![\w-])[A-Z][a-z]{2,}(?![\w-])")
_LEAD = re.compile(r"^\W*([A-Za-z][\w-]*(?:\s+[\w-]+){1,3}?)\s*(?::|\s[-–—]+\s)")
_NOT_CALLED = frozenset("first second third fourth fifth last other same latter former previous next earlier "
                        "later proposed original new main".split())


class NameIndex:
    def __init__(self, papers: dict[str, Paper], bm25: BM25Ranker, retrieval: RetrievalSettings,
                 decision: DecisionSettings, words: dict[str, str] | None = None) -> None:
        """``words``: ``paper_words(papers)`` if already at hand (saved with the index: see rag.persisted)."""
        self.papers = papers
        self.bm25 = bm25
        self.retrieval = retrieval
        self.decision = decision
        self._mentions: dict[str, list[str]] = {}
        self._speller: Speller | None = None
        self._initialisms: dict[str, str] | None = None
        self._title_words: dict[str, set[str]] = {}
        self._title_counts: Counter[str] | None = None
        self._plain_titles: dict[str, str] | None = None
        self._versioned: set[str] | None = None
        self.words = words if words is not None else paper_words(papers)
        self.title_names, self.title_heads = title_names(papers.values(), retrieval.title_name_words)

    def papers_mentioning(self, name: str) -> list[str]:
        """Ids of the indexed papers that contain the name as whole words, ignoring case and hyphens
        ("TRIM-KV" finds "trim-KV" and "TRIMKV"; "D2F" does not find "… and 2 f…"), two hyphenated acronyms in
        either number when they only write the other ("EX-RM" finds "EX-RMs") (cached)."""
        def holding(written: str) -> list[str]:
            keys = set(word_forms(written).split("\n"))  # each padded with spaces: whole words only
            return [pid for pid, text in self.words.items() if any(k in text for k in keys)]

        if name not in self._mentions:
            other = name[:-1] if name.endswith("s") else name + "s"  # (a hyphenated acronym, "EX-RM": either number)
            found = holding(name) or (holding(other) if re.fullmatch(_HYPHENATED + "s?", name) else [])
            if name.isalpha():  # ("Llama" in "LLaMA3", "AIME" in "AIME24": the name, versioned)
                start, versioned = f" {name.lower()}", re.compile(rf" {re.escape(name.lower())}\d[0-9a-z]* ")
                found += [pid for pid, text in self.words.items()
                          if pid not in found and start in text and versioned.search(text)]
            self._mentions[name] = found
        return self._mentions[name]

    def papers_mentioning_version(self, name: str) -> list[str]:
        """``papers_mentioning`` (versions too: "AIME" in "AIME24"), else those writing an acronym in the other number
        ("dLLM" where they write "dLLMs"): what a refusal checks before saying no abstract has it."""
        if (found := self.papers_mentioning(name)) or not name.isalpha() or not re.fullmatch(_ACRONYM + "s?", name):
            return found
        return self.papers_mentioning(name[:-1] if name.endswith("s") else name + "s")

    def rare_terms(self, question: str, share: float, whole: Sequence[str] = ()) -> dict[str, set[str]]:
        """The question's terms of two or more words (``topic_phrases``) that at most ``share`` of the papers use,
        singular or plural ("KV caches" finds "KV cache") → those papers; ``whole``: terms taken as they are
        ("reinforcement learning from verifiable rewards", an acronym's long form, not its runs of topic words)."""
        found = {}
        for term in [*topic_phrases(question), *(w.lower() for w in whole)]:
            forms = {term, f"{term}s", term.removesuffix("s"), term.removesuffix("es"), term.replace("-", " ")}
            ids = {pid for form in forms if form for pid in self.papers_mentioning(form)}
            if ids and len(ids) <= share * len(self.papers):
                found[term] = ids | self._titled(term)
        return found

    def _titled(self, term: str) -> set[str]:
        """"diffusion models": the papers whose title is about diffusion ("… diffusion-based generation …") use it
        too, whatever their abstracts call their model (a term ending on a generic word only)."""
        head, _, tail = term.rpartition(" ")
        if not head or tail not in _GENERIC_TAILS:
            return set()
        if self._plain_titles is None:  # (each title's words between spaces, worked out once)
            self._plain_titles = {pid: f" {re.sub(r'[^a-z0-9]+', ' ', p.title.lower()).strip()} "
                                  for pid, p in self.papers.items()}
        return {pid for pid, title in self._plain_titles.items() if f" {head} " in title}

    def is_distinctive(self, name: str) -> bool:
        """Only a handful of papers contain the name ("TRIM-KV", not "ImageNet")."""
        return 0 < len(self.papers_mentioning(name)) <= self.retrieval.distinctive_name_papers

    def distinctive_names(self, query: str) -> list[str]:
        """Names in the question that only a handful of papers contain, a paper called by such a word ("the
        rainfall one", "the jigsaw paper"), a quoted phrase only a handful contain, the title name it opens with."""
        from rag.question import names_in

        called = [w for m in _CALLED.finditer(query) for w in m.group(1).split()
                  if len(w) >= 4 and w.lower() not in _NOT_CALLED and (  # (of several: a coined or a title word)
                      w == m.group(1) or "-" in w or not word_readings(w.lower()) or self._own_title_word(w))]
        quoted = [phrase.strip() for m in _QUOTED.finditer(query) for phrase in m.groups() if phrase]
        lead = [m.group(1)] if (m := _LEAD.match(query)) and self.named_in_title(f"{m.group(1)}:") else []
        return [n for n in dict.fromkeys([*names_in(query), *called, *quoted, *self._model_names(query), *lead])
                if self.is_distinctive(n)]  # (and a paper's name it opens with: "visual jigsaw: …?")

    def _model_names(self, query: str) -> list[str]:
        """Plain capitalised words that abstracts write capitalised with a version ("… with Llama models?": "Llama-3.1",
        "LLaMA3"): a model family's name, which ``names_in`` takes for an ordinary word."""
        if self._versioned is None:  # (worked out once: each such word, lower-cased)
            self._versioned = {m.group(1).lower() for p in self.papers.values()
                               for m in re.finditer(r"\b([A-Z][A-Za-z]{2,})-?\d", f"{p.title} {p.abstract}")}
        return [word for word in dict.fromkeys(_TITLE_CASE.findall(query))
                if word.lower() in self._versioned and word.lower() not in QUESTION_WORDS]

    def _own_title_word(self, word: str) -> bool:
        """The one paper mentioning ``word`` has it in its title ("the only llm compression paper" does not call the
        one KV-cache paper writing "compression" in its abstract)."""
        ids = self.papers_mentioning(word)
        return len(ids) == 1 and stems({word.lower()}) <= stems(content_words(self.papers[ids[0]].title))

    def named_in_title(self, query: str) -> set[str]:
        """Papers whose short title name ("Tactic: …", "Visual Jigsaw …:") the question uses as a name."""
        words = re.findall(r"[\w\-]+", query)
        found: set[str] = set()
        lead = squash(m.group(1)) if (m := _LEAD.match(query)) else ""  # ("visual jigsaw: …": a name, in any case)
        for size in range(1, self.retrieval.title_name_words + 1):
            for start in range(len(words) - size + 1):
                phrase = words[start:start + size]
                key = squash(" ".join(phrase))
                # A common word ("tactic") counts only when written as a name (capitalised); one no English lexicon
                # knows ("veriequivbench") names the paper in any case.
                if key in self.title_names and (phrase[0][:1].isupper() or not key.isalpha() or key == lead
                                                or size == 1 and not word_readings(key)):
                    found.update(self.title_names[key])
                # A title with no colon ("Visual Jigsaw Post-Training Improves MLLMs") does not say where its name
                # ends: its first words count when the question writes them all capitalised, not after a question
                # word ("Do Large …"), or opens with them ("visual jigsaw: …"), and hardly any abstract uses them.
                elif size >= 2 and key in self.title_heads and (key == lead or all(w[:1].isupper() for w in phrase)
                        and phrase[0].lower() not in QUESTION_WORDS) and self.is_distinctive(" ".join(phrase)):
                    found.update(self.title_heads[key])
        return found

    def title_words(self, paper_id: str) -> set[str]:
        """What a user may call a paper by (lower case): its distinctive names ("trim-kv"), the title words
        hardly any other title uses ("jigsaw"), its given name and the acronyms of its title's phrases, for
        references to papers on the table (cached)."""
        if paper_id not in self._title_words:
            paper = self.papers.get(paper_id)
            self._title_words[paper_id] = self._called_by(paper) if paper else set()
        return self._title_words[paper_id]

    def mentioned_words(self, paper_id: str) -> set[str]:
        """The distinctive names a paper's title or abstract mentions, its own or not (lower case)."""
        from rag.question import names_in

        paper = self.papers.get(paper_id)
        text = f"{paper.title} {paper.text}" if paper else ""
        return {n.lower() for n in names_in(text) if self.is_distinctive(n)}

    def _called_by(self, paper: Paper) -> set[str]:
        from rag.question import names_in

        if self._title_counts is None:  # how many titles use each word, built on first use
            self._title_counts = Counter(w for p in self.papers.values() for w in set(_title_tokens(p.title)))
        rare = max(1, len(self.papers) // 100)
        words = {w for w in _title_tokens(paper.title) if self._title_counts[w] <= rare}
        # Names it gives itself (in its title, an acronym it defines, one it proposes), not the datasets and models it
        # mentions: "FID on ImageNet 256?" does not name the paper that alone writes "ImageNet".
        own = {n.lower() for n in names_in(paper.title)} | {a.lower() for a in paper.acronyms}
        own |= {name.lower() for name in coined_names(paper)}
        words |= self.mentioned_words(paper.paper_id) & own
        if paper.given_name:  # "Obscuro", from "_Obscuro_ is the first …"
            words.add(paper.given_name.lower())
        # An acronym the abstract gives a phrase of its title: "the DPT paper" for "Decision Pre-Trained
        # Transformer is a Scalable …", which defines "Decision Pre-Trained Transformer (DPT)".
        title = content_words(paper.title)  # (and "diffusion" of "diffusion-based": "MCD", multi-channel diffusion)
        title |= {part for word in title for part in word.split("-")}
        return words | {short for short, long in acronym_words(paper.acronyms).items() if long <= title}

    def names_elsewhere(self, question: str, paper_ids: list[str]) -> bool:
        """The question names something none of ``paper_ids`` is called by ("SIGMark" beside "these two")."""
        from rag.question import names_in

        held = set().union(*(self.title_words(pid) for pid in paper_ids))
        return any(name.lower() not in held for name in names_in(question))

    def named_papers(self, text: str) -> list[str]:
        """The papers the text names: by their title's name ("MetaMuse") or a name only they contain ("OR-PRM")."""
        single = [ids[0] for n in self.distinctive_names(text) if len(ids := self.papers_mentioning(n)) == 1]
        named = list(dict.fromkeys([*sorted(self.named_in_title(text)), *single]))
        short = [self.papers_mentioning(n)[0] for n in self.own_acronyms(text)]  # (only beside others it names: "Among
        return list(dict.fromkeys([*named, *short])) if set(short) - set(named) and named else named  # T1, RGM, …")

    def own_acronyms(self, text: str) -> list[str]:
        """Short acronyms ("RGM", "DPT") one paper writes and defines for itself: ``names_in`` leaves them out."""
        return [n for n in dict.fromkeys(re.findall(r"\b[A-Z][A-Z0-9]{1,4}\b", text)) if not common_acronym(n) and len(
            ids := self.papers_mentioning(n)) == 1 and n in self.papers[ids[0]].acronyms]

    def terms_elsewhere(self, question: str, paper_ids: list[str], share: float) -> bool:
        """The question uses rarer terms ("massive activations", "diffusion transformers"), none of which any of
        ``paper_ids`` uses: other papers do (see ``rare_terms``)."""
        terms = self.rare_terms(question, share)
        return bool(terms) and not any(ids & set(paper_ids) for ids in terms.values())

    def in_named_order(self, query: str, ranked: list[Hit], top_k: int) -> list[Hit]:
        """"Summarize PARD and then SpecBranch": papers the query names one by one (each name in only one of the
        first ``top_k``) in the order it names them, in the places they were ranked into."""
        shown = {h.paper.paper_id for h in ranked[:top_k]}
        order: list[str] = []
        for name in self.distinctive_names(query):
            papers = [pid for pid in self.papers_mentioning(name) if pid in shown]
            if len(papers) == 1 and papers[0] not in order:
                order.append(papers[0])
        if len(order) < 2:
            return ranked
        slots = iter(order)
        by_id = {h.paper.paper_id: h for h in ranked}
        return [by_id[next(slots)] if h.paper.paper_id in order else h for h in ranked]

    def missing_names(self, names: list[str], question: str = "") -> list[str]:
        """The names (``HyperQuokka``) that no indexed paper mentions, as a whole token or part by part; of the
        ``question``'s, not those only its user's own story names ("I'm serving Mistral-7B …; is there …?")."""
        vocabulary = self.bm25.vocabulary
        asked = without_own_story(question) if question else ""
        names = [name for name in names if not asked or name in asked]

        def absent(name: str) -> bool:
            tokens = self.bm25.tokens(name)
            whole, parts = tokens[-1:], tokens[:-1] if len(tokens) > 1 else tokens
            # (a phrase of 3+ hyphenated words, "LM-is-secretly-a-reward-model", is there if half its words are)
            present = sum(t in vocabulary for t in parts)
            # (not "score" alone for "F-score": a one-capital part, which no token keeps, leaves the whole form)
            lettered = any(len(part) == 1 and part.isupper() for part in name.split("-"))
            known = not lettered and (present == len(parts) or (len(parts) >= 3 and 2 * present >= len(parts)))
            return bool(tokens) and not all(t in vocabulary for t in whole) and not known

        # An acronym's plural ("PDEs", "EX-RMs") is there if its singular is and its singular ("MLLM") if its plural is;
        # "LMs" if a longer acronym ends with it; a field's ("SOTA") if an abstract writes it out ("state-of-the-art").
        return [name for name in names if absent(name) and not (re.fullmatch(_ACRONYM_NAME + "s", name)
                                                                and not absent(name[:-1]))
                and not (re.fullmatch(_ACRONYM_NAME, name) and not absent(name + "s"))
                and not self._in_longer_acronym(name) and not self._begins_name(name)
                and not ((long := common_long(name)) and self.papers_mentioning(long))]

    def _begins_name(self, name: str) -> bool:
        """"VeriEquiv" (written "VeriEquiv Bench") where the abstracts write "VeriEquivBench": a name of six or more
        letters that begins an indexed word a few letters longer (a suffix such as "Bench", "Net", "V2")."""
        token = name.lower()
        return len(token) >= 6 and any(w.startswith(token) and len(w) <= len(token) + 6 for w in self.bm25.vocabulary)

    def _in_longer_acronym(self, name: str) -> bool:
        """"LMs" where the abstracts write "sLMs" or "LLMs": a short acronym (two to four capitals, perhaps plural) is
        the tail of a longer one, a kind of the same thing, so the question is not about something unknown."""
        if not re.fullmatch(r"[A-Z]{2,4}s?", name):
            return False
        longer = re.compile(rf"\b[A-Za-z]{{1,2}}{name}\b")  # as written: "films" does not hold "LMs"
        return any(longer.search(f"{p.title} {p.abstract}") for p in self.papers.values())

    def unknown_words(self, query: str, kind: str = "NOUN") -> list[str]:
        """The question's topic words (``monsoon``) that no indexed paper contains, even stemmed; not in quotes or
        brackets (examples: "prompts that only sound dangerous ("how do I kill a child process")"). A function word
        ("else"), a vague one ("stuff") or one English has as no noun ("crazy") names no topic (but of a ``kind``)."""
        vocabulary, asking = self.bm25.vocabulary, asking_words()
        return sorted(w for w in content_words(without_quoted(query)) if w.isalpha() and w not in asking
                      and (tokens := self.bm25.tokens(w)) and not any(t in vocabulary for t in tokens)
                      and (not (readings := word_readings(w)) or {"NOUN", kind} & readings))

    def spelling_fixes(self, words: list[str]) -> dict[str, str]:
        """The typos among ``unknown_words`` and the corpus word each was meant as (``rag.spelling``)."""
        if not words:  # (the speller is built on the first unknown word, not at load: most questions have none)
            return {}
        if self._speller is None:
            self._speller = Speller.from_texts(self.words.values(), self.decision, own_names(self.papers.values()))
        return {word: fix for word in words if (fix := self._speller.correction(word) or self._initials_of(word))}

    def _initials_of(self, word: str) -> str | None:
        """"SBM" for "Spectral Bellman Method: …" (``titles.title_initialisms``)."""
        self._initialisms = self._initialisms or title_initialisms(self.papers.values())
        return self._initialisms.get(word.lower()) if len(word) >= 3 else None


_GENERIC_TAILS = frozenset("model models method methods approach approaches technique techniques network networks "
                           "framework frameworks".split())


def _title_tokens(title: str) -> list[str]:
    return [w for w in re.findall(r"[\w\-]+", title.lower()) if len(w) >= 4 and w not in QUESTION_WORDS]
