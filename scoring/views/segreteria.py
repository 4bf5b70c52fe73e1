"""Views: the segretario's screens (dashboard, new turno, the live turno screen).

Thin views: parse the form, call a service or a selector, render. Every change is a POST that
redirects (PRG) or, for htmx, returns the ``#live`` partial; an engine :class:`RuleViolation` is
shown next to the fields it names, and nothing is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib import messages
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from scoring import formatting
from scoring.audit import turno_history
from scoring.forms import (
    SUIT_NAMES,
    CloseForm,
    PenalitaForm,
    ReopenForm,
    SanctionForm,
    SmazzataForm,
    TurnoStartForm,
    count_unit,
)
from scoring.models import Penalita, Player, Sanction, Season, Turno
from scoring.permissions import segretario_required
from scoring.problem_text import localized
from scoring.rules.caf import Progress
from scoring.rules.caf.ruleset import COUNT_CARDS_LEFT, SUIT_SYMBOLS, SUITS
from scoring.rules.numbers import typed_int_or_none
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system
from scoring.selectors import (
    TurnoState,
    current_season,
    turno_state,
    turno_state_of,
)
from scoring.services.confirmations import turno_close_request
from scoring.services.preview import ClosePreview, close_preview, is_backdated
from scoring.services.turni import (
    penalita_add,
    penalita_remove,
    sanction_add,
    sanction_remove,
    smazzata_correct,
    smazzata_record,
    smazzata_undo,
    turno_close,
    turno_delete,
    turno_reopen,
    turno_start,
)
from scoring.verbale import game_label, verbale
from scoring.views import games
from scoring.views.confirm import CLOSE_REQUESTED

T = "scoring/segreteria/"
# the parts of the one live screen (segreteria/_live.html) for a deal entered with C.A.F.'s form
CALLS_PARTS = {
    "entry": T + "_smazzata_form.html",
    "close": T + "_close_calls.html",
    "results": T + "_results_calls.html",
    "rows": T + "_smazzate_calls.html",
}


# -- helpers -------------------------------------------------------------------------------------
def _label(turno: Turno) -> str:
    """The turno as a message names it: ``20/11/2026 #1``."""
    return formatting.turno_label(turno.date, turno.number)


def _state(pk: int) -> TurnoState:
    try:
        return turno_state(pk)
    except Turno.DoesNotExist:
        raise Http404("turno inesistente") from None


def _live_url(pk: int) -> str:
    return reverse("scoring:turno_live", args=[pk])


def _messages_of(exc: RuleViolation) -> list[str]:
    return [localized(p).message for p in exc.problems]


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


