"""Small shared building blocks."""
