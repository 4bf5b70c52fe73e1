"""Views: the live screen of a turno kept by the generic ledger (every game system but C.A.F.).

The common frame (totals, dealer, the smazzate so far, undo and correction, close with the draw
for ties, reopen with a reason, the audit trail) is rendered here; the smazzata's own fields are
the ones the season's game system asks for (:meth:`LedgerSystem.entry_fields`), rendered from
their description. Thin: parse, call a service, render.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import formatting
from scoring.forms import PenalitaForm, ReopenForm
from scoring.models import Turno
from scoring.permissions import segretario_required
from scoring.problem_text import engine_text, localized, localized_all
from scoring.rules.numbers import typed_int_or_none
from scoring.rules.problems import Problem, RuleViolation
from scoring.selectors_games import (
    game_player,
    game_record,
    game_turni,
    takes_penalties,
    verbale_rows,
)
from scoring.services.confirmations import turno_close_request
from scoring.services.games import (
    game_penalita_add,
    game_penalita_remove,
    game_smazzata_correct,
    game_smazzata_record,
    game_smazzata_undo,
    game_turno_close,
    game_turno_reopen,
)
from scoring.services.turni import turno_delete
from scoring.views.confirm import CLOSE_REQUESTED

T = "scoring/games/"
# the parts of the one live screen (segreteria/_live.html) for a deal entered as declared fields
FIELDS_PARTS = {
    "entry": T + "_entry_fields.html",
    "close": T + "_close_fields.html",
    "results": T + "_results_fields.html",
    "rows": T + "_smazzate_fields.html",
}


# -- the entry form, from the system's description ----------------------------------------------
@dataclass
class Input:
    name: str
    label: str
    value: str = ""
    checked: bool = False
    kind: str = "number"
    min: int | None = None
    max: int | None = None
    error: bool = False


@dataclass
class Field:
    name: str
    kind: str
    label: str
    help: str = ""
    required: bool = False
    inputs: list[Input] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    echo: bool = False  # a live note next to the field, filled by the system's preview
    echo_text: str = ""
    check: dict[str, Any] | None = None  # the running check of a per_player field (FIELD_KINDS)

    @property
    def grouped(self) -> bool:
        return self.kind in ("choice", "multi", "per_player")

    @property
    def checks_json(self) -> str:
        return json.dumps(self.check["checks"] if self.check else {}, ensure_ascii=False)

    @property
    def skip_json(self) -> str:
        return json.dumps(self.check.get("skip", {}) if self.check else {}, ensure_ascii=False)


def _check(spec: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A field's running check with its units in the reader's language."""
    if not spec:
        return None
    checks = {v: {**c, "unit": engine_text(c["unit"])} for v, c in spec["checks"].items()}
    return {**spec, "checks": checks}


def build_fields(
    specs: Sequence[Mapping[str, Any]],
    data: Mapping[str, Any],
    problems: Sequence[Problem] = (),
) -> list[Field]:
    """The system's field descriptions with the values typed so far and the problems found."""
    fields = []
    for spec in specs:
        name, kind = spec["name"], spec["kind"]
        f = Field(
            name,
            kind,
            engine_text(spec["label"]),
            engine_text(spec.get("help", "")),
            spec.get("required", False),
        )
        f.echo = bool(spec.get("echo"))
        f.check = _check(spec.get("check"))
        if kind == "choice":
            chosen = str(data.get(name, ""))
            f.inputs = [
                Input(name, engine_text(label), str(value), chosen == str(value), "radio")
                for value, label in spec["choices"]
            ]
        elif kind == "multi":
            chosen = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
            f.inputs = [
                Input(name, engine_text(label), str(value), str(value) in chosen, "checkbox")
                for value, label in spec["choices"]
            ]
        elif kind == "per_player":
            f.inputs = [
                Input(
                    f"{name}-{i}",
                    p,
                    str(data.get(f"{name}-{i}", "")),
                    False,
                    "number",
                    spec.get("min"),
                    spec.get("max"),
                )
                for i, p in enumerate(spec["players"])
            ]
        elif kind == "bool":
            f.inputs = [Input(name, f.label, "1", bool(data.get(name)), "checkbox")]
        else:  # int
            f.inputs = [
                Input(
                    name,
                    f.label,
                    str(data.get(name, "")),
                    False,
                    "number",
                    spec.get("min"),
                    spec.get("max"),
                )
            ]
        for problem in problems:
            if problem.field == name:
                f.errors.append(problem.message)
                for inp in f.inputs:
                    if problem.player is None or inp.label == problem.player:
                        inp.error = True
        fields.append(f)
    return fields


