"""Shared by the commands that name a season (not a command itself: '_').

Their messages are in the reader's language (:mod:`._language`)."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext

from scoring.models import Season


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
