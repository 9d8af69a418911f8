"""Connections: a user's credentials for one integration, encrypted at rest."""
