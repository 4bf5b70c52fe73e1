"""A season's calendar, as rule-set data every game shares (issue 26, items 6a and 6b).

Two rules no SPEC fixes as a number, so they are data a club may edit, the same table
``"calendar"`` in the rule set of every game system:

- ``days_before_start`` / ``days_after_end``: the dates a turno may take. A season's span runs
  from its first giornata to its last, and to today while it is played; a turno may be dated
  at most ``days_before_start`` days before that span and ``days_after_end`` days after it
  (default 365 and 365: the season's span ± a year). A season without a giornata yet has no
  start: only the end (today + ``days_after_end``) bounds its first date, so an old season can
  still be recorded or imported. [interpretation]
- ``one_turno_a_day``: a member sits at one turno a date. The default is the game system's
  (C.A.F. §8.1 and the King family's ``PLAYS_TWICE``: yes; Skat lists and Ramino matches follow
  one another on one evening: no). C.A.F.'s season (absences, series, a late joiner's lowest
  score) is built on one turno a giornata: there the value is fixed.

A whole season (an import) is checked as if its turni were started one by one in date order:
each date against the span of the dates before it (:meth:`Calendar.dates_problems`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .problems import Problem, Said, gettext_noop, said

CALENDAR = "calendar"  # the rule set's key
DAYS_LIMIT = 36_525  # a century: the largest window a club may set
DEFAULT_DAYS = 365

DATE_LABEL = gettext_noop("Data")  # the label of the field on the new-turno form
OUTSIDE = gettext_noop(
    "%(label)s: il %(date)s è fuori dal periodo della stagione (dal %(earliest)s al %(latest)s)"
)
OUTSIDE_OPEN = gettext_noop(
    "%(label)s: il %(date)s è fuori dal periodo della stagione (al più tardi il %(latest)s)"
)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def calendar_errors(
    value: Any, *, fixed_one_turno_a_day: bool | None = None
) -> list[tuple[str, Said]]:
    """The problems of a rule set's ``calendar`` table, as ``(key, message)`` pairs: each message
    a :class:`~.problems.Said` sentence (translated where it is shown; each game's rule-set check
    words the key its own way). ``fixed_one_turno_a_day``: the value the game does not let a club
    change (C.A.F.), None when it may."""
    if value is None:
        return []
    if not isinstance(value, Mapping):
        return [(CALENDAR, said(gettext_noop("deve essere un oggetto")))]
    errors: list[tuple[str, Said]] = []
    for key, v in value.items():
        where = f"{CALENDAR}.{key}"
        if key in ("days_before_start", "days_after_end"):
            if not (_is_int(v) and 0 <= v <= DAYS_LIMIT):
                days = gettext_noop("deve essere un numero di giorni tra 0 e %(high)s")
                errors.append((where, said(days, high=DAYS_LIMIT)))
        elif key == "one_turno_a_day":
            if not isinstance(v, bool):
                errors.append((where, said(gettext_noop("deve essere true o false"))))
            elif fixed_one_turno_a_day is not None and v != fixed_one_turno_a_day:
                always = gettext_noop("in questo gioco vale sempre %(value)s")
                errors.append((where, said(always, value=str(fixed_one_turno_a_day).lower())))
        else:
            errors.append((where, said(gettext_noop("chiave sconosciuta"))))
    return errors


def _shift(day: dt.date, days: int) -> dt.date:
    """``day`` moved by ``days``, kept within the dates a computer writes (year 1 to 9999)."""
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return dt.date.max if days > 0 else dt.date.min


def _text(day: dt.date) -> str:
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"


@dataclass(frozen=True)
class Calendar:
    """The calendar rules of one season (see the module's text)."""

    days_before_start: int = DEFAULT_DAYS
    days_after_end: int = DEFAULT_DAYS
    one_turno_a_day: bool = False

    def window(
        self, first: dt.date | None, last: dt.date | None, today: dt.date
    ) -> tuple[dt.date | None, dt.date]:
        """The earliest (None: no bound) and latest date a new turno may take, in a season
        whose giornate run from ``first`` to ``last`` (None and None: no giornata yet)."""
        earliest = _shift(first, -self.days_before_start) if first is not None else None
        end = today if last is None or last < today else last
        return earliest, _shift(end, self.days_after_end)

    def date_problem(
        self,
        day: dt.date,
        *,
        first: dt.date | None,
        last: dt.date | None,
        today: dt.date,
        turno: str | None = None,
    ) -> Problem | None:
        """``DATE_OUTSIDE_SEASON`` (field ``date``) when ``day`` is outside the window."""
        earliest, latest = self.window(first, last, today)
        if (earliest is None or day >= earliest) and day <= latest:
            return None
        params = {"label": DATE_LABEL, "date": _text(day), "latest": _text(latest)}
        if earliest is not None:
            params["earliest"] = _text(earliest)
        return Problem.said(
            "DATE_OUTSIDE_SEASON",
            OUTSIDE if earliest is not None else OUTSIDE_OPEN,
            params,
            field="date",
            turno=turno,
        )

    def dates_problems(
        self,
        days: Iterable[tuple[dt.date, str | None]],
        *,
        today: dt.date,
        first: dt.date | None = None,
        last: dt.date | None = None,
    ) -> list[Problem]:
        """The dates of many turni (``(date, turno label)``), checked in date order as if each
        were started after the ones before it; the first of each date out of the window."""
        problems: list[Problem] = []
        for day, label in sorted(days, key=lambda d: d[0]):
            problem = self.date_problem(day, first=first, last=last, today=today, turno=label)
            if problem is not None:
                problems.append(problem)
                continue  # the date is refused: it does not widen the span
            first = day if first is None or day < first else first
            last = day if last is None or day > last else last
        return problems


def calendar_of(rules: Mapping[str, Any] | None, *, one_turno_a_day: bool) -> Calendar:
    """The calendar of a rule set (its ``calendar`` table, checked by the game's rule-set check
    before it is stored), with the defaults: 365 days each side and the game's
    ``one_turno_a_day``."""
    table = rules.get(CALENDAR) if isinstance(rules, Mapping) else None
    table = table if isinstance(table, Mapping) else {}

    def days(key: str) -> int:
        v = table.get(key)
        return v if _is_int(v) and 0 <= v <= DAYS_LIMIT else DEFAULT_DAYS

    flag = table.get("one_turno_a_day")
    return Calendar(
        days_before_start=days("days_before_start"),
        days_after_end=days("days_after_end"),
        one_turno_a_day=flag if isinstance(flag, bool) else one_turno_a_day,
    )
