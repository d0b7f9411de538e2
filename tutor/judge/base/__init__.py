"""The judge's vocabulary, shared by every layer: verdicts, message parts, limits,
observations (plain dicts from the kernel), dtype names and text normalisation."""
