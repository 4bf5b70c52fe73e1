"""The club's history (issue 17): closing a season, carrying its series over, the Albo d'oro and
a member's page across seasons.

The fixture: two King C.A.F. seasons of four players (Anna, Bruno, Carla, Dario), every turno a
simulated game (card by card, a fixed seed) whose places are put on the players we want by
seating them (the simulator plays seats, not names). Each giornata's order of arrival and the
ratios of its places are below; the titles, series and league points were worked out by hand
from SPEC §8 and are asserted against what the ledger stored.

2024-25 (closed), everybody from Serie A:
  G1 seed 28  Anna, Bruno, Carla, Dario   ratios 1.00 0.89 0.76 0.01  totals 55 49 42 1
     Anna Scudetto 2.00 · Bruno UEFA 1.19 · Carla Coppa Italia 0.86 · Dario Retr. -0.09 (→ B)
  G2 seed 21  Anna, Carla, Bruno, Dario   ratios 1.00 0.43 0.12 0.01  totals 89 39 11 1
     Anna Scudetto + Coppa dei Campioni 3.50 · Carla UEFA 0.73 · Bruno C.I. 0.22 ·
     Dario -0.09 (→ C1)
  G3 seed 29  Anna, Dario, Bruno, Carla   ratios 1.00 0.81 0.15 0.00  totals 64 52 10 0
     Anna Scudetto + CdC + Intercontinentale 6.00 · Dario (C1) 0.81 · Bruno C.I. 0.25 ·
     Carla -0.10 (→ B)
  G4 seed 17  Bruno, Anna, Dario, Carla   ratios 1.00 0.20 0.02 -0.08 totals 114 23 3 -8
     Bruno Scudetto 2.00 · Anna UEFA 0.50 · Dario (C1) 0.02 · Carla -0.18 (→ C1)
  Classifica: Anna 12.00, Bruno 3.66, Carla 1.31, Dario 0.65. Final series A, A, C1, C1.

2025-26 (open), series carried over (Anna A, Bruno A, Carla C1, Dario C1):
  G1 seed 1   Carla, Dario, Anna, Bruno   ratios 1.00 0.80 0.52 0.09
     Carla (C1 → B, no Scudetto) 1.00 · Dario 0.80 · Anna C.I. 0.62 · Bruno -0.01 (A → B)
  G2 seed 16  Anna, Carla, Bruno, Dario   ratios 1.00 0.25 0.13 0.03  (one cappotto)
     Anna Scudetto 2.00 · Carla (B) 0.25 · Bruno C.I. (B) 0.23 · Dario -0.07 (C1 → C2)
  Classifica: Anna 2.62, Carla 1.25, Dario 0.73, Bruno 0.22.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Enrollment, Season, SeasonEvent, Seat, Smazzata, Standing, Turno
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.selectors_history import albo_doro, member_history
from scoring.services.ledger import ledger_differences
from scoring.services.season import enrollment_add, season_create, season_recompute
from scoring.services.season_rules import season_rules_update
from scoring.services.seasons_close import season_close, season_new
from scoring.services.turni import turno_close, turno_reopen, turno_start
from tests.conftest import kept_for_the_scope
from tests.helpers import record_smazzate

D = Decimal
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
S1_GIORNATE = [
    (dt.date(2025, 1, 10), 28, ["Anna", "Bruno", "Carla", "Dario"]),
    (dt.date(2025, 1, 17), 21, ["Anna", "Carla", "Bruno", "Dario"]),
    (dt.date(2025, 1, 24), 29, ["Anna", "Dario", "Bruno", "Carla"]),
    (dt.date(2025, 1, 31), 17, ["Bruno", "Anna", "Dario", "Carla"]),
]
S2_GIORNATE = [
    (dt.date(2025, 10, 3), 1, ["Carla", "Dario", "Anna", "Bruno"]),
    (dt.date(2025, 10, 10), 16, ["Anna", "Carla", "Bruno", "Dario"]),
]


def _seating(seed: int, order: list[str]) -> list[str]:
    """Seat the players so that the simulated game of ``seed`` ends in ``order``."""
    seats = [f"P{i}" for i in range(len(order))]
    record = simulate_turno(caf(), seats, random.Random(seed), first_dealer=seats[0])
    by_place = score_turno(caf(), record, require_complete=True).order()
    seating = [""] * len(order)
    for name, seat in zip(order, by_place, strict=True):
        seating[int(seat[1:])] = name
    return seating


def play(season: Season, date: dt.date, seed: int, order: list[str], close: bool = True) -> Turno:
    players = _seating(seed, order)
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    record_smazzate(turno, record.smazzate)
    if close:
        turno_close(turno=turno, tiebreak=record.tiebreak)
    return turno


def cappotti_of(seed: int, order: list[str]) -> list[str]:
    """Who made a cappotto in the simulated game (SPEC §6: every heart at N♥, every trick at
    NF; 13 of each with four players), read from the counts, not from the ledger."""
    players = _seating(seed, order)
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    return [
        name
        for sm in record.smazzate
        if sm.game in ("NH", "NF")
        for name, count in sm.result.items()
        if count == 13
    ]


@pytest.fixture(scope="module")
def _club(django_db_setup, django_db_blocker) -> Iterator[tuple[int, int]]:
    """The members, the segretario and the first season (open), built once for the module
    (tests/conftest.py, kept_for_the_scope): each test sees them in a savepoint rolled back
    after it. Its keys: the season's and the segretario's."""
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            from django.contrib.auth.models import Group, User

            from scoring.models import Player

            user = User.objects.create_user(username="segretario", password="pw-kingclub-1")
            user.groups.add(Group.objects.get_or_create(name="Segretario")[0])
            for name in PLAYERS:
                Player.objects.create(name=name)
            season = season_create(name="2024-25", current=False)
            for date, seed, order in S1_GIORNATE:
                play(season, date, seed, order)
        yield season.pk, user.pk


@pytest.fixture
def segretario(db, _club):
    """The module's segretario (tests/conftest.py makes one per test elsewhere)."""
    from django.contrib.auth.models import User

    return User.objects.get(pk=_club[1])


