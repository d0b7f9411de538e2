"""Widgets of the learner's app."""
