"""Read models of the Verbale countersigned (issue 17): who confirmed or contested a turno's
Verbale, the turni a season flags (contested, waiting for the players' confirmation), a pending
close request. Reads only: the writes are :mod:`scoring.services.confirmations`.

Built here, read by: :func:`confirmation_lines` -> ``Verbale.confirmations`` and
``GameVerbale.confirmations`` (web page, PDF, XLSX, stored documents); :func:`flagged_turni` ->
the Classifica's footnote and the segreteria dashboard; :func:`confirmation_block` -> the
Verbale page's confirmations block; :func:`close_notice` -> the live screen's "waiting for the
players" notice (the last three through ``templatetags/club_room.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from scoring import formatting
from scoring.models import CloseRequest, Season, Seat, Turno, VerbaleConfirmation


def pending_close(turno: Turno) -> CloseRequest | None:
    return CloseRequest.objects.filter(turno=turno).first()


def contested_turni(season: Season | None) -> QuerySet[Turno]:
    """The season's closed (or waiting) turni with a standing contestation, oldest first."""
    if season is None:
        return Turno.objects.none()
    return (
        Turno.objects.filter(
            Q(status=Turno.CHIUSO) | Q(close_request__isnull=False),
            season=season,
            confirmations__verdict=VerbaleConfirmation.CONTESTED,
        )
        .select_related("giornata")
        .distinct()
        .order_by("giornata__date", "number")
    )


def flagged_turni(season: Season | None) -> tuple[list[Turno], list[Turno]]:
    """(contested, waiting for confirmation) turni of the season: the footnote of the Classifica
    and the segreteria dashboard. One query, two when some turno is flagged."""
    if season is None:
        return [], []
    contested = Exists(
        VerbaleConfirmation.objects.filter(
            turno=OuterRef("pk"), verdict=VerbaleConfirmation.CONTESTED
        )
    )
    waiting = Exists(CloseRequest.objects.filter(turno=OuterRef("pk")))
    # only the turni named by a contestation or a close request (a few rows, by their index),
    # never every turno of the season (issue 16: the Classifica's footnote is on every page):
    # one query when none is, the common case
    named = list(
        VerbaleConfirmation.objects.filter(
            turno__season=season, verdict=VerbaleConfirmation.CONTESTED
        )
        .order_by()
        .values_list("turno_id", flat=True)
        .union(
            CloseRequest.objects.filter(turno__season=season)
            .order_by()
            .values_list("turno_id", flat=True)
        )
    )
    if not named:
        return [], []
    rows = list(
        Turno.objects.filter(pk__in=named)
        .annotate(contested=contested, waiting=waiting)
        .filter(
            Q(contested=True, status=Turno.CHIUSO)
            | Q(contested=True, waiting=True)
            | Q(waiting=True, status=Turno.IN_CORSO)
        )
        .select_related("giornata")
        .order_by("giornata__date", "number")
    )
    return (
        [t for t in rows if t.contested],
        [t for t in rows if t.waiting and t.is_open],
    )


def confirmation_lines(turno_id: int) -> list[str]:
    """The Verbale's block, one line a player: "Confermato da X il ...", "Contestato da Y il
    ...: commento" (the web page, the PDF and the XLSX print these)."""
    lines = []
    rows = VerbaleConfirmation.objects.filter(turno_id=turno_id).select_related("player")
    for c in rows:
        values = {"player": c.player.name, "at": formatting.moment(c.at), "comment": c.comment}
        if c.verdict == VerbaleConfirmation.CONFIRMED:
            text = _("Confermato da %(player)s il %(at)s") % values
        else:
            text = _("Contestato da %(player)s il %(at)s: %(comment)s") % values
        if c.via == VerbaleConfirmation.PIN:
            text += " " + _("(al tavolo con il PIN)")
        lines.append(text)
    return lines


@dataclass(frozen=True)
class ConfirmationBlock:
    """The Verbale's confirmations block as one reader sees it."""

    pending: CloseRequest | None  # the close waits for the players' confirmations
    seats: int  # players at the table (counted only while a close is pending)
    confirmed: int
    rows: list[VerbaleConfirmation]  # oldest first
    mine: VerbaleConfirmation | None  # the reader's own confirmation or contestation
    can_answer: bool  # the reader played the turno and may confirm or contest now
    contested: bool


def confirmation_block(turno: Turno, user: Any) -> ConfirmationBlock:
    """Who confirmed or contested the turno's Verbale, and what ``user`` may do about it."""
    rows = list(
        VerbaleConfirmation.objects.filter(turno=turno).select_related("player").order_by("at")
    )
    mine = None
    can_answer = False
    pending = pending_close(turno) if turno.is_open else None
    if user is not None and user.is_authenticated and (pending or not turno.is_open):
        seat = Seat.objects.filter(turno=turno, player__user=user).select_related("player").first()
        if seat is not None:
            can_answer = True
            mine = next((r for r in rows if r.player_id == seat.player_id), None)
    return ConfirmationBlock(
        pending=pending,
        seats=Seat.objects.filter(turno=turno).count() if pending else 0,
        confirmed=sum(r.verdict == VerbaleConfirmation.CONFIRMED for r in rows),
        rows=rows,
        mine=mine,
        can_answer=can_answer,
        contested=any(r.verdict == VerbaleConfirmation.CONTESTED for r in rows),
    )


def close_notice(turno: Turno) -> tuple[CloseRequest | None, int, int]:
    """(the pending close request, players who confirmed, players at the table) of a turno
    waiting for its players' confirmation; (None, 0, 0) otherwise."""
    pending = pending_close(turno) if turno.is_open else None
    if pending is None:
        return None, 0, 0
    confirmed = VerbaleConfirmation.objects.filter(
        turno=turno, verdict=VerbaleConfirmation.CONFIRMED
    ).count()
    return pending, confirmed, Seat.objects.filter(turno=turno).count()
