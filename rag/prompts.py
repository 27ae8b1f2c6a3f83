"""Fixed texts the system says, and (from the LLM issue on) the prompts. One place, so code can check them."""

# The refusal: decided from retrieval evidence, never left to a model.
REFUSAL = "I could not find an answer to that in the indexed ICLR 2026 abstracts."
