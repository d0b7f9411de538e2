"""Reading: what the learner typed, turned into a prediction (no live value here).

lexer -> grammar (with safe arithmetic, numbers.py) -> the readers of each kind
(values.py, tensors.py, words.py), helped by phrases.py (lead-ins, None phrases,
hedges) and polarity.py (yes/no sentences with negation and contrast).
"""
