"""The deal's form of a game whose deals are called (``BaseSystem.entry_form == "calls"``, King
C.A.F.): the chiamante, the game, the trump and every player's count, offered as the engine's
:class:`~scoring.rules.caf.Progress` allows, with the running check beside the counts; and what the
live screen shows of such a turno (:func:`context`). The views are the one set of
:mod:`scoring.views.segreteria`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django_htmx.http import HttpResponseClientRefresh

from scoring.forms import SUIT_NAMES, CloseForm, SmazzataForm
from scoring.models import Smazzata, Turno
from scoring.problem_text import engine_text
from scoring.rules.caf import Progress
from scoring.rules.caf.ruleset import SUIT_SYMBOLS, SUITS
from scoring.rules.problems import Problem
from scoring.rules.systems import GameSystem
from scoring.selectors import TurnoState, turno_state, turno_state_of
from scoring.verbale import game_label, verbale
from scoring.views.entry import Reading, deal_asked, parts

T = "scoring/segreteria/"
# the parts of the one live screen (segreteria/_live.html) for a deal entered with this form
PARTS = parts(T, "_smazzata_form", "_close_calls", "_results_calls", "_smazzate_calls")


def state_of(pk: int) -> TurnoState:
    try:
        return turno_state(pk)
    except Turno.DoesNotExist:
        raise Http404("turno inesistente") from None


@dataclass(frozen=True)
class CallerChoice:
    name: str
    index: int
    games: tuple[str, ...]
    forced: bool
    checked: bool


@dataclass(frozen=True)
class GameChoice:
    code: str
    label: str
    name: str
    unit: str
    checked: bool


@dataclass(frozen=True)
class TrumpChoice:
    code: str
    symbol: str
    name: str
    checked: bool


@dataclass(frozen=True)
class CountRow:
    field: object  # BoundField
    player: str
    dealer: bool


@dataclass(frozen=True)
class CountCheck:
    """What the running check beside the counts needs, from the engine (the server judges)."""

    kind: str  # "sum": the counts add up to ``total``; "one_zero": exactly one player has 0
    total: int  # the sum the game needs, or the most cards a hand holds (Domino)
    unit: str


@dataclass(frozen=True)
class SmazzataPanel:
    """What the smazzata form shows, derived from the engine's Progress (legal choices only)."""

    form: SmazzataForm
    number: int
    total: int
    dealer: str | None
    callers: tuple[CallerChoice, ...]
    games: tuple[GameChoice, ...]
    caller: str
    game: str
    forced: bool | None  # None while no chiamante is chosen
    show_trump: bool
    trumps: tuple[TrumpChoice, ...]
    counts: tuple[CountRow, ...]
    unit: str
    expected_total: int | None
    check: CountCheck | None
    errors: tuple[tuple[str, str], ...]  # (message, id of the field it belongs to) for the summary
    correcting: bool
    action: str
    refresh_url: str
    autofocus: bool


def _error_summary(form: SmazzataForm) -> tuple[tuple[str, str], ...]:
    """Every problem of a rejected smazzata, each with the id of what it is about."""
    if not form.is_bound:
        return ()
    out = [(str(e), "smazzata-fields") for e in form.non_field_errors()]
    out += [(str(e), "caller-fieldset") for e in form["caller"].errors]
    out += [(str(e), "game-fieldset") for e in form["game"].errors]
    out += [(str(e), "trump-fieldset") for e in form["trump"].errors]
    out += [(str(e), "counts-fieldset") for e in form.count_errors]
    for i in range(len(form.players)):
        bf = form[form.count_name(i)]
        out += [(str(e), bf.auto_id) for e in bf.errors]
    return tuple(out)


