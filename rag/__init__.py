"""iclr-rag: grounded, cited question answering over ICLR 2026 abstracts."""
