"""Whether a question asks for a list of papers ("Which papers …?", "Any other work on …?", "Are there benchmarks
for …?"): surface cues in English and Chinese. ``rag.question.analyse`` reads it; it decides how many papers to keep,
never what is true. Also the kind of paper a list asks for, when titles say it ("other benchmarks for …?")."""

from __future__ import annotations

import re

SETTING_ASIDE = r"(?:besides|apart\s+from|aside\s+from|other\s+than)"  # ("Besides X, …": what a question sets aside)
_BESIDES = rf"(?:{SETTING_ASIDE}\s+[^,?]{{1,60}},\s*)?"  # "Besides X, which …"
# ("side q, which papers …", not "Of those, which ones …", a choice among the papers on the table)
_AFTER = (r"(?:(?!(?:of|among|amongst|between|from|these|those|them|both)\b)[\w'’-]+\s+){0,3}"
          r"(?!(?:these|those|them|both)\b)[\w'’-]+,\s+")
_LIST = re.compile(
    rf"(?:^|[.!:]\s|\s[-–—]\s|^{_AFTER}){_BESIDES}\s*"  # ("it mentions X - which papers …?": after a dash too)
    r"(?:(?:ok(?:ay)?|so|and|then|also|anyway|btw|by\s+the\s+way|oh)\b[\s,]*)*"
    r"(which|what|list|name|find|show me|give me)\s+"
    r"(?:(?:a\s+few|a\s+couple\s+of|some|all|the|more|other|of\s+(?:the|these|those)(?:\s+\d+)?)\s+)*"
    r"(?:(?!(?:do|does|did|are|is|was|were|have|has|can|could|would|should)\b)[\w-]+\s+){0,2}"
    r"(papers|works|studies|articles|abstracts|submissions|ones)\b"
    r"|\b(are there|any|all|other|several|more|related|similar) ([\w-]+ ){0,2}(papers|works|studies|abstracts|submissions)\b"
    r"|哪些(论文|工作|文章)|有没有.*(论文|工作)"
    # "Anything else in the set on watermarking?", "What else here uses …?", "Any more on …?", "Others on …?",
    # "Do we have anything about …?", "Other examples of …?", "Is there other work on …?", "The only one on …?"
    r"|(?:^|[.!:]\s)\s*(?:(?:ok(?:ay)?|so|and|then|can\s+you|could\s+you)\b[\s,]*)*(?:(?:anything|something|what)\s+"
    r"(?:else|more)\s+(?:(?:is\s+)?(?:there|here|in\s+(?:the|this)\s+(?:set|collection|index|corpus))\b|(?:on|about|"
    r"regarding|related\s+to|uses?|using|deals?|covers?|studies|tackles?)\s+(?!(?:it|this|that|them|they|its|their)\b|"
    r"the\s+(?:paper|method|model|approach)\b))|what\s+are\s+the\s+(?:\w+\s+)?(?:papers|works|studies)\b|"
    r"any\s+(?:more|others?)\s+(?:on|about|regarding|for|in|here|with)\b|others\s+(?:on|about|regarding|using|with)\b|"
    r"(?:do|does)\s+(?:we|you|it|the\s+(?:set|collection|index))\s+(?:have|hold|contain)\s+(?:anything|any\s+\w+)\b|"
    r"(?:list|show\s+me|give\s+me)\s+(?:everything|anything|all)\b|(?:papers|works|studies)\s+(?:on|about|regarding|"
    r"using|that|which|where|whose|with|dealing|related)\b)"
    r"|\b(?:other|more|related|similar)\s+(?:work|research|examples)\s+(?:(?:is|are)\s+there\s+|here\s+)?"
    r"(?:on|about|in|of|regarding|using|that|with)\b"
    r"|\b(?:any|what|which)\s+other\s+(?:[\w-]+\s+){0,2}?(?:paper|work|study|abstract|research)\b"
    r"|\bthe\s+only\s+(?:paper|work|one|study)\s+(?:on|about|that|"
    r"to|doing|using|with)\b"
    # "Besides weather, what other science applications show up in the collection?": the papers of those applications
    rf"|(?:^|[.!:]\s){_BESIDES}\s*(?:which|what)\s+(?:other\s+)?(?:[\w-]+\s+){{0,2}}(?:applications|domains|problems|"
    r"tasks|benchmarks|datasets)\s+(?:show\s+up|turn\s+up|come\s+up|appear|are(?:\s+(?:covered|represented|there|"
    r"tackled|addressed))?)\s+"
    r"(?:here|in\s+(?:the|this)\s+(?:collection|set|index|corpus))\b"
    # "anything in the collection on tracing …?": all it holds on it (not "anything here on …?": is there one)
    r"|\b(?:anything|something)\s+in\s+(?:the|this)\s+(?:set|collection|index|corpus)\s+(?:on|about|"
    r"regarding|related\s+to|dealing\s+with|with|that|which|using|involving)\b"
    # "what in this collection deals with chemistry?", "what here uses diffusion?": what the collection holds on it (not
    # "anything here on …?": is there one)
    r"|\b(?:what|which)\s+(?:else\s+)?(?:in\s+(?:the|this)\s+(?:whole\s+)?(?:collection|set|index|corpus)|here)\s+"
    r"(?:deals?|uses?|covers?|concerns?|involves?|tackles?|addresses|studies|touches|works?|relates?|mentions?)\b"
    # "What's here on watermarking?", "what's in here about chemistry?": what the collection holds on it
    r"|(?:^|[.!:]\s)\s*what(?:'s|’s|\s+is|\s+do\s+you\s+have)\s+(?:in\s+)?(?:here|there|in\s+(?:the|this)\s+"
    r"(?:collection|set|index))\s+(?:on|about|regarding|for|dealing\s+with)\b"
    # "What benchmarks test LLMs on …?", "Which methods reduce …?": papers of a kind, doing something (not "What
    # benchmarks does it use?", "Which models and datasets?").
    rf"|(?:^|[.!:]\s){_BESIDES}\s*(?:which|what)\s+(?:\w+\s+)?(?:benchmarks|datasets|methods|approaches|frameworks|"
    r"models|algorithms)\s+"
    r"(?!(?:and|or|does|do|did|is|are|was|were|has|have|can|could|would|should|will|it|they)\b)[a-z]+"
    # "which methods are explicitly training-free?": the methods having a property (not "which models are used?")
    rf"|(?:^|[.!:]\s){_BESIDES}\s*(?:which|what)\s+(?:\w+\s+)?(?:methods|approaches|frameworks|models|algorithms)\s+"
    r"are\s+(?:\w+ly\s+)?[a-z]+-(?:free|agnostic|aware|based)\b",
    re.IGNORECASE)
