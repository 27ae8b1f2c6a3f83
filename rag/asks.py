"""What a turn asks, beyond its topic: the thing it asks for ("Which GPU …?"), whether it asks if the collection holds
a paper at all ("Is there a paper here on …?"), whether it wants papers other than those on the table ("Which other
papers …?"), a comparison whose second term is the paper just discussed. Word rules on the user's words; no LLM."""

from __future__ import annotations

import re

from rag.tokens import content_words, stems

# "What GPU did they …", "Which license is …", "what base model did they train …", "How many GPU hours …": the
# thing asked for is the noun phrase right after the question word.
_ASKED = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|but|then)\W+)?(?:(?:under|in|on|with|at|from|by|for)\s+)?"
                    r"(?:(?:what|which)\s+"
                    r"(?:kind\s+of\s+|type\s+of\s+|sort\s+of\s+)?(?P<thing>(?:[\w'’-]+\s+){0,2}?[\w-]+)\s+"
                    r"(?:did|does|do|is|was|are|were|has|have|had|can|could|will|would)\b"
                    r"|how\s+many\s+(?P<counted>(?:[\w-]+\s+){0,1}[\w-]+)(?:\s+(?:did|does|do|is|was|are|were|has|have"
                    r"|had|of)\b|\s*[?.!]*\s*$)"
                    # "how large were the matrices?": a size, given as a number where the thing is named
                    r"|how\s+(?:large|big|long|deep|wide|heavy|tall)\s+(?:is|are|was|were)\s+"
                    r"(?:the\s+|their\s+|its\s+)?(?P<sized>(?:[\w-]+\s+)?[\w-]+)(?:\s+(?:they|it|the\s+authors)\s+[a-z]+)?"
                    r"\s*[?.!]*\s*$"
                    # "What is the licence of …", "What's the training cost for …", "Who are the authors …"
                    r"|what(?:'s|\s+(?:is|was|are|were))\s+(?:the\s+)?(?P<of>(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                    r"(?:of|for|behind|used)\b|who\s+(?:are|were|is|was)\s+(?:the\s+)?(?P<who>[\w-]+)"
                    # "What's the license?", "How much did it cost to train?"
                    r"|what(?:'s|\s+(?:is|was|are|were))\s+(?:the\s+|its\s+|their\s+)?(?P<end>(?:[\w-]+\s+){0,2}[\w-]+)"
                    r"\s*[?.!]*\s*$"
                    r"|how\s+much\s+(?:did|does|do|would|will)\s+(?:it|they|\w+)\s+(?P<cost>cost)\b"
                    # "Who funded the work?", "How long does inference take …?" (a duration: hours, days)
                    r"|(?P<funded>who)\s+(?:funded|sponsored|financed|paid\s+for)\b"
                    r"|(?P<took>how\s+long)\s+(?:does|did|do|would|will)\s+(?:it|they|\w+)(?:\s+\w+)?\s+"
                    r"(?:take|last|run)\b"
                    r"|(?P<wrote>who)\s+(?:wrote|authored)\b"
                    # "Do they report the carbon footprint …?"
                    r"|(?:do|does|did|is|are)\s+(?:they|it|the\s+[\w-]+)\s+(?:report|mention|give|state|say|disclose|"
                    r"list|provide|specify|include)\w*\s+(?:the\s+|any\s+|an?\s+|their\s+|its\s+)?"
                    r"(?P<report>(?:[\w-]+\s+){0,2}[\w-]+)"
                    # "Was there a user study …?", "Is it implemented with custom CUDA kernels?"
                    # (not "is/are there …?": whether the collection holds it, a near-miss, not a paper's detail)
                    r"|^\W*(?:(?:and|so|but)\W+)?(?:(?:was|were)\s+there|(?:was|were|is|are|did|does|do)\s+(?:it|they))"
                    r"\s+(?P<yes_no>.+?)"
                    r"\s*[?.!]*\s*$)", re.IGNORECASE)
