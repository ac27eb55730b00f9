"""simple-brief: a brief, live view of code for people and LLM coding agents."""

__version__ = "0.1.0"
