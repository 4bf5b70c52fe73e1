"""Views: the members' page of a season kept by the records ledger (a member's season), called
by :mod:`scoring.views.public`. (The Verbale of a turno is one page for every game:
:func:`scoring.views.public.turno`.)
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.selectors_games import game_player
from scoring.tables import season_figure, sheet_cells

T = "scoring/games/"


# -- the members' pages of a generic season (called by scoring.views.public) ---------------------
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