# The details an abstract seldom states and, when it does, writes by name: hardware, cost, licence, people,
# training settings. Only these are refused as "not mentioned": a question for a kind of thing ("What attack …?",
# "What signal …?", "What new metrics …?") is answered by the thing itself, which an abstract names without the
# kind's word (measured: three such own corpus dialogue turns were refused when every noun counted).
_DETAILS = frozenset(
    "gpu gpus tpu tpus cpu cpus hardware chip chips accelerator accelerators cluster clusters machine machines node "
    "nodes hours days weeks dollars cost costs price budget money license licence licenses licences licensing "
    "copyright author authors affiliation affiliations institution institutions university universities company "
    "companies provider providers vendor vendors funding grant country countries batch epochs epoch optimizer seed "
    "seeds hyperparameter hyperparameters "
    "library libraries programming carbon footprint emissions co2 parameters params temperature temperatures "
    "learning-rate lr dropout warmup year version versions tokenizer user users kernel kernels cuda triton".split())
_EFFECTS = frozenset("cost costs price budget money dollars hours days weeks year version versions parameters params "
                     "temperature temperatures".split())
_TUNED = re.compile(r"\bhow\s+(?:to|do|does|did|should|would|can)\s+(?:(?:they|it|you|we|one|i)\s+)?(?:set|choose|pick|"
                    r"tune|select)\s+(?:the\s+|its\s+|their\s+|a\s+)?((?:[\w-]+\s+){0,2}[\w-]+)", re.IGNORECASE)
# A detail an abstract may state without its word: a model's size as "3B and 8B".
_STATED_AS = dict.fromkeys(("parameters", "params"), re.compile(r"\b\d+(?:\.\d+)?\s?[MB]\b"))
# "Is there a paper here on …?", "Anything on …?": whether the collection holds one (not "Is there a way to …?")
_EXISTENCE = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|also)\W+)?(?:(?:is|are)\s+there\s+(?:a|an|any)\s+(?:\w+\s+)?"
                        r"(?:paper|papers|work|works|study|studies|research|article|articles|anything)\b"
                        r"|(?:is|are)\s+there\s+anything\b|any(?:thing|\s+papers?|\s+work|\s+research)\s+"
                        r"(?:here\s+|in\s+(?:this|the)\s+\w+\s+)?(?:on|about|regarding|for|dealing)\b"
                        r"|(?:does|do)\s+(?:(?:the|this)\s+(?:collection|set|index)|(?:you|we)(?=\s+have\s+"
                        r"(?:anything|any|papers?)\b))\s+(?:have|hold|contain|include)"  # ("do you have …")
                        r"|(?:does|do)\s+any(?:thing|\s+(?:of\s+the\s+)?papers?|\s+work)\s+(?:(?:here|in\s+here|in\s+"
                        r"(?:this|the)\s+\w+)\s+)?(?:study|address|cover|look\s+at|deal\s+with|tackle|examine)\b)",
                        re.IGNORECASE)  # (and "Does anything in the collection study fairness …?")
_OTHERS = re.compile(r"\bother\s+(?:[\w-]+\s+){0,2}(?:papers|works|studies|ones|methods|approaches|articles|benchmarks|"
                     r"datasets)\b|(?<!\bthe\s)\bother\s+(?:[\w-]+\s+){0,2}(?:work|research)\b|\bothers\b|"
                     r"\b(?:anything|any\s+\w+|what|which|who)\s+else\b|\bbesides\b|\b(?:apart|aside)\s+from\b",
                     re.IGNORECASE)
# The comparison word ends the question: "How is Tactic's approach different?", "How does ShapeGen4D compare?",
# "Is ARPG's method similar?" (against what was just discussed).
_BARE_COMPARISON = re.compile(r"\b(?:different|differ|differs|compare|compares|similar|alike|contrast|stack\s+up|"
                              r"related)\s*[?.!]*\s*$", re.IGNORECASE)
