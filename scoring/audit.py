"""The audit trail of a turno: every change to it, its smazzate, counts, penalità and
sanctions (django-simple-history), plus its closes and reopens, in time order."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.models import Penalita, Result, Sanction, Smazzata, Turno, TurnoEvent
from scoring.records import record_names

ACTIONS = {"+": "creazione", "~": "modifica", "-": "eliminazione"}
IGNORED_FIELDS = {"recorded_at", "history_date"}


@dataclass(frozen=True)
class AuditEntry:
    at: dt.datetime
    user: str
    what: str  # "turno", "smazzata 3", "penalità", ...
    action: str  # creazione / modifica / eliminazione / chiusura / riapertura
    detail: str


def _user(obj) -> str:
    u = getattr(obj, "history_user", None) or getattr(obj, "user", None)
    return u.get_username() if u is not None else "sistema"


def _changes(record, shown: Callable[[str, Any], Any] | None = None) -> str:
    prev = record.prev_record
    if prev is None:
        return ""
    delta = record.diff_against(prev)
    show = shown or (lambda _field, value: value)
    parts = [
        f"{c.field}: {show(c.field, c.old)!s} → {show(c.field, c.new)!s}"
        for c in delta.changes
        if c.field not in IGNORED_FIELDS
    ]
    return "; ".join(parts)


def turno_history(turno: Turno) -> list[AuditEntry]:
    """Who did what to a turno and when, oldest first (bounded number of queries)."""
    entries: list[AuditEntry] = []
    for h in Turno.history.filter(id=turno.pk).select_related("history_user"):
        detail = _changes(h) if h.history_type == "~" else f"stato {h.status}"
        if h.history_type == "~" and not detail:
            continue
        entries.append(
            AuditEntry(h.history_date, _user(h), "turno", ACTIONS[h.history_type], detail)
        )
    sm_hist = list(Smazzata.history.filter(turno_id=turno.pk).select_related("history_user"))
    seated = list(turno.seats.values_list("player_id", "position", "player__name"))
    names = {pk: name for pk, _, name in seated}
    by_seat = {position: name for _, position, name in seated}
    system = turno.season.system

    def shown(field: str, value: Any) -> Any:  # a record names players by seat: show names
        return record_names(system, value, by_seat) if field == "record" and value else value

    numbers = {h.id: h.number for h in sm_hist}
    for h in sm_hist:
        detail = f"{h.game}, chiamante {names.get(h.caller_id, h.caller_id)}"
        if h.history_type == "~":
            detail = _changes(h, shown) or detail
        entries.append(
            AuditEntry(
                h.history_date, _user(h), f"smazzata {h.number}", ACTIONS[h.history_type], detail
            )
        )
    for h in Result.history.filter(smazzata_id__in=list(numbers)).select_related("history_user"):
        if h.history_type == "+":
            continue  # shown with the smazzata's creation
        detail = f"{names.get(h.player_id, h.player_id)}: {h.count} ({h.points:+d})"
        entries.append(
            AuditEntry(
                h.history_date,
                _user(h),
                f"smazzata {numbers.get(h.smazzata_id, '?')}",
                ACTIONS[h.history_type] + " risultato",
                detail,
            )
        )
    for h in Penalita.history.filter(turno_id=turno.pk).select_related("history_user"):
        detail = (
            f"{names.get(h.player_id, h.player_id)} {h.points:+d} (art. {h.article}) {h.reason}"
        )
        entries.append(
            AuditEntry(h.history_date, _user(h), "penalità", ACTIONS[h.history_type], detail)
        )
    for h in Sanction.history.filter(turno_id=turno.pk).select_related("history_user"):
        detail = f"{names.get(h.player_id, h.player_id)}: {h.reason}"
        entries.append(
            AuditEntry(
                h.history_date,
                _user(h),
                "retrocessione per contatore",
                ACTIONS[h.history_type],
                detail,
            )
        )
    for e in TurnoEvent.objects.filter(turno=turno).select_related("user"):
        entries.append(AuditEntry(e.at, _user(e), "turno", e.get_kind_display(), e.reason))
    entries.sort(key=lambda e: e.at)
    return entries
