"""Shared by the commands that read a JSON document (not a command itself: leading '_')."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext


def _unreadable(path: str, exc: OSError) -> CommandError:
    cannot = gettext("impossibile leggere %(path)s: %(error)s")
    return CommandError(cannot % {"path": path, "error": exc.strerror})


def read_input(path: str) -> bytes:
    """The bytes of ``path``, or of standard input for '-'; a clear error otherwise."""
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc) from None


def readable(path: str) -> Path:
    """``path`` as a file that can be opened for reading (read later, in parts); a clear error
    otherwise."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise _unreadable(path, exc) from None
    return Path(path)