# "… in kilometres?", "… in dollars": a unit the answer would be given in.
_UNIT = re.compile(r"\bin\s+(km|kilomet(?:re|er)s?|miles|metres|meters|dollars|usd|euros|kwh|watts|tonnes|tons|"
                   r"gigabytes|terabytes)\b", re.IGNORECASE)


def asked_thing(question: str) -> list[str]:
    """The details the question asks for that an abstract would have to write to state them ("gpu" in "What GPU did
    they use?", a unit: "kilometres" in "What is its grid spacing in kilometres?"); [] when it asks for anything
    else, which a paper says in its own words ("Which attack …")."""
    if tuned := _TUNED.search(question):  # ("does it say how to set the smoothing temperature?": a setting asked for)
        return sorted(content_words(tuned.group(1)) & _DETAILS)
    match = _ASKED.search(question)
    if not match:
        return [unit.group(1).lower()] if (unit := _UNIT.search(question)) else []
    asked = next((t for t in match.group("thing", "counted", "of", "who", "report", "end", "cost", "yes_no") if t), "")
    thing = ("authors" if match.group("wrote") else "funding" if match.group("funded") else "hours"
             if match.group("took") else re.sub(r"['’]s\b", "", asked.lower()))  # ("Which country's radar data …")
    # ("does it add inference cost?" asks about an effect, which an abstract states in its own words: "no overhead")
    return sorted(content_words(thing) & (_DETAILS - _EFFECTS if match.group("yes_no") else _DETAILS))


def unnamed(question: str, thing: list[str], texts: list[str]) -> list[str]:
    """"Which cloud provider was it?" when the texts write it only as "a global cloud provider": the words of
    ``thing`` every mention of which is indefinite, with no name (a capital or a digit) before it."""
    if not re.match(r"^\W*(?:\w+\W+)?(?:which|what)\b", question, re.IGNORECASE):
        return []
    found = []
    for word in thing:
        before = [m.group(1) for text in texts
                  for m in re.finditer(rf"\b((?:\S+\s+){{0,3}}){re.escape(word)}s?\b", text, re.IGNORECASE)]
        if before and all(re.search(r"\b(?:a|an)\s+(?:[a-z-]+\s+){0,2}$", b) and not re.search(r"[A-Z0-9]", b)
                          for b in before):
            found.append(word)
    return found


def unstated(thing: list[str], texts: list[str]) -> list[str]:
    """The words of ``thing`` that none of ``texts`` holds in any form (stemmed, hyphen parts too)."""
    held = stems({part for text in texts for w in content_words(text) for part in (w, *w.split("-"))})
    return [w for w in thing if not stems({w, w.removesuffix("s"), f"{w}s"}) & held  # "GPU" in "8 GPUs"
            and not (w in _STATED_AS and any(_STATED_AS[w].search(text) for text in texts))]


# What a method is tested on, one word for another ("how many PDE testbeds?", and "on how many PDE problems was it
# tested?", are "three … PDE benchmarks"); the kinds of thing so counted when the question says "tested"
_TESTED_ON, _KINDS = {"testbed", "benchmark", "dataset", "environment", "suite"}, {"problem", "task", "domain", "game"}
_TESTED = re.compile(r"\b(?:test|tests|tested|evaluat\w+|validat\w+|benchmarked|tried|experiments?\s+on)\b", re.I)
# A count as written: "2,389", "20+", "50M", "3B", "three", "dozens of".
_NUMBER = (r"(?:\d[\d,.]*[+kKMB]?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
           r"thirty|forty|fifty|hundreds?|thousands?|millions?|dozens?|several|multiple)")


def uncounted(question: str, texts: list[str]) -> list[str]:
    """"How many problems …?" when no text writes a number within three words before "problems" (or its singular):
    [that noun]; [] when it asks no count or a text gives one ("2,389 complex algorithmic problems", "20+ turns", "50M
    additional parameters"). "How large were the matrices?": [that noun] only when no text mentions it."""
    match = _ASKED.search(question)
    noun = _asked_noun(match.group("counted") or match.group("sized")) if match else ""
    if not noun:
        return []
    if match.group("sized"):  # a size is written in too many ways ("an 8-hour horizon", "256×256"): only its absence
        # ("how big were the gains?": a result, stated in figures, not by its word)
        gains = noun in ("gains", "gain", "improvements", "speedups", "savings", "reductions")
        return [noun] if not gains and unstated([noun], texts) else []
    pattern = _count_of(noun, question)
    return [] if any(pattern.search(text) for text in texts) else [noun]


