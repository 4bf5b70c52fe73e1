"""Random and hostile POSTs to the segretario's forms: never a 500, never an impossible turno
stored, and the database unchanged after every refused submission.

Each test logs in as the segretario and posts, example after example, to the same database: a
mix of legal submissions (so the turni evolve: smazzate recorded, turni completed, closed,
reopened, started) and legal submissions spoiled by hostile values (random and very long
strings, huge and negative numbers, unicode, HTML, SQL, lists, missing and extra keys).

After every request:

- the status is below 500;
- every turno in the database scores cleanly with the engine (an open one as far as it goes,
  ``require_complete=False``, a spareggio still to be given at close aside; a closed one
  complete), and its stored Seat totals, penalty totals (and, closed, places and ratios) are
  the engine's (not checked again when no row was written since the last check found them so:
  the request wrote none, or a refusal's rows were rolled back);
- if the form came back with errors (a 200 re-render) or the view redirected with an error
  message, the database dump is byte for byte the one before the request.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import api
from scoring.forms import PENALTY_ARTICLES, CloseForm, SmazzataForm
from scoring.models import Player, Sanction, Season, Turno
from scoring.rules.caf import score_turno
from scoring.rules.caf.ruleset import SUITS
from scoring.rules.caf.simulator import play_deal, simulate_turno
from scoring.selectors import TurnoState, turno_record, turno_state, turno_with_everything
from scoring.services.turni import turno_start
from scoring.views.entry_calls import progress_before as _progress_before
from tests.conftest import database_writes, kept_for_the_scope
from tests.helpers import deal_record

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
TABLE = PLAYERS[:4]
HTMX = {"HTTP_HX_REQUEST": "true"}

# KINGCLUB_FUZZ_EXAMPLES=500 for a longer hunt; the default keeps the file well under a minute
EXAMPLES = int(os.environ.get("KINGCLUB_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- hostile values ----------------------------------------------------------------------------
SPECIAL = [
    "",
    " ",
    "0",
    "-0",
    "-1",
    "+3",
    " 7 ",
    "1.5",
    "1e3",
    "0x10",
    "١٢",  # Arabic-Indic digits: int() accepts them
    "Ⅻ",
    "NaN",
    "inf",
    "-inf",
    "None",
    "null",
    "true",
    "[]",
    "{}",
    str(2**15),
    str(2**31),
    str(-(2**31) - 1),
    str(2**63),
    str(-(2**63) - 1),
    "9" * 40,
    "-" + "9" * 40,
    "9" * 5000,  # beyond Python's int() digit limit
    "' OR '1'='1",
    "1; DROP TABLE scoring_turno; --",
    '" OR ""="',
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "{{ 7|add:7 }}{% debug %}",
    "%s%s%n",
    "\x00",
    "Anna\x00",
    "a\r\nb",
    "😀" * 30,
    "Ä" * 400,
    "x" * 3000,
    "Anna",
    "anna",
    "ANNA ",
    "H",
    "S",
    "briscola",
]
scalar = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.integers(min_value=-3, max_value=40).map(str),
)
hostile = st.one_of(scalar, st.lists(scalar, max_size=3))
DELETE = object()


def spoil(draw: Callable[..., Any], payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload with 1-4 fields replaced by hostile values, removed, or extra keys added.

    What is drawn never depends on the database (fields are picked by index), so that
    hypothesis sees the same choices whatever state the earlier examples left behind.
    """
    out = dict(payload)
    keys = sorted(out) or ["x"]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        how = draw(st.sampled_from(["replace", "replace", "delete", "extra"]))
        if how == "extra":
            out[draw(st.text(min_size=1, max_size=12))] = draw(hostile)
            continue
        key = keys[draw(st.integers(min_value=0, max_value=63)) % len(keys)]
        out[key] = DELETE if how == "delete" else draw(hostile)
    return {k: v for k, v in out.items() if v is not DELETE}


