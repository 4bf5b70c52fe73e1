"""Template tags of the Verbale countersigned: the confirmations block of a Verbale and the
contested turni of a season (segreteria dashboard, Classifica footnote). Each renders a read model
of :mod:`scoring.selectors_confirmations`."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.permissions import is_segretario
from scoring.selectors_confirmations import (
    close_notice,
    confirmation_block,
    flagged_turni,
)

register = template.Library()


@register.inclusion_tag("scoring/confirm/_block.html", takes_context=True)
def verbale_confirmations(context: dict[str, Any], turno: Any) -> dict[str, Any]:
    """Who confirmed or contested the Verbale, and the logged-in player's buttons."""
    request = context.get("request")
    user = getattr(request, "user", None)
    block = confirmation_block(turno, user)
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "turno": turno,
        "pending": block.pending,
        "seats": block.seats,
        "confirmed": block.confirmed,
        "rows": block.rows,
        "mine": block.mine,
        "can_answer": block.can_answer,
        "contested": block.contested,
        "is_segretario": user is not None and is_segretario(user),
    }


@register.simple_tag
def season_flagged_turni(season: Any) -> dict[str, list[Any]]:
    """The season's contested turni and those waiting for the players' confirmation."""
    contested, waiting = flagged_turni(season)
    return {"contested": contested, "waiting": waiting}


@register.inclusion_tag("scoring/confirm/_live_pending.html")
def close_pending_notice(turno: Any) -> dict[str, Any]:
    """On the segretario's live screen: the turno waits for the players' confirmations."""
    pending, confirmed, seats = close_notice(turno)
    return {"turno": turno, "pending": pending, "confirmed": confirmed, "seats": seats}
