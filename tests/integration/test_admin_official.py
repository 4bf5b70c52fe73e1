"""The admin cannot go around the engine (issue 12, item 3).

As the superuser, every admin page of every model of the ledger is opened and every form is
sent back: as rendered, with each of its fields changed in turn, with each of the model's fields
changed in turn (whether the form shows it or not), the delete confirmation, the bulk delete
action and the history's revert. Each request runs in a savepoint rolled back afterwards; none
may answer 500 and none may change the official record: the ledger's tables and their history.
What the admin may still change goes through the services (the roster, the rule set with an
explicit recompute) and leaves the season equal to a replay by the engine.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.db import models, transaction
from django.test import Client
from django.urls import NoReverseMatch, reverse

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Penalita,
    Player,
    Result,
    Season,
    SeasonEvent,
    Seat,
    Smazzata,
    Standing,
    TitleAward,
    Turno,
    TurnoEvent,
)
from scoring.services.season import season_recompute
from scoring.services.turni import turno_close, turno_reopen
from tests.conftest import database_writes, kept_for_the_scope
from tests.helpers import every_model_world

pytestmark = pytest.mark.django_db

SCORING_MODELS = [
    m
    for m in apps.get_app_config("scoring").get_models()
    if not m.__name__.startswith("Historical")
]
# members and seasons: what the admin may still edit (names, accounts, the current season)
NOT_OFFICIAL = {Player, Season}
OFFICIAL = [m for m in SCORING_MODELS if m not in NOT_OFFICIAL]
HISTORY = [m for m in apps.get_app_config("scoring").get_models() if m.__name__.startswith("Hist")]


def official_dump() -> list[Any]:
    """Every row of the official record and its history, and each season's rule set."""
    rows: list[Any] = [
        list(Season.objects.order_by("pk").values_list("pk", "ruleset_code", "rules"))
    ]
    for model in [*OFFICIAL, *HISTORY]:
        rows.append((model.__name__, list(model.objects.order_by("pk").values())))
    return rows


def replay_differences(season: Season) -> list[str]:
    """What a full replay of the season by the engine would change in what is stored."""

    def computed() -> dict[str, list]:
        return {
            "standings": sorted(
                Standing.objects.filter(season=season).values_list(
                    "player_id",
                    "place",
                    "previous_place",
                    "score",
                    "series",
                    "previous_series",
                    "turni",
                    "absences",
                    "scudetti",
                    "streak",
                )
            ),
            "absences": sorted(
                Absence.objects.filter(season=season).values_list(
                    "giornata_id", "player_id", "league_points"
                )
            ),
            "titles": sorted(
                TitleAward.objects.filter(season=season).values_list(
                    "seat_id", "player_id", "code", "value"
                )
            ),
            "seats": sorted(
                Seat.objects.filter(turno__season=season).values_list(
                    "pk",
                    "total",
                    "penalty_total",
                    "place",
                    "ratio",
                    "series_before",
                    "series_after",
                    "league_points",
                )
            ),
            "giornate": sorted(Giornata.objects.filter(season=season).values_list("pk", "lowest")),
        }

    with transaction.atomic():
        stored = computed()
        season_recompute(season=season)
        replayed = computed()
        transaction.set_rollback(True)
    return [k for k in stored if stored[k] != replayed[k]]


