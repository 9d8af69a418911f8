"""Skill Gateway server."""
