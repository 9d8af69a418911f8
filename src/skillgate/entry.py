"""The `skillgate` executable's entry point, importable with the client-only install.

`pip install skillgate` brings `svc` and its two dependencies; the server and
its operator commands need the `[server]` extra. Without it, say so in one line
instead of a traceback.
"""

from __future__ import annotations

import gc
import sys

INSTALL_HINT = (
    "skillgate: the server is not installed (missing Python package {name!r}); "
    "install it with: pip install 'skillgate[server]'"
)


def main() -> None:
    # Importing builds only objects that live on (modules, classes, pydantic's
    # validators): no cycle collection meanwhile (~0.2 CPU-s of every command).
    gc.disable()
    try:
        from skillgate.cli.main import main as server_main
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if not missing or missing == "skillgate":
            raise  # our own bug, not a missing dependency
        sys.stderr.write(INSTALL_HINT.format(name=missing) + "\n")
        raise SystemExit(2) from None
    finally:
        gc.enable()
    server_main()


if __name__ == "__main__":
    main()
