"""The ledger's trial balance: replay every season's recorded facts with its game system and list
every stored number that differs (``manage.py check_ledger``); each season by the ledger that
keeps it (:func:`scoring.services.recording.ledger_of`).
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.models import Season
from scoring.services.differences import Difference
from scoring.services.recording import ledger_of


def season_differences(*, season: Season) -> list[Difference]:
    """One season replayed from its recorded facts: every stored value that differs."""
    return ledger_of(season).differences(season)


def ledger_differences(*, seasons: Iterable[Season] | None = None) -> list[Difference]:
    """Every stored number of ``seasons`` (all when None) that differs from the replay."""
    found: list[Difference] = []
    for season in seasons if seasons is not None else Season.objects.order_by("pk"):
        found.extend(season_differences(season=season))
    return found
