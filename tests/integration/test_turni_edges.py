"""The turno services at their edges: a season closed under a stale object, a correction of
any smazzata (dealers, points, who recorded it, what it breaks later), the lengths of a
penalità's texts, the enrolments a turno writes, the smazzata a recording hands back, and one
turno a giornata being C.A.F.'s rule only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import api
from scoring.models import Enrollment, Player, Result, Season, Seat, Smazzata, Turno
from scoring.rules.caf import caf
from scoring.rules.problems import RuleViolation
from scoring.services.season import season_create
from scoring.services.season_rules import season_rules_update
from scoring.services.seasons_close import season_close
from scoring.services.turni import turno_start
from tests.helpers import deal_correct, deal_counts, deal_record, play_turno

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
DAY = dt.date(2026, 11, 20)


def _codes(exc) -> list[str]:
    return [p.code for p in exc.value.problems]


def _season(code: str = "caf") -> Season:
    for name in [*PLAYERS, "Elena"]:
        Player.objects.get_or_create(name=name)
    return season_create(name="2026-27", ruleset_code=code)


def _three_smazzate(season: Season) -> Turno:
    """Anna deals first. 1: Bruno calls NJ and takes 3 jacks (a scazzata, -4 each); 2: Bruno
    deals, Carla calls NK (2 kings); 3: Carla deals, Dario calls NQS and takes the queen (a
    scazzata, -12 fixed)."""
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    deal_record(
        turno=turno,
        game="NJ",
        caller="Bruno",
        counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
    )
    deal_record(
        turno=turno,
        game="NK",
        caller="Carla",
        counts={"Anna": 0, "Bruno": 1, "Carla": 2, "Dario": 1},
    )
    deal_record(
        turno=turno,
        game="NQS",
        caller="Dario",
        counts={"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": 1},
    )
    return turno


def _stored(turno: Turno) -> list[tuple]:
    """Per smazzata: number, game, caller, dealer, scazzata, recorder, points by player."""
    out = []
    for sm in Smazzata.objects.filter(turno=turno).order_by("number"):
        points = dict(
            Result.objects.filter(smazzata=sm)
            .order_by("player__name")
            .values_list("player__name", "points")
        )
        out.append(
            (
                sm.number,
                sm.game,
                sm.caller.name,
                sm.dealer.name,
                sm.scazzata,
                sm.recorded_by_id,
                points,
            )
        )
    return out


def _totals(turno: Turno) -> dict[str, tuple[int, int]]:
    return {
        name: (total, penalties)
        for name, total, penalties in Seat.objects.filter(turno=turno).values_list(
            "player__name", "total", "penalty_total"
        )
    }


# -- a season closed while the caller holds an older copy of it --------------------------------
def test_a_turno_cannot_start_in_a_season_closed_since_it_was_loaded():
    stale = _season()
    play_turno(stale, dt.date(2026, 11, 6), PLAYERS, seed=1)
    season_close(season=stale.pk, reason="fine della stagione")
    assert stale.closed_at is None  # this copy was loaded before the close
    with pytest.raises(RuleViolation) as exc:
        turno_start(season=stale, date=DAY, players=PLAYERS, first_dealer="Anna")
    assert _codes(exc) == ["SEASON_CLOSED"]
    assert Turno.objects.count() == 1


# -- smazzata_correct --------------------------------------------------------------------------
def test_a_correction_with_nothing_recorded_says_so():
    season = _season()
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    with pytest.raises(RuleViolation) as exc:
        deal_correct(
            turno=turno,
            game="NJ",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
        )
    assert _codes(exc) == ["NOTHING_TO_CORRECT"]


def test_correcting_the_first_smazzata_rescores_it_and_moves_the_next_dealer(segretario):
    season = _season()
    turno = _three_smazzate(season)
    assert _stored(turno) == [
        (1, "NJ", "Bruno", "Anna", True, None, {"Anna": -3, "Bruno": -12, "Carla": 0, "Dario": 0}),
        (
            2,
            "NK",
            "Carla",
            "Bruno",
            False,
            None,
            {"Anna": 0, "Bruno": -3, "Carla": -6, "Dario": -3},
        ),
        (3, "NQS", "Dario", "Carla", True, None, {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": -12}),
    ]
    # smazzata 1 was Dario's NJ, one jack each: no scazzata, -3 each; Dario then deals the 2nd
    fixed = deal_correct(
        turno=turno,
        game="NJ",
        caller="Dario",
        counts={"Anna": 1, "Bruno": 1, "Carla": 1, "Dario": 1},
        number=1,
        user=segretario,
    )
    assert fixed.number == 1
    assert _stored(turno) == [
        (1, "NJ", "Dario", "Anna", False, segretario.pk, dict.fromkeys(PLAYERS, -3)),
        (
            2,
            "NK",
            "Carla",
            "Dario",
            False,
            None,
            {"Anna": 0, "Bruno": -3, "Carla": -6, "Dario": -3},
        ),
        (3, "NQS", "Dario", "Carla", True, None, {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": -12}),
    ]
    assert deal_counts(Smazzata.objects.get(turno=turno, number=1)) == dict.fromkeys(PLAYERS, 1)
    # running totals: Anna -3, Bruno -3-3, Carla -3-6, Dario -3-3-12
    assert _totals(turno) == {
        "Anna": (-3, 0),
        "Bruno": (-6, 0),
        "Carla": (-9, 0),
        "Dario": (-18, 0),
    }


def test_without_a_number_the_last_smazzata_is_corrected():
    season = _season()
    turno = _three_smazzate(season)
    # the 3rd was Dario's NQS taken by Anna: -8 to her, no scazzata
    deal_correct(
        turno=turno,
        game="NQS",
        caller="Dario",
        counts={"Anna": 1, "Bruno": 0, "Carla": 0, "Dario": 0},
    )
    assert [row[4:] for row in _stored(turno)] == [
        (True, None, {"Anna": -3, "Bruno": -12, "Carla": 0, "Dario": 0}),
        (False, None, {"Anna": 0, "Bruno": -3, "Carla": -6, "Dario": -3}),
        (False, None, {"Anna": -8, "Bruno": 0, "Carla": 0, "Dario": 0}),
    ]
    assert _totals(turno) == {
        "Anna": (-11, 0),
        "Bruno": (-15, 0),
        "Carla": (-6, 0),
        "Dario": (-3, 0),
    }


def test_an_illegal_correction_is_named_on_its_own_fields():
    season = _season()
    turno = _three_smazzate(season)
    before = _stored(turno)
    with pytest.raises(RuleViolation) as exc:  # three jacks only: four are dealt
        deal_correct(
            turno=turno,
            game="NJ",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 1, "Carla": 1, "Dario": 0},
            number=1,
        )
    assert [(p.code, p.field) for p in exc.value.problems] == [("COUNT_SUM", "result")]
    assert _stored(turno) == before


def test_a_correction_that_breaks_a_later_smazzata_names_that_one_first():
    season = _season()
    turno = _three_smazzate(season)
    before = _stored(turno)
    with pytest.raises(RuleViolation) as exc:  # NK as the 1st: the 2nd calls NK again
        deal_correct(
            turno=turno,
            game="NK",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 1, "Carla": 1, "Dario": 1},
            number=1,
        )
    assert [(p.code, p.smazzata, p.field, p.player, p.message) for p in exc.value.problems] == [
        (
            "CORRECTION_BREAKS_LATER",
            2,
            None,
            None,
            "con questa correzione la smazzata 2 non è più valida: correggere prima quella",
        ),
        (
            "GAME_ALREADY_PLAYED",
            2,
            None,
            None,
            "Non fare K (NK) è già stato giocato in questo turno",
        ),
    ]
    assert _stored(turno) == before


# -- penalità ----------------------------------------------------------------------------------
def test_a_penalitas_article_holds_20_characters_and_its_reason_300():
    season = _season()
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    with pytest.raises(RuleViolation) as exc:
        api.penalita_add(turno=turno, player="Anna", points=-1, article="a" * 21)
    assert [(p.code, p.field, p.message) for p in exc.value.problems] == [
        ("TEXT_INVALID", "article", "articolo: al massimo 20 caratteri (sono 21)")
    ]
    with pytest.raises(RuleViolation) as exc:
        api.penalita_add(turno=turno, player="Anna", points=-1, article="9", reason="r" * 301)
    assert [(p.code, p.field, p.message) for p in exc.value.problems] == [
        ("TEXT_INVALID", "reason", "motivo: al massimo 300 caratteri (sono 301)")
    ]
    pen = api.penalita_add(
        turno=turno, player="Anna", points=-1, article="a" * 20, reason="r" * 300
    )
    assert (len(pen.article), len(pen.reason)) == (20, 300)


def test_totals_are_zero_while_the_rules_no_longer_seat_the_table():
    season = _season()
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    deal_record(
        turno=turno,
        game="NJ",
        caller="Bruno",
        counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
    )
    rules = caf().to_dict()
    four = rules["decks"].pop("4")
    del rules["decks"]["3"]  # tables of 5 to 7 only: the engine refuses to score this one
    season_rules_update(season=season, rules=rules)  # free: nothing closed yet
    api.penalita_add(turno=turno, player="Dario", points=-5, article="9")
    assert _totals(turno) == dict.fromkeys(PLAYERS, (0, 0))
    rules["decks"].update({"3": ["2D"], "4": four})
    season_rules_update(season=season, rules=rules)
    api.penalita_remove(penalita=turno.penalita.get())
    assert _totals(turno) == {"Anna": (-3, 0), "Bruno": (-12, 0), "Carla": (0, 0), "Dario": (0, 0)}


# -- what turno_start and smazzata_record write and hand back ----------------------------------
def test_a_turno_of_enrolled_players_writes_no_enrolment():
    season = _season()
    turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    assert Enrollment.objects.filter(season=season).count() == 4
    with CaptureQueriesContext(connection) as queries:
        turno_start(
            season=season, date=dt.date(2026, 11, 27), players=PLAYERS, first_dealer="Bruno"
        )
    inserts = [
        q["sql"] for q in queries if q["sql"].startswith("INSERT") and "enrollment" in q["sql"]
    ]
    assert inserts == []
    assert Enrollment.objects.filter(season=season).count() == 4


def test_the_recorded_smazzata_holds_its_results_without_a_query(django_assert_num_queries):
    season = _season()
    turno = turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    sm = deal_record(
        turno=turno,
        game="NJ",
        caller="Bruno",
        counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
    )
    with django_assert_num_queries(0):
        points = {r.player.name: r.points for r in sm.results.all()}
    assert points == {"Anna": -3, "Bruno": -12, "Carla": 0, "Dario": 0}


def test_a_member_plays_twice_in_a_giornata_unless_the_game_is_caf():
    ramino = _season("ramino-101")
    first = turno_start(season=ramino, date=DAY, players=PLAYERS, first_dealer="Anna")
    second = turno_start(season=ramino, date=DAY, players=PLAYERS, first_dealer="Bruno")
    assert (first.number, second.number) == (1, 2)
    assert first.giornata_id == second.giornata_id
    caf_season = season_create(name="C.A.F. 2026-27")
    turno_start(season=caf_season, date=DAY, players=PLAYERS, first_dealer="Anna")
    with pytest.raises(RuleViolation) as exc:
        turno_start(season=caf_season, date=DAY, players=PLAYERS, first_dealer="Bruno")
    assert _codes(exc) == ["PLAYER_TWICE_IN_GIORNATA"]