@pytest.fixture
def members(db, _club) -> None:
    """Anna, Bruno, Carla and Dario (with the first season: they are the module's data)."""


@pytest.fixture
def s1(members, _club) -> Season:
    return Season.objects.get(pk=_club[0])


@pytest.fixture(scope="class")
def _two_seasons(_club, django_db_blocker) -> Iterator[tuple[int, int]]:
    """The first season closed and the second (carried over from it) played, on the module's
    club, built once for the class of the tests that ask for ``two_seasons``
    (``TestTwoSeasons``: a scope kept inside the module's; it was built for each of its 10
    tests)."""
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            from django.contrib.auth.models import User

            s1 = Season.objects.get(pk=_club[0])
            segretario = User.objects.get(pk=_club[1])
            season_close(season=s1, user=segretario, reason="fine del campionato 2024-25")
            s2 = season_new(name="2025-26", series_origin="carried", source=s1, user=segretario)
            for date, seed, order in S2_GIORNATE:
                play(s2, date, seed, order)
        yield s1.pk, s2.pk


@pytest.fixture
def two_seasons(members, _two_seasons) -> tuple[Season, Season]:
    return Season.objects.get(pk=_two_seasons[0]), Season.objects.get(pk=_two_seasons[1])


def _standing(season: Season) -> dict[str, tuple[int, Decimal, str]]:
    return {
        s.player.name: (s.place, s.score, s.series)
        for s in Standing.objects.filter(season=season).select_related("player")
    }


# -- closing a season ---------------------------------------------------------------------------
def test_season_close_sets_the_date_the_user_and_the_audit_trail(s1, segretario):
    closed = season_close(season=s1, user=segretario, reason="fine del campionato")
    assert closed.closed_at is not None and closed.closed_by == segretario
    event = SeasonEvent.objects.get(season=s1, kind="close")
    assert (event.reason, event.user) == ("fine del campionato", segretario)


def test_season_close_refuses_a_turno_in_progress_and_changes_nothing(s1, segretario):
    play(s1, dt.date(2025, 2, 7), 1, ["Anna", "Bruno", "Carla", "Dario"], close=False)
    with pytest.raises(RuleViolation) as exc:
        season_close(season=s1, user=segretario, reason="fine")
    problem = exc.value.problems[0]
    assert problem.code == "SEASON_TURNO_IN_PROGRESS"
    assert problem.message == (
        "la stagione 2024-25 ha ancora 1 turno/i in corso (07/02/2025 #1): chiuderli o "
        "eliminarli prima di chiudere la stagione"
    )
    s1.refresh_from_db()
    assert s1.closed_at is None
    assert not SeasonEvent.objects.filter(season=s1, kind="close").exists()


