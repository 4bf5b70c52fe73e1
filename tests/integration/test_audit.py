"""Every change to a turno is recorded with who, when and what; the trail survives a reopen."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from scoring.audit import turno_history
from scoring.models import Player
from scoring.rules.caf import caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.season import season_create
from scoring.services.turni import (
    penalita_add,
    smazzata_record,
    smazzata_undo,
    turno_close,
    turno_reopen,
    turno_start,
)

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
    smazzata_record(turno=turno, game=first.game, caller=first.caller, counts=first.result)
    smazzata_undo(turno=turno)
    for i, sm in enumerate(record.smazzate, start=1):
        smazzata_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    penalita_add(turno=turno, player="Dario", points=-5, article="9", reason="carte toccate")
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
