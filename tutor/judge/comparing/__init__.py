"""Comparing: a prediction (what reading made of the answer) against the live
observation, by meaning.  Comparers return an `Outcome` whose message is built of
parts (base/parts.py); they never refuse an answer (only readers do) and never
format a live value themselves (showing does)."""