def count_written(question: str) -> re.Pattern[str] | None:
    """How a sentence writes the count asked for ("how many approved drugs …?": "430 FDA-approved drugs"), or None."""
    match = _HOW_MANY.search(question)  # (anywhere: "the first one, on how many approved drugs was it tested?")
    noun = _asked_noun(match.group(1)) if match else ""
    return _count_of(noun, question) if noun else None


_HOW_MANY = re.compile(r"\b(?:how\s+many|number\s+of)\s+((?:[\w-]+\s+)?[\w-]+?)(?=\s+(?:did|does|do|is|was|are|were|"
                       r"has|have|had|of|can|could|in|on|at|for)\b|\s*[,?.!]|\s*$)", re.I)  # ("number of problems?")


def _asked_noun(counted: str | None) -> str:
    """The noun counted or sized, "" when it is none of a paper's own (the collection's, or papers shown; "how big is
    the new one?": a thing said before)."""
    noun = next((w for w in reversed((counted or "").lower().split()) if w not in ("here", "there")), "")
    return "" if noun in _DETAILS or len(noun) < 3 or noun in (
        "papers works studies abstracts those these them ones one this that thing".split()) else noun


def _count_of(noun: str, question: str) -> re.Pattern[str]:
    """A number within three words before the noun ("8 tasks", "2,389 complex algorithmic problems"), or before what
    is tested on ("how many testbeds?": "3 benchmarks"), or a range after it ("factors ranging from 1 to 10")."""
    on = noun.removesuffix("s") in _TESTED_ON or noun.removesuffix("s") in _KINDS and bool(_TESTED.search(question))
    forms = "|".join(re.escape(f) for f in {noun, noun.removesuffix("s"), noun.removesuffix("es")} | (
        _TESTED_ON if on else set()) if f)
    return re.compile(rf"\b{_NUMBER}[\s-]+(?:[\w-]+\s+){{0,2}}?(?:{forms})\w{{0,2}}\b"
                      rf"|\b(?:{forms})\w{{0,2}}\s+(?:ranging\s+)?(?:from|up\s+to|between)\s+{_NUMBER}\b", re.I)


# "What pruning ratio did they use …?", "What guidance scale …?", "Which memory budgets did they test?": a setting,
# which an abstract states as a number beside its word.
_SETTING_NOUN = r"(?:ratio|scale|rate|budget|threshold|coefficient|window|horizon|step|size|dimension|width|depth)s?"
_SETTING = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|but|then|btw|also|oh|hey)\W+)?(?:what|which)"
                      rf"(?:\s+(?P<thing>(?:[\w-]+\s+){{0,2}}?{_SETTING_NOUN}(?:\s+(?:and|or)\s+(?:[\w-]+\s+){{0,2}}?"
                      rf"{_SETTING_NOUN})?)\s+"
                      r"(?:did|do|does|was|were|is|are|had|has|have|for)\b"
                      rf"|(?:'s|\s+(?:is|was|are|were))\s+(?:the\s+|its\s+|their\s+)?(?:[\w'’-]+\s+){{0,2}}?"
                      rf"(?P<end>(?:[\w-]+\s+)?{_SETTING_NOUN})\s*[?.!]*\s*$)", re.IGNORECASE)


def unset(question: str, texts: list[str]) -> list[str]:
    """The setting the question asks for ("pruning ratio") when no text writes a number within four words of its
    noun ("a 75 percent reduction" does not state a ratio; "32 sampling steps" states steps)."""
    if not (match := _SETTING.search(question)):
        return []
    # "What learning rate and batch size …?": refused only when no text states either
    things = re.split(r"\s+(?:and|or)\s+", (match.group("thing") or match.group("end")).lower())
    return things if all(_unset_one(question, thing, texts) for thing in things) else []


