"""What a question asks of a paper's models and figures that its abstract may not give: which model did best on a
benchmark, which models it beats, which base model it starts from, a metric's value. Each rule says when the
abstracts on hand cannot answer; ``rag.unstated`` refuses the turn then. Deterministic word rules; no LLM.
"""

from __future__ import annotations

import re

from rag.tokens import NAMED_THING

# "Which model scored best on it?": a benchmark's abstract that names no model it ran cannot say.
_BEST = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:models?|llms?|agents?|systems?)\b(?:\s+[\w-]+){0,3}?\s+"
                   r"(?:best|highest|top|strongest|worst|lowest)\b|\b(?:models?|llms?|agents?|systems?|which|what)\s+came\s+"
                   r"out\s+on\s+top\b", re.IGNORECASE)
_MODEL_NAME = re.compile(rf"{NAMED_THING}|(?i:\b(?:gpt|llama|qwen|claude|gemini|mistral|deepseek|gemma|phi-|olmo|"
                         r"o\d-mini))")
_BENCHMARK = re.compile(r"\b(?:introduce|present|propose|construct|build|release)\w*\s+(?:[\w-]+\s+){0,4}?"
                        r"(?:benchmark|dataset|suite)\b", re.IGNORECASE)
# A metric the user names ("What's its exact pass@1 on LiveCodeBench?"): its value is stated only where it is named.
_METRIC = re.compile(r"\b(?:pass@\d+|fid|bleu|rouge(?:-\w+)?|f1|auroc|auc|perplexity|win\s+rate|success\s+rate|"
                     r"throughput|exact\s+match|top-[15]\s+accuracy|[mo]?iou|psnr|ssim|accuracy|"
                     r"gb|mb|tb|gib|mib|gigabytes?|megabytes?)(?![\w@])", re.IGNORECASE)  # (memory in units)
_VALUE = re.compile(r"\b(?:what|which|how\s+(?:much|many|high|low|good)|exact|score[sd]?|numbers?|reach\w*|achiev\w*|"
                    r"gets?|reports?)\b", re.IGNORECASE)


# "Which base model did they start the RL from?", "Which pretrained VLM is it initialised from?": a model's name.
_BASE = re.compile(r"\b(?:which|what)\s+(?:(?!the\b|an?\b|its\b|their\b)[\w-]+\s+){0,2}?(?:base|backbone|pre-?trained|"
                   r"foundation|underlying)\s+(?:[\w-]+\s+)?(?:models?|llms?|lms?|vlms?|mllms?|networks?|checkpoints?)\b",
                   re.IGNORECASE)


def unbased(question: str, texts: list[str]) -> list[str]:
    """["base model"] when the question asks which model the work starts from and no text names any model."""
    return ["base model"] if _BASE.search(question) and not any(_MODEL_NAME.search(t) for t in texts) else []


def unranked(question: str, titles: list[str], texts: list[str]) -> bool:
    """"Which model scored best on it?" about a benchmark (its title or abstract says it introduces one) whose
    abstract names no model: it cannot say."""
    benchmark = any("bench" in t.lower() for t in titles) or any(_BENCHMARK.search(t) for t in texts)
    return bool(_BEST.search(question)) and benchmark and not any(_MODEL_NAME.search(t) for t in texts)