# -- the state of the screen --------------------------------------------------------------------
def _turno(pk: int) -> Turno:
    turno = game_turni(Turno.objects.filter(pk=pk)).first()
    if turno is None:
        raise Http404("turno inesistente")
    return turno


def _live_url(pk: int) -> str:
    return reverse("scoring:turno_live", args=[pk])


# -- the smazzata's value as the segretario types it (never stored) ----------------------------
FORM_KEYS = frozenset(("csrfmiddlewaretoken", "numero", "correggi", "risposte"))


def _typed(data: Mapping[str, Any]) -> bool:
    """Has anything of the smazzata been typed yet (beyond the form's own hidden fields)?"""
    return any(str(v or "").strip() for k, v in data.items() if k not in FORM_KEYS)


def _label_unless_said(label: str, message: str) -> str:
    """The field's label to put before a message, unless the message already names it."""
    return "" if label and message.startswith(label) else label


def smazzata_preview(
    system: Any,
    rules: Any,
    record: Mapping[str, Any],
    data: Mapping[str, Any],
    correcting: int | None = None,
) -> dict[str, Any] | None:
    """What the system's ``preview(rules, turno, data)`` says of the smazzata being typed, for the
    screen: its facts (value, won or lost...), the points of every player, the totals the list
    would have with it, the engine's problems with the field they belong to, and the notes shown
    next to fields (empty until something is typed). None when the system offers no preview."""
    if not system.has_preview:
        return None
    smazzate = list(record["smazzate"])
    head = {**record, "smazzate": smazzate[: correcting - 1] if correcting else smazzate}
    fields = system.entry_fields(rules, head)
    echo_fields = [f["name"] for f in fields if f.get("echo")]
    if not _typed(data):
        return {"facts": [], "points": [], "problems": [], "echo": {}, "echo_fields": echo_fields}
    result = system.preview(rules, head, data)
    players = record["players"]
    after = None
    if result["record"] is not None:
        if correcting:
            smazzate[correcting - 1] = result["record"]
        else:
            smazzate.append(result["record"])
        try:
            after = system.score_running(rules, {**record, "smazzate": smazzate})["totals"]
        except RuleViolation:  # a correction that later smazzate no longer fit: no totals
            after = None
    labels = {f["name"]: engine_text(f["label"]) for f in fields}
    points = result["points"]
    return {
        "facts": [(engine_text(label), engine_text(text)) for label, text in result["facts"]],
        "points": [
            {"name": p, "points": points.get(p), "after": after.get(p) if after else None}
            for p in players
        ]
        if points is not None
        else [],
        "problems": [
            {
                "label": _label_unless_said(labels.get(p.field or "", ""), p.message),
                "message": p.message,
            }
            for p in localized_all(result["problems"])
        ],
        "echo": {k: engine_text(v) for k, v in result["echo"].items()},
        "echo_fields": echo_fields,
    }


def _summary(
    problems: Sequence[Problem], entry: Sequence[Field] | None, number: int | None = None
) -> list[tuple[str, str]]:
    """Every problem of a rejected smazzata for the error summary, each with the id of the
    field it is about (the form itself for a problem of no field); the smazzata named when it
    is not ``number``, the one on the form."""
    names = _names(entry)
    out = []
    for p in problems:
        text = p.message
        if p.player and p.field not in names:
            text = f"{p.player}: {text}"
        if p.smazzata and p.smazzata != number:
            text = _("smazzata %(n)s: %(message)s") % {"n": p.smazzata, "message": text}
        out.append((text, f"campo-{p.field}" if p.field in names else "smazzata-form"))
    return out


