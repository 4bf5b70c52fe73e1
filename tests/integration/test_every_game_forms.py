"""Issue 25: every game first class at the segretario's forms (the delete of a turno opened by
mistake, the new-turno form driven by the chosen game's rules)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from scoring.models import Giornata, Player, Season, Turno
from scoring.rules.problems import RuleViolation
from scoring.services.season import season_create
from scoring.services.seasons_close import season_close
from scoring.services.turni import turno_start
from tests.helpers import bruno_closes

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina"]
DAY = dt.date(2026, 11, 20)
# every game but C.A.F.: the players of a table it accepts
GAMES = {
    "king-classico": 4,
    "king-internazionale": 4,
    "le-king": 3,
    "skat-isko": 3,
    "ramino-101": 2,
}


@pytest.fixture
def members():
    Player.objects.bulk_create(Player(name=n) for n in NAMES)


def _start(code: str, n: int) -> Turno:
    season = season_create(name=f"Stagione {code}", ruleset_code=code)
    return turno_start(season=season, date=DAY, players=NAMES[:n], first_dealer=NAMES[0])


# -- defect 1: the delete of a turno opened by mistake, for every game --------------------------
@pytest.mark.parametrize("code", sorted(GAMES))
def test_a_turno_opened_by_mistake_is_deleted_then_the_season_closes(
    segretario_client, members, code
):
    turno = _start(code, GAMES[code])
    url = reverse("scoring:turno_delete", args=[turno.pk])
    live = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    assert f'action="{url}"' in live and "Il turno è stato aperto per errore…" in live
    response = segretario_client.post(url)
    assert response.status_code == 302 and response.url == reverse("scoring:segreteria")
    assert not Turno.objects.filter(pk=turno.pk).exists()
    assert not Giornata.objects.exists()  # its giornata had no other turno
    # no turno in progress blocks the close any more: only the season's emptiness is left
    with pytest.raises(RuleViolation) as refused:
        season_close(season=turno.season_id, reason="fine stagione")
    assert [p.code for p in refused.value.problems] == ["SEASON_EMPTY"]


def test_a_turno_with_a_smazzata_is_not_deleted(segretario_client, members):
    turno = _start("ramino-101", 4)
    hand = {"numero": "1", "closer": "Bruno", "close": "NORMALE"}
    hand.update({"penalties-0": "34", "penalties-2": "12", "penalties-3": "55"})
    assert (
        segretario_client.post(reverse("scoring:turno_smazzata", args=[turno.pk]), hand).status_code
        == 302
    )
    live = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    assert "Il turno è stato aperto per errore" not in live  # no control
    response = segretario_client.post(reverse("scoring:turno_delete", args=[turno.pk]))
    assert response.status_code == 422
    assert "si può eliminare solo un turno senza smazzate" in response.content.decode()
    assert Turno.objects.filter(pk=turno.pk).exists()


# -- defect 1 and friction: the new-turno form says the chosen game's table ---------------------
URL = reverse("scoring:turno_new")
LEGENDS = {
    "caf": "Giocatori in ordine di posto (senso antiorario), da 3 a 7",
    "king-classico": "Giocatori in ordine di posto (senso antiorario), 4",
    "king-internazionale": "Giocatori in ordine di posto (senso orario), 4",
    "le-king": "Giocatori in ordine di posto (senso antiorario), 3 o 4",
    "skat-isko": "Giocatori in ordine di posto (senso orario), 3 o 4",
    "ramino-101": "Giocatori in ordine di posto (senso orario), da 2 a 5",
}


@pytest.mark.parametrize("code", sorted(LEGENDS))
def test_the_new_turno_form_says_the_games_table(segretario_client, code):
    season = season_create(name="Corrente", ruleset_code=code)
    Season.objects.filter(pk=season.pk).update(is_current=True)
    html = segretario_client.get(URL).content.decode()
    legend = re.search(r'<legend class="table-legend">([^<]*)</legend>', html).group(1)
    assert legend == LEGENDS[code]
    direction = "senso orario;" if "(senso orario)" in legend else "senso antiorario;"
    assert f"nell&#x27;ordine in cui siedono girando in {direction}" in html
    assert "data-tables=" in html  # the script follows another season when chosen


def test_the_new_turno_form_refuses_a_table_the_game_does_not_take(segretario_client, members):
    season = season_create(name="King", ruleset_code="king-classico")
    pk = dict(Player.objects.values_list("name", "pk"))
    data = {"season": season.pk, "date": "2026-11-20", "first_dealer_seat": 1}
    data.update({f"seat_{i}": pk[n] for i, n in enumerate(NAMES[:3], start=1)})
    response = segretario_client.post(URL, data)
    assert response.status_code == 200 and not Turno.objects.exists()
    html = response.content.decode()
    seats = html[html.index('<fieldset class="seats">') : html.index('for="id_seat_1"')]
    assert "Giocatori: 3, ma questo gioco si gioca in 4." in seats  # the engine's, by the seats
    english = segretario_client.post(URL, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Players: 3, but this game is played by 4." in english
    data["seat_4"] = pk["Dario"]
    assert segretario_client.post(URL, data).status_code == 302


# -- defect 4: the engine's messages as sentences naming the field, in the reader's language ------
def _post(client, turno, data, lang="it"):
    url = reverse("scoring:turno_smazzata", args=[turno.pk])
    return client.post(url, {"numero": "1", **data}, HTTP_ACCEPT_LANGUAGE=lang)


@pytest.mark.parametrize(
    "code, players, data, italian, english",
    [
        (
            "ramino-101",
            2,
            {"closer": "Anna"},
            "Chiusura: scegliere come si è chiuso.",
            "Close: choose how the hand was closed.",
        ),
        (
            "king-internazionale",
            4,
            {},
            "Contratto: scegliere il contratto.",
            "Contract: choose the contract.",
        ),
        (
            "skat-isko",
            3,
            {"declarer": "Bruno", "with": "1", "declarer_points": "70"},
            "Gioco: scegliere il gioco.",
            "Game: choose the game.",
        ),
        (
            "skat-isko",
            3,
            {"declarer": "Bruno", "game": "GRAND", "with": "1", "declarer_points": "70"},
            "Dichiarazione (licitazione): scrivere il valore dichiarato.",
            "Bid: enter the bid.",
        ),
        (
            "skat-isko",
            3,
            {"declarer": "Bruno", "game": "GRAND", "with": "1", "bid": "18", "matadors": "5"},
            "Matadori (con/senza): 5 non va bene, deve essere da 1 a 4.",
            "Matadors (with/without): 5 is not allowed, it must be from 1 to 4.",
        ),
        (
            "skat-isko",
            3,
            {"declarer": "Bruno", "game": "GRAND", "with": "1", "bid": "18", "matadors": "1"},
            "Prese del dichiarante: scrivere il numero.",
            "Declarer&#x27;s tricks: enter the number.",
        ),
    ],
)
def test_a_bad_deal_is_told_as_a_sentence_naming_the_field(
    segretario_client, members, code, players, data, italian, english
):
    turno = _start(code, players)
    for lang, expected in (("it", italian), ("en", english)):
        response = _post(segretario_client, turno, data, lang)
        assert response.status_code == 422
        html = response.content.decode()
        assert expected in html
        assert "None" not in html and "DIAMONDS, HEARTS" not in html
        assert "manca il dato" not in html and "(bid)" not in html and "sequenze" not in html
    assert not turno.smazzate.exists()


def test_the_five_games_forms_and_columns_in_english(segretario_client, members):
    ramino = _start("ramino-101", 3)
    html = segretario_client.get(
        reverse("scoring:turno_live", args=[ramino.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Who closes" in html and "Points left in hand" in html and "Chi chiude" not in html
    skat = _start("skat-isko", 3)
    html = segretario_client.get(
        reverse("scoring:turno_live", args=[skat.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Passed: everybody passed" in html and "Eingepasst" not in html
    assert "♣ clubs" in html and "Matadors (with/without)" in html
    html = segretario_client.get(
        reverse("scoring:turno_live", args=[skat.pk]), HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "Passato: tutti hanno passato" in html and "Eingepasst" not in html


def test_the_english_catalogue_has_no_untranslated_entry():
    """Every msgid of locale/en has its msgstr (what makemessages would leave empty)."""
    import pathlib

    po = pathlib.Path(__file__).resolve().parents[2] / "locale/en/LC_MESSAGES/django.po"
    text = po.read_text(encoding="utf-8")
    entries = re.findall(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', text + "\n", re.M)
    joined = [
        ("".join(re.findall(r'"(.*)"', i)), "".join(re.findall(r'"(.*)"', s))) for i, s in entries
    ]
    empty = [msgid for msgid, msgstr in joined if msgid and not msgstr]
    assert empty == []


# -- defect 5: the rules' codes as their names, every average with two decimals ------------------
def test_the_player_page_names_the_games_and_writes_averages_alike(client, members):
    from scoring import api
    from scoring.services.games import game_turno_close

    turno = _start("ramino-101", 4)
    api.smazzata_record(turno=turno, record=bruno_closes())
    api.smazzata_record(turno=turno, record={"closer": "Anna", "close": "SCALA_REALE"})
    game_turno_close(turno=turno, tiebreak=["Carla", "Bruno", "Dario"])
    anna = Player.objects.get(name="Anna")
    url = reverse("scoring:player", args=[anna.pk]) + f"?stagione={turno.season_id}"
    html = client.get(url).content.decode()
    rows = dict(re.findall(r'<tr data-game="(\w+)"><th scope="row">([^<]*)</th>', html))
    assert rows == {"NORMALE": "normale", "SCALA_REALE": "scala reale"}
    normale = html.split('<tr data-game="NORMALE">')[1].split("</tr>")[0]
    cells = r'<td class="num" data-col="(?:count|chosen|average)">([^<]*)</td>'
    assert re.findall(cells, normale) == ["1", "0", "34,00"]
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<tr data-game="NORMALE"><th scope="row">normal</th>' in english
    assert "34.00" in english.split('<tr data-game="NORMALE">')[1].split("</tr>")[0]


# -- friction: King internazionale took a trump for a negative asta and dropped it silently -------
@pytest.mark.parametrize("mode", ["NEGATIVE", "UNPLAYED"])
def test_a_trump_for_an_asta_without_one_is_refused(mode):
    from scoring.rules.systems import get_system

    system = get_system("king-internazionale")
    turno = {"players": NAMES[:4], "first_dealer": "Anna", "smazzate": []}
    data = {"game": "ASTA", "mode": mode, "trump": "H"}
    with pytest.raises(RuleViolation) as refused:
        system.parse_entry(system.rules(), turno, data)
    assert [(p.code, p.field, p.message) for p in refused.value.problems] == [
        (
            "TRUMP",
            "trump",
            "Briscola: l'asta negativa o non giocata si gioca senza briscola: scegliere «nessuna».",
        )
    ]
    positive = system.parse_entry(system.rules(), turno, {**data, "mode": "POSITIVE"})
    assert positive["trump"] == "H"