# "Which closed-source models does CatalystLLM beat, by name?", "What LLMs did it outperform?": the rivals' names.
_RIVALS = re.compile(r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?(?:models?|llms?|vlms?|mllms?)\s+(?:does|did|do|has|have|"
                     r"is|was|were|are)\s+(?:[\w-]+\s+){0,3}?(?:beat|outperform|surpass|exceed|compared?\s+(?:against|"
                     r"to|with)|tested\s+against|evaluated\s+against)", re.IGNORECASE)
# What a claim of beating others says it beats, up to the kind of thing ("… outperforms a wide array of
# closed-source models on CatalystBench" → "a wide array of closed-source").
_BEATS = re.compile(r"\b(?:outperform|surpass|beat|exceed|better\s+than)\w*"
                    r"([^.;]*?)(?:\b(?:models?|llms?|baselines?|methods?|approaches)\b|[.;]|$)", re.IGNORECASE)


def unrivalled(question: str, texts: list[str]) -> bool:
    """"Which models does it beat?" when no text names a model, nor a capitalised thing it says it beats."""
    return bool(_RIVALS.search(question)) and not any(_MODEL_NAME.search(t) for t in texts) and not any(
        re.search(r"\b[A-Z]", m.group(1)) for t in texts for m in _BEATS.finditer(t))


def unmeasured(question: str, texts: list[str]) -> list[str]:
    """The metrics the question names that none of ``texts`` mentions ("pass@1" when the abstract gives none)."""
    if not _VALUE.search(question):  # "Does it trade accuracy for speed" asks no value
        return []
    held = " ".join(texts)
    # Written with more after it ("FID50k", "ROUGE-L", "pass@k" aside) or, a word, in another form ("accurate").
    return [m.group(0) for m in _METRIC.finditer(question) if not re.search(
        rf"(?<![a-z]){re.escape(m.group(0)[:6] if m.group(0).isalpha() else m.group(0))}", held, re.IGNORECASE)]


# "What exact bit accuracy does it reach …?", "What FID score does it get?": a figure, not only that it is measured.
_FIGURE = re.compile(r"\b(?:exact(?:ly)?|precise(?:ly)?|numbers?|figures?|values?|scores?|reach\w*|achiev\w*|gets?|"
                     r"got|how\s+(?:much|high|low|good))\b", re.IGNORECASE)


_PURPOSE = re.compile(r"\bto\s+(?:improve|boost|increase|raise|reduce|lower|enhance|maximi[sz]e|minimi[sz]e)\s+"
                      r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


def unscored(question: str, texts: list[str]) -> list[str]:
    """The metrics a question asks a figure of ("What exact bit accuracy does SIGMark reach …?") that ``texts``
    mention ("very high bit-accuracy") but never with a number within five words of them, in one phrase."""
    if not _FIGURE.search(question):
        return []
    missing = []
    # (not a metric the method is for: "What exactly does SCER regularize to improve worst-group accuracy?")
    for metric in dict.fromkeys(m.group(0).lower() for m in _METRIC.finditer(question) if not _PURPOSE.search(
            question[:m.start()])):
        word = re.escape(metric[:6] if metric.isalpha() else metric)
        near = re.compile(rf"(?<![a-z]){word}[\w@-]*(?:[\s,:(=-]+[\w-]+){{0,5}}?[\s,:(=-]+\d|"
                          rf"\d[\d.,]*\s*[%x×]?(?:[\s,-]+[\w-]+){{0,5}}?[\s,-]+{word}", re.IGNORECASE)
        if any(re.search(rf"(?<![a-z]){word}", t, re.IGNORECASE) for t in texts) and not any(
                near.search(t) for t in texts):
            missing.append(metric)
    return missing


# "whose abstract reports the lower FID?", "which of them has the higher pass@1?": a choice the figures settle.
_LOWER = re.compile(r"\b(?:lower|lowest|smaller|smallest|less|least|fewer|fewest)\b", re.IGNORECASE)
_HIGHER = re.compile(r"\b(?:higher|highest|larger|largest|greater|greatest|bigger|biggest)\b", re.IGNORECASE)
_NUMBER = r"(\d+(?:\.\d+)?)"


def by_figure(question: str, papers: list[list[str]]) -> int | None:
    """The position of the paper (each given by its sentences) whose figure for the metric the question names is the
    lower (or higher) one it asks for: the first number written beside the metric ("an FID of 1.83", "FID: 1.59");
    None when the question asks no such thing, a paper gives no such figure, or the best is shared."""
    metric = _METRIC.search(question)
    if not metric or bool(_LOWER.search(question)) == bool(_HIGHER.search(question)):
        return None
    name = re.escape(metric.group(0))
    beside = re.compile(rf"(?i)\b{name}\b\s*(?:score\s+)?(?:of|:|=|is|was|at)?\s*{_NUMBER}|{_NUMBER}\s*{name}\b")
    values = []
    for sentences in papers:
        found = next((m for s in sentences if (m := beside.search(s))), None)
        if found is None:
            return None
        values.append(float(found.group(1) or found.group(2)))
    best = (min if _LOWER.search(question) else max)(values)
    return values.index(best) if values.count(best) == 1 else None


def names_metric(question: str) -> bool:
    """The question names a metric ("pass@1", "FID", "mIoU")."""
    return bool(_METRIC.search(question))
