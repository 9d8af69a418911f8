"""Execution: one validated, authenticated upstream request per agent call."""