def _render(
    request: HttpRequest,
    turno: Turno,
    *,
    data: Mapping[str, Any] | None = None,
    problems: Sequence[Problem] = (),
    draft: Mapping[str, Any] | None = None,
    correcting: int | None = None,
    reopen_form: ReopenForm | None = None,
    penalty_form: PenalitaForm | None = None,
    close_problems: Sequence[Problem] = (),
    status: int = 200,
) -> HttpResponse:
    """The live screen: the whole page, or for htmx the ``#live`` partial (status 200: htmx
    swaps no 4xx answer; the page without JavaScript keeps its 422)."""
    season = turno.season
    system, rules = season.system, season.game_rules
    problems, close_problems = localized_all(problems), localized_all(close_problems)
    record = game_record(turno)
    running = system.score_running(rules, record)
    head = record
    if correcting:
        head = {**record, "smazzate": record["smazzate"][: correcting - 1]}
    step = system.next_step(rules, head)
    notes = system.player_notes(rules, record)
    players = record["players"]
    entry = None
    preview = None
    if turno.is_open and (not step["complete"] or correcting):
        if data is None and correcting:
            data = system.entry_data(rules, head, record["smazzate"][correcting - 1])
        specs = system.entry_fields(rules, head, draft)
        entry = build_fields(specs, data or {}, problems)
        preview = smazzata_preview(system, rules, record, data or {}, correcting)
        for f in entry:
            f.echo_text = preview["echo"].get(f.name, "") if preview else ""
    # a rejected smazzata: every problem in the summary above the form, which takes the focus
    rejected = entry is not None and data is not None and bool(problems)
    ties = system.ties(rules, record) if turno.is_open and step["complete"] else []
    smazzate = [
        {
            "number": s["number"],
            "dealer": s["dealer"],
            "line": engine_text(system.describe(s)),
            "points": list(zip(players, [s["points"].get(p) for p in players], strict=True)),
        }
        for s in running["smazzate"]
    ]
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    deals_total = system.deals_total(rules, len(players))
    general = (
        [] if rejected else [p for p in problems if not p.field or p.field not in _names(entry)]
    )
    context = {
        "turno": turno,
        "system": system,
        "parts": FIELDS_PARTS,
        "is_open": turno.is_open,
        "verbale_number": turno.verbale_number,
        "first_dealer": turno.first_dealer.name,
        "players": players,
        "totals": [
            {
                "name": p,
                "seat": i + 1,
                "total": running["totals"].get(p, 0),
                "note": engine_text(notes.get(p, "")),
                "dealer": turno.is_open and not step["complete"] and p == step["dealer"],
            }
            for i, p in enumerate(players)
        ],
        "step": step,
        "played": len(smazzate),
        "deals_total": deals_total,
        "smazzate_total": deals_total,
        "now_number": step["number"],
        "now_dealer": step["dealer"],
        "complete": step["complete"],
        "calling_order": [],
        "calling": [],
        "balance": running.get("balance"),
        "smazzate": smazzate,
        "last_number": smazzate[-1]["number"] if smazzate else None,
        "entry_panel": entry,
        "entry": entry,
        "previews": system.has_preview,
        "preview": preview,
        "draft": draft is not None,
        "correcting": correcting,
        "summary": _summary(problems, entry, correcting or step["number"]) if rejected else [],
        "autofocus_entry": not rejected,
        "data_bound": data is not None,
        "errors": [text for text, _target in _summary(general, None)],
        "closable": turno.is_open and step["complete"] and not correcting,
        "ties": ties,
        "close_problems": close_problems,
        "results": sorted(seats, key=lambda s: s.place or 99) if not turno.is_open else [],
        "columns": system.turno_columns(),
        "reopen_form": reopen_form or ReopenForm(),
        "takes_penalties": takes_penalties(system),
        "penalty_list": [
            {
                "id": p.pk,
                "player": p.player.name,
                "points": p.points,
                "article": p.article,
                "reason": p.reason,
            }
            for p in turno.penalita.all()
        ],
        "penalty_form": penalty_form or PenalitaForm(players=players),
        "takes_sanctions": False,
        "deletable": turno.is_open and not record["smazzate"],
        "penalty_points": system.points_are_penalties,
    }
    if request.htmx:
        return render(request, "scoring/segreteria/_live.html", context)
    return render(request, "scoring/segreteria/live.html", context, status=status)


def _done(request: HttpRequest, pk: int) -> HttpResponse:
    """After a change: the fresh ``#live`` partial for htmx (its messages in it), a redirect
    to the live screen otherwise (PRG)."""
    if request.htmx:
        return _render(request, _turno(pk))
    return redirect(_live_url(pk))


