"""Views: the segretario's screens (dashboard, new turno, the live turno screen of every game).

Thin views: parse the form, call :mod:`scoring.api` (or a service), render. Every change is a POST
that redirects (PRG) or, for htmx, returns the ``#live`` partial; a refusal (an engine
:class:`RuleViolation`) is shown next to the fields it names, nothing is saved, and the page
without JavaScript answers 422. One view per action serves the six games: what differs is how a
deal is entered, which the season's game system declares (``BaseSystem.entry_form``: the calls
of :mod:`.entry_calls` or the declared fields of :mod:`.entry_fields`), and what it has
(``takes_penalties``, ``takes_sanctions``, ``giornata_chained``...): an action a game lacks is
a 404.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import api, formatting
from scoring.audit import turno_history
from scoring.forms import (
    PenalitaForm,
    ReopenForm,
    SanctionForm,
    TurnoStartForm,
)
from scoring.models import Penalita, Sanction, Season, Seat, Smazzata, Turno
from scoring.permissions import segretario_required
from scoring.problem_text import localized
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import GameSystem, get_system
from scoring.selectors import current_season
from scoring.services.confirmations import turno_close_request
from scoring.services.preview import close_preview, is_backdated
from scoring.views import entry_calls, entry_fields
from scoring.views.confirm import CLOSE_REQUESTED
from scoring.views.entry import deal_number
from scoring.views.entry_fields import correggi

T = "scoring/segreteria/"


# -- helpers -------------------------------------------------------------------------------------
def _label(turno: Turno) -> str:
    """The turno as a message names it: ``20/11/2026 #1``."""
    return formatting.turno_label(turno.date, turno.number)


def _live_url(pk: int) -> str:
    return reverse("scoring:turno_live", args=[pk])


