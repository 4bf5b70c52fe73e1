"""The generic ledger: a Ramino 101 match kept through the services, number by number."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation

from scoring import api
from scoring.models import Player, Result, Seat, Smazzata, Standing, Turno, TurnoEvent
from scoring.problem_text import localized
from scoring.rules.problems import RuleViolation
from scoring.services.games import (
    game_check,
    game_differences,
    game_record,
    game_turni,
    game_turno_close,
    game_turno_reopen,
)
from scoring.services.season import season_create
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db
SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "ramino-sample.json"
P4 = ["Anna", "Bruno", "Carla", "Dario"]


def worked() -> list[dict]:
    return json.loads(SAMPLE.read_text())["turni"][0]["smazzate"]


def records(turno: Turno) -> list[dict]:
    """The turno's smazzate as recorded, players by name (stored by seat)."""
    return game_record(game_turni(Turno.objects.filter(pk=turno.pk)).get())["smazzate"]


@pytest.fixture
def season():
    for name in [*P4, "Elena"]:
        Player.objects.create(name=name)
    return season_create(name="Ramino 2026-27", ruleset_code="ramino-101")


def start(season, players=P4, day=20):
    return turno_start(
        season=season, date=dt.date(2026, 11, day), players=players, first_dealer=players[0]
    )


def totals(turno) -> dict[str, int]:
    return {s.player.name: s.total for s in Seat.objects.filter(turno=turno)}


def test_a_season_gets_the_systems_rule_table(season):
    assert season.system.ledger == "records"
    assert season.rules["elimination"] == 101
    assert season.game_rules.max_penalty == 104


def test_the_worked_match_through_the_services(season):
    turno = start(season)
    expected_totals = [
        {"Anna": 34, "Bruno": -10, "Carla": 12, "Dario": 55},
        {"Anna": 62, "Bruno": 30, "Carla": -13, "Dario": 100},
        {"Anna": 65, "Bruno": 48, "Carla": 47, "Dario": 65},  # Dario re-entered at 65
        {"Anna": 67, "Bruno": 105, "Carla": 67, "Dario": 15},  # Bruno out at 105
        {"Anna": 97, "Bruno": 105, "Carla": 57, "Dario": 59},
        {"Anna": 101, "Bruno": 105, "Carla": 49, "Dario": 49},
        {"Anna": 101, "Bruno": 105, "Carla": 39, "Dario": 101},
    ]
    for k, (hand, want) in enumerate(zip(worked(), expected_totals, strict=True), start=1):
        sm = api.smazzata_record(turno=turno, record=hand, number=k)
        assert totals(turno) == want, k
    sm = Smazzata.objects.get(turno=turno, number=4)
    assert (sm.game, sm.caller.name, sm.dealer.name) == ("FIGURA", "Dario", "Dario")
    points = {r.player.name: r.points for r in Result.objects.filter(smazzata=sm)}
    assert points == {"Anna": 40, "Bruno": 57, "Carla": 20, "Dario": -50}
    fifth = Smazzata.objects.get(turno=turno, number=5)
    assert fifth.dealer.name == "Anna"
    assert Result.objects.filter(smazzata=fifth).count() == 3  # Bruno is out
    closed = game_turno_close(turno=turno)
    assert closed.verbale_number == 1
    assert closed.winner.name == "Carla"
    seats = {s.player.name: s for s in Seat.objects.filter(turno=turno)}
    assert {n: s.place for n, s in seats.items()} == {"Anna": 3, "Bruno": 4, "Carla": 1, "Dario": 2}
    assert {n: s.league_points for n, s in seats.items()} == {
        "Anna": Decimal(1), "Bruno": Decimal(0), "Carla": Decimal(3), "Dario": Decimal(2)
    }  # fmt: skip
    assert seats["Dario"].extra == {"reentries": 1, "fees": "1.00", "league_points": 2}
    rows = list(Standing.objects.filter(season=season).order_by("place", "player__name"))
    assert [(r.player.name, r.place, r.score) for r in rows] == [
        ("Carla", 1, Decimal(3)),
        ("Dario", 2, Decimal(2)),
        ("Anna", 3, Decimal(1)),
        ("Bruno", 4, Decimal(0)),
    ]
    assert rows[0].extra == {"league_points": 3, "turni": 1, "wins": 1}
    assert game_check(season) == []


