"""The judge's one exception and its input limits."""

from __future__ import annotations

# Hard limits on what a learner may type, checked before (or while) parsing.
MAX_CHARS = 2000  # characters in the whole answer
MAX_DEPTH = 32  # nesting of ( [ {
MAX_SCALARS = 10_000  # numbers, names and strings in one answer
MAX_DIGITS = 50  # digits in one number


class InvalidPrediction(ValueError):
    """The text cannot be read as a prediction of the prompt's kind.

    `message` is the friendly sentence shown to the learner (status `invalid`).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
