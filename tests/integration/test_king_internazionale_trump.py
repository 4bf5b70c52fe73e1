"""Issue 25 friction: King internazionale accepted a trump for a negative contract. The engine
refuses it (SPEC-king-family §B, ``TRUMP``), and the form does not offer one: the six negative
deals have no Briscola field, and the asta's starts on "none" so that a trump clicked before the
mode was chosen can be taken back."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.urls import reverse

from scoring import api
from scoring.models import Player, Smazzata
from scoring.rules.systems import get_system
from scoring.services.season import season_create
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def turno():
    Player.objects.bulk_create(Player(name=n) for n in NAMES)
    season = season_create(name="Internazionale", ruleset_code="king-internazionale")
    system = get_system("king-internazionale")
    record = system.random_turno(random.Random(0), NAMES, system.rules())
    turno = turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=NAMES,
        first_dealer=record["first_dealer"],
    )
    turno.random_record = record
    return turno


def _live(client, turno, lang="it") -> str:
    url = reverse("scoring:turno_live", args=[turno.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_the_negative_deals_offer_no_trump(segretario_client, turno):
    for k in range(6):  # deals 1-6: NF, NH, NQ, NJK, NKH, NU2 in the rule set's order
        html = _live(segretario_client, turno)
        assert 'name="mode"' not in html and 'name="trump"' not in html
        api.smazzata_record(turno=turno, record=turno.random_record["smazzate"][k])


def test_the_asta_starts_on_no_trump_and_refuses_one_with_a_negative_mode(segretario_client, turno):
    for k in range(6):
        api.smazzata_record(turno=turno, record=turno.random_record["smazzate"][k])
    html = _live(segretario_client, turno)
    radios = re.findall(r'<input type="radio" name="trump" value="([^"]*)"( checked)?', html)
    assert radios[0] == ("", " checked")  # "none" first, chosen until a trump is clicked
    assert [v for v, _c in radios] == ["", "S", "H", "D", "C", "NT"]
    assert "nessuna: asta negativa o non giocata" in html
    assert "none: negative or unplayed auction" in _live(segretario_client, turno, "en")
    url = reverse("scoring:turno_smazzata", args=[turno.pk])
    data = {"numero": "7", "game": "ASTA", "mode": "NEGATIVE", "trump": "H"}
    for lang, message in (
        (
            "it",
            "Briscola: l'asta negativa o non giocata si gioca senza briscola: scegliere «nessuna».",
        ),
        ("en", "Trump: a negative or unplayed auction has no trump: choose “none”."),
    ):
        response = segretario_client.post(url, data, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 422
        assert message in response.content.decode().replace("&#x27;", "'")
    assert Smazzata.objects.filter(turno=turno).count() == 6
    # the asta not played, with "none" as the form starts: recorded
    unplayed = segretario_client.post(url, {**data, "mode": "UNPLAYED", "trump": ""})
    assert unplayed.status_code == 302
    assert Smazzata.objects.get(turno=turno, number=7).record.get("trump") is None