def submission(draw: Callable[..., Any], valid: Mapping[str, Any] | None) -> dict[str, Any]:
    """A legal payload (when there is one), an empty one, or a spoiled legal one."""
    kind = draw(st.sampled_from(["valid", "valid", "spoiled", "spoiled", "spoiled", "empty"]))
    if kind == "empty":
        return {}
    if kind == "valid":
        return dict(valid or {})
    return spoil(draw, valid or {"x": "1"})


def pick(draw: Callable[..., Any], options: list) -> Any:
    """One of ``options`` (which may depend on the database), drawn by index."""
    i = draw(st.integers(min_value=0, max_value=63))
    return options[i % len(options)] if options else None


seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- the checks after each request ----------------------------------------------------------------
def assert_every_turno_consistent() -> None:
    """Every stored turno is one the engine accepts, and the stored totals are the engine's."""
    for turno in turno_with_everything(Turno.objects.all()):
        rules = turno.season.ruleset
        score = score_turno(rules, turno_record(turno), require_complete=not turno.is_open)
        problems = score.problems
        if turno.is_open:  # a complete open turno may await its spareggio (given at close)
            problems = tuple(p for p in problems if p.field != "tiebreak")
        assert problems == (), (turno.pk, turno.status, problems)
        seats = {s.player.name: s for s in turno.seats.all()}
        assert {n: s.total for n, s in seats.items()} == dict(score.totals), turno.pk
        assert {n: s.penalty_total for n, s in seats.items()} == {
            n: score.penalties.get(n, 0) for n in seats
        }, turno.pk
        if not turno.is_open:
            assert score.places is not None
            assert {n: s.place for n, s in seats.items()} == dict(score.places), turno.pk
            assert {n: s.ratio for n, s in seats.items()} == dict(score.ratios), turno.pk
    # members are told apart by name regardless of case (as the new-turno form matches them)
    names = list(Player.objects.values_list("name", flat=True))
    assert len({n.casefold() for n in names}) == len(names), sorted(names)


def post(
    client: Client, url: str, data: Mapping[str, Any], dump: Callable[[], str], *, htmx=False
) -> tuple[Any, bool]:
    """POST, check the invariants; returns the response and whether it was refused."""
    client.cookies.pop("messages", None)  # only this request's messages count
    savepoint = transaction.savepoint()
    writes = database_writes()
    response = client.post(url, data, **(HTMX if htmx else {}))
    assert response.status_code < 500
    errors = [m for m in get_messages(response.wsgi_request) if m.level == message_levels.ERROR]
    refused = not htmx and (response.status_code != 302 or bool(errors))
    # the database as it stands is the one found consistent at ``client.consistent_at`` (the
    # connection's writes then) when no row has been written since: no write in the request, or
    # a refusal's writes rolled back to the state before it
    unchanged_since = writes if database_writes() == writes else None
    if refused:
        assert response.status_code in (200, 302, 422), response.status_code
        # a refusal that wrote no row changed nothing; else the database after it, against the
        # database before it (the savepoint rolled back: what the refusal left must be equal)
        if writes is None or database_writes() != writes:
            after = dump()
            transaction.savepoint_rollback(savepoint)
            assert after == dump(), f"refused ({response.status_code}) but the database changed"
            unchanged_since = writes
    transaction.savepoint_commit(savepoint)
    # the check is a function of the rows: on rows it found consistent it would find the same
    if unchanged_since is None or unchanged_since != getattr(client, "consistent_at", None):
        assert_every_turno_consistent()
        client.consistent_at = database_writes()
    return response, refused


# -- the club --------------------------------------------------------------------------------------
def _record_smazzate(turno: Turno, smazzate: Iterable) -> None:
    for i, sm in enumerate(smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )


