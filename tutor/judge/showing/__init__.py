"""Showing: live values as a learner sees them (display.py), as an answer is
written (notation.py), and messages as text (render.py)."""
