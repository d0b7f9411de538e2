"""tutor: a terminal tutor for PyTorch internals.

Predict, then run: a lesson shows code, the learner predicts a value, the code runs
live in a separate kernel process, and a judge compares the prediction with the
real result.

This package root imports nothing heavy: neither torch nor textual.
"""

__version__ = "0.1.0"