# Kinds of work a plural asks for ("are there other benchmarks …?", "what benchmarks or testbeds exist for …?").
_KINDS = (r"(?:methods|approaches|techniques|benchmarks|datasets|models|frameworks|algorithms|systems|tools|testbeds|"
          r"evaluations|attacks|defen[cs]es|architectures|metrics|strategies|pipelines|agents|suites|corpora)")
# (not a question about a paper's own ones: "are there datasets they release?", "… other models it beats?")
_NOT_THEIRS = r"(?!\s+(?:[\w-]+\s+){0,3}?(?:they|it|the\s+authors|this\s+paper)\b)"
_KIND_LIST = re.compile(
    # "Are there other benchmarks checking …?", "are there DPO-style methods built for …?"
    rf"\bare\s+there\s+(?:(?:any|other|more|some|also)\s+)*(?:[\w-]+\s+){{0,3}}?{_KINDS}\b{_NOT_THEIRS}"
    # "what benchmarks are there for …?", "What benchmarks or testbeds exist for …?"
    rf"|\b(?:what|which)\s+(?:other\s+)?(?:[\w-]+\s+){{0,3}}?{_KINDS}\s+(?:are\s+there|exist|do\s+we\s+have)\b"
    # "any other benchmarks for long-context reasoning?", "Other datasets of this kind?" (not "any web agent
    # frameworks that …?": is there one)
    rf"|^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:any\s+)?(?:other|more)\s+(?:[\w-]+\s+){{0,2}}?{_KINDS}\b{_NOT_THEIRS}"
    # "what work is there on …?", "what research exists on …?"
    r"|\bwhat\s+(?:other\s+|more\s+)?(?:work|research)\s+(?:is\s+there|exists)\b"
    # "does that effect show up anywhere else in the collection?"
    r"|\b(?:anywhere|elsewhere)\s+(?:else\s+)?in\s+(?:the|this)\s+(?:collection|set|index|corpus)\b",
    re.IGNORECASE)


# "they break down on certain kinds of checks - which ones?": the ones are the things just named, not papers
_ONES_OF = re.compile(r"\b(?!(?:papers|works|studies|articles|abstracts|submissions|methods|approaches|models|"
                      r"frameworks|techniques)\b)[a-z]{3,}s\s*[-–—:,]\s*which\s+ones\b", re.IGNORECASE)


def asks_for_list(question: str) -> bool:
    """The question asks for the papers of a topic, as many as there are, not for one paper."""
    things = [m.span() for m in _ONES_OF.finditer(question)]
    return any(not any(a <= m.start() < b for a, b in things) for m in _LIST.finditer(question)) or bool(
        _KIND_LIST.search(question))


# A kind of paper a list asks for ("any other benchmarks for …?", "which papers introduce new datasets?"), not the
# benchmarks papers use ("… evaluated on math benchmarks?") → what a title of that kind holds ("…Bench", "Benchmarking").
_TITLED_KINDS = {r"benchmarks?|testbeds?": re.compile(r"bench|testbed", re.I),
                 r"datasets?|corpora|corpus": re.compile(r"dataset|corpus|corpora", re.I),
                 r"surveys?": re.compile(r"survey", re.I)}


def asked_kind(question: str) -> re.Pattern[str] | None:
    """What tells a title of the kind of paper the list asks for (None: it asks for no such kind)."""
    for kind, titled in _TITLED_KINDS.items():
        if re.search(rf"\b(?:any|other|which|what|more|new|some|there|papers\s+are)\s+(?:[\w-]+\s+){{0,3}}?(?:{kind})\b"
                     rf"(?!\s+(?:results?|scores?|numbers|performance)\b)", question, re.I) and not re.search(
                         rf"\b(?:on|using|uses?|across)\s+(?:[\w-]+\s+){{0,3}}?(?:{kind})\b", question, re.I):
            return titled
    return None


# "anything in here on watermarking or otherwise tracing where AI-generated images came from?": papers of either topic
_ANYTHING_ON = re.compile(r"^\W*(?:(?:is|are)\s+there\s+)?(?:anything|any\s+(?:papers?|works?))\s+(?:in\s+here\s+)?"
                          r"(?:on|about|regarding)\s", re.IGNORECASE)


# (two topics, not one thing's alternatives: "… proving that a picture or a video came from …" asks for one paper)
_OR_TOPIC = re.compile(r",\s*or\s|\bor\s+(?:otherwise|else|on|about)\s", re.IGNORECASE)


def offers_topics(question: str) -> bool:
    """Asks whether there is anything on one topic or another: a list of the papers on either."""
    from rag.alternatives import alternatives

    return bool(_ANYTHING_ON.match(question) and _OR_TOPIC.search(question)) and len(alternatives(question)) >= 2
