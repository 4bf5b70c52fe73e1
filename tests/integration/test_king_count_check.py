"""The King family's running check on the live screen (issue 25): what the counts must make, as
data the screen renders from the rules (static/js/live.js hard-codes no game number).

The totals are SPEC-king-family §0.2's, with C and H of §A.1, §B.1, §C.1: 52 cards at four
players (C = 13, H = 13); Le King at three, 48 cards without the twos (C = 16, H = 12).
"""

from __future__ import annotations

import datetime as dt
import html
import json
import random
import re

import pytest
from django.urls import reverse

from scoring import api

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def _turno(code: str, players: list[str], played: int = 0):
    """A turno of the game at ``players``, its first ``played`` deals those of a valid random
    turno (recorded through the API)."""
    season = api.season_create(name=f"{code} {played}", ruleset=code)
    for name in players:
        api.member_enroll(season=season, player=name)
    record = season.system.random_turno(random.Random(1), players, season.game_rules)
    turno = api.turno_start(
        season=season,
        date=dt.date(2026, 11, 20 + played),
        players=players,
        first_dealer=record["first_dealer"],
    )
    for deal in record["smazzate"][:played]:
        api.smazzata_record(turno=turno, record=deal)
    return turno


def _check(client, turno) -> dict:
    """The running check's attributes on the counts of the live screen."""
    page = client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    box = re.search(r'<div class="choices" data-check="by"([^>]*)>', page)
    assert box, "no running check on the counts"
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', box.group(1)))
    assert 'id="count-check" aria-live="polite" data-count-check' in page
    return {
        "by": attrs["check-by"],
        "checks": json.loads(html.unescape(attrs["checks"])),
        "skip": json.loads(html.unescape(attrs["check-skip"])),
        "sum": html.unescape(attrs["msg-sum"]),
    }


def _sum(total: int, unit: str) -> dict:
    return {"kind": "sum", "total": total, "unit": unit}


def test_king_classico_offers_a_check_for_every_contract_it_lets_choose(segretario_client):
    check = _check(segretario_client, _turno("king-classico", NAMES))
    assert check == {
        "by": "game",
        "checks": {
            "NQ": _sum(4, "regine"),
            "NKH": _sum(1, "carte"),
            "NF": _sum(13, "prese"),
            # Domino: exactly one player with no cards left, each at most C
            "DOMINO": {"kind": "one_zero", "total": 13, "unit": "carte in mano"},
            "DICH": _sum(13, "prese"),
        },
        "skip": {},
        "sum": "{sum} {unit} su {total}",
    }


def test_le_king_at_three_counts_sixteen_tricks_and_twelve_hearts(segretario_client):
    three = NAMES[:3]
    assert _check(segretario_client, _turno("le-king", three))["checks"] == {
        "NF": _sum(16, "prese")
    }
    # the deals go NF, Récupération, NH (§C.2): the third deal counts the twelve hearts
    assert _check(segretario_client, _turno("le-king", three, played=2))["checks"] == {
        "NH": _sum(12, "cuori")
    }


def test_an_asta_not_played_asks_no_counts_so_no_check(segretario_client):
    # king-internazionale: six fixed negative deals, then the aste (§B.2)
    check = _check(segretario_client, _turno("king-internazionale", NAMES, played=6))
    assert check["checks"] == {"ASTA": _sum(13, "prese")}
    assert check["skip"] == {"mode": ["UNPLAYED"]}
    last_two = _check(segretario_client, _turno("king-internazionale", NAMES, played=5))
    assert last_two["checks"] == {"NU2": _sum(2, "ultime due prese")}
    assert last_two["skip"] == {}


def test_the_check_speaks_english_to_an_english_reader(segretario_client):
    segretario_client.cookies["django_language"] = "en"
    check = _check(segretario_client, _turno("king-classico", NAMES))
    assert check["checks"]["NQ"] == _sum(4, "queens")
    assert check["checks"]["NF"] == _sum(13, "tricks")
    assert check["checks"]["DOMINO"]["unit"] == "cards in hand"
    assert check["sum"] == "{sum} {unit} of {total}"