def test_season_close_refuses_a_season_already_closed_and_an_empty_reason(s1, segretario):
    with pytest.raises(RuleViolation) as exc:
        season_close(season=s1, user=segretario, reason="   ")
    assert exc.value.problems[0].message == "per chiudere la stagione serve una motivazione"
    season_close(season=s1, user=segretario, reason="fine")
    with pytest.raises(RuleViolation) as exc:
        season_close(season=s1, user=segretario, reason="ancora")
    assert exc.value.problems[0].code == "SEASON_ALREADY_CLOSED"
    assert exc.value.problems[0].message.startswith("la stagione 2024-25 è già chiusa (il ")
    assert SeasonEvent.objects.filter(season=s1, kind="close").count() == 1


def test_a_season_without_closed_turni_cannot_be_closed(db):
    season = season_create(name="vuota", current=False)
    with pytest.raises(RuleViolation) as exc:
        season_close(season=season, reason="fine")
    assert exc.value.problems[0].code == "SEASON_EMPTY"


def test_a_closed_season_refuses_new_turni_reopens_rules_and_roster(s1, segretario, db_dump):
    season_close(season=s1, user=segretario, reason="fine")
    before = db_dump()
    last = Turno.objects.filter(season=s1).order_by("-giornata__date").first()
    attempts = [
        lambda: turno_start(
            season=s1, date=dt.date(2025, 2, 7), players=PLAYERS, first_dealer="Anna"
        ),
        lambda: turno_reopen(turno=last, reason="un errore", user=segretario),
        lambda: season_rules_update(season=s1, rules=s1.rules, recompute=True, reason="x"),
        lambda: enrollment_add(season=s1, player=Enrollment.objects.first().player),
    ]
    for attempt in attempts:
        with pytest.raises(RuleViolation) as exc:
            attempt()
        assert exc.value.problems[0].code == "SEASON_CLOSED"
        assert exc.value.problems[0].message.startswith("la stagione 2024-25 è chiusa (il ")
    assert db_dump() == before


def test_a_closed_generic_season_refuses_a_reopen(members, segretario):
    from scoring.demo_games import game_season
    from scoring.services.games import game_turno_reopen

    season = game_season(
        code="ramino-101", name="Ramino 2025", players=PLAYERS, giornate=1, attendance=1.0
    )
    season_close(season=season, user=segretario, reason="fine")
    turno = Turno.objects.get(season=season)
    page = Client().get(reverse("scoring:classifica", args=[season.pk])).text
    assert 'data-final="1"' in page
    with pytest.raises(RuleViolation) as exc:
        game_turno_reopen(turno=turno, reason="errore", user=segretario)
    assert exc.value.problems[0].code == "SEASON_CLOSED"
    turno.refresh_from_db()
    assert not turno.is_open


# -- a new season: carried over or reset ---------------------------------------------------------
def test_reset_gives_serie_a_to_everybody(s1, segretario):
    season_close(season=s1, user=segretario, reason="fine")
    s2 = season_new(name="2025-26", series_origin="reset", source=s1, user=segretario)
    assert (s2.series_origin, s2.series_source, s2.start_series) == ("reset", s1, {})
    play(s2, dt.date(2025, 10, 3), 1, ["Carla", "Dario", "Anna", "Bruno"])
    seats = Seat.objects.filter(turno__season=s2)
    assert {s.player.name: s.series_before for s in seats} == dict.fromkeys(PLAYERS, "A")
    carla = seats.get(player__name="Carla")
    assert (carla.titles, carla.league_points) == (["SCUDETTO"], D("2.00"))
    assert SeasonEvent.objects.get(season=s2, kind="create").reason == (
        "segue la stagione 2024-25: tutti ripartono dalla serie iniziale"
    )


def test_carry_over_needs_a_closed_caf_source(s1):
    with pytest.raises(RuleViolation) as exc:
        season_new(name="2025-26", series_origin="carried", source=s1)
    assert exc.value.problems[0].code == "SERIES_SOURCE_OPEN"
    with pytest.raises(RuleViolation) as exc:
        season_new(name="2025-26", series_origin="carried")
    assert exc.value.problems[0].code == "SERIES_SOURCE_MISSING"
    season_close(season=s1, reason="fine")
    with pytest.raises(RuleViolation) as exc:
        season_new(name="Skat", ruleset_code="skat-isko", series_origin="carried", source=s1)
    assert exc.value.problems[0].code == "SERIES_NOT_IN_GAME"
    assert not Season.objects.filter(name__in=["2025-26", "Skat"]).exists()