# -- the data ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The world and its superuser, built once for the module (tests/conftest.py,
    kept_for_the_scope): every test sees them, each in a savepoint rolled back after it; the
    stored Verbale's file is copied into each test's own MEDIA_ROOT (``world``)."""
    from django.contrib.auth.models import User
    from django.test.utils import override_settings

    media = tmp_path_factory.mktemp("media-world")
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=str(media)):
            admin = User.objects.create_user(
                username="admin", password="pw-kingclub-1", is_superuser=True, is_staff=True
            )
            built = _build_world(admin)
        yield built, admin, media


@pytest.fixture
def admin_user(db, _world):
    """The module's superuser (the world's turni were reopened and closed by them)."""
    return _world[1]


@pytest.fixture
def world(db, _world, settings) -> dict[str, Any]:
    shutil.copytree(_world[2], settings.MEDIA_ROOT, dirs_exist_ok=True)
    return _world[0]


def _build_world(admin_user) -> dict[str, Any]:
    """every_model_world, its replay checked."""
    built = every_model_world(admin_user)
    assert replay_differences(built["season"]) == []
    return built


@pytest.fixture
def admin_client(admin_user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(admin_user)
    return client


# -- reading the admin's forms -----------------------------------------------------------------
@dataclass
class Field:
    name: str
    kind: str  # text, checkbox, select, textarea, hidden
    value: str
    options: list[str] = field(default_factory=list)


class FormReader(HTMLParser):
    """The fields of the page's main form (the admin's ``<model>_form`` or the delete
    confirmation), in document order, as a browser would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.fields: list[Field] = []
        self.select: Field | None = None
        self.textarea: Field | None = None
        self.found = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            main = a.get("id", "").endswith("_form") or (
                not self.found
                and a.get("method", "").lower() == "post"
                and "logout" not in a.get("action", "")
            )
            if main and not self.found:
                self.depth, self.found = 1, True
            elif self.depth:
                self.depth += 1
            return
        if not self.depth or "name" not in a:
            if tag == "option" and self.select is not None:
                self._option(a)
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio"):
                self.fields.append(
                    Field(a["name"], kind, a.get("value", "on") if "checked" in a else "")
                )
                self.fields[-1].options = [a.get("value", "on")]
            else:
                self.fields.append(
                    Field(a["name"], "hidden" if kind == "hidden" else "text", a.get("value", ""))
                )
        elif tag == "select":
            self.select = Field(a["name"], "select", "")
            self.fields.append(self.select)
        elif tag == "textarea":
            self.textarea = Field(a["name"], "textarea", "")
            self.fields.append(self.textarea)
        elif tag == "option" and self.select is not None:
            self._option(a)

    def _option(self, a: dict[str, str]) -> None:
        assert self.select is not None
        self.select.options.append(a.get("value", ""))
        if "selected" in a:
            self.select.value = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.depth:
            self.depth -= 1
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea.value += data


def read_form(html: str) -> list[Field]:
    reader = FormReader()
    reader.feed(html)
    return reader.fields


