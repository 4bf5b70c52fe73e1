"""The Skat list at the segretario's desk: the game value as it is typed (the preview endpoint,
never a write) and the Spielliste with its running totals (screen, PDF, XLSX)."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import io
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl.utils import get_column_letter

from scoring import api
from scoring.models import Player, Seat, Smazzata
from scoring.selectors_games import verbale_rows
from scoring.services.games import game_turno_close
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.helpers import GRAND_HAND_FORM as GRAND_HAND  # SPEC-skat §13: Grand hand, 31

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
    return client.post(reverse("scoring:turno_preview", args=[turno.pk]), data)


def text(response) -> str:
    """The partial's visible text, whitespace collapsed."""
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(html)).strip()


def points(response) -> dict[str, str]:
    html = response.content.decode()
    return dict(re.findall(r'<tr data-player="(\w+)">.*?data-points="(-?\d+)"', html))


def test_a_grand_hand_with_matadors_is_valued_as_it_is_typed(segretario_client, lista):
    r = preview(segretario_client, lista, **GRAND_HAND)
    assert r.status_code == 200
    t = text(r)
    assert "Valore 8 × 24 = 192" in t
    assert "Esito perso \N{MINUS SIGN}384" in t
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
    assert "Esito perso (superato) \N{MINUS SIGN}54" in t
    assert points(r) == {"Anna": "-104", "Bruno": "40", "Carla": "40"}
    assert "avversari 31" in r.content.decode()


def test_a_null_ouvert_and_the_totals_it_would_make(segretario_client, lista):
    api.smazzata_record(turno=lista, record={**_grand_hand_record()})
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
    after = re.findall(cells, r.content.decode().replace("\N{MINUS SIGN}", "-"))
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
    assert "Matadori (con/senza): «tre» non è un numero intero." in text(r)
    for hostile in ("²", "9" * 5000, "-3", "121"):  # never a 500, never a note
        r = preview(segretario_client, lista, **{**GRAND_HAND, "declarer_points": hostile})
        assert r.status_code == 200
        assert 'class="echo" hx-swap-oob="true"></output>' in r.content.decode()
        assert "Punti carta del dichiarante" in text(r) or "punti carta" in text(r)
    # while typing: what is missing is named, field by field
    r = preview(segretario_client, lista, declarer="Bruno", game="CLUBS", declarer_points="61")
    t = text(r)
    assert "Dichiarazione (licitazione): scrivere il valore dichiarato." in t
    assert "Prese del dichiarante: scrivere il numero." in t
    assert "Dichiarazione (licitazione): Dichiarazione" not in t  # the field named once
    assert "avversari 59" in r.content.decode()
    assert Smazzata.objects.count() == 0


# session, user and the segretario's role; the turno's game system (which view answers the one
# set of addresses); the turno with its season, seats, smazzate, results and penalità (all reads)
PREVIEW_QUERIES = 9


def test_the_preview_reads_and_never_writes(segretario_client, lista):
    api.smazzata_record(turno=lista, record=_grand_hand_record())
    with CaptureQueriesContext(connection) as queries:
        r = preview(segretario_client, lista, **{**GRAND_HAND, "declarer": "Carla"})
    assert r.status_code == 200
    sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert not {"INSERT", "UPDATE", "DELETE"} & set(sql), sql
    assert len(sql) == PREVIEW_QUERIES, [q["sql"][:90] for q in queries.captured_queries]
    assert Smazzata.objects.count() == 1


def test_nothing_typed_nothing_shown_and_a_closed_list_previews_nothing(segretario_client, lista):
    r = preview(segretario_client, lista, numero="1")
    assert r.status_code == 200 and text(r) == ""
    page = segretario_client.get(reverse("scoring:turno_live", args=[lista.pk]))
    html = page.content.decode()
    assert f'hx-post="{reverse("scoring:turno_preview", args=[lista.pk])}"' in html
    assert 'hx-trigger="change, input delay:200ms"' in html
    assert '<div id="anteprima" class="preview" aria-live="polite">' in html


