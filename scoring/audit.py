"""The audit trail of a turno: every change to it, its smazzate, results, penalità and
sanctions (django-simple-history), plus its closes and reopens, in time order."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import formatting
from scoring.models import Penalita, Result, Sanction, Smazzata, Turno, TurnoEvent
from scoring.records import record_names

ACTIONS = {
    "+": gettext_lazy("creazione"),
    "~": gettext_lazy("modifica"),
    "-": gettext_lazy("eliminazione"),
}
RESULT_ACTIONS = {
    "+": gettext_lazy("creazione risultato"),
    "~": gettext_lazy("modifica risultato"),
    "-": gettext_lazy("eliminazione risultato"),
}
# not shown as changes: when (the entry's time) and who recorded a deal (the entry's user)
IGNORED_FIELDS = {"recorded_at", "history_date", "recorded_by"}
# a deal's fields that name a member (the history keeps their ids): shown by name
PLAYER_FIELDS = {"caller", "dealer", "cappotto"}


@dataclass(frozen=True)
class AuditEntry:
    at: dt.datetime
    user: str
    what: str  # "turno", "smazzata 3", "penalità", ...
    action: str  # creazione / modifica / eliminazione / chiusura / riapertura
    detail: str


def _user(obj) -> str:
    u = getattr(obj, "history_user", None) or getattr(obj, "user", None)
    return u.get_username() if u is not None else _("sistema")


def _label(record, name: str) -> str:
    """A changed field as the forms label it, its value as the pages print it."""
    try:
        return str(type(record.instance)._meta.get_field(name).verbose_name)
    except FieldDoesNotExist:
        return name


def _value(record, name: str, value: Any) -> Any:
    if value is None:
        return "—"
    try:
        field = type(record.instance)._meta.get_field(name)
    except FieldDoesNotExist:
        return value
    return dict(field.flatchoices).get(value, value) if field.choices else value


def _changes(record, shown: Callable[[str, Any], Any] | None = None) -> str:
    prev = record.prev_record
    if prev is None:
        return ""
    delta = record.diff_against(prev)
    show = shown or (lambda field, value: _value(record, field, value))
    parts = [
        f"{_label(record, c.field)}: {show(c.field, c.old)!s} → {show(c.field, c.new)!s}"
        for c in delta.changes
        if c.field not in IGNORED_FIELDS
    ]
    return "; ".join(parts)


def _counts_at(versions: list[Any], key: str, seat_of: dict[int, int]) -> Callable[[Any], Any]:
    """A past version of a result -> the player's count in the deal as it then stood (None for a
    game whose records keep no count): read from the deal's record (``key``, by seat) in the
    deal's latest version written at or before the result's (a deal is saved, then its results;
    a deal's results are deleted before it)."""
    by_smazzata: dict[Any, list[Any]] = {}
    for v in versions:
        by_smazzata.setdefault(v.id, []).append(v)
    for kept in by_smazzata.values():
        kept.sort(key=lambda v: (v.history_date, v.history_id))

    def count(result: Any) -> Any:
        if not key:
            return None
        record = None
        for v in by_smazzata.get(result.smazzata_id, ()):
            if v.history_date > result.history_date:
                break
            record = v.record
        counts = record.get(key) if isinstance(record, dict) else None
        if not isinstance(counts, dict) or result.player_id not in seat_of:
            return None
        return counts.get(str(seat_of[result.player_id]))

    return count


def turno_history(turno: Turno) -> list[AuditEntry]:
    """Who did what to a turno and when, oldest first (bounded number of queries)."""
    entries: list[AuditEntry] = []
    for h in Turno.history.filter(id=turno.pk).select_related("history_user"):
        detail = (
            _changes(h)
            if h.history_type == "~"
            else _("stato %(status)s") % {"status": _value(h, "status", h.status)}
        )
        if h.history_type == "~" and not detail:
            continue
        entries.append(
            AuditEntry(h.history_date, _user(h), "turno", str(ACTIONS[h.history_type]), detail)
        )
    sm_hist = list(Smazzata.history.filter(turno_id=turno.pk).select_related("history_user"))
    seated = list(turno.seats.values_list("player_id", "position", "player__name"))
    names = {pk: name for pk, _, name in seated}
    by_seat = {position: name for _, position, name in seated}
    system = turno.season.system
    chosen_by = _(system.deal_chosen_by)  # "NJ, chiamante Anna", "Grand, Bruno"

    def shown(field: str, value: Any) -> Any:  # a record names players by seat: show names
        if field == "record" and value:
            return record_names(system, value, by_seat)
        if field in PLAYER_FIELDS and value is not None:  # the chiamante, dealer, cappotto
            return names.get(value, value)
        return _value(h, field, value)

    numbers = {h.id: h.number for h in sm_hist}
    for h in sm_hist:
        game = formatting.season_game(turno.season, h.game)
        caller = names.get(h.caller_id, h.caller_id)
        # the game and its caller, chooser, declarer or closer
        detail = game if h.caller_id is None else chosen_by % {"game": game, "caller": caller}
        if h.history_type == "~":
            detail = _changes(h, shown) or detail
        entries.append(
            AuditEntry(
                h.history_date,
                _user(h),
                _("smazzata %(number)s") % {"number": h.number},
                str(ACTIONS[h.history_type]),
                detail,
            )
        )
    count_at = _counts_at(sm_hist, system.deal_counts, {pk: pos for pk, pos, _ in seated})
    for h in Result.history.filter(smazzata_id__in=list(numbers)).select_related("history_user"):
        if h.history_type == "+":
            continue  # shown with the smazzata's creation
        name = names.get(h.player_id, h.player_id)
        count = count_at(h)
        detail = f"{name}: {h.points:+d}" if count is None else f"{name}: {count} ({h.points:+d})"
        entries.append(
            AuditEntry(
                h.history_date,
                _user(h),
                _("smazzata %(number)s") % {"number": numbers.get(h.smazzata_id, "?")},
                str(RESULT_ACTIONS[h.history_type]),
                detail,
            )
        )
    for h in Penalita.history.filter(turno_id=turno.pk).select_related("history_user"):
        detail = (
            f"{names.get(h.player_id, h.player_id)} {h.points:+d} (art. {h.article}) {h.reason}"
        )
        entries.append(
            AuditEntry(
                h.history_date, _user(h), _("penalità"), str(ACTIONS[h.history_type]), detail
            )
        )
    for h in Sanction.history.filter(turno_id=turno.pk).select_related("history_user"):
        detail = f"{names.get(h.player_id, h.player_id)}: {h.reason}"
        entries.append(
            AuditEntry(
                h.history_date,
                _user(h),
                _("retrocessione per contatore"),
                str(ACTIONS[h.history_type]),
                detail,
            )
        )
    for e in TurnoEvent.objects.filter(turno=turno).select_related("user"):
        entries.append(AuditEntry(e.at, _user(e), "turno", e.get_kind_display(), e.reason))
    entries.sort(key=lambda e: e.at)
    return entries
