"""Gradio chat front end (arrives with the UI issue)."""