def test_without_javascript_a_rejected_save_shows_the_preview(segretario_client, lista):
    url = reverse("scoring:turno_smazzata", args=[lista.pk])
    # tricks 10 but not 120 points: rejected, the page shows the value of what was typed so far
    r = segretario_client.post(url, {**GRAND_HAND, "declarer_tricks": "11"})
    assert r.status_code == 422
    html = r.content.decode()
    assert "avversari 31</output>" in html
    assert "Prese del dichiarante: 11 non va bene, deve essere da 0 a 10." in html
    assert Smazzata.objects.count() == 0


def test_a_ramino_season_has_no_preview(segretario_client):
    for name in P4:
        Player.objects.get_or_create(name=name)
    season = season_create(name="Ramino", ruleset_code="ramino-101")
    turno = turno_start(season=season, date=dt.date(2026, 11, 20), players=P4, first_dealer="Anna")
    preview = reverse("scoring:turno_preview", args=[turno.pk])
    r = segretario_client.post(preview, {"closer": "Anna"})
    assert r.status_code == 200 and r.content.decode().strip() == ""
    page = segretario_client.get(reverse("scoring:turno_live", args=[turno.pk])).content.decode()
    assert "anteprima" not in page


# -- the Spielliste: running totals, G/V, the Seeger-Fabian evaluation --------------------------
SPEC_GAMES = [  # SPEC-skat §12, the abridged list
    _grand_hand_record() | {"bid": 48, "hand": False, "schneider_announced": False}
    | {"declarer_points": 95, "declarer_tricks": 8},
    {"declarer": "Anna", "game": "DIAMONDS", "bid": 22, "matadors": 1, "with": False,
     "declarer_points": 89, "declarer_tricks": 7},
    {"declarer": "Carla", "game": "NULL", "bid": 46, "ouvert": True, "declarer_tricks": 0},
    {"declarer": "Bruno", "game": "CLUBS", "bid": 60, "matadors": 2, "with": True, "hand": True,
     "ouvert": True, "schneider_announced": True, "schwarz_announced": True,
     "declarer_points": 120, "declarer_tricks": 10},
    {"passed": True},
]  # fmt: skip


@pytest.fixture
def spec_list(lista):
    for game in SPEC_GAMES:
        api.smazzata_record(turno=lista, record=game)
    api.penalita_add(turno=lista, player="Carla", points=-25, article="1", reason="carte scoperte")
    return lista


def test_the_spielliste_rows_run_the_totals_per_player(spec_list):
    v = verbale_rows(spec_list)
    sheet = v.sheet
    assert sheet["columns"] == [
        "Solista", "Gioco", "Punti carta", "Valore", "Esito", "Punti gioco"
    ]  # fmt: skip
    running = [[(c["running"], c["won"], c["lost"]) for c in r["cells"]] for r in sheet["rows"]]
    assert running == [
        [(0, 0, 0), (144, 1, 0), (0, 0, 0)],
        [(-54, 0, 1), (144, 1, 0), (0, 0, 0)],
        [(-54, 0, 1), (144, 1, 0), (46, 1, 0)],
        [(-54, 0, 1), (252, 2, 0), (46, 1, 0)],
        [(-54, 0, 1), (252, 2, 0), (46, 1, 0)],
    ]
    assert [r["facts"] for r in sheet["rows"]] == [
        ["Bruno", "Grand con 4", "95 : 25", "144", "vinto", "+144"],
        ["Anna", "♦ quadri senza 1", "89 : 31", "27", "perso (superato)", "-54"],
        ["Carla", "Null, ouvert", "", "46", "vinto", "+46"],
        ["Bruno", "♣ fiori con 2, mano, schneider ann., schwarz ann., ouvert", "120 : 0", "108",
         "vinto", "+108"],
        ["", "passato", "", "", "", ""],
    ]  # fmt: skip
    summary = {
        s["kind"]: [(c["value"], c["g"], c["v"]) for c in s["cells"]] for s in sheet["summary"]
    }
    assert summary == {
        "carry": [(-54, 0, 1), (252, 2, 0), (46, 1, 0)],
        "won": [(0, None, None), (100, None, None), (50, None, None)],
        "lost": [(-50, None, None), (0, None, None), (0, None, None)],
        "count": [(0, 0, None), (40, 1, None), (40, 1, None)],
        "value": [(0, None, None), (0, None, None), (-25, None, None)],
        "sum": [(-104, None, None), (392, None, None), (111, None, None)],  # SPEC §12 totals
    }
    assert v.totals == [-104, 392, 111]