@pytest.fixture(scope="module")
def _club(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:
    """A season with one closed turno; an open turno part-way through; a complete open turno
    with a tie (the close form has a spareggio to fill); the segretario. Built once for the
    module (kept_for_the_scope): each test starts from it in a savepoint, as it started from
    its own copy when the club was built for each test (seven times, about a second of CPU
    each); the examples of a test post to the same database, as before."""
    from django.contrib.auth.models import Group, User

    from scoring.demo import simulated_season
    from scoring.services.interchange import season_import

    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            segretario = User.objects.create_user(username="segretario", password="pw-kingclub-1")
            segretario.groups.add(Group.objects.get_or_create(name="Segretario")[0])
            season = season_import(
                data=simulated_season(
                    name="2026-27",
                    players=PLAYERS,
                    giornate=1,
                    seed=4,
                    attendance=1.0,
                    penalty_chance=0.5,
                )
            )
            closed = Turno.objects.get(status=Turno.CHIUSO)
            rules = season.ruleset
            record = simulate_turno(rules, TABLE, random.Random(11), first_dealer=TABLE[0])
            n = len(record.smazzate)
            partial = turno_start(
                season=season, date=dt.date(2026, 10, 2), players=TABLE, first_dealer=TABLE[0]
            )
            _record_smazzate(partial, record.smazzate[: n - 5])
            complete = turno_start(
                season=season, date=dt.date(2026, 10, 9), players=TABLE, first_dealer=TABLE[0]
            )
            _record_smazzate(complete, record.smazzate)
            totals = turno_state(complete.pk).score.totals
            low, high = sorted(TABLE, key=lambda p: totals[p])[:2]
            if totals[high] != totals[low]:  # a penalità makes a tie
                api.penalita_add(
                    turno=complete,
                    player=high,
                    points=totals[low] - totals[high],
                    article="9",
                    reason="t",
                )
            assert turno_state(complete.pk).score.tied
        yield {
            "season": season,
            "closed": closed.pk,
            "partial": partial.pk,
            "complete": complete.pk,
            "segretario": segretario,
        }


@pytest.fixture
def club(db, _club, client) -> dict[str, Any]:
    """The module's club (a fresh Season instance each test), the segretario logged in."""
    client.force_login(_club["segretario"])
    return {**_club, "season": Season.objects.get(pk=_club["season"].pk)}


def _url(name: str, pk: int) -> str:
    return reverse(f"scoring:{name}", args=[pk])


def legal_smazzata(state: TurnoState, rng: random.Random, *, correcting=False) -> dict | None:
    """A legal next smazzata for the turno as it is now (None when there is none)."""
    progress = state.progress
    if correcting:
        if not state.record.smazzate:
            return None
        progress = _progress_before(state, len(state.record.smazzate))
    if not state.turno.is_open or progress.complete:
        return None
    rules = state.turno.season.ruleset
    players = state.record.players
    caller = rng.choice(progress.calling_order())
    game = rng.choice(progress.callable_games(caller))
    trump = rng.choice(SUITS) if rules.games[game].trump else None
    result = play_deal(rules, players, game, progress.dealer, rng, trump)
    data: dict[str, Any] = {"number": progress.number, "caller": caller, "game": game}
    data["trump"] = trump or ""
    for i, p in enumerate(players):
        data[SmazzataForm.count_name(i)] = result[p]
    return data


# -- the smazzata form (its correction, the undo) -------------------------------------------
@FUZZ
@given(data=st.data())
def test_smazzata_form(club, client, db_dump, data):
    target = data.draw(st.sampled_from(["partial", "partial", "partial", "complete", "closed"]))
    action = data.draw(st.sampled_from(["record", "record", "record", "record", "correct", "undo"]))
    pk = club[target]
    state = turno_state(pk)
    rng = random.Random(data.draw(seeds))
    if action == "undo":  # the hidden number of the last smazzata
        valid = {"number": len(state.record.smazzate)} if state.record.smazzate else None
        url = _url("turno_undo", pk)
    else:
        valid = legal_smazzata(state, rng, correcting=action == "correct")
        url = _url("turno_correct" if action == "correct" else "turno_smazzata", pk)
    post(client, url, submission(data.draw, valid), db_dump)


@FUZZ
@given(data=st.data())
def test_smazzata_form_htmx_never_fails(club, client, db_dump, data):
    pk = club[data.draw(st.sampled_from(["partial", "partial", "closed"]))]
    rng = random.Random(data.draw(seeds))
    payload = submission(data.draw, legal_smazzata(turno_state(pk), rng))
    response, _ = post(client, _url("turno_smazzata", pk), payload, db_dump, htmx=True)
    assert response.status_code in (200, 302)


# -- penalità and retrocessione per contatore ------------------------------------------------
@FUZZ
@given(data=st.data())
def test_penalita_form(club, client, db_dump, data):
    pk = club[data.draw(st.sampled_from(["partial", "partial", "closed"]))]
    valid = {
        "pen-player": data.draw(st.sampled_from(TABLE)),
        "pen-points": data.draw(st.integers(min_value=-50, max_value=-1)),
        "pen-article": data.draw(st.sampled_from([code for code, _ in PENALTY_ARTICLES])),
        "pen-reason": data.draw(st.text(max_size=40)).replace("\x00", ""),
    }
    post(client, _url("turno_penalita_add", pk), submission(data.draw, valid), db_dump)


@FUZZ
@given(data=st.data())
def test_sanction_form(club, client, db_dump, data):
    pk = club[data.draw(st.sampled_from(["partial", "partial", "closed"]))]
    turno = Turno.objects.get(pk=pk)
    players = [s.player.name for s in turno.seats.select_related("player")]
    sanctioned = set(Sanction.objects.filter(turno=turno).values_list("player__name", flat=True))
    free = [p for p in players if p not in sanctioned]
    player = pick(data.draw, free)
    reason = data.draw(st.sampled_from(["contatore", "assenze", "x" * 300]))
    valid = {"san-player": player, "san-reason": reason} if player else None
    post(client, _url("turno_sanction_add", pk), submission(data.draw, valid), db_dump)


# -- close and reopen ------------------------------------------------------------------------
def legal_close(state: TurnoState, rng: random.Random) -> dict | None:
    if not state.closable:
        return None
    out = {}
    for g, group in enumerate(state.score.tied):
        order = list(group)
        rng.shuffle(order)
        for k, name in enumerate(order):
            out[CloseForm.field_name(g, k)] = name
    return out


@FUZZ
@given(data=st.data())
def test_close_and_reopen_forms(club, client, db_dump, data):
    pk = club[data.draw(st.sampled_from(["complete", "complete", "partial", "closed"]))]
    state = turno_state(pk)
    action = data.draw(st.sampled_from(["close", "reopen"]))
    rng = random.Random(data.draw(seeds))
    reason = data.draw(st.sampled_from(["errore", " motivo ", "ü" * 2000]))
    if action == "close":
        valid = legal_close(state, rng)
        if valid == {}:  # nothing to choose: the empty form closes it
            valid = {"tie_0_0": ""}
        url = _url("turno_close", pk)
    else:
        valid = None if state.turno.is_open else {"reason": reason}
        url = _url("turno_reopen", pk)
    _, refused = post(client, url, submission(data.draw, valid), db_dump)
    after = Turno.objects.get(pk=pk)
    if refused:
        assert after.status == state.turno.status
    else:
        assert after.status == (Turno.CHIUSO if action == "close" else Turno.IN_CORSO)


# -- a new turno -------------------------------------------------------------------------------
@FUZZ
@given(data=st.data())
def test_new_turno_form(club, client, db_dump, data):
    season = club["season"]
    by_name = {p.name: p.pk for p in Player.objects.filter(active=True)}
    size = data.draw(st.integers(min_value=3, max_value=5))
    names = data.draw(st.permutations(PLAYERS))[:size]
    day = data.draw(st.integers(min_value=0, max_value=400))
    valid: dict[str, Any] = {
        "season": season.pk,
        "date": (dt.date(2027, 1, 1) + dt.timedelta(days=day)).isoformat(),
        "table": data.draw(st.sampled_from(["", "Tavolo 2", "<b>T</b>"])),
        "first_dealer_seat": data.draw(st.integers(min_value=1, max_value=size)),
    }
    for i, name in enumerate(names, start=1):
        how = data.draw(st.sampled_from(["chosen", "chosen", "chosen", "typed", "new"]))
        if how == "chosen":
            valid[f"seat_{i}"] = by_name[name]
        elif how == "typed":  # a member's name typed in, in any case
            valid[f"seat_{i}_new"] = data.draw(st.sampled_from([name, name.upper(), f" {name} "]))
        else:  # a new member (the same one typed twice in different cases is one player)
            valid[f"seat_{i}_new"] = data.draw(st.sampled_from(["Zeno", "zeno", "ZENO "]))
    payload = submission(data.draw, valid)
    turni_before = Turno.objects.count()
    response, refused = post(client, reverse("scoring:turno_new"), payload, db_dump)
    if not refused:
        assert Turno.objects.count() == turni_before + 1
        turno = Turno.objects.latest("pk")
        assert response["Location"] == _url("turno_live", turno.pk)


# -- query strings of the GET screens ------------------------------------------------------------
GET_SCREENS = [
    ("scoring:segreteria", None),
    ("scoring:turno_live", "partial"),
    ("scoring:turno_smazzata_form", "partial"),
    ("scoring:turno_correct", "partial"),
    ("scoring:home", None),
    ("scoring:turni", None),
    ("scoring:serie", None),
    ("scoring:players", None),
    ("scoring:turno", "closed"),
]
QUERY_KEYS = [
    "stagione",
    "correggi",
    "caller",
    "game",
    "trump",
    "count_0",
    "count_3",
    "page",
    "sort",
    "per_page",
    "giocatore",
    "dal",
    "al",
    "stato",
]


@FUZZ
@given(data=st.data())
def test_get_screens_with_hostile_query_strings(club, client, db_dump, data):
    """The season picker, the filters, the smazzata refresh (plain and htmx): a GET with any
    query string answers (200, a redirect or a 404), and never changes the database."""
    name, target = data.draw(st.sampled_from(GET_SCREENS))
    url = reverse(name, args=[club[target]] if target else [])
    query = data.draw(
        st.dictionaries(st.sampled_from(QUERY_KEYS) | st.text(max_size=8), hostile, max_size=5)
    )
    headers = HTMX if data.draw(st.booleans()) else {}
    savepoint = transaction.savepoint()
    writes = database_writes()
    response = client.get(url, query, **headers)
    assert response.status_code in (200, 302, 404), response.status_code
    if writes is None or database_writes() != writes:  # a row written: compare the dumps
        after = db_dump()
        transaction.savepoint_rollback(savepoint)
        assert after == db_dump()
    transaction.savepoint_commit(savepoint)


# -- HTML in what the segretario types is shown as text ----------------------------------------
SCRIPT = "<script>alert('k')</script>"


def test_typed_html_is_escaped_everywhere(club, client, db_dump):
    """A member's name, a table, a reason with markup: stored as typed, shown as text."""
    season = club["season"]
    data = {
        "season": season.pk,
        "date": "2027-03-05",
        "table": "<b onmouseover=alert(1)>T</b>",
        "first_dealer_seat": 1,
        "seat_1_new": SCRIPT,
        "seat_2_new": '"><img src=x onerror=alert(2)>',
        "seat_3": Player.objects.get(name="Anna").pk,
        "seat_4": Player.objects.get(name="Bruno").pk,
    }
    _response, refused = post(client, reverse("scoring:turno_new"), data, db_dump)
    assert not refused
    turno = Turno.objects.latest("pk")
    member = Player.objects.get(name=SCRIPT)
    _, refused = post(
        client,
        _url("turno_penalita_add", turno.pk),
        {"pen-player": SCRIPT, "pen-points": -3, "pen-article": "6", "pen-reason": SCRIPT},
        db_dump,
    )
    assert not refused
    named = [  # pages that show the new member's name
        _url("turno_live", turno.pk),
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:player", args=[member.pk]),
        reverse("scoring:players"),
    ]
    for url in [*named, reverse("scoring:turni"), reverse("scoring:segreteria")]:
        html = client.get(url).content.decode()
        assert url not in named or "&lt;script&gt;" in html, url
        for raw in (SCRIPT, "<img src=x", "<b onmouseover"):
            assert raw not in html, (url, raw)
