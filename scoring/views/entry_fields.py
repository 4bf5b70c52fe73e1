"""The deal's form of a game whose deals are the fields its system declares
(``BaseSystem.entry_form == "fields"``: :meth:`LedgerSystem.entry_fields`), rendered from their
description, with the system's preview of the deal as it is typed and its questions (a
re-entry); and what the live screen shows of such a turno (:func:`context`). The views are the
one set of :mod:`scoring.views.segreteria`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.models import Smazzata, Turno
from scoring.problem_text import engine_text, localized_all
from scoring.rules.numbers import typed_int_or_none
from scoring.rules.problems import Problem, RuleViolation
from scoring.selectors_games import game_record, game_turni
from scoring.views.entry import Reading, deal_asked, parts

T = "scoring/games/"
# the parts of the one live screen (segreteria/_live.html) for a deal entered as declared fields
PARTS = parts(T, "_entry_fields", "_close_fields", "_results_fields", "_smazzate_fields")


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


def turno_of(pk: int) -> Turno:
    turno = game_turni(Turno.objects.filter(pk=pk)).first()
    if turno is None:
        raise Http404("turno inesistente")
    return turno


def close_input(data: Mapping[str, Any], pk: int) -> tuple[list[str] | None, None]:
    """The draw for ties as the close form posts it (``spareggio-<i>``, best first)."""
    seats = Turno.objects.get(pk=pk).seats.count()
    order = [data.get(f"spareggio-{i}", "") for i in range(seats)]
    return [name for name in order if name] or None, None


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
    smazzate = list(record["smazzate"])  # with the typed deal, for the totals after it
    head = _head(record, correcting)
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


def context(
    request: HttpRequest,
    pk: int,
    *,
    data: Mapping[str, Any] | None = None,
    problems: Sequence[Problem] = (),
    draft: Mapping[str, Any] | None = None,
    correcting: int | None = None,
    close_form: None = None,
) -> dict[str, Any]:
    """What the live screen shows of a turno whose deals are the system's declared fields: the
    form with what was typed (``data``), the ``problems`` of a rejected deal beside their fields
    and in the summary, the questions of a ``draft``, deal ``correcting`` on the form."""
    turno = turno_of(pk)
    season = turno.season
    system, rules = season.system, season.game_rules
    problems = localized_all(problems)
    record = game_record(turno)
    running = system.score_running(rules, record)
    head = _head(record, correcting)
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
    return {
        "turno": turno,
        "parts": PARTS,
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
        "results": sorted(seats, key=lambda s: s.place or 99) if not turno.is_open else [],
        "columns": system.turno_columns(),
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
        "deletable": turno.is_open and not record["smazzate"],
    }


def _names(entry: Sequence[Field] | None) -> set[str]:
    return {f.name for f in entry or ()}


def correggi(data: Mapping[str, Any], played: int) -> int | None:
    """The smazzata to correct (``correggi``) among the ``played`` ones; None when not asked.
    Anything else (a smazzata not recorded, ``999999``, twenty digits, ``²``) is no smazzata of
    this turno: 404, never an IndexError (:func:`~scoring.views.entry.deal_asked`)."""
    return deal_asked(data.get("correggi"), played)


def post_data(request: HttpRequest) -> dict[str, Any]:
    data: dict[str, Any] = {k: request.POST.get(k) for k in request.POST}
    for k in request.POST:
        if len(request.POST.getlist(k)) > 1:
            data[k] = request.POST.getlist(k)
    return data


# -- what the one set of views asks of this form (scoring.views.entry) -------------------------
def _head(record: Mapping[str, Any], correcting: int | None) -> Mapping[str, Any]:
    """The turno before the deal on the form (the one being corrected, or the next)."""
    return {**record, "smazzate": record["smazzate"][: correcting - 1]} if correcting else record


def read(request: HttpRequest, turno: Turno, correcting: int | None) -> Reading:
    """The posted deal as the system parses it; the questions it raises (e.g. "rientra?") are
    asked before anything is stored, with the typed values kept."""
    turno = turno_of(turno.pk)
    system, rules = turno.season.system, turno.season.game_rules
    head = _head(game_record(turno), correcting)
    data = request.POST
    form = {"data": data, "correcting": correcting}
    try:
        parsed = system.parse_entry(rules, head, post_data(request))
    except RuleViolation as exc:
        return Reading(screen={**form, "problems": exc.problems})
    if data.get("risposte") != "1" and system.questions(rules, head, parsed):
        return Reading(screen={**form, "draft": parsed}, asked=True)
    return Reading(parsed, typed_int_or_none(data.get("numero")), form)


def rejected(
    request: HttpRequest, pk: int, reading: Reading, problems: Sequence[Problem]
) -> dict[str, Any]:
    answered = request.POST.get("risposte") == "1"  # the questions stay on the form
    return {**reading.screen, "problems": problems, "draft": reading.record if answered else None}


def recorded(sm: Smazzata, reading: Reading) -> str:
    """The message after a new deal is recorded."""
    return _("Smazzata %(n)s registrata.") % {"n": sm.number}


def after(sm: Smazzata) -> dict[str, Any]:
    return {}


refresh = None  # the declared fields need no refresh of the form


def preview(request: HttpRequest, pk: int, screen: Callable[..., HttpResponse]) -> HttpResponse:
    """The deal's value as it is typed (htmx, from the live screen's form): a small partial,
    never a write. Invalid input shows the engine's messages, with status 200."""
    turno = turno_of(pk)
    system, rules = turno.season.system, turno.season.game_rules
    record = game_record(turno)
    correcting = correggi(request.POST, len(record["smazzate"]))
    shown = None
    if turno.is_open and (correcting or not system.next_step(rules, record)["complete"]):
        shown = smazzata_preview(system, rules, record, post_data(request), correcting)
    return render(request, T + "_preview.html", {"preview": shown, "oob": True})