def smazzata_panel(
    form: SmazzataForm,
    progress: Progress,
    *,
    system: GameSystem,
    turno_pk: int,
    correcting: bool,
    autofocus: bool = True,
) -> SmazzataPanel:
    rules = form.rules
    order = progress.calling_order()
    caller = form.value("caller")
    if caller not in order:
        caller = order[0] if len(order) == 1 and not form.is_bound else ""
    if caller:
        offered = progress.callable_games(caller)
    else:
        union = {g for p in order for g in progress.callable_games(p)}
        offered = tuple(g for g in rules.games if g in union)
    game = form.value("game")
    if game not in offered:
        game = offered[0] if len(offered) == 1 and not form.is_bound else ""
    trump = form.value("trump")
    rule = rules.games.get(game)
    show_trump = rule.trump if rule else any(rules.games[g].trump for g in offered)
    # the running check of the counts and their units: the system's data, as for every game
    spec = system.count_check(rules, {"games": list(rules.games)}, len(form.players))
    checks = spec["checks"] if spec else {}
    units = {g: engine_text(c["unit"]) for g, c in checks.items()}
    check = None
    if rule is not None and game in checks:
        check = CountCheck(checks[game]["kind"], checks[game]["total"], units[game])
    expected = check.total if check is not None else None
    counts = []
    for i, p in enumerate(form.players):
        bf = form[form.count_name(i)]
        attrs = bf.field.widget.attrs
        if expected is not None:
            attrs["max"] = expected
        else:
            attrs.pop("max", None)
        counts.append(CountRow(bf, p, p == progress.dealer))
    return SmazzataPanel(
        form=form,
        number=progress.number,
        total=progress.total,
        dealer=progress.dealer,
        callers=tuple(
            CallerChoice(p, i, progress.callable_games(p), progress.is_forced(p), p == caller)
            for i, p in enumerate(order)
        ),
        games=tuple(
            GameChoice(g, game_label(g), rules.games[g].name, units.get(g, ""), g == game)
            for g in offered
        ),
        caller=caller,
        game=game,
        forced=progress.is_forced(caller) if caller else None,
        show_trump=show_trump,
        trumps=tuple(
            TrumpChoice(s, SUIT_SYMBOLS[s], SUIT_NAMES[s], s == trump and show_trump) for s in SUITS
        ),
        counts=tuple(counts),
        unit=units.get(game, ""),
        expected_total=expected,
        check=check,
        errors=_error_summary(form),
        correcting=correcting,
        action=reverse(
            "scoring:turno_correct" if correcting else "scoring:turno_smazzata", args=[turno_pk]
        ),
        refresh_url=reverse("scoring:turno_smazzata_form", args=[turno_pk]),
        autofocus=autofocus,
    )


def progress_before(state: TurnoState, number: int) -> Progress:
    """The state of play before smazzata ``number`` (what its correction is checked against)."""
    record = state.record
    return Progress.after(
        state.turno.season.ruleset,
        record.players,
        record.first_dealer,
        ((s.game, s.caller) for s in record.smazzate[: number - 1]),
    )


def smazzata_form(
    state: TurnoState,
    data=None,
    *,
    correcting: int | None = None,
    initial: dict | None = None,
) -> SmazzataForm:
    """The smazzata form; ``correcting`` is the number of the smazzata being corrected."""
    if correcting and initial is None and data is None:
        sm = state.record.smazzate[correcting - 1]
        initial = {"game": sm.game, "caller": sm.caller, "trump": sm.trump or ""}
        for i, p in enumerate(state.record.players):
            initial[SmazzataForm.count_name(i)] = sm.result.get(p)
    number = correcting or state.progress.number
    initial = {**(initial or {}), "number": number}
    return SmazzataForm(
        data, rules=state.turno.season.ruleset, players=state.record.players, initial=initial
    )


def context(
    request: HttpRequest,
    pk: int,
    *,
    state: TurnoState | None = None,
    form: SmazzataForm | None = None,
    correcting: int | None = None,
    close_form: CloseForm | None = None,
) -> dict[str, Any]:
    """What the live screen shows of a turno whose deals are called (``state``: the turno as a
    service left it, not loaded again)."""
    state = state or state_of(pk)
    turno = state.turno
    record, score, progress = state.record, state.score, state.progress
    v = verbale(turno)
    players = record.players
    is_open = turno.is_open
    panel = None
    if is_open and correcting and correcting <= len(record.smazzate):
        form = form or smazzata_form(state, correcting=correcting)
        panel = smazzata_panel(
            form,
            progress_before(state, correcting),
            system=turno.season.system,
            turno_pk=turno.pk,
            correcting=True,
        )
    elif is_open and not progress.complete:
        form = form or smazzata_form(state)
        panel = smazzata_panel(
            form, progress, system=turno.season.system, turno_pk=turno.pk, correcting=False
        )
    if is_open and score.complete and close_form is None:
        close_form = CloseForm(tied=score.tied, totals=dict(score.totals), chosen=record.tiebreak)
    remaining = state.remaining_by_player()
    calling = [
        {
            "name": p,
            "now": games,
            "forced": forced,
            "remaining": remaining[p],
            "dealer": p == progress.dealer,
        }
        for p, games, forced in state.callable_by_player()
    ]
    penalty_by_player = dict(score.penalties)
    last_row = v.rows[-1] if v.rows else None
    return {
        "turno": turno,
        "parts": PARTS,
        "players": list(players),
        "state": state,
        "verbale": v,
        "is_open": is_open,
        "verbale_number": v.verbale_number,
        "first_dealer": v.first_dealer,
        "totals": [
            {
                "name": p,
                "total": score.totals.get(p, 0),
                "penalty": penalty_by_player.get(p, 0),
                "dealer": is_open and p == progress.dealer,
                "seat": i + 1,
            }
            for i, p in enumerate(players)
        ],
        "played": len(record.smazzate),
        "smazzate_total": progress.total,
        "progress": progress,
        "now_number": progress.number,
        "now_dealer": progress.dealer,
        "complete": progress.complete,
        "balance": None,
        "entry_panel": panel,
        "closable": is_open and score.complete and not (panel is not None and panel.correcting),
        "calling": calling,
        "calling_order": progress.calling_order(),
        "panel": panel,
        "correcting": panel is not None and panel.correcting,
        "grid": [(row, list(zip(v.players, row.cells, strict=True))) for row in v.rows],
        "last_row": last_row,
        "last_number": last_row.number if last_row else None,
        "penalty_list": v.penalties,
        "sanction_list": v.sanctions,
        "close_form": close_form,
        "deletable": is_open and not record.smazzate,
    }


