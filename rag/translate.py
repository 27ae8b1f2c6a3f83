"""Non-English questions → English queries with the configured LLM, so they use the full English pipeline.

MiniLM and BM25 read no Chinese; without an LLM a Chinese question is matched by multilingual-e5 over each
title and first sentence (``rag.multilingual``). A translation lets BM25, the dense chunk and sentence rankings
and the English evidence floors all work, and skips embedding sentences with e5 at question time (figures:
docs/benchmarks.md).

A small model sometimes answers instead of translating, so a translation is used only if it is one
English line, still a question when the original was one, and keeps every name of the original
("TRIM-KV", "CatalystBench"); otherwise the e5 path is used. A question of several sentences is often
translated up to its question and then continued with a garbled or invented statement; the line is cut
after its last question mark, so the question itself is kept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.multilingual import CJK_LETTERS, needs_multilingual
from rag.question import names_in
from rag.settings import LLMSettings

if TYPE_CHECKING:
    from rag.backends import LLMBackend

_CJK_LEFT = re.compile(f"[{CJK_LETTERS}\u3000-\u303f\uff00-\uffef]+")  # letters and CJK punctuation


def llm_translate(llm: LLMBackend, question: str, settings: LLMSettings | None = None) -> str | None:
    """The question in English, or None when it is English already or the translation fails a check
    (``settings``: ``translate_tokens`` / ``translate_max_chars``, default the preset's)."""
    from rag import prompts
    from rag.backends import Message

    settings = settings or LLMSettings()
    if not needs_multilingual(question):
        return None
    messages = [Message("system", prompts.TRANSLATE_SYSTEM)]
    for chinese, english in prompts.TRANSLATE_EXAMPLES:
        messages += [Message("user", chinese), Message("assistant", english)]
    messages.append(Message("user", question))
    try:
        text = "".join(llm.stream(messages, settings.translate_tokens)).strip()
    except Exception:  # the e5 path still answers; a failed translation must not fail the question
        return None
    line = text.splitlines()[0].strip().strip('"') if text else ""
    line = re.sub(r"\s+", " ", _CJK_LEFT.sub(" ", line)).strip()  # a word the model left untranslated
    if question.rstrip().endswith(("?", "？")):
        if "?" not in line:
            return None  # an answer ("The capital of Australia is Canberra."), not a translation
        line = line[: line.rindex("?") + 1]
    if not line or len(line) > settings.translate_max_chars or needs_multilingual(line):
        return None
    # Names as the rest of the pipeline reads them ("CoT-RVS", "StateLM"): the model may reword "prompt"
    # or "video", which Chinese questions often write in Latin letters, but must not lose a method's name.
    kept = line.lower()
    if any(name.lower() not in kept for name in names_in(question)):
        return None
    return line