def as_data(fields: list[Field]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields:
        if f.kind in ("checkbox", "radio") and not f.value:
            continue
        data.setdefault(f.name, []).append(f.value)
    return data


def changed(value: str) -> str:
    """Another plausible value for a field: a number moved, a text edited."""
    try:
        return str(int(value) + 13)
    except ValueError:
        pass
    try:
        return str(-float(value) - 1)
    except ValueError:
        return (value + " modificato") if value else "13"


def mutations(fields: list[Field]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The form with one field changed at a time."""
    for i, f in enumerate(fields):
        if f.kind == "hidden" or f.name == "csrfmiddlewaretoken":
            continue
        if f.kind in ("checkbox", "radio"):
            new = "" if f.value else f.options[0]
        elif f.kind == "select":
            others = [o for o in f.options if o != f.value]
            if not others:
                continue
            new = others[-1]
        else:
            new = changed(f.value)
        yield f.name, as_data([*fields[:i], Field(f.name, f.kind, new), *fields[i + 1 :]])


def model_mutations(obj: models.Model) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every editable field of the row changed in turn, sent whether the form shows it or not."""
    base: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.primary_key or not f.editable:
            continue
        value = f.value_from_object(obj)
        base[f.name] = "" if value is None else str(value)
    for name, value in base.items():
        yield f"model:{name}", {**base, name: changed(value)}


# -- the walk ------------------------------------------------------------------------------------
def _admin_url(model: type[models.Model], view: str, *args: Any) -> str | None:
    try:
        return reverse(f"admin:scoring_{model._meta.model_name}_{view}", args=args)
    except NoReverseMatch:
        return None


@dataclass
class Walk:
    client: Client
    season: Season
    failures: list[str] = field(default_factory=list)
    requests: int = 0
    # the official record before every request (each one is rolled back): dumped once
    before: list[Any] = field(default_factory=official_dump)

    def send(self, label: str, url: str, data: dict[str, Any] | None = None) -> str:
        """GET (``data`` None) or POST in a savepoint rolled back: no 500, and the official
        record unchanged, or changed only as the services change it."""
        self.requests += 1
        before = self.before
        with transaction.atomic():
            writes = database_writes()
            response = self.client.get(url) if data is None else self.client.post(url, data)
            # no row written (most requests): the record is what it was, no need to dump it
            wrote = writes is None or database_writes() != writes
            after = official_dump() if wrote else before
            replay = replay_differences(self.season) if after != before else []
            transaction.set_rollback(True)
        if response.status_code >= 500:
            self.failures.append(f"{label} {url}: {response.status_code}")
        elif after != before and (
            label.split()[0] not in SERVICE_EDITS or replay or _facts(after) != _facts(before)
        ):
            changed_tables = [b[0] for b, a in zip(before[1:], after[1:], strict=True) if a != b]
            self.failures.append(f"{label} {url}: the official record changed {changed_tables}")
        return response.content.decode(errors="replace") if response.status_code == 200 else ""


# the admin pages whose changes go through a service (roster, rule set): the season must then
# still equal its replay, and nothing the segretario recorded may change
SERVICE_EDITS = {"Enrollment", "Season"}
FACTS = {"Turno", "Seat", "Smazzata", "Result", "Penalita", "Sanction", "TurnoEvent"}


def _facts(dump: list[Any]) -> list[Any]:
    keep = {"player_id", "turno_id", "smazzata_id", "points", "record", "reason", "kind"}
    out = []
    for name, rows in dump[1:]:
        if name in FACTS:
            out.append(
                (name, [{k: v for k, v in r.items() if k in keep or k == "id"} for r in rows])
            )
    return out


def walk_model(walk: Walk, model: type[models.Model], obj: models.Model | None) -> None:
    name = model.__name__
    changelist = _admin_url(model, "changelist")
    assert changelist is not None, f"{name} is not in the admin"
    walk.send(f"{name} changelist", changelist)
    add = _admin_url(model, "add")
    html = walk.send(f"{name} add", add)
    fields = read_form(html) if html else []
    walk.send(f"{name} add as shown", add, as_data(fields))
    for label, data in mutations(fields):
        walk.send(f"{name} add {label}", add, data)
    if obj is None:
        return
    change = _admin_url(model, "change", obj.pk)
    html = walk.send(f"{name} change", change)
    fields = read_form(html) if html else []
    walk.send(f"{name} change as shown", change, as_data(fields))
    for label, data in [*mutations(fields), *model_mutations(obj)]:
        walk.send(f"{name} change {label}", change, {**as_data(fields), **data})
    delete = _admin_url(model, "delete", obj.pk)
    walk.send(f"{name} delete", delete)
    walk.send(f"{name} delete confirmed", delete, {"post": "yes"})
    walk.send(
        f"{name} delete_selected",
        changelist,
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    walk.send(f"{name} history", _admin_url(model, "history", obj.pk))
    historical = getattr(model, "history", None)
    if historical is not None:
        version = historical.filter(id=obj.pk).order_by("history_id").first()
        if version is not None:
            revert = _admin_url(model, "simple_history", obj.pk, version.history_id)
            assert revert is not None
            html = walk.send(f"{name} version", revert)
            walk.send(f"{name} revert", revert, as_data(read_form(html)) if html else {})
            for label, data in model_mutations(obj):
                walk.send(f"{name} revert {label}", revert, data)


def _objects(model: type[models.Model], world: dict[str, Any]) -> list[models.Model]:
    """The rows walked: the first one, and those of the closed and the open turno."""
    closed, open_turno = world["closed"], world["open"]
    picks = {
        Turno: [closed, open_turno],
        Seat: [closed.seats.first(), open_turno.seats.first()],
        Smazzata: [closed.smazzate.first(), open_turno.smazzate.first()],
        Result: [
            Result.objects.filter(smazzata__turno=closed).first(),
            Result.objects.filter(smazzata__turno=open_turno).first(),
        ],
        Penalita: [closed.penalita.first()],
        TurnoEvent: [closed.events.filter(kind=TurnoEvent.REOPEN).first()],
        Enrollment: [
            Enrollment.objects.filter(player__name="Anna").first(),
            Enrollment.objects.filter(player=world["franco"]).first(),
        ],
    }
    rows = picks.get(model) or [model.objects.order_by("pk").first()]
    assert all(r is not None for r in rows), model.__name__
    return rows


def test_every_admin_form_leaves_the_official_record_alone(world, admin_client):
    assert set(admin.site._registry) >= set(SCORING_MODELS)
    walk = Walk(admin_client, world["season"])
    for model in SCORING_MODELS:
        for obj in _objects(model, world):
            walk_model(walk, model, obj)
    assert walk.failures == [], "\n".join(walk.failures)
    assert walk.requests > 400
    assert official_dump() == walk.before  # every request was rolled back


# -- what the issue did, one by one ------------------------------------------------------------
def _post(client: Client, url: str, data: dict[str, Any]) -> int:
    before = official_dump()
    status = client.post(url, data).status_code
    assert official_dump() == before, url
    return status


def test_the_attacks_of_the_issue_are_refused(world, admin_client):
    closed = world["closed"]
    result = Result.objects.filter(smazzata__turno=closed).first()
    url = reverse("admin:scoring_result_change", args=[result.pk])
    assert (
        _post(
            admin_client,
            url,
            {
                "smazzata": result.smazzata_id,
                "player": result.player_id,
                "points": result.points - 13,
            },
        )
        == 403
    )
    seat = closed.seats.first()
    url = reverse("admin:scoring_penalita_add")
    data = {"turno": closed.pk, "player": seat.player_id, "points": -50, "article": "6"}
    assert _post(admin_client, url, data) == 403
    event = closed.events.get(kind=TurnoEvent.REOPEN)
    url = reverse("admin:scoring_turnoevent_change", args=[event.pk])
    data = {"turno": closed.pk, "kind": "reopen", "reason": "riscritto"}
    assert _post(admin_client, url, data) == 403
    url = reverse("admin:scoring_turnoevent_delete", args=[event.pk])
    assert _post(admin_client, url, {"post": "yes"}) == 403
    other = Player.objects.exclude(seats__turno=closed).first()
    url = reverse("admin:scoring_seat_change", args=[seat.pk])
    assert _post(admin_client, url, {"turno": closed.pk, "player": other.pk, "position": 0}) == 403
    # the seat's player through the turno's inline
    url = reverse("admin:scoring_turno_change", args=[closed.pk])
    html = admin_client.get(url).content.decode()
    assert 'name="seats-0-player"' not in html and 'name="results-0-points"' not in html
    assert reverse("scoring:turno_live", args=[closed.pk]) in html  # changes: the live screen
    data = {
        "seats-TOTAL_FORMS": 1,
        "seats-INITIAL_FORMS": 1,
        "seats-0-id": seat.pk,
        "seats-0-turno": closed.pk,
        "seats-0-player": other.pk,
        "seats-0-position": 0,
    }
    assert _post(admin_client, url, data) == 403
    # and the turno's pages answer, and it can be reopened and closed again by the services
    for name in ("scoring:turno", "scoring:turno_pdf", "scoring:turno_xlsx"):
        assert admin_client.get(reverse(name, args=[closed.pk])).status_code == 200
    turno_reopen(turno=closed, reason="verifica")
    turno_close(turno=closed)
    assert Turno.objects.get(pk=closed.pk).status == Turno.CHIUSO
    assert admin_client.get(reverse("scoring:turno_live", args=[closed.pk])).status_code == 200


def test_the_roster_changes_through_the_services(world, admin_client):
    season, franco = world["season"], world["franco"]
    # a member who played stays on the roster
    anna = Enrollment.objects.get(season=season, player__name="Anna")
    url = reverse("admin:scoring_enrollment_delete", args=[anna.pk])
    assert _post(admin_client, url, {"post": "yes"}) == 403
    # one who never played goes, and their absences with them
    assert Absence.objects.filter(season=season, player=franco).count() == 2
    gone = Enrollment.objects.get(season=season, player=franco)
    r = admin_client.post(
        reverse("admin:scoring_enrollment_delete", args=[gone.pk]), {"post": "yes"}
    )
    assert r.status_code == 302
    assert not Enrollment.objects.filter(season=season, player=franco).exists()
    assert Absence.objects.filter(season=season, player=franco).count() == 0
    assert replay_differences(season) == []
    # and comes back as a late joiner: the lowest score of each of the two giornate played
    r = admin_client.post(
        reverse("admin:scoring_enrollment_add"), {"season": season.pk, "player": franco.pk}
    )
    assert r.status_code == 302
    lowest = sorted(
        Giornata.objects.filter(season=season, lowest__isnull=False).values_list(
            "lowest", flat=True
        )
    )
    absences = sorted(
        Absence.objects.filter(season=season, player=franco).values_list("league_points", flat=True)
    )
    assert len(lowest) == 2 and absences == lowest
    assert replay_differences(season) == []


def test_the_season_of_a_closed_turno_cannot_be_deleted_nor_its_system_changed(world, admin_client):
    season = world["season"]
    assert (
        _post(
            admin_client, reverse("admin:scoring_season_delete", args=[season.pk]), {"post": "yes"}
        )
        == 403
    )
    html = admin_client.get(reverse("admin:scoring_season_change", args=[season.pk])).content
    assert b'name="ruleset_code"' not in html and b'name="rules"' in html


# -- the groups ----------------------------------------------------------------------------------
def test_the_role_groups_hold_no_model_permission():
    assert list(Permission.objects.filter(group__name__in=["Segretario", "Socio"])) == []


def test_a_staff_segretario_changes_nothing_in_the_admin(world, segretario):
    segretario.is_staff = True
    segretario.save()
    client = Client(raise_request_exception=False)
    client.force_login(segretario)
    assert client.get(reverse("admin:index")).status_code == 200
    before = official_dump()
    for model in SCORING_MODELS:
        obj = _objects(model, world)[0]
        for view, args in (
            ("changelist", ()),
            ("add", ()),
            ("change", (obj.pk,)),
            ("delete", (obj.pk,)),
        ):
            url = reverse(f"admin:scoring_{model._meta.model_name}_{view}", args=args)
            assert client.get(url).status_code == 403, url
            assert client.post(url, {"post": "yes"}).status_code == 403, url
    assert official_dump() == before
    # and the segreteria still works for them: membership of the group is the permission
    assert Group.objects.get(name="Segretario").user_set.filter(pk=segretario.pk).exists()
    assert client.get(reverse("scoring:turno_live", args=[world["open"].pk])).status_code == 200


# -- the audit trail -------------------------------------------------------------------------
def test_imported_turni_have_history_rows(make_season):
    season = make_season(
        name="2027-28", giornate=2, seed=4, penalty_chance=1.0, sanction_chance=1.0
    )
    for model in (Turno, Seat, Smazzata, Result, Penalita):
        rows = model.objects.filter(**{_season_path(model): season})
        created = model.history.filter(history_type="+", id__in=rows.values("pk"))
        assert rows.count() > 0 and created.count() == rows.count(), model.__name__
    assert TurnoEvent.objects.filter(turno__season=season).count() == 0


def _season_path(model: type[models.Model]) -> str:
    return {
        Turno: "season",
        Seat: "turno__season",
        Smazzata: "turno__season",
        Result: "smazzata__turno__season",
        Penalita: "turno__season",
    }[model]


def test_seats_and_events_have_history(world):
    closed = world["closed"]
    events = closed.events.all()
    assert {e.kind for e in events} >= {TurnoEvent.CLOSE, TurnoEvent.REOPEN}
    for e in events:
        assert TurnoEvent.history.filter(id=e.pk, history_type="+").count() == 1
    seats = world["open"].seats.all()
    assert seats.count() == 4
    for s in seats:
        assert Seat.history.filter(id=s.pk, history_type="+").count() == 1
    assert SeasonEvent.objects.filter(season=world["season"]).exists()
