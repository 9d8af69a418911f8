"""Users, plans and passwords."""
