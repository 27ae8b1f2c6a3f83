"""Fixed texts the system says, and (from the LLM issue on) the prompts. One place, so code can check them."""

# The refusal: decided from retrieval evidence, never left to a model.
REFUSAL = "I could not find an answer to that in the indexed ICLR 2026 abstracts."
# When the question names something (a method, benchmark, model) that no indexed abstract mentions.
REFUSAL_MISSING_NAMES = "I could not find {names} in the indexed ICLR 2026 abstracts, so I cannot answer that."
