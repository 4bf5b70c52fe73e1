"""Views: the members' pages of a season kept by the records ledger (the Verbale of a turno, a
member's season), and the old addresses of the live screen (``segreteria/partite/``), which
moved to the one set of every game (:mod:`scoring.views.segreteria`).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import path, reverse

from scoring.models import Turno
from scoring.selectors_games import (
    game_player,
    game_record,
    verbale_rows,
)
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
    ctx.update(
        system=season.system,
        standing=page.standing,
        standing_values=page.standing_values,
        seats=page.seats,
        games=page.games,
    )
    return render(request, T + "player.html", ctx)


# -- the old addresses of these screens (segreteria/partite/...): one set for every game now ------
def _moved(name: str) -> Any:
    """The old address of an action of the live screen: a POST goes on to the same action of the
    one set with its body (308, a stale page's form still works), a GET or HEAD to the live
    screen of the turno (301)."""

    def view(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
        if not Turno.objects.filter(pk=pk).exists():  # no turno: nothing moved (404)
            raise Http404("turno inesistente")
        if request.method == "POST":
            moved = HttpResponsePermanentRedirect(
                reverse(f"scoring:{name}", args=[pk, *kwargs.values()])
            )
            moved.status_code = 308  # permanent, and the method and body stay
            return moved
        return HttpResponsePermanentRedirect(reverse("scoring:turno_live", args=[pk]))

    return view


MOVED = (
    ("segreteria/partite/<pk:pk>/penalita/", "turno_penalita_add"),
    ("segreteria/partite/<pk:pk>/penalita/<pk:penalita_pk>/elimina/", "turno_penalita_remove"),
    ("segreteria/partite/<pk:pk>/smazzata/", "turno_smazzata"),
    ("segreteria/partite/<pk:pk>/anteprima/", "turno_preview"),
    ("segreteria/partite/<pk:pk>/annulla/", "turno_undo"),
    ("segreteria/partite/<pk:pk>/chiudi/", "turno_close"),
    ("segreteria/partite/<pk:pk>/riapri/", "turno_reopen"),
    ("segreteria/partite/<pk:pk>/elimina/", "turno_delete"),
)
urlpatterns = [path(route, _moved(name), name=f"moved_{name}") for route, name in MOVED]