# -- what the one set of views asks of this form (scoring.views.entry) -------------------------
def read(request: HttpRequest, turno: Turno, correcting: int | None) -> Reading:
    """The posted deal: the form needs only the rule set and the players (the whole turno is
    loaded by the ledger, locked, and on a problem again to show it)."""
    players = tuple(turno.seats.order_by("position").values_list("player__name", flat=True))
    form = SmazzataForm(request.POST, rules=turno.season.ruleset, players=players)
    if form.is_valid():
        record = {
            "game": form.cleaned_data["game"],
            "caller": form.cleaned_data["caller"],
            "trump": form.trump(),
            "result": form.counts(),
        }
        return Reading(record, form.cleaned_data.get("number"))
    state = state_of(turno.pk)
    form = smazzata_form(state, request.POST, correcting=correcting)
    form.is_valid()
    return Reading(screen={"state": state, "form": form, "correcting": correcting})


def rejected(
    request: HttpRequest, pk: int, reading: Reading, problems: Sequence[Problem]
) -> dict[str, Any]:
    state = state_of(pk)
    correcting = reading.screen.get("correcting")
    form = smazzata_form(state, request.POST, correcting=correcting)
    form.is_valid()
    form.add_problems(problems)
    return {"state": state, "form": form, "correcting": correcting}


def recorded(sm: Smazzata, reading: Reading) -> str:
    """The message after a new deal is recorded."""
    kind = (
        pgettext("segreteria", "obbligata") if sm.forced else pgettext("segreteria", "volontaria")
    )
    return _("Smazzata %(number)s registrata: %(game)s chiamata da %(caller)s (%(kind)s).") % {
        "number": sm.number,
        "game": game_label(sm.game),
        "caller": reading.record["caller"] if reading.record else "",
        "kind": kind,
    }


def after(sm: Smazzata) -> dict[str, Any]:
    """The turno as the ledger returned it: nothing to load again."""
    return {"state": turno_state_of(sm.turno)}


def close_input(data: Mapping[str, Any], pk: int) -> tuple[list[str] | None, CloseForm]:
    """The spareggio as the close form posts it (every select optional: the engine says what
    is missing), and the form to show again."""
    state = state_of(pk)
    form = CloseForm(
        data, tied=state.score.tied, totals=dict(state.score.totals), chosen=state.record.tiebreak
    )
    form.is_valid()
    return form.tiebreak(), form


def refresh(request: HttpRequest, pk: int, screen: Callable[..., HttpResponse]) -> HttpResponse:
    """The smazzata fields for the chosen chiamante/game (htmx refresh; plain GET works too)."""
    state = state_of(pk)
    correcting = None
    if request.GET.get("correggi"):  # the deal on the form (404 if it names none)
        asked = request.GET.get("number") or request.GET.get("correggi")
        correcting = deal_asked(asked, len(state.record.smazzate))
    if not state.turno.is_open or (state.progress.complete and not correcting):
        if request.htmx:  # never swap a whole page into the fields: reload it instead
            return HttpResponseClientRefresh()
        return redirect(reverse("scoring:turno_live", args=[pk]))
    keys = ["caller", "game", "trump"] + [
        SmazzataForm.count_name(i) for i in range(len(state.record.players))
    ]
    initial = {k: request.GET.get(k, "") for k in keys}
    form = smazzata_form(state, correcting=correcting, initial=initial)
    if not request.htmx:  # the no-JS "Aggiorna" button: the whole page, the choices kept
        return screen(request, pk, state=state, form=form, correcting=correcting)
    progress = progress_before(state, correcting) if correcting else state.progress
    panel = smazzata_panel(
        form,
        progress,
        system=state.turno.season.system,
        turno_pk=pk,
        correcting=bool(correcting),
        autofocus=False,
    )
    return render(request, T + "_smazzata_fields.html", {"panel": panel})


preview = None  # no preview of a called deal as it is typed
