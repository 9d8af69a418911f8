"""Open a URL in the user's browser when there is one to open; never fail.

A browser is tried only when there is a display: macOS and Windows always,
elsewhere when DISPLAY or WAYLAND_DISPLAY is set and not over SSH alone.
SVC_NO_BROWSER=1 turns it off. The opener runs detached with no terminal, so a
text-mode fallback browser can never take over the agent's terminal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def has_display() -> bool:
    if os.environ.get("SVC_NO_BROWSER", "") not in ("", "0"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_url(url: str) -> bool:
    """True when an opener was started (not a promise that a page appeared)."""
    if not has_display():
        return False
    try:
        if sys.platform == "win32":
            os.startfile(url)  # type: ignore[attr-defined,unused-ignore]  # noqa: S606
            return True
        opener = "open" if sys.platform == "darwin" else shutil.which("xdg-open")
        if not opener:
            return False
        subprocess.Popen(  # noqa: S603 - fixed opener, URL as one argument
            [opener, url],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        return True
    except OSError:
        return False
