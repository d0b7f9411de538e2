"""Authoring tools: scaffold (`tutor new`), lint, record, schema.  Pure: no torch, no textual."""