def _unset_one(question: str, thing: str, texts: list[str]) -> bool:
    if thing.startswith(("size", "width", "depth")) and ("model" in question.lower() or thing.startswith("size")):
        # ("3B and 8B" states a model's size: "What sizes are on each side?" asks it too)
        return not any(_STATED_AS["parameters"].search(text) for text in texts)
    # its noun, or the word naming what it is of ("vocabulary size": "a vocabulary of 1,000 blocks")
    for noun in {w.removesuffix("s") for w in thing.split()[-2:]}:
        # (within one phrase: not "two key capabilities: (1) block-wise …; (2) …")
        near = re.compile(rf"\b{_NUMBER}\b(?!\))(?:[\s,-]+\w+){{0,4}}?[\s,-]+{re.escape(noun)}s?\b|"
                          rf"\b{re.escape(noun)}s?\b(?:[\s,-]+\w+){{0,4}}?[\s,(=-]+\d(?![\d.]*\))", re.IGNORECASE)
        if any(near.search(text) for text in texts):
            return False
    return True


# "Is the code available?", "Did they release the weights?", "Is there a GitHub repo?", "… make its model publicly
# available?": said only where an abstract says it ("Code is available at …", "we release …", "open-source").
_RELEASE_ASKED = re.compile(r"\b(?:code|weights|checkpoints?|implementation|repo(?:sitory)?|github)\b.*\b(?:available|"
                            r"released?|public|open[- ]?sourced?|shared|published)\b|\b(?:did|do|does|will|have|has)\s+"
                            r"(?:they|it|the\s+authors)\s+(?:release|open[- ]?source|publish|share)\w*\s+"
                            r"(?:the\s+|their\s+|its\s+|any\s+)?(?:code|weights|checkpoints?|implementation|models?)\b"
                            r"|\b(?:github|repo(?:sitory)?|download(?:able|ed)?|links?\s+to\s+(?:\w+\s+)?code)\b"
                            r"|\b(?:releas|open[- ]?sourc)\w*\s+(?:the\s+|their\s+|its\s+|any\s+)?(?:code|weights|"
                            r"checkpoints?|implementation|data(?:sets?)?)\b|^\W*(?:is|are|was)\s+(?:it|they|this|the\s+"
                            r"\w+)\s+open[- ]?(?:sourced?|weights?)\b|\bpublicly\s+(?:available|releas\w*|accessible)"
                            r"\b", re.IGNORECASE)
_RELEASE_STATED = re.compile(r"github|https?://|\b(?:code|models?|weights|data(?:sets?)?|implementation)\b[^.]{0,40}"
                             r"\b(?:available|released?|public)\b|\b(?:release|open-source|open\s+source)", re.I)


def unreleased(question: str, texts: list[str]) -> list[str]:
    """["code release"] when the question asks whether code or weights are out and no text says so; else []."""
    asked = asks_release(question)
    return ["code release"] if asked and not any(_RELEASE_STATED.search(t) for t in texts) else []


def asks_release(question: str) -> bool:
    """Whether the question asks if the code or weights are out ("is PBFM's code public?")."""
    return bool(_RELEASE_ASKED.search(question))


def asks_existence(question: str) -> bool:
    return bool(_EXISTENCE.search(question))


def wants_others(question: str) -> bool:
    """"Which other papers …", "anything else on …": not the papers just discussed."""
    return bool(_OTHERS.search(question))


def bare_comparison(question: str) -> bool:
    return bool(_BARE_COMPARISON.search(question))


