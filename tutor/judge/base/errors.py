"""The judge's input limits, and its one exception: an answer that can't be read.

An unreadable answer is told so with a message built of parts (see parts.py):
prose written here in the code and the learner's own words (`Said`), then, where
`how` is set, the kind's "how to write one" sentence, whose examples are chosen
once the live value is known, among those that are wrong for it.  Readers never
see the live value, so such a message cannot hold this question's answer.
"""

from __future__ import annotations

from .parts import Said, plain

# Hard limits on what a learner may type, checked before (or while) reading it.
MAX_CHARS = 100_000  # characters in the whole answer (the kernel's cap on a string)
MAX_DEPTH = 32  # nesting of ( [ {
MAX_SCALARS = 2_500  # numbers, names and strings in one answer (a live list has at most 1,000)
MAX_TOKENS = 3 * MAX_SCALARS + 64  # tokens of any sort in one answer
MAX_DIGITS = 50  # digits in one number
MAX_SENTENCE = 1_000  # characters of a sentence read for yes/no (a traceback is cut, not refused)


class InvalidPrediction(ValueError):
    """The text cannot be read as a prediction of the prompt's kind.

    `parts` is what to say (prose and `Said` quotes of the learner's text);
    `how`: end with how to write this kind of answer.  `message` is the parts
    as plain text.
    """

    def __init__(self, *parts: str | Said, how: bool = True) -> None:
        self.parts: tuple[str | Said, ...] = parts
        self.how = how
        super().__init__(plain(parts))

    @property
    def message(self) -> str:
        return str(self.args[0])
