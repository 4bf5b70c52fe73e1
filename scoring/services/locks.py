"""What must be serial per season: closes, reopens, recomputes and Verbale numbers.

Every write that replays the season (or numbers a Verbale) takes the season's row lock first,
before any turno lock, so two of them never interleave and never lock in opposite orders
(PostgreSQL). SQLite serialises writers by itself; there the lock is a no-op.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import Season, Turno
from scoring.rules.problems import Problem, RuleViolation

P = ParamSpec("P")
R = TypeVar("R")

# PostgreSQL's serialization_failure and deadlock_detected: the transaction may simply be retried
RETRYABLE = frozenset({"40001", "40P01"})
# the connection went away (pg_terminate_backend: admin_shutdown 57P01, a restarted server:
# crash_shutdown 57P02, cannot_connect_now 57P03, class 08 connection exceptions): the server
# rolled the transaction back; a new connection runs it again
DROPPED = frozenset({"57P01", "57P02", "57P03"})


def season_lock(season: Season | int) -> None:
    """Lock the season's row until the end of the transaction (taken before any turno lock)."""
    pk = season.pk if isinstance(season, Season) else season
    Season.objects.select_for_update().filter(pk=pk).values_list("pk", flat=True).first()


def season_lock_of_turno(turno: Turno | int) -> None:
    """Lock the season a turno belongs to (a turno never changes season)."""
    if isinstance(turno, Turno):
        season_lock(turno.season_id)
        return
    season_id = Turno.objects.filter(pk=turno).values_list("season_id", flat=True).first()
    if season_id is not None:
        season_lock(season_id)


def _retryable(exc: OperationalError) -> bool:
    return getattr(exc.__cause__, "sqlstate", None) in RETRYABLE or _dropped(exc)


def _dropped(exc: DatabaseError) -> bool:
    """Did the database connection drop under the write (its transaction rolled back)?"""
    state = getattr(exc.__cause__, "sqlstate", None) or ""
    return isinstance(exc, InterfaceError) or state in DROPPED or state.startswith("08")


def retry_once(func: Callable[P, R]) -> Callable[P, R]:
    """Run a write again once if the database aborted it for a serialization failure or a
    deadlock, or dropped the connection under it (``pg_terminate_backend``, a restarted server:
    then on a new connection); if it fails again the segretario gets a clear message, never a
    server error. Inside an outer transaction nothing can be retried: the error goes up to its
    owner."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in (1, 2):
            try:
                return func(*args, **kwargs)
            except (OperationalError, InterfaceError) as exc:
                if connection.in_atomic_block or not _retryable(exc):
                    raise
                if _dropped(exc):
                    connection.close()  # the next query opens a new connection
                if attempt == 2:
                    raise RuleViolation(
                        [
                            Problem.said(
                                "BUSY",
                                gettext_noop(
                                    "un'altra operazione sulla stagione era in corso: nulla è "
                                    "stato salvato, riprovare"
                                ),
                            )
                        ]
                    ) from None
        raise AssertionError("unreachable")

    return wrapper


def season_require_open(season: Season | int, *, fresh: bool = False) -> None:
    """The guard of every write to a season's turni: a closed season is frozen.

    ``fresh`` reads the season's state from the database (after the season's lock), for a
    caller holding a season instance loaded before the lock."""
    if fresh or not isinstance(season, Season):
        pk = season.pk if isinstance(season, Season) else season
        row = Season.objects.filter(pk=pk).values_list("name", "closed_at").first()
        if row is None:
            return
        name, closed_at = row
    else:
        name, closed_at = season.name, season.closed_at
    if closed_at is not None:
        raise RuleViolation(
            [
                Problem.said(
                    "SEASON_CLOSED",
                    gettext_noop(
                        "la stagione %(season)s è chiusa (il %(date)s): non si possono iniziare "
                        "turni, registrare o correggere smazzate, riaprire turni né cambiarne il "
                        "regolamento o gli iscritti"
                    ),
                    {
                        "season": name,
                        "date": formatting.date_short(timezone.localtime(closed_at).date()),
                    },
                )
            ]
        )