def _names(entry: Sequence[Field] | None) -> set[str]:
    return {f.name for f in entry or ()}


def _correggi(data: Mapping[str, Any], played: int) -> int | None:
    """The smazzata to correct (``correggi``, a number typed in ASCII digits) among the ``played``
    ones; None when not asked. Anything else (a smazzata not recorded, ``999999``, twenty digits,
    ``²``) is no smazzata of this turno: 404, never an IndexError."""
    raw = str(data.get("correggi") or "").strip()
    if not raw:
        return None
    number = typed_int_or_none(raw)
    if number is None or not 1 <= number <= played:
        raise Http404("smazzata inesistente")
    return number


def _post_data(request: HttpRequest) -> dict[str, Any]:
    data: dict[str, Any] = {k: request.POST.get(k) for k in request.POST}
    for k in request.POST:
        if len(request.POST.getlist(k)) > 1:
            data[k] = request.POST.getlist(k)
    return data


# -- views --------------------------------------------------------------------------------------
@segretario_required
@require_GET
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    turno = _turno(pk)
    correcting = _correggi(request.GET, len(turno.smazzate.all()))
    return _render(request, turno, correcting=correcting if turno.is_open else None)


@segretario_required
@require_GET
def game_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """The form of deal ``?numero=k`` (the last by default) filled in as recorded: saving it
    replaces the deal and checks and scores every later one again (as C.A.F.'s correction)."""
    turno = _turno(pk)
    played = len(turno.smazzate.all())
    if not turno.is_open or not played:
        if not turno.is_open:
            messages.error(request, _("Il turno è chiuso: per correggerlo va riaperto."))
        else:
            messages.error(request, _("Non ci sono smazzate da correggere."))
        return redirect(_live_url(pk))
    number = typed_int_or_none(request.GET.get("numero"))
    if number is None or not 1 <= number <= played:
        number = played
    return _render(request, turno, correcting=number)


@segretario_required
@require_POST
def game_smazzata(request: HttpRequest, pk: int) -> HttpResponse:
    """Record (or, with ``correggi``, replace) a smazzata; the system's questions first."""
    turno = _turno(pk)
    system, rules = turno.season.system, turno.season.game_rules
    data = request.POST
    record = game_record(turno)
    correcting = _correggi(data, len(record["smazzate"]))
    head = (
        record if not correcting else {**record, "smazzate": record["smazzate"][: correcting - 1]}
    )
    try:
        parsed = system.parse_entry(rules, head, _post_data(request))
        questions = system.questions(rules, head, parsed)
        if questions and data.get("risposte") != "1":
            # e.g. "rientra?": ask before anything is stored, with the typed values kept
            return _render(request, turno, data=data, draft=parsed, correcting=correcting)
        if correcting:
            game_smazzata_correct(turno=pk, number=correcting, record=parsed, user=request.user)
            messages.success(request, _("Smazzata %(n)s corretta.") % {"n": correcting})
        else:
            number = typed_int_or_none(data.get("numero"))
            sm = game_smazzata_record(turno=pk, record=parsed, number=number, user=request.user)
            messages.success(request, _("Smazzata %(n)s registrata.") % {"n": sm.number})
    except RuleViolation as exc:
        if any(p.code == "SMAZZATA_ALREADY_RECORDED" for p in exc.problems):
            for p in exc.problems:
                messages.error(request, localized(p).message)
            return _done(request, pk)
        fresh = _turno(pk)
        draft = None
        if data.get("risposte") == "1":
            try:
                draft = system.parse_entry(rules, head, _post_data(request))
            except RuleViolation:
                draft = None
        return _render(
            request,
            fresh,
            data=data,
            problems=exc.problems,
            draft=draft,
            correcting=correcting,
            status=422,
        )
    return _done(request, pk)


@segretario_required
@require_POST
def game_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The smazzata's value as it is typed (htmx, from the live screen's form): a small partial,
    never a write. Invalid input shows the engine's messages, with status 200."""
    turno = _turno(pk)
    system, rules = turno.season.system, turno.season.game_rules
    record = game_record(turno)
    data = _post_data(request)
    correcting = _correggi(request.POST, len(record["smazzate"]))
    preview = None
    if turno.is_open and (correcting or not system.next_step(rules, record)["complete"]):
        preview = smazzata_preview(system, rules, record, data, correcting)
    return render(request, T + "_preview.html", {"preview": preview, "oob": True})


