"""Shared by the commands that name a season or write a file (not a command itself: '_').

Their messages are in the reader's language (:mod:`._language`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.utils.translation import gettext, ngettext

from scoring.models import Season


# counts in the commands' summaries, with the plural forms of the reader's language ("1 stagione",
# "2 stagioni"; "1 season", "2 seasons"): a sentence puts them in whole
def seasons_counted(n: int) -> str:
    return ngettext("%(n)s stagione", "%(n)s stagioni", n) % {"n": n}


def turni_counted(n: int) -> str:
    return ngettext("%(n)s turno", "%(n)s turni", n) % {"n": n}


def members_counted(n: int) -> str:
    return ngettext("%(n)s socio", "%(n)s soci", n) % {"n": n}


def season_named(name: str) -> Season:
    """The season called ``name``; a clear error naming the club's seasons otherwise."""
    season = Season.objects.filter(name=name).first()
    if season is not None:
        return season
    known = ", ".join(Season.objects.order_by("name").values_list("name", flat=True))
    if known:
        unknown = gettext("stagione sconosciuta: %(name)s (stagioni: %(known)s)")
    else:
        unknown = gettext("stagione sconosciuta: %(name)s")
    raise CommandError(unknown % {"name": repr(name), "known": known})


def indent_option(parser: Any) -> None:
    parser.add_argument(
        "--indent",
        type=int,
        default=None,
        metavar="N",
        help=gettext("rientra il JSON di N spazi (predefinito: compatto, su una riga)"),
    )


def checked_indent(indent: int | None) -> int | None:
    if indent is not None and not 0 <= indent <= 8:
        raise CommandError(gettext("--indent: da 0 a 8 spazi"))
    return indent


def cannot_write(path: object, exc: OSError) -> CommandError:
    cannot = gettext("impossibile scrivere %(path)s: %(error)s")
    return CommandError(cannot % {"path": path, "error": exc.strerror})
