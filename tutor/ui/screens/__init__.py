"""Screens of the learner's app."""
