"""Who may open what: every URL of the project, as every role, against an explicit table.

The table below is the project's permission policy. The walker lists every URL pattern of the
resolver (outside the admin site, which is walked on its own) and fails on a pattern the table
does not classify, so a new URL cannot ship without a decision on who may open it.

Each request runs inside a savepoint rolled back afterwards: every check sees the same data. A
refused request (login redirect, 403, 404, 405), and every request marked ``unchanged``, must
leave the database exactly as it was.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib import admin
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import api
from scoring.models import Penalita, Player, Sanction, Season, Turno
from scoring.services.games import game_turno_close
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.conftest import database_writes, kept_for_the_scope
from tests.helpers import penalised_season, play_turno

pytestmark = pytest.mark.django_db

ANON, SOCIO, SEGRETARIO, ADMIN = "anonymous", "socio", "segretario", "admin"
ROLES = (ANON, SOCIO, SEGRETARIO, ADMIN)
GET, POST = "GET", "POST"


# -- expectations --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expect:
    """A status and, for a redirect, where it goes.

    ``to``: ``"login"`` (settings.LOGIN_URL), ``"live"`` (the live screen of the URL's ``pk``),
    ``"action:<name>"`` (the URL named ``scoring:<name>`` with the same arguments), a URL name,
    or a literal path.
    """

    status: int
    to: str | None = None

    def __str__(self) -> str:
        return f"{self.status} → {self.to}" if self.to else str(self.status)


OK = Expect(200)
LOGIN = Expect(302, "login")
DENIED = Expect(403)
MISSING = Expect(404)
NOT_ALLOWED = Expect(405)
TO_LIVE = Expect(302, "live")
TO_HOME = Expect(302, "/")
INVALID = Expect(422)  # the form again, with the engine's problems
TO_VERBALE = Expect(302, "verbale")  # the Verbale's confirmations (issue 17)
REFUSED = {LOGIN, DENIED, MISSING, NOT_ALLOWED}


def everyone(e: Expect) -> dict[str, Expect]:
    return dict.fromkeys(ROLES, e)


def segreteria(e: Expect) -> dict[str, Expect]:
    """Segretario screens: login first, then 403 for a socio; the superuser is a segretario."""
    return {ANON: LOGIN, SOCIO: DENIED, SEGRETARIO: e, ADMIN: e}


def logged_in(e: Expect) -> dict[str, Expect]:
    return {ANON: LOGIN, SOCIO: e, SEGRETARIO: e, ADMIN: e}


@dataclass(frozen=True)
class Check:
    """One request: method, URL arguments (URL kwarg -> key of the world), body, expectations.

    ``unchanged``: the database must be the same afterwards whatever the role (a rejected form).
    """

    method: str
    expect: Mapping[str, Expect]
    args: Mapping[str, str] = field(default_factory=dict)
    data: Mapping[str, Any] | None = None
    unchanged: bool = False


def G(expect: Mapping[str, Expect], **args: str) -> Check:
    return Check(GET, expect, args)


def P(
    expect: Mapping[str, Expect], data: Mapping[str, Any] | None = None, *, unchanged=False, **args
) -> Check:
    return Check(POST, expect, args, data or {}, unchanged)


PUBLIC = everyone(OK)

# URL name -> every request made to it. World keys: see the ``world`` fixture.
TABLE: dict[str, tuple[Check, ...]] = {
    # -- members' pages (public while KINGCLUB_MEMBERS_ONLY is off) ------------------------------
    "scoring:home": (G(PUBLIC),),
    # the monitor's /healthz (issue 26 item 2): anyone, GET only, no data in it
    "healthz": (G(PUBLIC), P(everyone(NOT_ALLOWED))),
    "scoring:classifica": (
        G(PUBLIC),
        G(PUBLIC, season_pk="season"),
        G(everyone(MISSING), season_pk="missing"),
    ),
    "scoring:serie": (G(PUBLIC),),
    "scoring:turni": (G(PUBLIC),),
    "scoring:turno": (
        G(PUBLIC, pk="closed_turno"),
        G(PUBLIC, pk="open_turno"),
        G(everyone(MISSING), pk="missing"),
        # beyond any database integer: no route takes it (scoring/converters.py), a 404 for
        # everyone before any login is asked
        G(everyone(MISSING), pk="huge"),
    ),
    "scoring:players": (G(PUBLIC),),
    "scoring:player": (
        G(PUBLIC, pk="player"),
        G(everyone(MISSING), pk="missing"),
        G(everyone(MISSING), pk="huge"),
    ),
    # -- the club's history (issue 17) ---------------------------------------------------------
    "scoring:albo": (G(PUBLIC),),
    "scoring:player_history": (
        G(PUBLIC, pk="player"),
        G(everyone(MISSING), pk="missing"),
        G(everyone(MISSING), pk="huge"),
    ),
    "scoring:season_new": (
        G(segreteria(OK)),
        P(segreteria(INVALID), unchanged=True),  # no name
        # series carried over from no closed season
        P(
            segreteria(INVALID),
            {"name": "2027-28", "ruleset_code": "caf", "series_origin": "carried"},
            unchanged=True,
        ),
    ),
    "scoring:season_close": (
        G(segreteria(OK), pk="season"),
        P(segreteria(INVALID), unchanged=True, pk="season"),  # no reason, no confirmation
        # the season has turni in progress
        P(segreteria(INVALID), {"reason": "fine", "confirm": "on"}, unchanged=True, pk="season"),
        G(segreteria(MISSING), pk="missing"),
        P(segreteria(MISSING), pk="missing"),
    ),
    # -- documents ------------------------------------------------------------------------------
    "scoring:turno_pdf": (
        G(PUBLIC, pk="closed_turno"),
        G(PUBLIC, pk="open_turno"),
        G(everyone(MISSING), pk="missing"),
    ),
    "scoring:turno_xlsx": (
        G(PUBLIC, pk="closed_turno"),
        G(PUBLIC, pk="open_turno"),
        G(everyone(MISSING), pk="missing"),
    ),
    "scoring:classifica_pdf": (
        G(PUBLIC, season_pk="season"),
        G(everyone(MISSING), season_pk="missing"),
    ),
    "scoring:classifica_xlsx": (
        G(PUBLIC, season_pk="season"),
        G(everyone(MISSING), season_pk="missing"),
    ),
    "scoring:classifica_csv": (
        G(PUBLIC, season_pk="season"),
        G(everyone(MISSING), season_pk="missing"),
    ),
    "scoring:turni_csv": (
        G(PUBLIC, season_pk="season"),
        G(everyone(MISSING), season_pk="missing"),
    ),
    # -- the club room's scoreboard (issue 17) -----------------------------------------------------
    "scoring:live": (G(PUBLIC), P(everyone(NOT_ALLOWED))),
    "scoring:live_poll": (G(PUBLIC), P(everyone(NOT_ALLOWED))),
    "scoring:live_turno": (
        G(PUBLIC, pk="open_turno"),
        G(PUBLIC, pk="closed_turno"),
        G(PUBLIC, pk="game_open"),
        G(everyone(MISSING), pk="missing"),
        P(everyone(NOT_ALLOWED), pk="open_turno"),
    ),
    "scoring:live_turno_poll": (
        G(PUBLIC, pk="open_turno"),
        G(PUBLIC, pk="game_closed"),
        G(everyone(MISSING), pk="missing"),
        P(everyone(NOT_ALLOWED), pk="open_turno"),
    ),
    # -- the Verbale countersigned (issue 17): no account of this world is linked to a player ---
    "scoring:confirm": (
        P(logged_in(DENIED), {"action": "conferma"}, pk="closed_turno"),
        P(logged_in(MISSING), {"action": "conferma"}, pk="missing"),
        G(logged_in(NOT_ALLOWED), pk="closed_turno"),
    ),
    "scoring:confirm_at_table": (
        G(segreteria(OK), pk="closed_turno"),
        P(segreteria(INVALID), {}, unchanged=True, pk="closed_turno"),  # no player, no PIN
        G(segreteria(MISSING), pk="missing"),
    ),
    "scoring:close_cancel": (  # no close waits for the players here: a message, nothing changed
        P(segreteria(TO_VERBALE), unchanged=True, pk="open_turno"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
    ),
    "scoring:profile": (
        G(logged_in(OK)),
        P(logged_in(INVALID), {"action": "pin", "pin": "12"}, unchanged=True),
    ),
    # -- the segretario's screens ----------------------------------------------------------------
    "scoring:season_publish": (
        P(segreteria(Expect(302, "scoring:segreteria")), {"pubblicati": "0"}, pk="season"),
        P(
            segreteria(Expect(302, "scoring:segreteria")),
            {"pubblicati": "x"},
            unchanged=True,
            pk="season",
        ),
        P(segreteria(MISSING), {"pubblicati": "0"}, pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="season"),
    ),
    "scoring:segreteria": (G(segreteria(OK)), P(segreteria(NOT_ALLOWED))),
    "scoring:turno_new": (G(segreteria(OK)), P(segreteria(OK), unchanged=True)),
    "scoring:turno_live": (
        G(segreteria(OK), pk="open_turno"),
        G(segreteria(OK), pk="closed_turno"),
        G(segreteria(OK), pk="game_open"),
        G(segreteria(OK), pk="game_closed"),
        G(segreteria(MISSING), pk="missing"),
        G(everyone(MISSING), pk="huge"),
        P(segreteria(NOT_ALLOWED), pk="open_turno"),
    ),
    # one set of addresses for every game: C.A.F. (open_turno...) and a Ramino match (game_...)
    "scoring:turno_smazzata": (
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),  # the form with its errors
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        P(segreteria(INVALID), unchanged=True, pk="game_open"),  # empty form: errors shown
        P(segreteria(INVALID), unchanged=True, pk="game_closed"),
        P(segreteria(MISSING), pk="missing"),
        P(everyone(MISSING), pk="huge"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
        G(segreteria(NOT_ALLOWED), pk="game_open"),
    ),
    "scoring:turno_history": (
        G(segreteria(OK), pk="open_turno"),
        G(segreteria(OK), pk="closed_turno"),
        G(segreteria(OK), pk="game_open"),
        G(segreteria(MISSING), pk="missing"),
        G(everyone(MISSING), pk="huge"),
        P(segreteria(NOT_ALLOWED), pk="open_turno"),
    ),
    "scoring:turno_smazzata_form": (  # C.A.F.'s fields for the chosen chiamante and game
        G(segreteria(OK), pk="open_turno"),
        G(segreteria(TO_LIVE), pk="closed_turno"),
        G(segreteria(MISSING), pk="game_open"),  # the other games' fields need no refresh
        G(segreteria(MISSING), pk="missing"),
        P(segreteria(NOT_ALLOWED), pk="open_turno"),
    ),
    "scoring:turno_preview": (  # the Skat value as typed: read-only, a partial (empty here)
        P(segreteria(OK), unchanged=True, pk="game_open"),
        P(segreteria(OK), unchanged=True, pk="game_closed"),
        P(segreteria(MISSING), pk="open_turno"),  # C.A.F.: the running check of the counts
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="game_open"),
    ),
    "scoring:turno_correct": (
        G(segreteria(OK), pk="open_turno"),
        G(segreteria(TO_LIVE), pk="closed_turno"),
        G(segreteria(TO_LIVE), pk="empty_turno"),  # nothing to correct
        G(segreteria(OK), pk="game_open"),
        G(segreteria(TO_LIVE), pk="game_closed"),
        G(segreteria(MISSING), pk="missing"),
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),
        P(segreteria(TO_LIVE), unchanged=True, pk="closed_turno"),
        P(segreteria(INVALID), unchanged=True, pk="game_open"),  # an empty correction
    ),
    "scoring:turno_undo": (
        P(segreteria(TO_LIVE), pk="open_turno"),  # undoes the last smazzata
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        P(segreteria(INVALID), unchanged=True, pk="empty_turno"),
        P(segreteria(TO_LIVE), pk="game_open"),
        P(segreteria(INVALID), unchanged=True, pk="game_closed"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
        G(segreteria(NOT_ALLOWED), pk="game_open"),
    ),
    "scoring:turno_penalita_add": (
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        # Ramino has no penalità: no such action for its turni
        P(segreteria(MISSING), unchanged=True, pk="game_open"),
        P(segreteria(MISSING), unchanged=True, pk="game_closed"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
        G(segreteria(NOT_ALLOWED), pk="game_open"),
    ),
    "scoring:turno_penalita_remove": (
        P(segreteria(TO_LIVE), pk="open_turno", penalita_pk="open_penalita"),
        P(segreteria(INVALID), unchanged=True, pk="closed_turno", penalita_pk="closed_penalita"),
        # a penalità of another turno
        P(segreteria(MISSING), pk="open_turno", penalita_pk="closed_penalita"),
        P(segreteria(MISSING), pk="open_turno", penalita_pk="missing"),
        P(segreteria(MISSING), pk="game_open", penalita_pk="open_penalita"),  # not its penalità
        P(segreteria(MISSING), pk="game_open", penalita_pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno", penalita_pk="open_penalita"),
        G(segreteria(NOT_ALLOWED), pk="game_open", penalita_pk="open_penalita"),
    ),
    "scoring:turno_sanction_add": (
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        P(segreteria(MISSING), pk="game_open"),  # no Retrocessione per contatore in Ramino
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
    ),
    "scoring:turno_sanction_remove": (
        P(segreteria(TO_LIVE), pk="open_turno", sanction_pk="open_sanction"),
        P(segreteria(INVALID), unchanged=True, pk="closed_turno", sanction_pk="closed_sanction"),
        P(segreteria(MISSING), pk="open_turno", sanction_pk="closed_sanction"),
        P(segreteria(MISSING), pk="open_turno", sanction_pk="missing"),
        P(segreteria(MISSING), pk="game_open", sanction_pk="open_sanction"),
        G(segreteria(NOT_ALLOWED), pk="open_turno", sanction_pk="open_sanction"),
    ),
    "scoring:turno_close": (
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),  # incomplete: errors shown
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        P(segreteria(INVALID), unchanged=True, pk="game_open"),  # the match is not over
        P(segreteria(INVALID), unchanged=True, pk="game_closed"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="open_turno"),
        G(segreteria(NOT_ALLOWED), pk="game_open"),
    ),
    "scoring:turno_reopen": (
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),  # no reason
        P(segreteria(TO_LIVE), {"reason": "errore di trascrizione"}, pk="closed_turno"),
        P(segreteria(INVALID), {"reason": "x"}, unchanged=True, pk="open_turno"),
        P(segreteria(INVALID), unchanged=True, pk="game_closed"),  # no reason
        P(segreteria(TO_LIVE), {"reason": "errore di trascrizione"}, pk="game_closed"),
        P(segreteria(INVALID), {"reason": "x"}, unchanged=True, pk="game_open"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="closed_turno"),
        G(segreteria(NOT_ALLOWED), pk="game_closed"),
    ),
    "scoring:turno_delete": (
        P(segreteria(Expect(302, "scoring:segreteria")), pk="empty_turno"),
        P(segreteria(INVALID), unchanged=True, pk="open_turno"),  # has smazzate
        P(segreteria(INVALID), unchanged=True, pk="closed_turno"),
        P(segreteria(MISSING), pk="missing"),
        G(segreteria(NOT_ALLOWED), pk="empty_turno"),
    ),
    # -- the old addresses of the other games' screens (segreteria/partite/...) ----------------
    # a POST goes on to the same action with its body (308), a GET to the live screen (301);
    # the action itself checks who asks
    **{
        f"scoring:moved_{name}": (
            P(everyone(Expect(308, f"action:{name}")), pk="game_open", **extra),
            G(everyone(Expect(301, "live")), pk="game_open", **extra),
        )
        for name, extra in (
            ("turno_penalita_add", {}),
            ("turno_penalita_remove", {"penalita_pk": "open_penalita"}),
            ("turno_smazzata", {}),
            ("turno_preview", {}),
            ("turno_undo", {}),
            ("turno_close", {}),
            ("turno_reopen", {}),
            ("turno_delete", {}),
        )
    },
    # -- accounts (django.contrib.auth.urls) -----------------------------------------------------
    "login": (G(PUBLIC), P(PUBLIC, unchanged=True)),  # an empty form: errors
    "logout": (G(everyone(NOT_ALLOWED)), P(everyone(TO_HOME))),
    "password_change": (G(logged_in(OK)), P(logged_in(OK), unchanged=True)),
    "password_change_done": (G(logged_in(OK)),),
    "password_reset": (G(PUBLIC), P(PUBLIC, unchanged=True)),
    "password_reset_done": (G(PUBLIC),),
    "password_reset_confirm": (G(PUBLIC, uidb64="bad_uid", token="bad_token"),),
    "password_reset_complete": (G(PUBLIC),),
    # -- language switch ---------------------------------------------------------------------------
    "set_language": (G(everyone(TO_HOME)), P(everyone(TO_HOME), {"language": "en"})),
    # the top bar's switch: a GET form (the pages kept for anonymous visitors carry no token)
    "scoring:language": (
        G(everyone(TO_HOME)),
        P(everyone(NOT_ALLOWED), {"language": "en"}, unchanged=True),
    ),
}


# -- the URL patterns ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    name: str | None
    route: str
    params: frozenset[str]
    callback: Callable[..., Any]


def _walk(resolver: URLResolver, prefix: str = "", ns: str | None = None) -> Iterator[Route]:
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            inner = ns
            if p.namespace:
                inner = f"{ns}:{p.namespace}" if ns else p.namespace
            yield from _walk(p, prefix + str(p.pattern), inner)
        elif isinstance(p, URLPattern):
            name = p.name and (f"{ns}:{p.name}" if ns else p.name)
            params = frozenset(p.pattern.regex.groupindex)
            yield Route(name, prefix + str(p.pattern), params, p.callback)


def _is_admin(r: Route) -> bool:
    return r.route.startswith("admin/")


def project_routes() -> list[Route]:
    """Every URL pattern but the admin site's (walked by ``test_admin_*``)."""
    return [r for r in _walk(get_resolver()) if not _is_admin(r)]


def test_every_url_is_classified():
    problems = []
    for r in project_routes():
        if r.name is None:
            problems.append(f"URL {r.route!r} has no name: name it and add it to the table")
        elif r.name not in TABLE:
            problems.append(f"new URL {r.name} has no entry in the permissions table")
        elif not any(frozenset(c.args) == r.params for c in TABLE[r.name]):
            params = ", ".join(sorted(r.params)) or "no arguments"
            problems.append(f"new URL {r.name} ({params}) has no entry in the permissions table")
        elif not {GET, POST} & {c.method for c in TABLE[r.name] if frozenset(c.args) == r.params}:
            problems.append(f"URL {r.name} has no GET or POST check")
    # and the table holds no URL that no longer exists
    routes = {(r.name, r.params) for r in project_routes()}
    for name, checks in TABLE.items():
        for c in checks:
            if (name, frozenset(c.args)) not in routes:
                problems.append(f"the table names {name}({', '.join(c.args)}), not a URL any more")
    assert problems == [], "\n".join(problems)


def test_every_role_has_an_expectation():
    for name, checks in TABLE.items():
        for c in checks:
            assert set(c.expect) == set(ROLES), name


# -- the data every check runs against -----------------------------------------------------------
MISSING_PK = 987654


def _build_world() -> dict[str, Any]:
    """A season with closed turni (penalità and sanctions on them), an open turno with smazzate,
    a penalità and a sanction, an open turno with no smazzate, and a player."""
    season: Season = penalised_season()
    closed = Turno.objects.filter(status=Turno.CHIUSO).order_by("pk").first()
    assert closed is not None
    closed_pen = Penalita.objects.filter(turno=closed).first()
    closed_san = Sanction.objects.filter(turno=closed).first()
    assert closed_pen is not None and closed_san is not None

    players = ["Anna", "Bruno", "Carla", "Dario"]
    open_turno, _ = play_turno(season, dt.date(2026, 10, 2), players, seed=5, close=False, deals=3)
    open_pen = api.penalita_add(turno=open_turno, player="Anna", points=-5, article="6", reason="r")
    open_san = api.sanction_add(turno=open_turno, player="Bruno", reason="contatore")
    empty = turno_start(
        season=season, date=dt.date(2026, 10, 9), players=players, first_dealer=players[1]
    )
    ramino = season_create(name="Ramino", ruleset_code="ramino-101", current=False)
    game_open = turno_start(
        season=ramino, date=dt.date(2026, 10, 2), players=players, first_dealer="Anna"
    )
    api.smazzata_record(
        turno=game_open,
        record={
            "closer": "Bruno",
            "close": "NORMALE",
            "penalties": {"Anna": 5, "Carla": 6, "Dario": 7},
        },
    )
    game_closed = turno_start(
        season=ramino, date=dt.date(2026, 10, 9), players=players[:2], first_dealer="Anna"
    )
    api.smazzata_record(turno=game_closed, record={"closer": "Anna", "close": "SCALA_REALE"})
    game_turno_close(turno=game_closed)
    return {
        "game_open": game_open.pk,
        "game_closed": game_closed.pk,
        "season": season.pk,
        "player": Player.objects.get(name="Carla").pk,
        "closed_turno": closed.pk,
        "closed_penalita": closed_pen.pk,
        "closed_sanction": closed_san.pk,
        "open_turno": open_turno.pk,
        "open_penalita": open_pen.pk,
        "open_sanction": open_san.pk,
        "empty_turno": empty.pk,
        "missing": MISSING_PK,
        "huge": 10**25,
        "bad_uid": "MTIzNDU2",
        "bad_token": "abc-0123456789abcdef",
    }


def _walk_users() -> dict[str, Any]:
    """A socio, a segretario and a superuser of the walk's own (the module's other tests make
    their own ``segretario`` and ``socio``)."""
    from django.contrib.auth.models import Group, User

    def user(username: str, group: str | None = None, **extra):
        made = User.objects.create_user(username=username, password="pw-kingclub-1", **extra)
        if group:
            made.groups.add(Group.objects.get_or_create(name=group)[0])
        return made

    return {
        ANON: None,
        SOCIO: user("walk-socio", "Socio"),
        SEGRETARIO: user("walk-segretario", "Segretario"),
        ADMIN: user("walk-admin", is_superuser=True, is_staff=True),
    }


@pytest.fixture(scope="module")
def _prepared(django_db_setup, django_db_blocker):
    """The world and its users, built once for the module (tests/conftest.py,
    kept_for_the_scope): every test sees them, each in a savepoint rolled back after it."""
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            prepared = (_build_world(), _walk_users())
        yield prepared


@pytest.fixture
def world(db, _prepared, pdf_rendered_once) -> dict[str, Any]:
    return _prepared[0]


@pytest.fixture
def users(db, _prepared) -> dict[str, Any]:
    return _prepared[1]


def _location_ok(expect: Expect, response, kwargs: Mapping[str, Any]) -> bool:
    location = response.get("Location", "")
    if expect.to == "login":
        return location.startswith(resolve_url(django_settings.LOGIN_URL) + "?next=")
    if expect.to == "live":
        return location == reverse("scoring:turno_live", args=[kwargs["pk"]])
    if expect.to == "verbale":
        return location == reverse("scoring:turno", args=[kwargs["pk"]]) + "#conferme"
    if expect.to.startswith("action:"):  # the same action at its new address, same arguments
        return location == reverse(f"scoring:{expect.to[len('action:') :]}", kwargs=kwargs)
    if expect.to.startswith("/"):
        return location == expect.to
    return location == reverse(expect.to)


LARGEST_KEY = 2**63 - 1  # the largest primary key a route takes (scoring/converters.py)


def _url(name: str, kwargs: Mapping[str, Any]) -> str:
    """The URL of ``name``; a key beyond any database integer (``huge``) is written by hand into
    the path, since no route's converter writes it (the request must still be a 404)."""
    big = {k: v for k, v in kwargs.items() if isinstance(v, int) and v > LARGEST_KEY}
    if not big:
        return reverse(name, kwargs=kwargs)
    url = reverse(name, kwargs={**kwargs, **dict.fromkeys(big, MISSING_PK)})
    for value in big.values():
        assert url.count(f"/{MISSING_PK}/") == 1, url
        url = url.replace(f"/{MISSING_PK}/", f"/{value}/")
    return url


def _run(
    client: Client, role: str, user, name: str, check: Check, world: Mapping[str, Any], dump
) -> tuple[str, str | None]:
    """Make the request in a savepoint rolled back afterwards; the label and any failure."""
    kwargs = {k: world[v] for k, v in check.args.items()}
    url = _url(name, kwargs)
    label = f"{check.method} {url} [{name}]"
    if user is None:
        client.logout()
    else:
        client.force_login(user)  # again each time: a logout check ends the session
    expect = check.expect[role]
    compare = check.unchanged or expect in REFUSED
    with transaction.atomic():
        writes = database_writes() if compare else None
        send = client.get if check.method == GET else partial(client.post, data=check.data or {})
        response = send(url)
        # no row written (most requests): unchanged; else both dumps, the first one after the
        # savepoint is rolled back (the database as it was before the request)
        wrote = compare and (writes is None or database_writes() != writes)
        after = dump() if wrote else ""
        transaction.set_rollback(True)
    before = dump() if wrote else ""
    failure = None
    if response.status_code != expect.status:
        failure = f"{response.status_code}, expected {expect}"
    elif expect.to and not _location_ok(expect, response, kwargs):
        failure = f"302 to {response.get('Location')!r}, expected {expect}"
    elif after != before:
        failure = f"{response.status_code} as expected, but the database changed"
    return label, failure


@pytest.mark.parametrize("role", ROLES)
def test_every_url_as_every_role(client, world, users, db_dump, role):
    """Every entry of the table, for one role: the exact status, the redirect target, and the
    database untouched by a refused request."""
    user = users[role]
    failures = []
    for name, checks in TABLE.items():
        for check in checks:
            label, failure = _run(client, role, user, name, check, world, db_dump)
            if failure:
                failures.append(f"{role}: {label}: {failure}")
    assert failures == [], "\n".join(failures)


# -- KINGCLUB_MEMBERS_ONLY --------------------------------------------------------------------
def _members_routes() -> list[tuple[str, Check]]:
    """The members' pages and documents (every members_view) with their public GET checks."""
    out = []
    for r in project_routes():
        if r.callback.__module__ not in ("scoring.views.public", "scoring.views.documents"):
            continue
        for c in TABLE[r.name]:
            if c.method == GET and frozenset(c.args) == r.params:
                out.append((r.name, c))
    return out


def test_members_only_pages_need_a_login(client, world, users, settings, db_dump):
    settings.KINGCLUB_MEMBERS_ONLY = True
    checks = _members_routes()
    assert len(checks) >= 12
    failures = []
    for name, c in checks:
        # anonymous: the login page, even for a missing object (nothing is revealed)
        anonymous = MISSING if "huge" in c.args.values() else LOGIN  # no route takes it
        members_only = Check(GET, {ANON: anonymous, SOCIO: c.expect[SOCIO]}, c.args)
        for role in (ANON, SOCIO):
            label, failure = _run(client, role, users[role], name, members_only, world, db_dump)
            if failure:
                failures.append(f"{role}: {label}: {failure}")
    assert failures == [], "\n".join(failures)
    # and the socio does see them
    assert {c.expect[SOCIO] for _, c in checks} == {OK, MISSING}


# -- the admin site ----------------------------------------------------------------------------
def _superuser_request():
    """A request as the superuser, to ask a ModelAdmin what it allows."""
    from django.contrib.auth.models import User
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = User(is_superuser=True, is_staff=True, is_active=True)
    return request


def _admin_urls() -> list[str]:
    urls = [reverse("admin:index")]
    for model in apps.get_app_config("scoring").get_models():
        if model.__name__.startswith("Historical"):
            continue
        opts = model._meta
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        if admin.site._registry[model].has_add_permission(_superuser_request()):
            urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
        first = model.objects.order_by("pk").first()
        if first is not None:
            urls.append(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk])
            )
    urls.append(reverse("admin:auth_user_changelist"))
    return urls


