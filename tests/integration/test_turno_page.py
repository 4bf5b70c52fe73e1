"""The Verbale di Turno on screen and the scoreboard's table: one view, one template and one read
model (:mod:`scoring.selectors_turno`) for every game (issue 24 item 5).

The five games' page changed shape when it joined C.A.F.'s: the result table is C.A.F.'s
("Risultato", "Pos.", "Totale", the player linked to their page), a turno in corso shows the
running totals, the penalità are listed; what each shows is asserted here exactly.
"""

from __future__ import annotations

import datetime as dt
import html as htmllib
import json
import random
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import api
from scoring.models import Player, Turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.selectors_live import board
from scoring.selectors_turno import TURNO_READERS, turno_sheets

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
RAMINO = Path(__file__).resolve().parents[2] / "fixtures" / "ramino-sample.json"
DAY = dt.date(2026, 11, 20)


def _text(fragment: str) -> str:
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _rows(page: str, table_class: str) -> list[str]:
    """The text of each body row of the first ``<table class="...">`` of the page."""
    start = page.index(f'<table class="{table_class}"')
    table = page[start : page.index("</table>", start)]
    body = table[table.index("<tbody>") :]
    return [_text(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def _running(page: str) -> str:
    start = page.index('<div class="card running"')
    return page[start : page.index("</div>\n</div>", start)]


def _headers(page: str, table_class: str) -> list[str]:
    start = page.index(f'<table class="{table_class}"')
    head = page[start : page.index("</thead>", start)]
    return [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]


@pytest.fixture
def ramino():
    for name in PLAYERS:
        Player.objects.create(name=name)
    season = api.season_create(name="Ramino", ruleset="ramino-101")
    turno = api.turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    return turno


def _hands() -> list[dict]:
    return json.loads(RAMINO.read_text())["turni"][0]["smazzate"]


def test_a_ramino_turno_in_corso_shows_its_running_totals(client, ramino):
    for hand in _hands()[:2]:
        api.smazzata_record(turno=ramino, record=hand)
    page = client.get(reverse("scoring:turno", args=[ramino.pk])).content.decode()
    running = _running(page)
    assert _text(running).startswith(
        "Turno in corso — 2 smazzate registrate. Prossimo mazziere: Carla. "
        "I totali sono provvisori; i posti si fissano alla chiusura."
    )
    boxes = re.findall(
        r'<div class="total-box" data-player="([^"]+)">.*?<span class="pts">([^<]+)</span>',
        running,
        re.S,
    )
    # Ramino's points count against a player: plain figures, never a "+"
    assert boxes == [("Anna", "62"), ("Bruno", "30"), ("Carla", "−13"), ("Dario", "100")]
    assert 'class="result"' not in page  # places are fixed at the close


def test_a_closed_ramino_turno_shows_c_a_f_s_result_table_in_its_own_columns(client, ramino):
    for hand in _hands():
        api.smazzata_record(turno=ramino, record=hand)
    api.turno_close(turno=ramino)
    page = client.get(reverse("scoring:turno", args=[ramino.pk])).content.decode()
    assert _headers(page, "result") == [
        "Pos.",
        "Giocatore",
        "Totale",
        "Rientri",
        "Quote",
        "Punti classifica",
    ]
    assert _rows(page, "result") == [
        "1° Carla 39 1 1,00 3",
        "2° Dario 101 1 1,00 2",
        "3° Anna 101 1 1,00 1",
        "4° Bruno 105 0 0,00 0",
    ]
    # each player linked to their page of the season, as on C.A.F.'s Verbale
    bruno = Player.objects.get(name="Bruno")
    assert f'href="{reverse("scoring:player", args=[bruno.pk])}"' in page
    assert '<h2 id="sm-h">Smazzate</h2>' in page and "Risultati" not in page


def test_a_king_turno_lists_its_penalita(client):
    for name in PLAYERS:
        Player.objects.create(name=name)
    season = api.season_create(name="Classico", ruleset="king-classico")
    turno = api.turno_start(season=season, date=DAY, players=PLAYERS, first_dealer="Anna")
    api.penalita_add(turno=turno, player="Bruno", points=-5, article="0.5", reason="telefono")
    page = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    assert _headers(page, "penalties") == ["Giocatore", "Punti", "Articolo", "Motivo"]
    assert _rows(page, "penalties") == ["Bruno −5 art. 0.5 telefono"]
    running = _running(page)
    totals = dict(re.findall(r'data-player="([^"]+)">.*?class="pts[^"]*">([^<]+)<', running, re.S))
    assert totals == {"Anna": "0", "Bruno": "−5", "Carla": "0", "Dario": "0"}


@pytest.mark.parametrize(
    "code", ["caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]
)
def test_every_game_one_view_one_template_one_read_model(client, code):
    players = PLAYERS[:3] if code == "skat-isko" else PLAYERS
    for name in players:
        Player.objects.get_or_create(name=name)
    season = api.season_create(name=code, ruleset=code)
    turno = api.turno_start(season=season, date=DAY, players=players, first_dealer="Anna")
    response = client.get(reverse("scoring:turno", args=[turno.pk]))
    names = [t.name for t in response.templates]
    assert names[0] == "scoring/public/turno.html"
    assert not any(n.startswith("scoring/games/") for n in names)
    sheet = response.context["t"]
    assert sheet.grid == ("calls" if code == "caf" else "lines")  # no deal yet: no Spielliste
    assert season.system.ledger in TURNO_READERS
    (again,) = turno_sheets([Turno.objects.select_related("season", "giornata").get(pk=turno.pk)])
    assert [p.name for p in again.players] == players


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_the_page_and_the_board_query_a_fixed_number_of_times(client, ramino):
    """Measured when the two ledgers' pages became one (issue 24 item 5): the five games' page
    read its turno twice (14 queries closed, 15 in corso), C.A.F.'s 8 and 9; the board of a
    C.A.F. and a Ramino table in corso ran 1 query more (which ledger keeps each turno)."""
    for hand in _hands()[:2]:
        api.smazzata_record(turno=ramino, record=hand)
    url = reverse("scoring:turno", args=[ramino.pk])
    client.get(url)
    # the turno, seats, smazzate, results, penalità, the reopens, the confirmations and
    # the session's pair for the template's user
    assert _count(lambda: client.get(url)) == 8
    for name in ("Elena", "Fabio", "Gino", "Ugo"):
        Player.objects.create(name=name)
    caf = api.season_create(name="2026-27")
    other = api.turno_start(
        season=caf, date=DAY, players=["Elena", "Fabio", "Gino", "Ugo"], first_dealer="Elena"
    )
    first = simulate_turno(caf.ruleset, ["Elena", "Fabio", "Gino", "Ugo"], random.Random(1))
    deal = first.smazzate[0]
    record = {"game": deal.game, "caller": deal.caller, "result": dict(deal.result)}
    api.smazzata_record(
        turno=other, record={**record, **({"trump": deal.trump} if deal.trump else {})}
    )
    both = Turno.objects.filter(pk__in=[ramino.pk, other.pk])
    # the turni; the counts ledger's 6 prefetches; the records ledger's 4
    assert _count(lambda: board(both)) == 11
