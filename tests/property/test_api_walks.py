"""Random seasons of every game system driven through ``scoring.api`` alone: deals recorded,
corrected and undone, penalità, turni closed in any order and one reopened; the stored
Classifica always equals ``kingscore`` on the same records, and ``check_ledger`` agrees."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from scoring import api
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system, systems
from scoring.services.ledger import ledger_differences

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
CODES = [s.code for s in systems()]


def _table_sizes(code: str) -> list[int]:
    """The table sizes the system accepts, asked of the system (a random turno scores)."""
    system = get_system(code)
    rules = system.rules(None)
    ok = []
    for n in range(2, 7):
        try:
            turno = system.random_turno(random.Random(n), NAMES[:n], rules)
            system.score_turno(rules, {**turno, "date": "2026-10-01"})
        except (RuleViolation, ValueError, KeyError, IndexError):
            continue
        ok.append(n)
    return ok


def _expected(code: str, season_name: str, turni: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Classifica ``kingscore`` prints for these records."""
    document = {
        "format": "kingclub/v1",
        "ruleset": code,
        "season": season_name,
        "roster": sorted(NAMES),
        "turni": sorted(turni, key=lambda t: (t["date"], t["number"])),
    }
    return get_system(code).score_document(document)["classifica"]


def _penalty(system: Any, rng: random.Random, players: list[str]) -> dict[str, Any] | None:
    if not getattr(system, "takes_penalties", False):
        return None
    return {
        "player": rng.choice(players),
        "points": rng.choice([-5, -10, -20]),
        "article": "12",
        "reason": "carta scoperta",
    }


@pytest.mark.parametrize("code", CODES)
def test_random_season_through_the_api_equals_kingscore(code):
    seed = CODES.index(code) + 1
    rng = random.Random(seed)
    system = get_system(code)
    rules = system.rules(None)
    season = api.season_create(name=f"{code} {seed}", ruleset=code, current=False)
    for name in NAMES:
        api.member_enroll(season=season.pk, player=name)
    sizes = _table_sizes(code)
    played: dict[int, dict[str, Any]] = {}  # turno pk -> its record as kingscore reads it
    for day in range(1, 4):
        n = rng.choice(sizes)
        players = rng.sample(NAMES, n)
        record = system.random_turno(rng, players, rules)
        date = dt.date(2026, 10, day)
        turno = api.turno_start(
            season=season,
            date=date,
            players=record["players"],
            first_dealer=record["first_dealer"],
        )
        deals = record["smazzate"]
        for k, deal in enumerate(deals, start=1):
            api.smazzata_record(turno=turno.pk, record=deal, number=k)
        # the last deal undone and recorded again, the first one corrected with itself
        assert api.smazzata_undo(turno=turno) == len(deals)
        api.smazzata_record(turno=turno, record=deals[-1])
        api.smazzata_correct(turno=turno, number=1, record=deals[0])
        penalty = _penalty(system, rng, record["players"])
        if penalty is not None:
            api.penalita_add(turno=turno, **penalty)
        played[turno.pk] = {
            **record,
            "date": date.isoformat(),
            "number": turno.number,
            "penalties": [penalty] if penalty else [],
            **({"sanctions": []} if "sanctions" in record else {}),
        }
    # closed in a random order: an earlier giornata after a later one
    order = list(played)
    rng.shuffle(order)
    for pk in order:
        api.turno_close(turno=pk, tiebreak=played[pk].get("tiebreak") or None)
    assert ledger_differences(seasons=[season]) == []
    assert api.season_standing(season=season) == _expected(code, season.name, list(played.values()))
    # a reopen takes the turno out of the Classifica until it closes again
    reopened = order[0]
    api.turno_reopen(turno=reopened, reason="verifica del verbale")
    assert ledger_differences(seasons=[season]) == []
    others = [r for pk, r in played.items() if pk != reopened]
    assert api.season_standing(season=season.pk) == _expected(code, season.name, others)
    api.turno_close(turno=reopened)
    assert api.season_standing(season=season) == _expected(code, season.name, list(played.values()))
    assert ledger_differences(seasons=[season]) == []


def test_bad_input_names_the_field_and_stores_nothing():
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for name in NAMES[:4]:
        api.member_enroll(season=season, player=name)
    turno = api.turno_start(
        season=season, date=dt.date(2026, 10, 1), players=NAMES[:4], first_dealer="Anna"
    )
    with pytest.raises(RuleViolation) as caught:
        api.smazzata_record(turno=turno, record={"caller": "Bruno", "result": "tre"})
    assert [(p.code, p.field) for p in caught.value.problems] == [
        ("GAME_MISSING", "game"),
        ("RESULT_MISSING", "result"),
    ]
    assert turno.smazzate.count() == 0
    with pytest.raises(RuleViolation) as caught:
        api.turno_reopen(turno=turno, reason="   ")
    assert [(p.code, p.field, p.message) for p in caught.value.problems] == [
        ("REOPEN_REASON", "reason", "per riaprire un turno chiuso serve una motivazione")
    ]
    with pytest.raises(RuleViolation) as caught:
        api.smazzata_undo(turno=2**63)
    assert caught.value.problems[0].code == "TURNO_MISSING"
    with pytest.raises(RuleViolation) as caught:
        api.member_enroll(season=10**30, player="Zeno")
    assert caught.value.problems[0].code == "SEASON_MISSING"
    with pytest.raises(RuleViolation) as caught:
        api.penalita_add(turno=turno, player="Anna", points="5", article="3")
    typed_as_text = [("PENALITA_POINTS", "points", "i punti della penalità vanno scritti in cifre")]
    assert [(p.code, p.field, p.message) for p in caught.value.problems] == typed_as_text
    assert turno.penalita.count() == 0
    king = api.season_create(name="King", ruleset="le-king", current=False)
    table = api.turno_start(
        season=king, date=dt.date(2026, 10, 2), players=NAMES[:4], first_dealer="Anna"
    )
    for points in ("5", 5.0, True):  # the other ledger: the same one check, the same message
        with pytest.raises(RuleViolation) as caught:
            api.penalita_add(turno=table, player="Anna", points=points, article="3")
        assert [(p.code, p.field, p.message) for p in caught.value.problems] == typed_as_text
    assert table.penalita.count() == 0


def test_member_enroll_creates_the_member_once():
    season = api.season_create(name="2026-27", ruleset="ramino-101", current=False)
    first = api.member_enroll(season=season, player="  Ugo  ")
    again = api.member_enroll(season=season.pk, player="Ugo")
    assert first.pk == again.pk
    assert first.player.name == "Ugo"
