"""Views: the members' pages of a season kept by the records ledger (the Verbale of a turno, a
member's season), called by :mod:`scoring.views.public`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.selectors_games import (
    game_player,
    game_record,
    verbale_rows,
)
from scoring.tables import season_figure, sheet_cells
from scoring.views.entry_fields import turno_of

T = "scoring/games/"
_turno = turno_of  # the turno with what its Verbale reads


# -- the members' pages of a generic season (called by scoring.views.public) ---------------------
def turno_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The Verbale di Turno on screen: every smazzata as the system describes it, the points,
    the totals, the places and the system's figures, the reopenings with their reasons."""
    turno = _turno(pk)
    system, rules = turno.season.system, turno.season.game_rules
    turno.reopen_events = list(turno.events.filter(kind="reopen").select_related("user"))
    # the Verbale's read model, as the PDF and the workbook print it (the confirmations: the
    # block of the template tag, with the player's buttons)
    v = verbale_rows(turno, confirmations=False)
    ctx = {
        "turno": turno,
        "season": turno.season,
        "system": system,
        "players": v.players,
        "smazzate": v.rows,
        "totals": v.totals,
        "balance": v.balance,
        "sheet": v.sheet,
        "results": v.results,
        "columns": v.columns,
        "step": system.next_step(rules, game_record(turno)),
        "reopens": turno.reopen_events,
        "penalty_points": v.penalty_points,
    }
    return render(request, T + "turno.html", ctx)


def player_page(request: HttpRequest, member, season, ctx: dict[str, Any]) -> HttpResponse:
    """A member's season in a generic game: the standing row, every turno, and per game code
    (contract, close, game type) how often they chose it and their average points."""
    page = game_player(member, season)
    # the standing's figures as the Classifica writes them (not its movement)
    cells = sheet_cells(page.sheet, season_figure)
    mine = cells.rows.get(member.pk)
    ctx.update(
        system=season.system,
        standing=page.standing,
        figures=[(h[2], c[2]) for h, c in zip(cells.headers, mine, strict=True)][1:]
        if mine
        else [],
        seats=page.seats,
        games=page.games,
    )
    return render(request, T + "player.html", ctx)
