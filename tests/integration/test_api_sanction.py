"""The Retrocessione per contatore through ``scoring.api`` alone (``sanction_add``,
``sanction_remove``): what it does at the close, its trail, and every refusal naming the field
with nothing stored."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import translation

from scoring import api
from scoring.audit import turno_history
from scoring.models import Sanction, Seat
from scoring.problem_text import localized
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def _played(name: str):
    """A season of four members and one complete turno recorded through the api (seed 7)."""
    season = api.season_create(name=name, ruleset="caf", current=False)
    for player in NAMES:
        api.member_enroll(season=season, player=player)
    record = simulate_turno(caf(), NAMES, random.Random(7), first_dealer="Anna")
    turno = api.turno_start(
        season=season, date=dt.date(2026, 10, 1), players=NAMES, first_dealer="Anna"
    )
    for deal in turno_to_input(record)["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    return turno, record


def _seats(turno) -> dict[str, tuple[int, str, str, list[str], Decimal]]:
    seats = Seat.objects.filter(turno=turno).select_related("player")
    return {
        s.player.name: (s.place, s.series_before, s.series_after, s.titles, s.league_points)
        for s in seats
    }


def _refused(call, **kwargs) -> list[tuple[str, str | None, str]]:
    with pytest.raises(RuleViolation) as caught:
        call(**kwargs)
    return [(p.code, p.field, p.message) for p in caught.value.problems]


def test_a_sanction_through_the_api_relegates_at_the_close(segretario):
    plain, record = _played("senza")
    api.turno_close(turno=plain, tiebreak=record.tiebreak)
    turno, record = _played("con")
    sanction = api.sanction_add(
        turno=turno.pk, player="Bruno", reason="  contatore\u200b manomesso ", user=segretario
    )
    assert (sanction.player.name, sanction.reason, sanction.kind) == (
        "Bruno",
        "contatore manomesso",
        "RETROCESSIONE_CONTATORE",
    )
    api.turno_close(turno=turno, tiebreak=record.tiebreak)
    without, with_ = _seats(plain), _seats(turno)
    assert {n: s for n, s in with_.items() if n != "Bruno"} == {
        n: s for n, s in without.items() if n != "Bruno"
    }
    # third without it (the Coppa Italia, no move); with it one series down and its -0.20
    assert without["Bruno"] == (3, "A", "A", ["COPPA_ITALIA"], Decimal("0.45"))
    assert with_["Bruno"] == (
        3,
        "A",
        "B",
        ["COPPA_ITALIA", "RETROCESSIONE_CONTATORE"],
        Decimal("0.25"),
    )
    entry = next(e for e in turno_history(turno) if e.what == "retrocessione per contatore")
    assert (entry.user, entry.action, entry.detail) == (
        "segretario",
        "creazione",
        "Bruno: contatore manomesso",
    )


def test_a_refused_sanction_names_the_field_and_stores_nothing(segretario):
    turno, _ = _played("2026-27")
    api.sanction_add(turno=turno, player="Carla", reason="contatore", user=segretario)
    before = (
        list(Sanction.objects.values_list("pk", "player__name", "reason")),
        Sanction.history.count(),
    )
    assert _refused(api.sanction_add, turno=turno, player="Carla", reason="ancora") == [
        (
            "SANCTION_DUPLICATE",
            "player",
            "Carla ha già una retrocessione per contatore in questo turno",
        )
    ]
    assert _refused(api.sanction_add, turno=turno, player="Zeno", reason="contatore") == [
        ("SANCTION_PLAYER", "player", "sanzione per 'Zeno', che non siede a questo tavolo")
    ]
    assert _refused(api.sanction_add, turno=turno, player="Dario", reason=" \u200b ") == [
        ("SANCTION_REASON", "reason", "la retrocessione per contatore richiede una motivazione")
    ]
    assert _refused(api.sanction_add, turno=2**63, player="Dario", reason="x") == [
        ("TURNO_MISSING", "turno", "turno inesistente")
    ]
    assert _refused(api.sanction_remove, sanction=10**30) == [
        ("SANCTION_MISSING", "sanction", "sanzione inesistente")
    ]
    skat = api.season_create(name="skat", ruleset="skat-isko", current=False)
    table = api.turno_start(
        season=skat, date=dt.date(2026, 10, 2), players=NAMES[:3], first_dealer="Anna"
    )
    assert _refused(api.sanction_add, turno=table, player="Anna", reason="contatore") == [
        (
            "SANCTION_NOT_IN_GAME",
            "sanction",
            "Skat non prevede la retrocessione per contatore",
        )
    ]
    with pytest.raises(RuleViolation) as caught, translation.override("en"):
        api.sanction_add(turno=table, player="Anna", reason="contatore")
    with translation.override("en"):
        said = [localized(p).message for p in caught.value.problems]
    assert said == ["Skat has no disciplinary relegation"]
    after = (
        list(Sanction.objects.values_list("pk", "player__name", "reason")),
        Sanction.history.count(),
    )
    assert after == before


def test_sanction_remove_through_the_api_leaves_its_trail(segretario):
    turno, _ = _played("2026-27")
    sanction = api.sanction_add(turno=turno, player="Dario", reason="contatore", user=segretario)
    assert api.sanction_remove(sanction=sanction.pk, user=segretario) is None
    assert Sanction.objects.count() == 0
    trail = [
        (e.user, e.action, e.detail)
        for e in turno_history(turno)
        if e.what == "retrocessione per contatore"
    ]
    assert trail == [
        ("segretario", "creazione", "Dario: contatore"),
        ("segretario", "eliminazione", "Dario: contatore"),
    ]
