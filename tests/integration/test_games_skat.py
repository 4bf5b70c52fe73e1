"""The Skat list at the segretario's desk: the game value as it is typed (the preview endpoint,
never a write) and the Spielliste with its running totals (screen, PDF, XLSX)."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Player, Smazzata
from scoring.services.games import game_smazzata_record
from scoring.services.season import season_create
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db
P3 = ["Anna", "Bruno", "Carla"]
P4 = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def season():
    for name in P4:
        Player.objects.create(name=name)
    return season_create(name="Skat 2026-27", ruleset_code="skat-isko")


@pytest.fixture
def lista(season):
    return turno_start(season=season, date=dt.date(2026, 11, 20), players=P3, first_dealer="Anna")


def preview(client, turno, **data):
    return client.post(reverse("scoring:game_preview", args=[turno.pk]), data)


def text(response) -> str:
    """The partial's visible text, whitespace collapsed."""
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(html)).strip()


def points(response) -> dict[str, str]:
    html = response.content.decode()
    return dict(re.findall(r'<tr data-player="(\w+)">.*?data-points="(-?\d+)"', html))


GRAND_HAND = {  # SPEC-skat §13, preisskat.org: Grand hand with 4, schneider announced, 31
    "declarer": "Bruno",
    "game": "GRAND",
    "bid": "48",
    "with": "1",
    "matadors": "4",
    "hand": "1",
    "schneider_announced": "1",
    "declarer_points": "89",
    "declarer_tricks": "7",
}


def test_a_grand_hand_with_matadors_is_valued_as_it_is_typed(segretario_client, lista):
    r = preview(segretario_client, lista, **GRAND_HAND)
    assert r.status_code == 200
    t = text(r)
    assert "Valore 8 × 24 = 192" in t
    assert "Esito perso -384" in t
    assert points(r) == {"Anna": "40", "Bruno": "-434", "Carla": "40"}
    # the opponents' 120 − x next to the card points field, swapped in out of band
    assert (
        '<output id="eco-declarer_points" for="id-declarer_points" class="echo" '
        'hx-swap-oob="true">avversari 31</output>' in r.content.decode()
    )
    assert Smazzata.objects.count() == 0


def test_an_overbid_is_shown_before_it_is_saved(segretario_client, lista):
    # JSkat SuitRuleTest.testOverbid: Diamonds without 1, bid 22, 89 points
    r = preview(
        segretario_client,
        lista,
        declarer="Anna",
        game="DIAMONDS",
        bid="22",
        matadors="1",
        **{"with": "0"},
        declarer_points="89",
        declarer_tricks="7",
    )
    t = text(r)
    assert "Valore 3 × 9 = 27" in t
    assert "Superato il valore non raggiunge la dichiarazione: perso" in t
    assert "Esito perso (superato) -54" in t
    assert points(r) == {"Anna": "-104", "Bruno": "40", "Carla": "40"}
    assert "avversari 31" in r.content.decode()


def test_a_null_ouvert_and_the_totals_it_would_make(segretario_client, lista):
    game_smazzata_record(turno=lista, record={**_grand_hand_record()})
    r = preview(
        segretario_client,
        lista,
        declarer="Carla",
        game="NULL",
        bid="46",
        ouvert="1",
        declarer_tricks="0",
    )
    t = text(r)
    assert "Valore 46" in t and "Esito vinto +46" in t
    assert points(r) == {"Anna": "0", "Bruno": "0", "Carla": "96"}
    # totals after it: the Grand hand lost (-434 / +40 / +40) plus this game
    cells = r'data-points="-?\d+">.*?</td><td class="num">(-?\d+)</td>'
    after = re.findall(cells, r.content.decode())
    assert after == ["40", "-434", "136"]
    assert 'id="eco-declarer_points"' in r.content.decode()  # emptied: a Null has no card points
    assert "avversari" not in r.content.decode()
    assert Smazzata.objects.count() == 1


def _grand_hand_record() -> dict:
    return {
        "declarer": "Bruno",
        "game": "GRAND",
        "bid": 48,
        "with": True,
        "matadors": 4,
        "hand": True,
        "schneider_announced": True,
        "declarer_points": 89,
        "declarer_tricks": 7,
    }


def test_invalid_input_shows_the_engines_message_and_stores_nothing(segretario_client, lista):
    r = preview(segretario_client, lista, **{**GRAND_HAND, "bid": "19"})
    assert r.status_code == 200
    t = text(r)
    assert "Dichiarazione (licitazione): 19 non è una dichiarazione valida" in t
    assert "Valore" not in t
    r = preview(segretario_client, lista, **{**GRAND_HAND, "matadors": "tre"})
    assert r.status_code == 200
    assert "Matadori (con/senza): 'tre' non è un numero intero" in text(r)
    # while typing: what is missing is named, field by field
    r = preview(segretario_client, lista, declarer="Bruno", game="CLUBS", declarer_points="61")
    t = text(r)
    assert "Dichiarazione (licitazione): manca la dichiarazione (bid)" in t
    assert "Prese del dichiarante: manca il dato declarer_tricks" in t
    assert "avversari 59" in r.content.decode()
    assert Smazzata.objects.count() == 0


# session, user, groups; the turno with its seats, smazzate, results and penalità; the season
PREVIEW_QUERIES = 9


def test_the_preview_reads_and_never_writes(segretario_client, lista):
    game_smazzata_record(turno=lista, record=_grand_hand_record())
    with CaptureQueriesContext(connection) as queries:
        r = preview(segretario_client, lista, **{**GRAND_HAND, "declarer": "Carla"})
    assert r.status_code == 200
    sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert not {"INSERT", "UPDATE", "DELETE"} & set(sql), sql
    assert len(sql) == PREVIEW_QUERIES
    assert Smazzata.objects.count() == 1


def test_nothing_typed_nothing_shown_and_a_closed_list_previews_nothing(segretario_client, lista):
    r = preview(segretario_client, lista, numero="1")
    assert r.status_code == 200 and text(r) == ""
    page = segretario_client.get(reverse("scoring:turno_live", args=[lista.pk]))
    html = page.content.decode()
    assert f'hx-post="{reverse("scoring:game_preview", args=[lista.pk])}"' in html
    assert 'hx-trigger="change, input delay:200ms"' in html
    assert '<div id="anteprima" class="preview" aria-live="polite">' in html


def test_without_javascript_a_rejected_save_shows_the_preview(segretario_client, lista):
    url = reverse("scoring:game_smazzata", args=[lista.pk])
    # tricks 10 but not 120 points: rejected, the page shows the value of what was typed so far
    r = segretario_client.post(url, {**GRAND_HAND, "declarer_tricks": "11"})
    assert r.status_code == 422
    html = r.content.decode()
    assert "avversari 31</output>" in html
    assert "prese del solista: 11 fuori dall&#x27;intervallo 0..10" in html
    assert Smazzata.objects.count() == 0


def test_a_ramino_season_has_no_preview(segretario_client):
    for name in P4:
        Player.objects.get_or_create(name=name)
    season = season_create(name="Ramino", ruleset_code="ramino-101")
    turno = turno_start(season=season, date=dt.date(2026, 11, 20), players=P4, first_dealer="Anna")
    r = segretario_client.post(reverse("scoring:game_preview", args=[turno.pk]), {"closer": "Anna"})
    assert r.status_code == 200 and r.content.decode().strip() == ""
    page = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    assert "anteprima" not in page