# "Which of them …", "Which one …", "Which is cheaper …", "If X, which of the two …"; not "Which papers …" (a list)
_CHOICE = re.compile(r"^\s*(?:(?:if|when|given|for|since|assuming)\b[^,?]{0,80},\s*|(?:of|between|among)\s+(?:the|these|"
                     r"those|them|both)\b[^,?]{0,20},?\s*)?(?:so\s+|and\s+|ok(?:ay)?,?\s+)?"
                     r"(?:(?:which|who)\b(?!\s+(?:(?!one\b)\w+\s+)?(?:papers|works|studies"  # ("which one works …")
                     r"|articles|ones))(?:\s+(?:of\s+(?:them|these|those|the\s+\w+|both)|one|is|would|should|needs"
                     r"|uses|has|does|gives|makes|requires|works|scales|runs|seems|looks|performs|releases|was|did"
                     r"|can|could)\b)|whose\s+(?!papers\b))"  # ("… whose abstract reports the lower FID?")
                     # "Of those two, which actually reports …?", "Between that one and the X paper, which …?"
                     r"|^\s*(?:(?:of|among)\s+(?:the|these|those|them|both)\b[^,?]{0,20}|between\s+[^,?]{1,80}?\s+"
                     r"and\s+[^,?]{1,80}|(?:among|of)\s+[^?]{1,80}?\s+(?:and|or)\s+[^,?]{1,60}),\s*"
                     r"(?:which|who|whose)\b"
                     r"(?!\s+(?:\w+\s+)?(?:papers|works|studies|articles|ones)\b)"
                     # "Is one of them about biological data …?"
                     r"|^\s*(?:so\s+|and\s+)?(?:is|are|does|do|was|were)\s+(?:any|one|either)\s+of\s+"
                     r"(?:them|these|those|the\s+\w+)\b"
                     # "…, that one or mCLM?", "… - mCLM or this one?": one on the table against another
                     r"|(?:^|[,:;–—-]\s*)(?:(?:that|this)\s+one\s+or\s+[\w\-]+|[\w\-]+\s+or\s+(?:that|this)\s+one)"
                     r"\s*\?*\s*$",
                     re.IGNORECASE)


def asks_which(question: str) -> bool:
    """A choice among papers already discussed ("Which of them needs less memory?"), not a new list question."""
    return bool(_CHOICE.search(question))


# "vs other AR models - speed?", "speedup vs the standard solvers?", "… differently from earlier …?": its own baselines
_BASELINES = re.compile(r"^\W*(?:and\s+)?(?:[\w-]+\s+){0,2}?(?:vs\.?|versus|compared\s+(?:to|with)|relative\s+to|"
                        r"against)\s+(?:the\s+)?(?:other|existing|prior|previous|standard|usual|baselines?\b)", re.I)
_PRIOR_WORK = re.compile(r"\b(?:differ\w*|different(?:ly)?|compared?|contrast(?:ed|s)?|improv\w*|better|new|"
                         r"(?:stack(?:s|ed)?|measures?)\s+up)\s+"
                         r"(?:from|than|to|with|over|on|against)\s+(?:the\s+|what\s+)?(?:earlier|prior|previous|"
                         r"existing|traditional|conventional|classic(?:al)?|older|past|standard|usual|typical|"
                         r"(?:was|were|people\s+did)\s+(?:done\s+)?before)\b|\b(?:vs\.?|versus|against|over|"
                         r"(?:compared?|compares)\s+(?:to|with))\s+(?:the\s+|its\s+|their\s+)?baselines?\b", re.I)


def against_baselines(question: str, anywhere: bool = False) -> bool:
    """"vs other AR models - speed?", "and compared to the baselines?": the last paper against its own; ``anywhere``:
    also "what does it do differently from earlier LLM+evolutionary heuristic design?", "… vs the baselines?"."""
    return bool(_BASELINES.match(question) or anywhere and _PRIOR_WORK.search(question))


# "what's wrong with the earlier in-generation watermarking methods?", "why don't the existing ones scale?"
_EARLIER = re.compile(r"\b(?:existing|earlier|prior|previous|conventional|traditional|older)\b", re.I)


def asks_earlier(question: str) -> bool:
    """The question is about earlier work (what is wrong with it, why it falls short), not the paper's own."""
    return bool(_EARLIER.search(question))
