"""Every change to a turno is recorded with who, when and what; the trail survives a reopen."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import translation

from scoring import api, formatting
from scoring.audit import ACTIONS, turno_history
from scoring.models import Player
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.systems import get_system
from scoring.services.season import season_create
from scoring.services.turni import turno_close, turno_reopen, turno_start
from tests.helpers import deal_record, grand_hand

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.mark.django_db
def test_history_names_who_did_what_and_survives_a_reopen(
    segretario, django_assert_max_num_queries
):
    for n in PLAYERS:
        Player.objects.create(name=n)
    season = season_create(name="2026-27")
    record = simulate_turno(caf(), PLAYERS, random.Random(9), first_dealer="Anna")
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna",
        user=segretario,
    )  # fmt: skip
    first = record.smazzate[0]
    deal_record(turno=turno, game=first.game, caller=first.caller, counts=first.result)
    api.smazzata_undo(turno=turno)
    for i, sm in enumerate(record.smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    api.penalita_add(turno=turno, player="Dario", points=-5, article="9", reason="carte toccate")
    turno_close(turno=turno, tiebreak=record.tiebreak, user=segretario)
    turno_reopen(turno=turno, reason="errore nella smazzata 4", user=segretario)

    with django_assert_max_num_queries(12):
        history = turno_history(turno)
    actions = [(e.what, e.action) for e in history]
    assert actions[0] == ("turno", "creazione")
    assert ("smazzata 1", "eliminazione") in actions  # the undo
    assert actions.count(("smazzata 1", "creazione")) == 2
    assert ("penalità", "creazione") in actions
    assert ("turno", "chiusura") in actions
    reopen = [e for e in history if e.action == "riapertura"]
    assert len(reopen) == 1
    assert reopen[0].detail == "errore nella smazzata 4"
    assert reopen[0].user == "segretario"
    assert [e.at for e in history] == sorted(e.at for e in history)


def _deals_described(turno) -> dict[str, list[str]]:
    """The trail's description of each deal as created, in Italian and in English."""
    out = {}
    for lang in ("it", "en"):
        with translation.override(lang):
            out[lang] = [
                e.detail
                for e in turno_history(turno)
                if e.what.startswith("smazzata") and e.action == str(ACTIONS["+"])
            ]
    return out


@pytest.mark.django_db
def test_the_trail_names_each_deal_as_its_game_system_says_it():
    """The game's name and who chose it come from the season's system (no fork on C.A.F.):
    C.A.F.'s games as the club writes them in every language, with the chiamante; another
    game's names in the reader's language, with the declarer or closer."""
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for name in PLAYERS:
        api.member_enroll(season=season, player=name)
    record = simulate_turno(caf(), PLAYERS, random.Random(9), first_dealer="Anna")
    turno = api.turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    for deal in turno_to_input(record)["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    said = _deals_described(turno)
    assert said["it"][:10] == [
        "NK, chiamante Bruno",
        "NJ, chiamante Dario",
        "NJK, chiamante Anna",
        "NU2, chiamante Bruno",
        "NQ♠, chiamante Bruno",
        "NF, chiamante Bruno",
        "N♥, chiamante Dario",
        "Domino, chiamante Anna",
        "Briscola, chiamante Bruno",
        "Semplice, chiamante Carla",
    ]
    assert len(said["it"]) == len(said["en"]) == len(record.smazzate) == 19
    # English: the same games (Briscola is never "Trump"), the template's own translation
    assert said["en"] == [d.replace("chiamante", "Chiamante") for d in said["it"]]
    skat = api.season_create(name="Skat", ruleset="skat-isko", current=False)
    for name in PLAYERS[:3]:
        api.member_enroll(season=skat, player=name)
    table = api.turno_start(
        season=skat, date=dt.date(2026, 11, 20), players=PLAYERS[:3], first_dealer="Anna"
    )
    api.smazzata_record(turno=table, record=grand_hand())
    assert _deals_described(table) == {"it": ["Grand, Bruno"], "en": ["Grand, Bruno"]}


def test_caf_names_its_games_as_the_club_writes_them():
    """C.A.F.'s system names every game as ``formatting.game_label`` writes it, untranslated."""
    system = get_system("caf")
    rules = system.rules(None)
    assert {g: system.game_name(g) for g in rules.games} == {
        g: formatting.game_label(g) for g in rules.games
    }
    assert [system.game_name(g) for g in ("NQS", "NH", "BRISCOLA", "NJ")] == [
        "NQ♠",
        "N♥",
        "Briscola",
        "NJ",
    ]
    assert system.game_names_translated is False
    assert get_system("skat-isko").game_names_translated is True


@pytest.mark.django_db
def test_a_caf_result_in_the_trail_shows_the_count_its_deal_then_recorded():
    """A C.A.F. result's line names the player, the count and the points: the count read from
    the deal's record as it stood when the result was written (the version of the deal saved
    just before it), so a correction shows the new counts and the undo the last ones."""
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for name in PLAYERS:
        api.member_enroll(season=season, player=name)
    record = simulate_turno(caf(), PLAYERS, random.Random(9), first_dealer="Anna")
    turno = api.turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    deals = turno_to_input(record)["smazzate"][:3]
    for deal in deals:
        api.smazzata_record(turno=turno, record=deal)
    # the second deal corrected: Anna took 2 (not 1), Dario 1 (not 2)
    assert deals[1]["result"] == {"Anna": 1, "Bruno": 0, "Carla": 1, "Dario": 2}
    fixed = {**deals[1], "result": {**deals[1]["result"], "Anna": 2, "Dario": 1}}
    api.smazzata_correct(turno=turno, number=2, record=fixed)
    api.smazzata_undo(turno=turno)
    lines = [(e.what, e.action, e.detail) for e in turno_history(turno) if "risultato" in e.action]
    # NJ: -3 a jack; NJK: -3 a jack or king (Bruno took all four, -12)
    assert sorted(lines) == [
        ("smazzata 2", "modifica risultato", "Anna: 2 (-6)"),
        ("smazzata 2", "modifica risultato", "Dario: 1 (-3)"),
        ("smazzata 3", "eliminazione risultato", "Anna: 3 (-9)"),
        ("smazzata 3", "eliminazione risultato", "Bruno: 4 (-12)"),
        ("smazzata 3", "eliminazione risultato", "Carla: 0 (+0)"),
        ("smazzata 3", "eliminazione risultato", "Dario: 1 (-3)"),
    ]
