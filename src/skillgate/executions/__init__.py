"""The execution log: one row per agent call, written in batches."""
