"""`skillgate`: the operator's command line."""
