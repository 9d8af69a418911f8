"""The integration catalog: data files, their models and checks."""