def _messages_of(exc: RuleViolation) -> list[str]:
    return [localized(p).message for p in exc.problems]


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
            turno = api.turno_start(
                season=form.cleaned_data["season"],
                date=form.cleaned_data["date"],
                players=form.players,
                first_dealer=form.first_dealer,
                table=form.cleaned_data["table"].strip(),
                new_members=form.new_names,
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


# -- the live screen of every game ------------------------------------------------------------
#: how a game's deals are entered (``BaseSystem.entry_form``) -> the module that builds that form
ENTRY_FORMS: dict[str, ModuleType] = {"calls": entry_calls, "fields": entry_fields}


def _system(pk: int) -> GameSystem:
    """The game system of turno ``pk``'s season (404 for no such turno)."""
    code = Turno.objects.filter(pk=pk).values_list("season__ruleset_code", flat=True).first()
    if code is None:
        raise Http404("turno inesistente")
    return get_system(code)


def _screen(
    request: HttpRequest,
    pk: int,
    *,
    status: int = 200,
    system: GameSystem | None = None,
    errors: Sequence[str] = (),
    close_errors: Sequence[str] = (),
    close_preview: Any = None,
    reopen_form: ReopenForm | None = None,
    penalty_form: PenalitaForm | None = None,
    sanction_form: SanctionForm | None = None,
    **entry: Any,
) -> HttpResponse:
    """The live screen of turno ``pk``, whatever its game: the whole page (``status``: 422 after
    a refusal), or for htmx the ``#live`` partial (200: htmx swaps no 4xx answer). ``entry``
    goes to the context of the game's deal form (its bound form, the deal being corrected...);
    the rest is the frame every game shares."""
    system = system or _system(pk)
    context = ENTRY_FORMS[system.entry_form].context(request, pk, **entry)
    players = context["players"]
    errors = [*context.get("errors", ()), *errors]
    if close_errors and not context["closable"]:  # no close section to show them in
        errors, close_errors = [*errors, *close_errors], ()
    context.update(
        system=system,
        errors=errors,
        close_errors=close_errors,
        close_preview=close_preview,
        reopen_form=reopen_form or ReopenForm(),
        takes_penalties=system.takes_penalties,
        penalty_form=penalty_form or PenalitaForm(players=players),
        takes_sanctions=system.takes_sanctions,
        sanction_form=sanction_form or SanctionForm(players=players),
        penalty_points=system.points_are_penalties,
    )
    if request.htmx:
        return render(request, T + "_live.html", context)
    return render(request, T + "live.html", context, status=status)


def _refused(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
    """The live screen after a refused change: what was refused shown, 422 without htmx."""
    return _screen(request, pk, status=422, **kwargs)


def _done(request: HttpRequest, pk: int) -> HttpResponse:
    """After a successful change: the fresh #live partial for htmx, a redirect otherwise."""
    if request.htmx:
        return _screen(request, pk)
    return redirect(_live_url(pk))


# -- the live screen -----------------------------------------------------------------------------
@segretario_required
@require_GET
def turno_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live screen; ``?correggi=k``: with deal ``k`` of the open turno on the form."""
    system = _system(pk)
    correcting = None
    if request.GET.get("correggi"):
        turno = Turno.objects.get(pk=pk)
        correcting = correggi(request.GET, turno.smazzate.count())
        correcting = correcting if turno.is_open else None
    return _screen(request, pk, system=system, correcting=correcting)


def _turno(pk: int) -> Turno:
    """The turno with its season (404 for no such turno)."""
    return get_object_or_404(Turno.objects.select_related("season"), pk=pk)


def _save(request: HttpRequest, turno: Turno, correcting: int | None) -> HttpResponse:
    """Record the posted deal, or with ``correcting`` replace that one, through the ledger."""
    pk, system = turno.pk, turno.season.system
    entry = ENTRY_FORMS[system.entry_form]
    if not turno.is_open:
        closed = _("il turno %(label)s è chiuso: per modificarlo va riaperto")
        return _refused(request, pk, system=system, errors=[closed % {"label": _label(turno)}])
    reading = entry.read(request, turno, correcting)
    if reading.record is None:  # a form with errors (422), or the deal's questions (200)
        status = 200 if reading.asked else 422
        return _screen(request, pk, status=status, system=system, **reading.screen)
    try:
        if correcting:
            sm = api.smazzata_correct(
                turno=turno, number=correcting, record=reading.record, user=request.user
            )
        else:
            sm = api.smazzata_record(
                turno=turno, record=reading.record, number=reading.number, user=request.user
            )
    except RuleViolation as exc:
        if any(p.code == "SMAZZATA_ALREADY_RECORDED" for p in exc.problems):
            for m in _messages_of(exc):  # another segretario was quicker: the turno as it is
                messages.error(request, m)
            return _done(request, pk)
        if not Turno.objects.filter(pk=pk, status=Turno.IN_CORSO).exists():
            return _refused(request, pk, system=system, errors=_messages_of(exc))
        screen = entry.rejected(request, pk, reading, exc.problems)
        return _refused(request, pk, system=system, **screen)
    if correcting:
        messages.success(request, _("Smazzata %(number)s corretta.") % {"number": sm.number})
    else:
        messages.success(request, entry.recorded(sm, reading))
    if request.htmx:
        return _screen(request, pk, system=system, **entry.after(sm))
    return redirect(_live_url(pk))


@segretario_required
@require_POST
def turno_smazzata(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the next deal (with ``correggi=k``: replace deal ``k``)."""
    turno = _turno(pk)
    correcting = None
    if request.POST.get("correggi"):
        correcting = correggi(request.POST, turno.smazzate.count())
    return _save(request, turno, correcting)


@segretario_required
@require_http_methods(["GET", "POST"])
def turno_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct any deal of an open turno (``?numero=k``, the last by default): the form filled
    in as recorded; saving replaces it and checks and scores every later one again."""
    turno = _turno(pk)
    played = turno.smazzate.count()
    if not turno.is_open or not played:
        if not turno.is_open:
            messages.error(request, _("Il turno è chiuso: per correggerlo va riaperto."))
        else:
            messages.error(request, _("Non ci sono smazzate da correggere."))
        return redirect(_live_url(pk))
    data = request.GET if request.method == "GET" else request.POST
    asked = data.get("numero") or data.get("correggi") or data.get("number")
    try:
        number = deal_number(asked, played) or played  # the last one when none is asked
    except RuleViolation as exc:  # nothing corrected: the live screen says why
        for m in _messages_of(exc):
            messages.error(request, m)
        return redirect(_live_url(pk))
    if request.method == "GET":
        return _screen(request, pk, system=turno.season.system, correcting=number)
    return _save(request, turno, number)


def _form_view(request: HttpRequest, pk: int, part: Callable[[ModuleType], Any]) -> HttpResponse:
    """A partial view of the deal's form, where the game's form has one; a 404 where not."""
    answer = part(ENTRY_FORMS[_system(pk).entry_form])
    if answer is None:
        raise Http404("non per questo gioco")
    return answer(request, pk, _screen)


@segretario_required
@require_GET
def turno_smazzata_form(request: HttpRequest, pk: int) -> HttpResponse:
    """The deal's fields refreshed for the choices made (C.A.F.'s chiamante and game)."""
    return _form_view(request, pk, lambda entry: entry.refresh)


@segretario_required
@require_POST
def turno_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The deal's value as it is typed (the systems with ``has_preview``)."""
    return _form_view(request, pk, lambda entry: entry.preview)


@segretario_required
@require_POST
def turno_undo(request: HttpRequest, pk: int) -> HttpResponse:
    _system(pk)  # 404 for an unknown turno
    raw = request.POST.get("number") or request.POST.get("numero")
    played = Smazzata.objects.filter(turno_id=pk).count()
    try:
        # the deal meant, read as every deal number is; with none played the ledger says so
        number = deal_number(raw, played) if played else None
        done = api.smazzata_undo(turno=pk, number=number, user=request.user)
    except RuleViolation as exc:
        return _refused(request, pk, errors=_messages_of(exc))
    messages.success(request, _("Smazzata %(number)s annullata.") % {"number": done})
    return _done(request, pk)


# -- penalità and retrocessione per contatore ------------------------------------------------
def _having(pk: int, has: Callable[[GameSystem], bool]) -> GameSystem:
    """The turno's game system if ``has`` it (its ``takes_penalties``...); a 404 for an action
    the game lacks (its screen offers no such form)."""
    system = _system(pk)
    if not has(system):
        raise Http404("non per questo gioco")
    return system


def _players(pk: int) -> list[str]:
    seats = Seat.objects.filter(turno_id=pk).order_by("position")
    return list(seats.values_list("player__name", flat=True))


def _form_action(request, pk, form, form_name: str, action, success) -> HttpResponse:
    """A small form of the live screen: valid → the write; a RuleViolation re-renders the
    screen with the problems on the form (and as messages when the turno is closed)."""
    if not form.is_valid():
        return _refused(request, pk, **{form_name: form})
    try:
        action(form.cleaned_data)
    except RuleViolation as exc:
        form.add_problems(exc.problems)
        closed = not Turno.objects.filter(pk=pk, status=Turno.IN_CORSO).exists()
        errors = _messages_of(exc) if closed else ()
        return _refused(request, pk, errors=errors, **{form_name: form})
    messages.success(request, success(form.cleaned_data))
    return _done(request, pk)


@segretario_required
@require_POST
def turno_penalita_add(request: HttpRequest, pk: int) -> HttpResponse:
    _having(pk, lambda s: s.takes_penalties)
    return _form_action(
        request,
        pk,
        PenalitaForm(request.POST, players=_players(pk)),
        "penalty_form",
        lambda d: api.penalita_add(
            turno=pk,
            player=d["player"],
            points=d["points"],
            article=d["article"],
            reason=d["reason"],
            user=request.user,
        ),
        lambda d: (
            ngettext(
                "Penalità di %(points)s punto a %(player)s registrata.",
                "Penalità di %(points)s punti a %(player)s registrata.",
                abs(d["points"]),
            )
            % {"points": formatting.points(d["points"]), "player": d["player"]}
        ),
    )


@segretario_required
@require_POST
def turno_penalita_remove(request: HttpRequest, pk: int, penalita_pk: int) -> HttpResponse:
    _having(pk, lambda s: s.takes_penalties)
    pen = get_object_or_404(Penalita.objects.select_related("player"), pk=penalita_pk, turno_id=pk)
    try:
        api.penalita_remove(penalita=pen.pk, user=request.user)
    except RuleViolation as exc:
        return _refused(request, pk, errors=_messages_of(exc))
    messages.success(
        request,
        ngettext(
            "Penalità di %(points)s punto a %(player)s eliminata.",
            "Penalità di %(points)s punti a %(player)s eliminata.",
            abs(pen.points),
        )
        % {"points": formatting.points(pen.points), "player": pen.player.name},
    )
    return _done(request, pk)


@segretario_required
@require_POST
def turno_sanction_add(request: HttpRequest, pk: int) -> HttpResponse:
    _having(pk, lambda s: s.takes_sanctions)
    return _form_action(
        request,
        pk,
        SanctionForm(request.POST, players=_players(pk)),
        "sanction_form",
        lambda d: api.sanction_add(
            turno=pk, player=d["player"], reason=d["reason"], user=request.user
        ),
        lambda d: (
            _("Retrocessione per contatore registrata per %(player)s.") % {"player": d["player"]}
        ),
    )


@segretario_required
@require_POST
def turno_sanction_remove(request: HttpRequest, pk: int, sanction_pk: int) -> HttpResponse:
    _having(pk, lambda s: s.takes_sanctions)
    sanction = get_object_or_404(
        Sanction.objects.select_related("player"), pk=sanction_pk, turno_id=pk
    )
    try:
        api.sanction_remove(sanction=sanction.pk, user=request.user)
    except RuleViolation as exc:
        return _refused(request, pk, errors=_messages_of(exc))
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
    system = _system(pk)
    tiebreak, form = ENTRY_FORMS[system.entry_form].close_input(request.POST, pk)
    turno = Turno.objects.select_related("season", "giornata").get(pk=pk)
    try:
        if (
            system.giornata_chained
            and turno.is_open
            and request.POST.get("conferma") != "1"
            and is_backdated(turno.season_id, turno.giornata.date)
        ):
            # a back-dated turno replays the chain of giornate: show what changes, close only
            # when confirmed
            preview = close_preview(turno=pk, tiebreak=tiebreak)
            return _screen(request, pk, system=system, close_form=form, close_preview=preview)
        if turno.season.confirmation_required:  # the close waits for the players
            turno_close_request(turno=pk, tiebreak=tiebreak, user=request.user)
            messages.success(request, CLOSE_REQUESTED())
            return redirect(_live_url(pk))
        closed = api.turno_close(turno=pk, tiebreak=tiebreak, user=request.user)
    except RuleViolation as exc:
        return _refused(request, pk, system=system, close_form=form, close_errors=_messages_of(exc))
    messages.success(
        request, _("Turno chiuso: verbale n. %(number)s.") % {"number": closed.verbale_number}
    )
    return redirect(_live_url(pk))


@segretario_required
@require_POST
def turno_reopen_view(request: HttpRequest, pk: int) -> HttpResponse:
    _system(pk)  # 404 for an unknown turno
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            api.turno_reopen(turno=pk, reason=form.cleaned_data["reason"], user=request.user)
        except RuleViolation as exc:
            if Turno.objects.filter(pk=pk, status=Turno.IN_CORSO).exists():
                return _refused(request, pk, errors=_messages_of(exc))  # no reopen form shown
            for problem in exc.problems:
                form.add_error(
                    "reason" if problem.field == "reason" else None, localized(problem).message
                )
            return _refused(request, pk, reopen_form=form)
        messages.success(request, _("Turno riaperto: la motivazione è registrata nel verbale."))
        return redirect(_live_url(pk))
    turno = Turno.objects.get(pk=pk)
    if turno.is_open:
        already = _("il turno %(label)s è già aperto") % {"label": _label(turno)}
        return _refused(request, pk, errors=[already])
    return _refused(request, pk, reopen_form=form)


@segretario_required
@require_POST
def turno_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    _system(pk)  # 404 for an unknown turno
    label = _label(Turno.objects.get(pk=pk))
    try:
        api.turno_delete(turno=pk, user=request.user)
    except RuleViolation as exc:
        return _refused(request, pk, errors=_messages_of(exc))
    messages.success(request, _("Turno %(label)s eliminato.") % {"label": label})
    return redirect("scoring:segreteria")


# -- the old addresses of the five games' screens (segreteria/partite/...) -----------------------
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
        return HttpResponsePermanentRedirect(_live_url(pk))

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


# -- one set of addresses for every game ----------------------------------------------------------
def _turno_path(route: str, view: Callable[..., HttpResponse], name: str) -> URLPattern:
    return path(f"segreteria/turni/<pk:pk>/{route}", view, name=name)


urlpatterns = [
    path("segreteria/", dashboard, name="segreteria"),
    path("segreteria/turni/nuovo/", turno_new, name="turno_new"),
    _turno_path("", turno_live, "turno_live"),
    _turno_path("smazzata/", turno_smazzata, "turno_smazzata"),
    _turno_path("storico/", turno_history_view, "turno_history"),
    _turno_path("smazzata/modulo/", turno_smazzata_form, "turno_smazzata_form"),
    _turno_path("anteprima/", turno_preview, "turno_preview"),
    _turno_path("correggi/", turno_correct, "turno_correct"),
    _turno_path("annulla/", turno_undo, "turno_undo"),
    _turno_path("penalita/", turno_penalita_add, "turno_penalita_add"),
    _turno_path(
        "penalita/<pk:penalita_pk>/elimina/", turno_penalita_remove, "turno_penalita_remove"
    ),
    _turno_path("retrocessione/", turno_sanction_add, "turno_sanction_add"),
    _turno_path(
        "retrocessione/<pk:sanction_pk>/elimina/", turno_sanction_remove, "turno_sanction_remove"
    ),
    _turno_path("chiudi/", turno_close_view, "turno_close"),
    _turno_path("riapri/", turno_reopen_view, "turno_reopen"),
    _turno_path("elimina/", turno_delete_view, "turno_delete"),
    *(path(route, _moved(name), name=f"moved_{name}") for route, name in MOVED),
]
