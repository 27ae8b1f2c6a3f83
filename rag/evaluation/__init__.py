"""Evaluation and benchmarks: outside the runtime path (the engine imports nothing from here)."""