def test_a_rejected_smazzata_changes_nothing(season):
    turno = start(season)
    api.smazzata_record(turno=turno, record=worked()[0])
    with pytest.raises(RuleViolation) as exc:
        api.smazzata_record(
            turno=turno,
            record={"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 200, "Zoe": 1}},
        )
    assert [(p.code, p.smazzata, p.player) for p in exc.value.problems] == [
        ("PENALTY_RANGE", 2, "Bruno"),
        ("UNKNOWN_PLAYER", 2, "Zoe"),
        ("PENALTIES_PLAYERS", 2, "Carla"),
        ("PENALTIES_PLAYERS", 2, "Dario"),
    ]
    assert Smazzata.objects.filter(turno=turno).count() == 1
    assert totals(turno) == {"Anna": 34, "Bruno": -10, "Carla": 12, "Dario": 55}
    with pytest.raises(RuleViolation) as exc:
        api.smazzata_record(turno=turno, record=worked()[1], number=1)
    assert exc.value.problems[0].code == "SMAZZATA_ALREADY_RECORDED"


def test_undo_and_correct_any_smazzata(season):
    turno = start(season)
    for hand in worked()[:4]:
        api.smazzata_record(turno=turno, record=hand)
    assert api.smazzata_undo(turno=turno) == 4
    assert totals(turno) == {"Anna": 65, "Bruno": 48, "Carla": 47, "Dario": 65}
    # smazzata 2 corrected: Dario 45 -> 44, so smazzata 3 no longer eliminates him, and its
    # re-entry becomes illegal: nothing is saved, and the problems name smazzata 3 (by number,
    # first the one that says so, then the engine's own, on no field of the corrected deal)
    bad = {**worked()[1], "penalties": {"Anna": 28, "Bruno": 40, "Dario": 44}}
    with pytest.raises(RuleViolation) as exc:
        api.smazzata_correct(turno=turno, number=2, record=bad)
    assert [(p.code, p.smazzata, p.player, p.field) for p in exc.value.problems] == [
        ("CORRECTION_BREAKS_LATER", 3, None, None),
        ("REENTRY_NOT_ELIGIBLE", 3, None, None),
    ]
    assert exc.value.problems[0].message == (
        "con questa correzione la smazzata 3 non è più valida: correggere prima quella"
    )
    with translation.override("en"):
        assert localized(exc.value.problems[0]).message == (
            "With this correction smazzata 3 is no longer valid: correct that one first."
        )
    assert records(turno)[1] == worked()[1]
    # a correction that keeps the rest legal re-scores 2..end
    good = {**worked()[1], "penalties": {"Anna": 20, "Bruno": 40, "Dario": 45}}
    api.smazzata_correct(turno=turno, number=2, record=good)
    assert totals(turno) == {"Anna": 57, "Bruno": 48, "Carla": 47, "Dario": 57}
    third = Smazzata.objects.get(turno=turno, number=3)
    assert {r.player.name: r.points for r in third.results.all()} == {
        "Anna": 3, "Bruno": 18, "Carla": 60, "Dario": 1
    }  # fmt: skip
    assert game_check(season) == []


def test_close_needs_a_finished_match_and_a_settled_tie_then_reopen(season):
    players = ["Anna", "Bruno", "Carla"]
    turno = start(season, players)
    with pytest.raises(RuleViolation) as exc:
        game_turno_close(turno=turno)
    assert exc.value.problems[0].code == "MATCH_UNFINISHED"
    api.smazzata_record(
        turno=turno,
        record={"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 101, "Carla": 101}},
    )
    with pytest.raises(RuleViolation) as exc:
        game_turno_close(turno=turno)
    assert [p.code for p in exc.value.problems] == ["TIE_UNSETTLED"]
    assert season.system.ties(season.game_rules, {
        "players": players, "first_dealer": "Anna",
        "smazzate": records(turno),
    }) == [["Bruno", "Carla"]]  # fmt: skip
    game_turno_close(turno=turno, tiebreak=["Carla", "Bruno"])
    seats = {s.player.name: (s.place, s.tiebreak_rank) for s in Seat.objects.filter(turno=turno)}
    assert seats == {"Anna": (1, None), "Bruno": (3, 2), "Carla": (2, 1)}
    with pytest.raises(RuleViolation):
        game_turno_reopen(turno=turno, reason="  ")
    game_turno_reopen(turno=turno, reason="punti di Bruno sbagliati")
    turno.refresh_from_db()
    assert turno.is_open and turno.winner is None
    assert TurnoEvent.objects.filter(turno=turno, kind="reopen").get().reason == (
        "punti di Bruno sbagliati"
    )
    assert not Standing.objects.filter(season=season, score__gt=0).exists()
    closed = game_turno_close(turno=turno)  # the recorded draw is kept
    assert closed.verbale_number == 1
    assert game_check(season) == []


def test_check_finds_a_stored_number_that_differs(season, ledger_unchecked):
    turno = start(season)
    for hand in worked():
        api.smazzata_record(turno=turno, record=hand)
    game_turno_close(turno=turno)
    Result.objects.filter(smazzata__turno=turno, smazzata__number=1, player__name="Anna").update(
        points=35
    )
    Standing.objects.filter(season=season, player__name="Carla").update(score=4)
    found = game_differences(season)
    assert [(d.where, d.field, d.stored, d.expected) for d in found] == [
        (
            f"{turno.label} smazzata 1",
            "points",
            {"Anna": 35, "Bruno": -10, "Carla": 12, "Dario": 55},
            {"Anna": 34, "Bruno": -10, "Carla": 12, "Dario": 55},
        ),
        ("classifica, Carla", "score", Decimal(4), Decimal(3)),
    ]


def test_one_path_records_a_caf_deal_too_checked_by_its_system(season, make_season):
    caf = make_season(name="CAF")
    turno = Turno.objects.filter(season=caf).first()
    with pytest.raises(RuleViolation) as exc:
        api.smazzata_record(turno=turno, record={})
    assert [(p.code, p.field) for p in exc.value.problems] == [
        ("GAME_MISSING", "game"),
        ("CALLER_MISSING", "caller"),
        ("RESULT_MISSING", "result"),
    ]


def test_the_admin_creates_a_season_of_each_game(admin_user, client):
    from scoring.models import Season
    from scoring.rules.systems import systems

    client.force_login(admin_user)
    for system in systems():
        response = client.post(
            "/admin/scoring/season/add/",
            {
                "name": f"Stagione {system.code}",
                "ruleset_code": system.code,
                "rules": "{}",
                "enrollments-TOTAL_FORMS": "0",
                "enrollments-INITIAL_FORMS": "0",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        season = Season.objects.get(name=f"Stagione {system.code}")
        assert season.rules == system.default_rules()
        assert season.system is system


def test_an_edited_rule_set_is_checked_and_rescored(season):
    from scoring.services.season_rules import season_rules_update

    turno = start(season)
    for hand in worked():
        api.smazzata_record(turno=turno, record=hand)
    game_turno_close(turno=turno)
    with pytest.raises(RuleViolation) as exc:
        season_rules_update(season=season, rules={**season.rules, "elimination": "cento"})
    assert [p.code for p in exc.value.problems] == ["RULES"]
    # NORMALE worth 15: Bruno's first close leaves him at -15, so smazzata 4 takes him to 100,
    # not out, and smazzata 5 lacks his points; the rescore refuses it and nothing changes
    rules = {**season.rules, "close_values": {"NORMALE": 15, "COLORE": 25, "FIGURA": 50}}
    with pytest.raises(RuleViolation) as exc:
        season_rules_update(season=season, rules=rules, reason="delibera", recompute=True)
    assert [(p.code, p.smazzata, p.player) for p in exc.value.problems] == [
        ("PENALTIES_PLAYERS", 5, "Bruno")
    ]
    season.refresh_from_db()
    assert season.rules["close_values"]["NORMALE"] == 10
    # a dearer re-entry: every fee is recomputed
    rules = {**season.rules, "reentry_fee": "2.50"}
    season_rules_update(season=season, rules=rules, reason="quota 2026", recompute=True)
    fees = {s.player.name: s.extra["fees"] for s in Seat.objects.filter(turno=turno)}
    assert fees == {"Anna": "2.50", "Bruno": "0.00", "Carla": "2.50", "Dario": "2.50"}
    assert game_check(season) == []


@pytest.mark.parametrize(
    ("code", "one_a_day"),
    [
        ("king-classico", True),
        ("king-internazionale", True),
        ("le-king", True),
        ("skat-isko", False),
        ("ramino-101", False),
    ],
)
def test_one_seat_a_day_where_the_game_says_so(code, one_a_day):
    """Issue 26, item 6b: a member sat at six King internazionale turni on one day. The King
    family seats a player once a date (SPEC-king-family PLAYS_TWICE, as C.A.F. and as the
    import); Skat lists and Ramino matches follow one another on one evening."""
    for name in [*P4, "Elena"]:
        Player.objects.get_or_create(name=name)
    season = season_create(name=f"S {code}", ruleset_code=code, current=False)
    n = 4 if code != "skat-isko" else 3
    start(season, players=P4[:n])
    second = ["Elena", *P4[1:n]]
    if not one_a_day:
        assert start(season, players=second).number == 2
        return
    with pytest.raises(RuleViolation) as exc:
        start(season, players=second)
    problem = exc.value.problems[0]
    assert (problem.code, problem.player) == ("PLAYER_TWICE_IN_GIORNATA", "Bruno")
    assert problem.message == "Bruno gioca già il turno #1 del 20/11/2026"
    assert Turno.objects.filter(season=season).count() == 1
    assert start(season, players=second, day=21).number == 1  # another day: a seat again