def _smazzata_panel(
    form: SmazzataForm,
    progress: Progress,
    *,
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
    expected = check = None
    if rule is not None:
        deck = rules.deck(len(form.players))
        expected = deck.count_of(rule.counts)
        check = (
            CountCheck("one_zero", deck.hand, count_unit(rules, game))
            if rule.counts == COUNT_CARDS_LEFT
            else CountCheck("sum", expected, count_unit(rules, game))
        )
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
            GameChoice(g, game_label(g), rules.games[g].name, count_unit(rules, g), g == game)
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
        unit=count_unit(rules, game) if game else "",
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


def _progress_before(state: TurnoState, number: int) -> Progress:
    """The state of play before smazzata ``number`` (what its correction is checked against)."""
    record = state.record
    return Progress.after(
        state.turno.season.ruleset,
        record.players,
        record.first_dealer,
        ((s.game, s.caller) for s in record.smazzate[: number - 1]),
    )


def _correction_number(state: TurnoState, raw: str | None) -> int:
    """The smazzata to correct, as asked (``?numero=k``); the last one otherwise."""
    played = len(state.record.smazzate)
    number = typed_int_or_none(raw)  # None when empty, "²", "٢", "1_1", text
    return number if number is not None and 1 <= number <= played else played


def _smazzata_form(
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


def _live_context(
    request: HttpRequest,
    state: TurnoState,
    *,
    form: SmazzataForm | None = None,
    correcting: int | None = None,
    penalty_form: PenalitaForm | None = None,
    sanction_form: SanctionForm | None = None,
    close_form: CloseForm | None = None,
    close_errors: Sequence[str] = (),
    reopen_form: ReopenForm | None = None,
    errors: Sequence[str] = (),
    close_preview: ClosePreview | None = None,
) -> dict:
    turno = state.turno
    record, score, progress = state.record, state.score, state.progress
    v = verbale(turno)
    players = record.players
    is_open = turno.is_open
    panel = None
    if is_open and correcting and correcting <= len(record.smazzate):
        form = form or _smazzata_form(state, correcting=correcting)
        panel = _smazzata_panel(
            form, _progress_before(state, correcting), turno_pk=turno.pk, correcting=True
        )
    elif is_open and not progress.complete:
        form = form or _smazzata_form(state)
        panel = _smazzata_panel(form, progress, turno_pk=turno.pk, correcting=False)
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
    system = turno.season.system
    last_row = v.rows[-1] if v.rows else None
    return {
        "turno": turno,
        "system": system,
        "parts": CALLS_PARTS,
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
        "takes_penalties": system.takes_penalties,
        "penalty_list": v.penalties,
        "takes_sanctions": system.takes_sanctions,
        "penalty_points": system.points_are_penalties,
        "sanction_list": v.sanctions,
        "penalty_form": penalty_form or PenalitaForm(players=players),
        "sanction_form": sanction_form or SanctionForm(players=players),
        "close_form": close_form,
        "close_errors": close_errors,
        "close_preview": close_preview,
        "reopen_form": reopen_form or ReopenForm(),
        "errors": errors,
        "deletable": is_open and not record.smazzate,
    }


def _render_live(request: HttpRequest, state: TurnoState, **kwargs) -> HttpResponse:
    context = _live_context(request, state, **kwargs)
    template = "_live.html" if request.htmx else "live.html"
    return render(request, T + template, context)


def _done(request: HttpRequest, pk: int) -> HttpResponse:
    """After a successful change: the fresh #live partial for htmx, a redirect otherwise."""
    if request.htmx:
        return _render_live(request, _state(pk))
    return redirect(_live_url(pk))


# -- dashboard -----------------------------------------------------------------------------------
@segretario_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    seasons = list(Season.objects.all())
    season = None
    chosen = request.GET.get("stagione", "")
    # compared as text: int() fails on some isdigit() strings ("²", thousands of digits)
    season = next((s for s in seasons if str(s.pk) == chosen), None)
    season = season or current_season()
    open_turni, closed_turni = [], []
    if season is not None:
        system, rules = season.system, season.game_rules
        base = (
            Turno.objects.filter(season=season)
            .select_related("giornata", "winner")
            .annotate(
                n_smazzate=Count("smazzate", distinct=True),
                n_seats=Count("seats", distinct=True),
            )
        )
        for t in base.filter(status=Turno.IN_CORSO).order_by("-giornata__date", "number"):
            total = system.deals_total(rules, t.n_seats)  # None: the game ends on its own
            open_turni.append({"turno": t, "played": t.n_smazzate, "total": total})
        closed_turni = list(
            base.filter(status=Turno.CHIUSO).order_by("-closed_at", "-giornata__date")[:10]
        )
    others_open = (
        Turno.objects.filter(status=Turno.IN_CORSO)
        .exclude(season=season)
        .select_related("giornata", "season")
        .order_by("-giornata__date")
        if season is not None
        else Turno.objects.none()
    )
    return render(
        request,
        T + "dashboard.html",
        {
            "seasons": seasons,
            "season": season,
            "open_turni": open_turni,
            "closed_turni": closed_turni,
            "others_open": list(others_open),
        },
    )


# -- start a turno -------------------------------------------------------------------------------
@segretario_required
@require_http_methods(["GET", "POST"])
def turno_new(request: HttpRequest) -> HttpResponse:
    form = TurnoStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # new members are created only if the turno starts
                for name in form.new_names:
                    Player.objects.get_or_create(name=name)
                turno = turno_start(
                    season=form.cleaned_data["season"],
                    date=form.cleaned_data["date"],
                    players=form.players,
                    first_dealer=form.first_dealer,
                    table=form.cleaned_data["table"].strip(),
                    user=request.user,
                )
        except RuleViolation as exc:
            form.add_problems(exc.problems)
        else:
            messages.success(
                request,
                _("Turno %(label)s iniziato: mazziere %(dealer)s.")
                % {"label": _label(turno), "dealer": form.first_dealer},
            )
            return redirect(_live_url(turno.pk))
    return render(request, T + "turno_new.html", {"form": form})


# -- the live screen -----------------------------------------------------------------------------
@segretario_required
@require_GET
def turno_live(request: HttpRequest, pk: int) -> HttpResponse:
    return _render_live(request, _state(pk))


@segretario_required
@require_GET
def turno_history_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Who did what to a turno and when (any game): the table alone for the live screen's
    trail, opened with htmx, or a page of its own."""
    turno = get_object_or_404(Turno, pk=pk)
    context = {"turno": turno, "history": turno_history(turno)}
    if request.htmx:
        return render(request, "scoring/includes/_audit_table.html", context)
    return render(request, T + "history.html", context)


@segretario_required
@require_GET
def turno_smazzata_form(request: HttpRequest, pk: int) -> HttpResponse:
    """The smazzata fields for the chosen chiamante/game (htmx refresh; plain GET works too)."""
    state = _state(pk)
    correcting = None
    if request.GET.get("correggi") == "1" and state.record.smazzate:
        correcting = _correction_number(state, request.GET.get("number"))
    if not state.turno.is_open or (state.progress.complete and not correcting):
        if request.htmx:  # never swap a whole page into the fields: reload it instead
            return HttpResponseClientRefresh()
        return redirect(_live_url(pk))
    keys = ["caller", "game", "trump"] + [
        SmazzataForm.count_name(i) for i in range(len(state.record.players))
    ]
    initial = {k: request.GET.get(k, "") for k in keys}
    form = _smazzata_form(state, correcting=correcting, initial=initial)
    progress = _progress_before(state, correcting) if correcting else state.progress
    if not request.htmx:  # the no-JS "Aggiorna" button: the whole page, the choices kept
        return _render_live(request, state, form=form, correcting=correcting)
    panel = _smazzata_panel(
        form, progress, turno_pk=pk, correcting=bool(correcting), autofocus=False
    )
    return render(request, T + "_smazzata_fields.html", {"panel": panel})


@segretario_required
@require_POST
def turno_smazzata(request: HttpRequest, pk: int) -> HttpResponse:
    # the form needs only the rule set and the players: the whole turno is loaded by the
    # service (locked) and, on a problem, again here to show it
    turno = get_object_or_404(Turno.objects.select_related("season"), pk=pk)
    players = tuple(turno.seats.order_by("position").values_list("player__name", flat=True))
    form = SmazzataForm(request.POST, rules=turno.season.ruleset, players=players)
    if form.is_valid():
        try:
            sm = smazzata_record(
                turno=pk,
                game=form.cleaned_data["game"],
                caller=form.cleaned_data["caller"],
                counts=form.counts(),
                trump=form.trump(),
                number=form.cleaned_data.get("number"),
                user=request.user,
            )
        except RuleViolation as exc:
            fresh = _state(pk)
            codes = {p.code for p in exc.problems}
            if not fresh.turno.is_open:
                return _render_live(request, fresh, errors=_messages_of(exc))
            if "SMAZZATA_ALREADY_RECORDED" in codes:
                for m in _messages_of(exc):
                    messages.error(request, m)
                return _done(request, pk)
            form = _smazzata_form(fresh, request.POST)
            form.is_valid()
            form.add_problems(exc.problems)
            return _render_live(request, fresh, form=form)
        kind = (
            pgettext("segreteria", "obbligata")
            if sm.forced
            else pgettext("segreteria", "volontaria")
        )
        messages.success(
            request,
            _("Smazzata %(number)s registrata: %(game)s chiamata da %(caller)s (%(kind)s).")
            % {
                "number": sm.number,
                "game": game_label(sm.game),
                "caller": form.cleaned_data["caller"],
                "kind": kind,
            },
        )
        if request.htmx:  # the turno as the service left it: nothing to load again
            return _render_live(request, turno_state_of(sm.turno))
        return redirect(_live_url(pk))
    state = _state(pk)
    form = _smazzata_form(state, request.POST)
    form.is_valid()
    if not state.turno.is_open:
        return _render_live(
            request,
            state,
            errors=[
                _("il turno %(label)s è chiuso: per modificarlo va riaperto")
                % {"label": _label(state.turno)}
            ],
        )
    return _render_live(request, state, form=form)


@segretario_required
@require_http_methods(["GET", "POST"])
def turno_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct any smazzata of an open turno (``?numero=k``, the last by default): the form
    prefilled with it; saving re-checks and re-scores it and every later one at once."""
    state = _state(pk)
    if not state.turno.is_open or not state.record.smazzate:
        if not state.turno.is_open:
            messages.error(request, _("Il turno è chiuso: per correggerlo va riaperto."))
        else:
            messages.error(request, _("Non ci sono smazzate da correggere."))
        return redirect(_live_url(pk))
    if request.method == "GET":
        number = _correction_number(state, request.GET.get("numero"))
        return _render_live(request, state, correcting=number)
    number = _correction_number(state, request.POST.get("number"))
    form = _smazzata_form(state, request.POST, correcting=number)
    if form.is_valid():
        try:
            sm = smazzata_correct(
                turno=pk,
                number=form.cleaned_data.get("number") or number,
                game=form.cleaned_data["game"],
                caller=form.cleaned_data["caller"],
                counts=form.counts(),
                trump=form.trump(),
                user=request.user,
            )
        except RuleViolation as exc:
            form.add_problems(exc.problems)
        else:
            messages.success(request, _("Smazzata %(number)s corretta.") % {"number": sm.number})
            return _done(request, pk)
    fresh = _state(pk)
    if not fresh.turno.is_open:
        return _render_live(request, fresh, errors=[str(e) for e in form.non_field_errors()])
    return _render_live(
        request, fresh, form=form, correcting=_correction_number(fresh, str(number))
    )


@segretario_required
@require_POST
def turno_undo(request: HttpRequest, pk: int) -> HttpResponse:
    _state(pk)  # 404 for an unknown turno
    raw = request.POST.get("number", "")
    # a smazzata's number in ASCII digits; anything else ("²", "٢", thousands of digits) is none
    number = typed_int_or_none(raw) if raw.strip() else None
    if raw.strip() and number is None:
        number = 0
    try:
        done = smazzata_undo(turno=pk, number=number, user=request.user)
    except RuleViolation as exc:
        for m in _messages_of(exc):
            messages.error(request, m)
    else:
        messages.success(request, _("Smazzata %(number)s annullata.") % {"number": done})
    return _done(request, pk)


# -- penalità and retrocessione per contatore ------------------------------------------------
def _form_action(request, pk, state, form, form_name: str, action, success) -> HttpResponse:
    """A small form of the live screen: valid → the service; a RuleViolation re-renders the
    screen with the problems on the form (and as messages when the turno is closed)."""
    if not form.is_valid():
        return _render_live(request, state, **{form_name: form})
    try:
        action(form.cleaned_data)
    except RuleViolation as exc:
        form.add_problems(exc.problems)
        fresh = _state(pk)
        errors = _messages_of(exc) if not fresh.turno.is_open else ()
        return _render_live(request, fresh, errors=errors, **{form_name: form})
    messages.success(request, success(form.cleaned_data))
    return _done(request, pk)


@segretario_required
@require_POST
def turno_penalita_add(request: HttpRequest, pk: int) -> HttpResponse:
    state = _state(pk)
    return _form_action(
        request,
        pk,
        state,
        PenalitaForm(request.POST, players=state.record.players),
        "penalty_form",
        lambda d: penalita_add(
            turno=pk,
            player=d["player"],
            points=d["points"],
            article=d["article"],
            reason=d["reason"],
            user=request.user,
        ),
        lambda d: (
            _("Penalità di %(points)s punti a %(player)s registrata.")
            % {"points": d["points"], "player": d["player"]}
        ),
    )


@segretario_required
@require_POST
def turno_penalita_remove(request: HttpRequest, pk: int, penalita_pk: int) -> HttpResponse:
    pen = get_object_or_404(Penalita.objects.select_related("player"), pk=penalita_pk, turno_id=pk)
    try:
        penalita_remove(penalita=pen.pk, user=request.user)
    except RuleViolation as exc:
        return _render_live(request, _state(pk), errors=_messages_of(exc))
    messages.success(
        request,
        _("Penalità di %(points)s punti a %(player)s eliminata.")
        % {"points": pen.points, "player": pen.player.name},
    )
    return _done(request, pk)


@segretario_required
@require_POST
def turno_sanction_add(request: HttpRequest, pk: int) -> HttpResponse:
    state = _state(pk)
    return _form_action(
        request,
        pk,
        state,
        SanctionForm(request.POST, players=state.record.players),
        "sanction_form",
        lambda d: sanction_add(turno=pk, player=d["player"], reason=d["reason"], user=request.user),
        lambda d: (
            _("Retrocessione per contatore registrata per %(player)s.") % {"player": d["player"]}
        ),
    )


@segretario_required
@require_POST
def turno_sanction_remove(request: HttpRequest, pk: int, sanction_pk: int) -> HttpResponse:
    sanction = get_object_or_404(
        Sanction.objects.select_related("player"), pk=sanction_pk, turno_id=pk
    )
    try:
        sanction_remove(sanction=sanction.pk, user=request.user)
    except RuleViolation as exc:
        return _render_live(request, _state(pk), errors=_messages_of(exc))
    messages.success(
        request,
        _("Retrocessione per contatore di %(player)s eliminata.")
        % {"player": sanction.player.name},
    )
    return _done(request, pk)


# -- close, reopen, delete -----------------------------------------------------------------------
@segretario_required
@require_POST
def turno_close_view(request: HttpRequest, pk: int) -> HttpResponse:
    state = _state(pk)
    form = CloseForm(
        request.POST,
        tied=state.score.tied,
        totals=dict(state.score.totals),
        chosen=state.record.tiebreak,
    )
    form.is_valid()  # every select is optional: the engine says what is missing
    try:
        if request.POST.get("conferma") != "1" and is_backdated(
            state.turno.season_id, state.turno.giornata.date
        ):
            # a back-dated turno replays the season: show what changes, close only when confirmed
            preview = close_preview(turno=pk, tiebreak=form.tiebreak())
            return _render_live(request, state, close_form=form, close_preview=preview)
        if state.turno.season.confirmation_required:  # the close waits for the players
            turno_close_request(turno=pk, tiebreak=form.tiebreak(), user=request.user)
            messages.success(request, CLOSE_REQUESTED())
            return redirect(_live_url(pk))
        turno = turno_close(turno=pk, tiebreak=form.tiebreak(), user=request.user)
    except RuleViolation as exc:
        fresh = _state(pk)
        if not fresh.turno.is_open or not fresh.score.complete:  # no close section to show
            return _render_live(request, fresh, errors=_messages_of(exc))
        return _render_live(request, fresh, close_form=form, close_errors=_messages_of(exc))
    messages.success(
        request, _("Turno chiuso: verbale n. %(number)s.") % {"number": turno.verbale_number}
    )
    return redirect(_live_url(pk))


@segretario_required
@require_POST
def turno_reopen_view(request: HttpRequest, pk: int) -> HttpResponse:
    state = _state(pk)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            turno_reopen(turno=pk, reason=form.cleaned_data["reason"], user=request.user)
        except RuleViolation as exc:
            fresh = _state(pk)
            if fresh.turno.is_open:  # already reopened: no reopen form to show
                return _render_live(request, fresh, errors=_messages_of(exc))
            for problem in exc.problems:
                form.add_error(
                    "reason" if problem.field == "reason" else None, localized(problem).message
                )
            return _render_live(request, fresh, reopen_form=form)
        messages.success(request, _("Turno riaperto: la motivazione è registrata nel verbale."))
        return redirect(_live_url(pk))
    if state.turno.is_open:
        return _render_live(
            request,
            state,
            errors=[_("il turno %(label)s è già aperto") % {"label": _label(state.turno)}],
        )
    return _render_live(request, state, reopen_form=form)


@segretario_required
@require_POST
def turno_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    label = _label(_state(pk).turno)
    try:
        turno_delete(turno=pk, user=request.user)
    except RuleViolation as exc:
        return _render_live(request, _state(pk), errors=_messages_of(exc))
    messages.success(request, _("Turno %(label)s eliminato.") % {"label": label})
    return redirect("scoring:segreteria")


# -- one set of addresses for every game ----------------------------------------------------------
def _one_screen(
    calls: Callable[..., HttpResponse] | None, fields: Callable[..., HttpResponse] | None
) -> Callable[..., HttpResponse]:
    """One address of the live screen for every game: the season's game system says how a deal
    is entered (``entry_form``: "calls" for the chiamante and counts of C.A.F.'s own form,
    "fields" for the fields a system declares), and that decides which view answers; None
    where the game has no such thing (a 404)."""

    @segretario_required
    def view(request: HttpRequest, pk: int, **kwargs: object) -> HttpResponse:
        code = Turno.objects.filter(pk=pk).values_list("season__ruleset_code", flat=True).first()
        if code is None:
            raise Http404("turno inesistente")
        answer = {"calls": calls, "fields": fields}[get_system(code).entry_form]
        if answer is None:
            raise Http404("non per questo gioco")
        return answer(request, pk, **kwargs)

    return view


def _live_path(route: str, calls, fields, name: str) -> URLPattern:
    return path(f"segreteria/turni/<pk:pk>/{route}", _one_screen(calls, fields), name=name)


urlpatterns = [
    path("segreteria/", dashboard, name="segreteria"),
    path("segreteria/turni/nuovo/", turno_new, name="turno_new"),
    _live_path("", turno_live, games.game_live, "turno_live"),
    _live_path("smazzata/", turno_smazzata, games.game_smazzata, "turno_smazzata"),
    path("segreteria/turni/<pk:pk>/storico/", turno_history_view, name="turno_history"),
    _live_path("smazzata/modulo/", turno_smazzata_form, None, "turno_smazzata_form"),
    _live_path("anteprima/", None, games.game_preview, "turno_preview"),
    _live_path("correggi/", turno_correct, games.game_correct, "turno_correct"),
    _live_path("annulla/", turno_undo, games.game_undo, "turno_undo"),
    _live_path("penalita/", turno_penalita_add, games.game_penalita, "turno_penalita_add"),
    _live_path(
        "penalita/<pk:penalita_pk>/elimina/",
        turno_penalita_remove,
        games.game_penalita_remove_view,
        "turno_penalita_remove",
    ),
    _live_path("retrocessione/", turno_sanction_add, None, "turno_sanction_add"),
    _live_path(
        "retrocessione/<pk:sanction_pk>/elimina/",
        turno_sanction_remove,
        None,
        "turno_sanction_remove",
    ),
    _live_path("chiudi/", turno_close_view, games.game_close, "turno_close"),
    _live_path("riapri/", turno_reopen_view, games.game_reopen, "turno_reopen"),
    _live_path("elimina/", turno_delete_view, games.game_delete, "turno_delete"),
]