@segretario_required
@require_POST
def game_undo(request: HttpRequest, pk: int) -> HttpResponse:
    turno = _turno(pk)
    number = typed_int_or_none(request.POST.get("number") or request.POST.get("numero"))
    try:
        done = game_smazzata_undo(turno=turno, number=number, user=request.user)
    except RuleViolation as exc:
        return _render(request, _turno(pk), problems=exc.problems, status=422)
    messages.success(request, _("Smazzata %(n)s annullata.") % {"n": done})
    return _done(request, pk)


@segretario_required
@require_POST
def game_close(request: HttpRequest, pk: int) -> HttpResponse:
    turno = _turno(pk)
    order = [request.POST.get(f"spareggio-{i}", "") for i in range(len(turno.seats.all()))]
    tiebreak = [name for name in order if name] or None
    try:
        if turno.season.confirmation_required:  # the close waits for the players
            turno_close_request(turno=turno, tiebreak=tiebreak, user=request.user)
            messages.success(request, CLOSE_REQUESTED())
            return redirect(_live_url(pk))
        closed = game_turno_close(turno=turno, tiebreak=tiebreak, user=request.user)
    except RuleViolation as exc:
        return _render(request, _turno(pk), close_problems=exc.problems, status=422)
    messages.success(
        request, _("Turno chiuso: verbale n. %(number)s.") % {"number": closed.verbale_number}
    )
    return redirect(_live_url(pk))


@segretario_required
@require_POST
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a turno opened by mistake: open, no smazzata recorded (C.A.F.'s rules)."""
    turno = _turno(pk)
    label = formatting.turno_label(turno.date, turno.number)  # 20/11/2026 #1, not ISO
    try:
        turno_delete(turno=pk, user=request.user)
    except RuleViolation as exc:
        return _render(request, _turno(pk), problems=exc.problems, status=422)
    messages.success(request, _("Turno %(label)s eliminato.") % {"label": label})
    return redirect("scoring:segreteria")


@segretario_required
@require_POST
def game_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    turno = _turno(pk)
    form = ReopenForm(request.POST)
    if not form.is_valid():
        return _render(request, turno, reopen_form=form, status=422)
    try:
        game_turno_reopen(turno=turno, reason=form.cleaned_data["reason"], user=request.user)
    except RuleViolation as exc:
        return _render(request, _turno(pk), problems=exc.problems, status=422)
    messages.success(request, _("Turno riaperto: la motivazione è registrata nel verbale."))
    return redirect(_live_url(pk))


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


@segretario_required
@require_POST
def game_penalita(request: HttpRequest, pk: int) -> HttpResponse:
    turno = _turno(pk)
    if not takes_penalties(turno.season.system):
        # no penalità in this game's rules (Ramino): the screen offers no such form
        raise Http404("questo gioco non prevede penalità")
    form = PenalitaForm(request.POST, players=[s.player.name for s in turno.seats.all()])
    if not form.is_valid():
        return _render(request, turno, penalty_form=form, status=422)
    try:
        game_penalita_add(
            turno=turno,
            player=form.cleaned_data["player"],
            points=form.cleaned_data["points"],
            article=form.cleaned_data["article"],
            reason=form.cleaned_data.get("reason", ""),
            user=request.user,
        )
    except RuleViolation as exc:
        form.add_problems(exc.problems)
        return _render(request, _turno(pk), penalty_form=form, status=422)
    messages.success(request, _("Penalità registrata."))
    return _done(request, pk)


@segretario_required
@require_POST
def game_penalita_remove_view(request: HttpRequest, pk: int, penalita_pk: int) -> HttpResponse:
    turno = _turno(pk)
    if not turno.penalita.filter(pk=penalita_pk).exists():
        raise Http404("penalità inesistente")
    try:
        game_penalita_remove(penalita=penalita_pk, user=request.user)
    except RuleViolation as exc:
        return _render(request, _turno(pk), problems=exc.problems, status=422)
    messages.success(request, _("Penalità eliminata."))
    return _done(request, pk)


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
urlpatterns = [path(route, _moved(name), name=f"moved_{name}") for route, name in MOVED]