def _evaluate(ws, ref: str) -> int:
    """A tiny spreadsheet: the formulas this exporter writes (=A1, =A1+B2, =A1+1, =A1*k, =SUM())
    computed from the cells themselves, not from the cached values."""
    assert re.fullmatch(r"[A-Z]+\d+", ref), ref
    value = ws[ref].value
    if not isinstance(value, str) or not value.startswith("="):
        return value or 0
    expr = value[1:].replace("$", "")
    if expr.startswith("SUM("):
        a, b = expr[4:-1].split(":")
        col = re.match(r"[A-Z]+", a).group()
        return sum(
            _evaluate(ws, f"{col}{n}") for n in range(int(a[len(col) :]), int(b[len(col) :]) + 1)
        )
    if "*" in expr:
        cell, factor = expr.split("*")
        return _evaluate(ws, cell) * int(factor)
    return sum(int(t) if t.isdigit() else _evaluate(ws, t) for t in expr.split("+"))


def test_the_spielliste_xlsx_keeps_formulas_that_add_up_to_the_stored_totals(client, season):
    from openpyxl import load_workbook

    from scoring.rules.systems import get_system

    system = get_system("skat-isko")
    record = system.random_turno(random.Random(7), P3, system.rules())
    turno = turno_start(season=season, date=dt.date(2026, 11, 27), players=P3,
                        first_dealer=record["first_dealer"])  # fmt: skip
    for game in record["smazzate"]:
        api.smazzata_record(turno=turno, record=game)
    game_turno_close(turno=turno, tiebreak=record.get("tiebreak") or None)
    stored = {s.player.name: s for s in Seat.objects.filter(turno=turno)}
    content = client.get(reverse("scoring:turno_xlsx", args=[turno.pk])).content
    ws = load_workbook(io.BytesIO(content))["Verbale"]
    cached = load_workbook(io.BytesIO(content), data_only=True)["Verbale"]
    rows = [r for r in ws.iter_rows(values_only=True)]
    head = next(i for i, r in enumerate(rows, start=1) if r[:3] == ("N.", "Mazziere", "Solista"))
    assert rows[head - 1][8:17] == ("Anna", None, None, "Bruno", None, None, "Carla", None, None)
    assert rows[head][8:11] == ("Punti", "G", "V")
    first, last = head + 2, head + 1 + 36
    assert ws.cell(row=last, column=1).value == 36
    final = next(i for i, r in enumerate(rows, start=1) if r[2] == "Punti lista (Seeger-Fabian)")
    carry = last + 1
    assert rows[carry - 1][2] == "Punti gioco (Spielpunkte)"
    for j, name in enumerate(P3):
        run, g, lost = (9 + 3 * j + k for k in range(3))
        letter = get_column_letter(run)
        # every running cell is a formula on the row above (the declarer's adds his score)
        for row in range(first + 1, last + 1):
            formula = ws.cell(row=row, column=run).value
            assert formula in (f"={letter}{row - 1}", f"={letter}{row - 1}+$H{row}"), formula
            assert _evaluate(ws, f"{letter}{row}") == cached.cell(row=row, column=run).value
        seat = stored[name]
        assert _evaluate(ws, f"{letter}{carry}") == seat.extra["game_points"]
        assert cached.cell(row=carry, column=run).value == seat.extra["game_points"]
        assert _evaluate(ws, f"{get_column_letter(g)}{carry}") == seat.extra["won"]
        assert _evaluate(ws, f"{get_column_letter(lost)}{carry}") == seat.extra["lost"]
        assert ws.cell(row=final, column=run).value == f"=SUM({letter}{carry}:{letter}{final - 1})"
        assert _evaluate(ws, f"{letter}{final}") == seat.total
        assert cached.cell(row=final, column=run).value == seat.total


