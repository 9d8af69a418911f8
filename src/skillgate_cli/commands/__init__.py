"""One module per command, each exposing `command` (imported lazily by `main.LazyGroup`)."""
