"""Template tags of the Verbale countersigned: the confirmations block of a Verbale and the
contested turni of a season (segreteria dashboard, Classifica footnote)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.models import Season, Seat, Turno, VerbaleConfirmation
from scoring.permissions import is_segretario
from scoring.selectors_confirmations import flagged_turni, pending_close

register = template.Library()


@register.inclusion_tag("scoring/confirm/_block.html", takes_context=True)
def verbale_confirmations(context: dict[str, Any], turno: Turno) -> dict[str, Any]:
    """Who confirmed or contested the Verbale, and the logged-in player's buttons."""
    request = context.get("request")
    user = getattr(request, "user", None)
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
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "turno": turno,
        "pending": pending,
        "seats": Seat.objects.filter(turno=turno).count() if pending else 0,
        "confirmed": sum(r.verdict == VerbaleConfirmation.CONFIRMED for r in rows),
        "rows": rows,
        "mine": mine,
        "can_answer": can_answer,
        "contested": any(r.verdict == VerbaleConfirmation.CONTESTED for r in rows),
        "is_segretario": user is not None and is_segretario(user),
    }


@register.simple_tag
def season_flagged_turni(season: Season | None) -> dict[str, list[Turno]]:
    """The season's contested turni and those waiting for the players' confirmation."""
    contested, waiting = flagged_turni(season)
    return {"contested": contested, "waiting": waiting}


@register.inclusion_tag("scoring/confirm/_live_pending.html")
def close_pending_notice(turno: Turno) -> dict[str, Any]:
    """On the segretario's live screen: the turno waits for the players' confirmations."""
    pending = pending_close(turno) if turno.is_open else None
    confirmed = 0
    seats = 0
    if pending is not None:
        confirmed = VerbaleConfirmation.objects.filter(
            turno=turno, verdict=VerbaleConfirmation.CONFIRMED
        ).count()
        seats = Seat.objects.filter(turno=turno).count()
    return {"turno": turno, "pending": pending, "confirmed": confirmed, "seats": seats}