# -- the pages ----------------------------------------------------------------------------------
def test_the_segretario_closes_a_season_from_the_dashboard(segretario_client, s1):
    dashboard = segretario_client.get(reverse("scoring:segreteria") + f"?stagione={s1.pk}")
    url = reverse("scoring:season_close", args=[s1.pk])
    assert url in dashboard.text
    refused = segretario_client.post(url, {"reason": "fine"})  # no confirmation ticked
    assert refused.status_code == 422
    s1.refresh_from_db()
    assert s1.closed_at is None
    done = segretario_client.post(url, {"reason": "fine", "confirm": "on"})
    assert done.status_code == 302 and done.url == reverse("scoring:albo")
    s1.refresh_from_db()
    assert s1.closed_at is not None
    again = segretario_client.post(url, {"reason": "di nuovo", "confirm": "on"})
    assert again.status_code == 422 and "è già chiusa" in again.text


def test_season_close_refused_for_a_turno_in_progress_in_the_page(segretario_client, s1):
    play(s1, dt.date(2025, 2, 7), 1, PLAYERS, close=False)
    url = reverse("scoring:season_close", args=[s1.pk])
    response = segretario_client.post(url, {"reason": "fine", "confirm": "on"})
    assert response.status_code == 422
    assert "ha ancora 1 turno/i in corso" in response.text


def test_only_the_segretario_closes_or_creates_seasons(client, socio, s1):
    client.force_login(socio)
    url = reverse("scoring:season_close", args=[s1.pk])
    assert client.post(url, {"reason": "fine", "confirm": "on"}).status_code == 403
    assert client.get(reverse("scoring:season_new")).status_code == 403
    s1.refresh_from_db()
    assert s1.closed_at is None


def test_the_new_season_form_carries_the_series_over(segretario_client, s1, segretario):
    season_close(season=s1, user=segretario, reason="fine")
    form = segretario_client.get(reverse("scoring:season_new"))
    assert form.status_code == 200 and 'value="carried"' in form.text
    response = segretario_client.post(
        reverse("scoring:season_new"),
        {
            "name": "2025-26",
            "ruleset_code": "caf",
            "series_origin": "carried",
            "source": s1.pk,
            "current": "on",
        },
    )
    assert response.status_code == 302
    s2 = Season.objects.get(name="2025-26")
    assert (s2.series_origin, s2.series_source_id, s2.is_current) == ("carried", s1.pk, True)
    assert sorted(s2.start_series.values()) == ["A", "A", "C1", "C1"]
    bad = segretario_client.post(
        reverse("scoring:season_new"),
        {"name": "2026-27", "ruleset_code": "caf", "series_origin": "carried"},
    )
    assert bad.status_code == 422
    assert "per riportare le serie va indicata la stagione chiusa" in bad.text


