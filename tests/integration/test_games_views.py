"""The generic ledger's live screen: a Ramino match recorded through the views."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from scoring.models import Player, Seat, Smazzata, Turno
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.helpers import bruno_closes

pytestmark = pytest.mark.django_db
P4 = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def turno():
    for name in P4:
        Player.objects.create(name=name)
    season = season_create(name="Ramino", ruleset_code="ramino-101")
    return turno_start(season=season, date=dt.date(2026, 11, 20), players=P4, first_dealer="Anna")


def live(turno) -> str:
    return reverse("scoring:turno_live", args=[turno.pk])


def post(client, turno, **data):
    return client.post(reverse("scoring:turno_smazzata", args=[turno.pk]), data)


def hand(closer, close, penalties, **extra):
    """Form data: penalties by seat index among the players still in."""
    data = {"closer": closer, "close": close, **extra}
    for i, value in penalties.items():
        data[f"penalties-{i}"] = str(value)
    return data


def totals(turno):
    return {s.player.name: s.total for s in Seat.objects.filter(turno=turno)}


def test_the_live_screen_offers_the_systems_fields(segretario_client, turno):
    page = segretario_client.get(live(turno))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-system="ramino-101"' in html
    assert 'name="closer" value="Anna"' in html
    assert "scala reale (vince la partita)" in html
    assert 'name="penalties-3"' in html and 'max="104"' in html
    assert "a 101 da 101" not in html  # at 0 no distance to the threshold (issue 25)
    assert 'name="closer_points"' not in html  # the closer's two cards: his own input


def test_record_ask_rientra_then_close(segretario_client, turno):
    c = segretario_client
    assert (
        post(c, turno, numero=1, **hand("Bruno", "NORMALE", {0: 34, 2: 12, 3: 55})).status_code
        == 302
    )
    assert (
        post(c, turno, numero=2, **hand("Carla", "COLORE", {0: 28, 1: 40, 3: 45})).status_code
        == 302
    )
    assert totals(turno) == {"Anna": 62, "Bruno": 30, "Carla": -13, "Dario": 100}
    # Anna closes with two cards worth 3: typed in her own "points left in hand" input
    third = hand("Anna", "DUE_CARTE", {0: 3, 1: 18, 2: 60, 3: 1}, numero=3)
    asked = post(c, turno, **third)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Rientra?" in html and "Dario rientra a 65" in html
    assert 'name="risposte" value="1"' in html
    assert 'name="penalties-2" value="60"' in html  # what was typed is kept
    assert Smazzata.objects.filter(turno=turno).count() == 2  # nothing stored yet
    done = post(c, turno, risposte="1", reentries="Dario", **third)
    assert done.status_code == 302
    assert totals(turno) == {"Anna": 65, "Bruno": 48, "Carla": 47, "Dario": 65}
    # a wrong entry: the engine's message beside the field, nothing saved
    bad = post(c, turno, numero=4, **hand("Dario", "FIGURA", {0: 40, 1: 500, 2: 20}))
    assert bad.status_code == 422
    assert "dieci carte valgono da 0 a 104" in bad.content.decode()
    assert Smazzata.objects.filter(turno=turno).count() == 3
    # the rest of the worked match
    post(c, turno, numero=4, risposte="1", reentries="Anna",
         **hand("Dario", "FIGURA", {0: 40, 1: 57, 2: 20}))  # fmt: skip
    post(c, turno, numero=5, **hand("Carla", "NORMALE", {0: 30, 2: 44}))  # Anna, Carla, Dario in
    post(c, turno, numero=6, risposte="1", reentries="Carla",
         **hand("Dario", "NORMALE", {0: 4, 1: 45}))  # fmt: skip
    post(c, turno, numero=7, **hand("Carla", "NORMALE", {1: 52}))  # Carla, Dario in
    assert totals(turno) == {"Anna": 101, "Bruno": 105, "Carla": 39, "Dario": 101}
    page = c.get(live(turno)).content.decode()
    assert "Partita finita" in page
    closed = c.post(reverse("scoring:turno_close", args=[turno.pk]))
    assert closed.status_code == 302
    turno.refresh_from_db()
    assert turno.verbale_number == 1 and turno.winner.name == "Carla"
    page = c.get(live(turno)).content.decode()
    assert "Verbale n. 1" in page and "Riapri" in page


def test_correct_a_smazzata_from_the_screen(segretario_client, turno):
    c = segretario_client
    post(c, turno, numero=1, **hand("Bruno", "NORMALE", {0: 34, 2: 12, 3: 55}))
    post(c, turno, numero=2, **hand("Carla", "COLORE", {0: 28, 1: 40, 3: 45}))
    form = c.get(live(turno) + "?correggi=1").content.decode()
    assert "Correggi la smazzata 1" in form
    assert 'name="penalties-3" value="55"' in form  # the stored record, in the form
    fixed = post(c, turno, correggi="1", **hand("Bruno", "NORMALE", {0: 30, 2: 12, 3: 55}))
    assert fixed.status_code == 302
    assert totals(turno) == {"Anna": 58, "Bruno": 30, "Carla": -13, "Dario": 100}


def test_undo_and_the_reopen_reason(segretario_client, turno):
    c = segretario_client
    post(c, turno, numero=1, **hand("Anna", "SCALA_REALE", {}))
    undo = c.post(reverse("scoring:turno_undo", args=[turno.pk]), {"numero": "1"})
    assert undo.status_code == 302
    assert not Smazzata.objects.filter(turno=turno).exists()
    post(c, turno, numero=1, **hand("Anna", "POKERISSIMO", {}))
    c.post(reverse("scoring:turno_close", args=[turno.pk]))
    # Bruno, Carla and Dario all at 0 after an instant win: the draw decides
    turno.refresh_from_db()
    assert turno.is_open
    order = {"spareggio-0": "Dario", "spareggio-1": "Bruno", "spareggio-2": "Carla"}
    assert c.post(reverse("scoring:turno_close", args=[turno.pk]), order).status_code == 302
    places = {s.player.name: s.place for s in Seat.objects.filter(turno=turno)}
    assert places == {"Anna": 1, "Bruno": 3, "Carla": 4, "Dario": 2}
    empty = c.post(reverse("scoring:turno_reopen", args=[turno.pk]), {"reason": "   "})
    assert empty.status_code == 422
    ok = c.post(reverse("scoring:turno_reopen", args=[turno.pk]), {"reason": "spareggio rifatto"})
    assert ok.status_code == 302
    assert Turno.objects.get(pk=turno.pk).is_open


def test_the_dashboard_lists_the_ramino_turno(segretario_client, turno):
    page = segretario_client.get(reverse("scoring:segreteria") + f"?stagione={turno.season.pk}")
    assert page.status_code == 200
    assert live(turno) in page.content.decode()


def closed_match(turno):
    from scoring import api
    from scoring.services.games import game_turno_close

    for record in [
        {
            "closer": "Bruno",
            "close": "NORMALE",
            "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
        },
        {"closer": "Anna", "close": "SCALA_REALE"},
    ]:
        api.smazzata_record(turno=turno, record=record)
    return game_turno_close(turno=turno, tiebreak=["Carla", "Bruno", "Dario"])


def test_members_pages_of_a_ramino_season(client, turno):
    closed_match(turno)
    season = turno.season
    q = f"?stagione={season.pk}"
    home = client.get(reverse("scoring:home") + q).content.decode()
    assert 'data-system="ramino-101"' in home
    # Anna won at once; the others by their totals, lowest first: Bruno -10, Carla 12, Dario 55
    assert re.findall(r'<tr data-player="([^"]+)"', home) == ["Anna", "Bruno", "Carla", "Dario"]
    bruno = home.split('data-player="Bruno"')[1].split("</tr>")[0]
    cells = dict(re.findall(r'<td[^>]* data-col="([^"]+)">([^<]*)</td>', bruno))
    # place 2; league points 2, one match, no win
    assert [cells[k] for k in ("place", "league_points", "turni", "wins")] == ["2", "2", "1", "0"]
    verbale = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    assert "Verbale di Turno" in verbale and "Bruno chiude: normale" in verbale
    assert "Anna chiude: scala reale, vince la partita" in verbale
    player = client.get(reverse("scoring:player", args=[turno.first_dealer.pk]) + q)
    assert player.status_code == 200
    assert 'data-game="SCALA_REALE"' in player.content.decode()
    serie = client.get(reverse("scoring:serie") + q).content.decode()
    assert "data-no-series" in serie
    # the players' list in the game's own columns (it showed C.A.F.'s series and absences)
    players = client.get(reverse("scoring:players") + q).content.decode()
    bruno = players.split('data-player="Bruno"')[1].split("</tr>")[0]
    cells = dict(re.findall(r'<td[^>]* data-col="([^"]+)">([^<]*)</td>', bruno))
    assert cells == {"place": "2", "league_points": "2", "turni": "1", "wins": "0"}
    bruno_page = client.get(
        reverse("scoring:player", args=[Player.objects.get(name="Bruno").pk]) + q
    ).content.decode()
    stats = re.findall(
        r'<div class="stat" data-stat="[^"]+"><dt>([^<]*)</dt><dd>([^<]*)</dd></div>', bruno_page
    )
    # his place, then the season's figures in the Classifica's columns (the one player page)
    assert stats == [("Pos.", "2"), ("Punti", "2"), ("Partite", "1"), ("Vinte", "0")]
    assert client.get(reverse("scoring:turni") + q).status_code == 200


def test_the_documents_of_a_ramino_turno(client, turno):
    import io

    from openpyxl import load_workbook
    from pypdf import PdfReader

    closed_match(turno)
    pdf = client.get(reverse("scoring:turno_pdf", args=[turno.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Ramino 101" in text and "Bruno chiude: normale" in text
    xlsx = client.get(reverse("scoring:turno_xlsx", args=[turno.pk]))
    sheet = load_workbook(io.BytesIO(xlsx.content), data_only=True)["Verbale"]
    rows = [tuple(r) for r in sheet.iter_rows(values_only=True)]
    header = next(i for i, r in enumerate(rows) if r[:3] == ("N.", "Mazziere", "Mano"))
    assert rows[header][3:7] == ("Anna", "Bruno", "Carla", "Dario")
    total = next(r for r in rows if r[2] == "Totale")
    assert total[3:7] == (34, -10, 12, 55)  # the cached values of the =SUM formulas
    formulas = load_workbook(io.BytesIO(xlsx.content))["Verbale"]
    assert formulas.cell(row=header + 4, column=4).value == f"=SUM(D{header + 2}:D{header + 3})"
    standing = client.get(reverse("scoring:classifica_xlsx", args=[turno.season.pk]))
    table = load_workbook(io.BytesIO(standing.content))["Classifica"]
    # the standing's rows (a place first), then its footnote
    names = [r[1] for r in table.iter_rows(min_row=6, values_only=True) if isinstance(r[0], int)]
    assert names == ["Anna", "Bruno", "Carla", "Dario"]
    assert client.get(reverse("scoring:classifica_pdf", args=[turno.season.pk])).status_code == 200


def test_a_name_that_looks_like_a_formula_stays_text(client, turno):
    import io

    from openpyxl import load_workbook

    from scoring import api
    from scoring.services.games import game_turno_close

    evil = '=HYPERLINK("http://evil.example","x")'
    Player.objects.create(name=evil)
    match = turno_start(
        season=turno.season, date=dt.date(2026, 11, 27), players=[evil, "Anna"], first_dealer=evil
    )
    api.smazzata_record(turno=match, record={"closer": evil, "close": "POKERISSIMO"})
    game_turno_close(turno=match)
    xlsx = client.get(reverse("scoring:turno_xlsx", args=[match.pk]))
    sheet = load_workbook(io.BytesIO(xlsx.content))["Verbale"]
    cells = [c for r in sheet.iter_rows() for c in r if c.value and "HYPERLINK" in str(c.value)]
    assert cells and all(c.data_type == "s" for c in cells)


def test_a_members_page_of_a_ramino_season_is_kept_by_the_season_version(client, turno):
    """Every game's member page is kept by the season's version (as C.A.F.'s): its points per
    game count the closed turni, so a smazzata of a turno in corso shows once the turno
    closes (the close bumps the version), never a page kept from before."""
    from scoring import api
    from scoring.services.games import game_turno_close

    url = reverse("scoring:player", args=[turno.first_dealer.pk]) + f"?stagione={turno.season.pk}"
    before = client.get(url).content.decode()
    assert 'data-game="NORMALE"' not in before
    api.smazzata_record(turno=turno, record=bruno_closes())
    assert client.get(url).content.decode() == before
    api.smazzata_record(turno=turno, record={"closer": "Anna", "close": "SCALA_REALE"})
    game_turno_close(turno=turno, tiebreak=["Carla", "Bruno", "Dario"])
    after = client.get(url).content.decode()
    assert 'data-game="NORMALE"' in after and 'data-game="SCALA_REALE"' in after
