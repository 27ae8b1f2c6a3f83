"""Fixed texts the system says, and (from the LLM issue on) the prompts. One place, so code can check them."""

# The refusal: decided from retrieval evidence, never left to a model.
REFUSAL = "I could not find an answer to that in the indexed ICLR 2026 abstracts."
# When the question names something (a method, benchmark, model) that no indexed abstract mentions.
REFUSAL_MISSING_NAMES = "I could not find {names} in the indexed ICLR 2026 abstracts, so I cannot answer that."
# When the question uses a topic word that no abstract of a large index contains ("monsoon").
REFUSAL_UNKNOWN_WORDS = ("None of the indexed ICLR 2026 abstracts mentions {words}, so I cannot answer that "
                         "(check the spelling, or try another word).")