@pytest.mark.parametrize("role", ROLES)
def test_admin_is_for_the_superuser_only(client, world, users, role):
    user = users[role]
    if user is not None:
        client.force_login(user)
    admin_login = reverse("admin:login")
    urls = _admin_urls()
    assert len(urls) > 30
    failures = []
    for url in urls:
        r = client.get(url)
        if role == ADMIN:
            if r.status_code != 200:
                failures.append(f"{url}: {r.status_code}, expected 200")
        elif r.status_code != 302 or not r["Location"].startswith(admin_login + "?next="):
            failures.append(f"{url}: {r.status_code} {r.get('Location')}, expected admin login")
    assert failures == [], "\n".join(failures)


# -- CSRF and deactivated accounts -------------------------------------------------------------
def test_every_post_needs_the_csrf_token(world, users, db_dump):
    """Every POST of the table, as the administrator (who may do everything), without the
    CSRF token: 403, nothing changed."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[ADMIN])
    failures, count = [], 0
    before = db_dump()
    for name, checks in TABLE.items():
        for c in checks:
            if c.method != POST or "huge" in c.args.values():  # no route takes it: a 404
                continue
            url = _url(name, {k: world[v] for k, v in c.args.items()})
            r = client.post(url, c.data or {})
            count += 1
            if r.status_code != 403:
                failures.append(f"POST {url} [{name}] without CSRF token: {r.status_code}")
    assert count >= 30
    assert failures == [], "\n".join(failures)
    assert db_dump() == before


def test_a_deactivated_segretario_is_anonymous(client, world, segretario):
    client.force_login(segretario)
    segretario.is_active = False
    segretario.save()
    url = reverse("scoring:turno_undo", args=[world["open_turno"]])
    r = client.post(url)
    assert r.status_code == 302
    assert r["Location"].startswith(resolve_url(django_settings.LOGIN_URL) + "?next=")
    r = client.get(reverse("scoring:segreteria"))
    assert r.status_code == 302


# -- logout and login throttling -------------------------------------------------------------
def test_logout_is_post_only(client, segretario):
    client.force_login(segretario)
    r = client.get(reverse("logout"))
    assert r.status_code == 405
    assert "_auth_user_id" in client.session  # still logged in
    r = client.post(reverse("logout"))
    assert r.status_code == 302
    assert "_auth_user_id" not in client.session


def _login(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_failed_logins_lock_the_username_out(client, segretario, socio):
    limit = django_settings.AXES_FAILURE_LIMIT
    lockout = django_settings.AXES_HTTP_RESPONSE_CODE
    assert lockout in (403, 429)
    for _ in range(limit - 1):
        r = _login(client, "segretario", "wrong-password")
        assert r.status_code == 200  # the form again, with its error
        assert "_auth_user_id" not in client.session
    r = _login(client, "segretario", "wrong-password")  # the limit-th failure locks
    assert r.status_code == lockout
    # the right password is refused now
    r = _login(client, "segretario", "pw-kingclub-1")
    assert r.status_code == lockout
    assert "Troppi tentativi" in r.content.decode()
    assert "_auth_user_id" not in client.session
    # another username from the same address still logs in
    r = _login(client, "socio", "pw-kingclub-1")
    assert r.status_code == 302
    assert client.session["_auth_user_id"] == str(socio.pk)


def test_fewer_failures_than_the_limit_do_not_lock(client, segretario):
    for _ in range(django_settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "segretario", "wrong-password")
    r = _login(client, "segretario", "pw-kingclub-1")
    assert r.status_code == 302
    assert client.session["_auth_user_id"] == str(segretario.pk)