def test_the_spielliste_on_screen_and_in_pdf(client, spec_list):
    from pypdf import PdfReader

    page = client.get(reverse("scoring:turno", args=[spec_list.pk])).content.decode()
    assert "Lista (Spielliste)" in page
    assert page.count('data-running="Bruno"><strong>144</strong>') == 1
    final = re.search(r'data-summary="sum">(.*?)</tr>', page.replace("\N{MINUS SIGN}", "-"))
    final = final.group(1)
    assert re.findall(r'<td class="num">(-?\d+)</td>', final) == ["-104", "392", "111"]
    pdf = client.get(reverse("scoring:turno_pdf", args=[spec_list.pk]))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Punti lista (Seeger-Fabian)" in text and "95 : 25" in text
    assert "Gegenspiel verloren" in text


def test_a_correction_is_previewed_in_place(segretario_client, lista):
    """Correcting game 1 of two: the totals after are the list's with game 1 replaced."""
    api.smazzata_record(turno=lista, record=_grand_hand_record())  # Bruno -434, others +40
    api.smazzata_record(turno=lista, record=SPEC_GAMES[2])  # Carla Null ouvert +96
    won = {**GRAND_HAND, "declarer_points": "90", "declarer_tricks": "8"}  # schneider made: won
    r = preview(segretario_client, lista, correggi="1", **won)
    assert "Esito vinto +192" in text(r)
    assert points(r) == {"Anna": "0", "Bruno": "242", "Carla": "0"}
    cells = r'data-points="-?\d+">.*?</td><td class="num">(-?\d+)</td>'
    html = r.content.decode().replace("\N{MINUS SIGN}", "-")
    assert re.findall(cells, html) == ["0", "242", "96"]
    assert [s.record["declarer_points"] for s in Smazzata.objects.order_by("number")[:1]] == [89]


def test_at_four_the_dealer_who_sits_out_cannot_declare(segretario_client, season):
    turno = turno_start(season=season, date=dt.date(2026, 11, 20), players=P4, first_dealer="Dario")
    r = preview(segretario_client, turno, **{**GRAND_HAND, "declarer": "Bruno"})
    assert points(r) == {"Anna": "30", "Bruno": "-434", "Carla": "30", "Dario": "30"}
    r = preview(segretario_client, turno, **{**GRAND_HAND, "declarer": "Dario"})
    assert r.status_code == 200
    assert (
        "Dichiarante: Dario è il mazziere di questo gioco; a quattro giocatori sta fuori e non "
        "può essere il solista." in text(r)
    )


@pytest.mark.parametrize("value", ["2", "999999", "9" * 20, "²", "٢", "1_0"])
def test_a_correction_of_a_smazzata_not_recorded_is_not_found(segretario_client, lista, value):
    """Issue 26, item 4: ``correggi`` out of range (or not typed in ASCII digits) is a 404 on the
    live screen, on the record and on the preview, never an IndexError, and nothing changes."""
    c = segretario_client
    c.post(reverse("scoring:turno_smazzata", args=[lista.pk]), GRAND_HAND)
    assert Smazzata.objects.filter(turno=lista).count() == 1
    live = reverse("scoring:turno_live", args=[lista.pk])
    assert c.get(live, {"correggi": value}).status_code == 404
    for name in ("turno_smazzata", "turno_preview"):
        r = c.post(reverse(f"scoring:{name}", args=[lista.pk]), {**GRAND_HAND, "correggi": value})
        assert r.status_code == 404, name
    assert Smazzata.objects.filter(turno=lista).count() == 1
    assert c.get(live, {"correggi": "1"}).status_code == 200