def test_albo_and_season_close_pages_in_english(client, segretario_client, s1):
    page = client.get(reverse("scoring:albo"), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Roll of honour" in page and "Club records" in page and "Leading" in page
    close = segretario_client.get(
        reverse("scoring:season_close", args=[s1.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).text
    assert "Close the season 2024-25" in close and "Reason for closing" in close


def test_the_admin_keeps_a_closed_season_frozen(client, admin_user, make_season, segretario):
    import json

    season = make_season(giornate=2, seed=3)
    season_close(season=season, user=segretario, reason="fine")
    client.force_login(admin_user)
    url = f"/admin/scoring/season/{season.pk}/change/"
    page = client.get(url).text
    assert "Chiusa il" in page and "Serie riportate dalla stagione" in page
    rules = dict(season.rules)
    rules["games"] = dict(rules["games"])
    rules["games"]["NQS"] = {**rules["games"]["NQS"], "per_unit": -10}
    data = {
        "name": season.name,
        "ruleset_code": "caf",
        "rules": json.dumps(rules),
        "is_current": "on",
        "recompute": "on",
        "reason": "il circolo passa a -10",
        "enrollments-TOTAL_FORMS": "0",
        "enrollments-INITIAL_FORMS": "0",
        "enrollments-MIN_NUM_FORMS": "0",
        "enrollments-MAX_NUM_FORMS": "1000",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert "La stagione è chiusa: il regolamento non si cambia più." in response.text
    assert Season.objects.get(pk=season.pk).rules["games"]["NQS"]["per_unit"] == -8
    from scoring.models import Player

    newcomer = Player.objects.create(name="Zeno")
    added = client.post(
        "/admin/scoring/enrollment/add/", {"season": season.pk, "player": newcomer.pk}
    )
    assert added.status_code == 200  # the closed season is not a choice: the form says so
    assert not Enrollment.objects.filter(season=season, player=newcomer).exists()


def test_the_engine_starts_a_season_from_the_series_it_is_given():
    from scoring.rules.caf import TableResult, play_season, starting_state

    rules = caf()
    table = TableResult(
        key=1,
        date=dt.date(2025, 10, 3),
        number=1,
        order=("Carla", "Anna", "Bruno", "Dario"),
        ratios={"Carla": D("1.00"), "Anna": D("0.50"), "Bruno": D("0.40"), "Dario": D("0.10")},
        sanctions=(),
    )
    carried = play_season(rules, PLAYERS, [table], starting_state(rules, {"Carla": "C1"}))
    outcome = carried.tables[1]
    assert (outcome.series_before["Carla"], outcome.series_after["Carla"]) == ("C1", "B")
    assert outcome.titles["Carla"] == () and outcome.titles["Anna"] == ("UEFA",)
    assert outcome.league_points["Carla"] == D("1.00")
    fresh = play_season(rules, PLAYERS, [table]).tables[1]
    assert fresh.titles["Carla"] == ("SCUDETTO",) and fresh.league_points["Carla"] == D("2.00")
    with pytest.raises(RuleViolation) as exc:
        starting_state(rules, {"Anna": "Z9"})
    assert exc.value.problems[0].code == "START_SERIES_UNKNOWN"


@pytest.mark.parametrize(
    "code", ["king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]
)
def test_the_new_season_form_accepts_its_defaults_for_every_game(
    segretario_client, s1, segretario, code
):
    """Issue 25, defect 10: the defaults (carry the series of the last closed season) were
    refused for a game without series, asking for an option no label carried."""
    season_close(season=s1, user=segretario, reason="fine")
    form = segretario_client.get(reverse("scoring:season_new")).text
    assert "ripartire da zero: tutti dalla serie iniziale" in form  # the label the message names
    response = segretario_client.post(
        reverse("scoring:season_new"),
        {"name": "Nuova", "ruleset_code": code, "series_origin": "carried", "source": s1.pk},
    )
    assert response.status_code == 302
    made = Season.objects.get(name="Nuova")
    assert (made.ruleset_code, made.series_origin, made.series_source, made.start_series) == (
        code,
        "reset",
        None,
        {},
    )


# -- on two seasons: the first closed, the second carried over from it ----------------------
class TestTwoSeasons:
    """The tests on the first season closed and the second played on it (``two_seasons``,
    built once for the class on the module's club)."""

    # the fixture is what the docstring says
    def test_the_fixture_holds_the_hand_computed_places_titles_and_league_points(self, two_seasons):
        s1, s2 = two_seasons
        seats = {
            (s.turno.season.name, s.turno.giornata.date, s.player.name): s
            for s in Seat.objects.select_related("turno__season", "turno__giornata", "player")
        }
        for season, giornate in (("2024-25", S1_GIORNATE), ("2025-26", S2_GIORNATE)):
            for date, _seed, order in giornate:
                assert [seats[(season, date, n)].place for n in order] == [1, 2, 3, 4]
        g3 = seats[("2024-25", dt.date(2025, 1, 24), "Anna")]
        assert g3.titles == ["SCUDETTO", "COPPA_CAMPIONI", "INTERCONTINENTALE"]
        assert g3.league_points == D("6.00")
        assert seats[("2024-25", dt.date(2025, 1, 31), "Bruno")].total == 114
        assert _standing(s1) == {
            "Anna": (1, D("12.00"), "A"),
            "Bruno": (2, D("3.66"), "A"),
            "Carla": (3, D("1.31"), "C1"),
            "Dario": (4, D("0.65"), "C1"),
        }
        assert _standing(s2) == {
            "Anna": (1, D("2.62"), "A"),
            "Carla": (2, D("1.25"), "B"),
            "Dario": (3, D("0.73"), "C2"),
            "Bruno": (4, D("0.22"), "B"),
        }

    # a new season carried over
    def test_carried_series_start_the_new_season_and_replay_clean(self, two_seasons):
        s1, s2 = two_seasons
        assert (s2.series_origin, s2.series_source) == ("carried", s1)
        names = {e.player.pk: e.player.name for e in Enrollment.objects.select_related("player")}
        assert {names[int(pk)]: c for pk, c in s2.start_series.items()} == {
            "Anna": "A",
            "Bruno": "A",
            "Carla": "C1",
            "Dario": "C1",
        }
        first = Seat.objects.filter(turno__season=s2, turno__giornata__date=dt.date(2025, 10, 3))
        assert {s.player.name: (s.series_before, s.series_after, s.titles) for s in first} == {
            "Carla": ("C1", "B", []),
            "Dario": ("C1", "C1", []),
            "Anna": ("A", "A", ["COPPA_ITALIA"]),
            "Bruno": ("A", "B", ["RETROCESSIONE"]),
        }
        assert ledger_differences(seasons=[s1, s2]) == []
        season_recompute(season=s2)  # a full replay from the start keeps every value
        assert ledger_differences(seasons=[s2]) == []
        assert _standing(s2)["Carla"] == (2, D("1.25"), "B")

    def test_check_ledger_sees_carried_series_that_are_not_the_source_final_ones(
        self, two_seasons, ledger_unchecked
    ):
        _s1, s2 = two_seasons
        wrong = {pk: "A" for pk in s2.start_series}
        Season.objects.filter(pk=s2.pk).update(start_series=wrong)
        s2.refresh_from_db()
        fields = {d.field for d in ledger_differences(seasons=[s2])}
        assert "serie finali riportate" in fields
        assert "serie prima" in fields  # the stored seats started from C1, the replay from A

    def test_a_late_member_of_a_carried_season_starts_from_the_top(self, two_seasons):
        from scoring.models import Player

        _s1, s2 = two_seasons
        elena = Player.objects.create(name="Elena")
        enrollment_add(season=s2, player=elena)
        assert Standing.objects.get(season=s2, player=elena).series == "A"

    # the Albo d'oro
    def test_albo_doro_values_computed_by_hand(self, two_seasons):
        albo = albo_doro()
        s2_row, s1_row = albo.seasons
        assert s1_row.season.name == "2024-25" and s1_row.closed and not s1_row.provisional
        assert [(c.name, c.score) for c in s1_row.champions] == [("Anna", D("12.00"))]
        assert s1_row.turni == 4
        assert [(w.name, w.count) for w in s1_row.titles["SCUDETTO"]] == [("Anna", 3), ("Bruno", 1)]
        assert s1_row.title_totals == {"SCUDETTO": 4, "COPPA_CAMPIONI": 2, "INTERCONTINENTALE": 1}
        assert [(w.name, w.count) for w in s1_row.titles["COPPA_CAMPIONI"]] == [("Anna", 2)]
        assert [(w.name, w.count) for w in s1_row.titles["INTERCONTINENTALE"]] == [("Anna", 1)]

        assert s2_row.season.name == "2025-26" and s2_row.provisional
        assert [(c.name, c.score) for c in s2_row.champions] == [("Anna", D("2.62"))]
        assert s2_row.title_totals == {"SCUDETTO": 1}

        records = {r.code: r for r in albo.records}

        def holders(code):
            return [(h.name, h.season, h.where) for h in records[code].holders]

        assert records["BEST_TURNO"].value == D("6.00")
        assert holders("BEST_TURNO") == [("Anna", "2024-25", "24/01/2025 #1")]
        assert records["BEST_RATIO"].value == D("0.89")
        assert holders("BEST_RATIO") == [("Bruno", "2024-25", "10/01/2025 #1")]
        assert records["BEST_TOTAL"].value == 114
        assert holders("BEST_TOTAL") == [("Bruno", "2024-25", "31/01/2025 #1")]
        assert records["MOST_SCUDETTI"].value == 4
        assert holders("MOST_SCUDETTI") == [("Anna", "", "")]
        assert records["STREAK"].value == 3
        assert holders("STREAK") == [("Anna", "2024-25", "10/01/2025 – 24/01/2025")]
        made = [
            name
            for date, seed, order in S1_GIORNATE + S2_GIORNATE
            for name in cappotti_of(seed, order)
        ]
        assert len(made) == 1  # the fixture holds one cappotto (2025-26, second giornata)
        assert records["CAPPOTTI_TOTAL"].value == 1
        assert holders("MOST_CAPPOTTI") == [(made[0], "", "")]
        assert records["MOST_CAPPOTTI"].value == 1
        assert Smazzata.objects.filter(cappotto__name=made[0]).count() == 1

    def test_albo_doro_queries_do_not_grow_with_the_seasons(self, two_seasons, segretario):
        from scoring.demo_games import game_season

        def count() -> int:
            with CaptureQueriesContext(connection) as ctx:
                albo_doro()
            return len(ctx.captured_queries)

        two = count()
        # seasons, champions, turni, titles; two per turno record (best value, holders); Scudetti,
        # cappotti; giornate and Scudetti for the streak
        assert two == 14
        game_season(
            code="ramino-101", name="Ramino 2025", players=PLAYERS, giornate=1, attendance=1.0
        )
        s3 = season_create(name="2026-27", current=False)
        play(s3, dt.date(2026, 10, 2), 28, PLAYERS)
        assert count() == two
        generic = next(r for r in albo_doro().seasons if r.season.name == "Ramino 2025")
        assert len(generic.champions) >= 1 and generic.season.system.ledger == "records"

    # the pages
    def test_albo_page_shows_champions_titles_and_records(self, client, two_seasons):
        s1, _s2 = two_seasons
        response = client.get(reverse("scoring:albo"))
        assert response.status_code == 200
        html = response.content.decode()
        assert 'data-season="2024-25"' in html and 'data-season="2025-26"' in html
        assert 'data-provisional="1"' in html
        assert 'data-total="4"' in html  # the Scudetti of 2024-25
        assert reverse("scoring:classifica", args=[s1.pk]) in html
        assert 'data-value="114"' in html

    def test_the_classifica_of_a_closed_season_says_it_is_final(self, client, two_seasons):
        s1, s2 = two_seasons
        assert 'data-final="1"' in client.get(reverse("scoring:classifica", args=[s1.pk])).text
        assert 'data-final="1"' not in client.get(reverse("scoring:classifica", args=[s2.pk])).text

    def test_member_history_across_seasons(self, client, two_seasons):
        from scoring.models import Player

        carla = Player.objects.get(name="Carla")
        history = member_history(carla)
        assert [m.season.name for m in history.seasons] == ["2025-26", "2024-25"]
        new, old = history.seasons
        assert (old.place, old.of, old.score, old.start_series, old.end_series) == (
            3,
            4,
            D("1.31"),
            "A",
            "C1",
        )
        assert old.path == ["A", "B", "C1"]
        assert (new.start_series, new.path, new.place) == ("C1", ["C1", "B"], 2)
        assert history.seasons_played == 2 and history.championships == 0
        assert history.titles == {"COPPA_ITALIA": 1, "UEFA": 1, "RETROCESSIONE": 2}
        anna = member_history(Player.objects.get(name="Anna"))
        assert anna.championships == 1  # 2024-25, closed; 2025-26 is still open
        assert anna.titles["SCUDETTO"] == 4
        page = client.get(reverse("scoring:player_history", args=[carla.pk]))
        assert page.status_code == 200
        assert 'data-season="2024-25"' in page.text and "badge-champion" not in page.text
        season_page = client.get(reverse("scoring:player", args=[carla.pk])).text
        assert reverse("scoring:player_history", args=[carla.pk]) in season_page

    # the backup
    def test_a_backup_restores_the_closed_season_and_the_carried_series(
        self, two_seasons, tmp_path, sequences_high_water
    ):
        import io

        from django.core.management import call_command

        path = tmp_path / "club.json"
        call_command("backup", str(path), stdout=io.StringIO())
        call_command("restore", str(path), "--force", stdout=io.StringIO())
        s1, s2 = Season.objects.get(name="2024-25"), Season.objects.get(name="2025-26")
        assert s1.closed_at is not None and s1.closed_by.username == "segretario"
        assert (s2.series_origin, s2.series_source, s2.closed_at) == ("carried", s1, None)
        assert sorted(s2.start_series.values()) == ["A", "A", "C1", "C1"]
        assert ledger_differences() == []
