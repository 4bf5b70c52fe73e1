"""The one player page (issue 24): a Ramino member's season through the same read model, template
and shared cache as C.A.F.'s: the standing in the season's own columns, the turni a page of
giornate at a time, the points per game of the closed turni, a fixed number of queries."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import api
from scoring.models import Player, Season

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla"]
# (closer, the tiebreak of the two left at 0): one instant win a giornata, 1-5 November
MATCHES = [
    ("Anna", ["Bruno", "Carla"]),
    ("Anna", ["Carla", "Bruno"]),
    ("Bruno", ["Anna", "Carla"]),
    ("Anna", ["Bruno", "Carla"]),
    ("Carla", ["Anna", "Bruno"]),
]


def ramino_season(matches=MATCHES, *, name="Ramino") -> Season:
    for who in NAMES:
        Player.objects.get_or_create(name=who)
    season = api.season_create(name=name, ruleset="ramino-101")
    for day, (closer, tiebreak) in enumerate(matches, start=1):
        turno = api.turno_start(
            season=season, date=dt.date(2026, 11, day), players=NAMES, first_dealer="Anna"
        )
        api.smazzata_record(turno=turno, record={"closer": closer, "close": "POKERISSIMO"})
        api.turno_close(turno=turno, tiebreak=tiebreak)
    return Season.objects.get(pk=season.pk)


def url_of(season: Season, name: str = "Anna") -> str:
    player = Player.objects.get(name=name)
    return reverse("scoring:player", args=[player.pk]) + f"?stagione={season.pk}"


def stats(page: str) -> dict[str, tuple[str, str]]:
    found = re.findall(
        r'<div class="stat" data-stat="([^"]+)"><dt>([^<]*)</dt><dd>([^<]*)</dd></div>', page
    )
    return {key: (label, value) for key, label, value in found}


def dates(page: str) -> list[str]:
    return re.findall(r'<tr data-turno="\d+" data-date="([\d-]+)"', page)


def test_a_ramino_members_page_in_the_seasons_columns_a_page_of_giornate_at_a_time(
    client, monkeypatch
):
    from scoring.views import public

    monkeypatch.setattr(public, "TIMELINE_PER_PAGE", 2)
    season = ramino_season()
    # a sixth turno, in corso: a turno played, its places not known yet
    api.turno_start(season=season, date=dt.date(2026, 11, 6), players=NAMES, first_dealer="Anna")
    page = client.get(url_of(season)).content.decode()
    # league points n - place: Anna 2 + 2 + 1 + 2 + 1; five closed turni and the one in corso
    assert stats(page) == {
        "place": ("Pos.", "1"),
        "league_points": ("Punti", "8"),
        "turni": ("Partite", "6"),
        "wins": ("Vinte", "3"),
    }
    assert "Ramino 101" in page and "1° in classifica" in page
    assert 'id="chart-league' not in page  # no league points per giornata kept by this ledger
    # newest first, two giornate a page: the turno in corso, then 5 November
    assert dates(page) == ["2026-11-06", "2026-11-05"]
    assert "Giornate: 6" in page
    assert f'href="?stagione={season.pk}&amp;pagina=3#turni-title"' in page
    first = page.split('data-date="2026-11-06"')[1].split("</tr>")[0]
    assert "in corso" in first
    fifth = page.split('data-date="2026-11-05"')[1].split("</tr>")[0]
    cells = dict(re.findall(r'<td class="num" data-col="([^"]+)">([^<]*)</td>', fifth))
    assert cells == {"place": "2°", "total": "0", "reentries": "0", "fees": "0,00",
                     "league_points": "1"}  # fmt: skip
    second = client.get(url_of(season) + "&pagina=2").content.decode()
    assert dates(second) == ["2026-11-04", "2026-11-03"]
    last = client.get(url_of(season) + "&pagina=99").content.decode()  # past the last: the last
    assert dates(last) == ["2026-11-02", "2026-11-01"]
    # the points per game of the closed turni: five pokerissimi, three of them hers
    row = page.split('<tr data-game="POKERISSIMO">')[1].split("</tr>")[0]
    assert re.match(r'<th scope="row">pokerissimo</th>', row)
    assert dict(re.findall(r'data-col="(\w+)"[^>]*>([^<]*)</td>', row)) == {
        "count": "5",
        "chosen": "3",
        "total": "0",
        "average": "0,00",
    }
    # the same figures as her row of the Classifica
    home = client.get(reverse("scoring:home") + f"?stagione={season.pk}").content.decode()
    anna = home.split('data-player="Anna"')[1].split("</tr>")[0]
    row = dict(re.findall(r'<td[^>]* data-col="([^"]+)">([^<]*)</td>', anna))
    assert [row[k] for k in ("place", "league_points", "turni", "wins")] == ["1", "8", "5", "3"]


def test_a_ramino_members_page_is_kept_by_the_season_version(client):
    season = ramino_season()
    url = url_of(season, "Bruno")
    cold = client.get(url).content.decode()
    with CaptureQueriesContext(connection) as kept:
        assert client.get(url).content.decode() == cold
    assert len(kept.captured_queries) == 2  # the member, the seasons' versions
    assert stats(cold)["league_points"] == ("Punti", "4")
    # a close bumps the version: the page shows it at once
    turno = api.turno_start(
        season=season, date=dt.date(2026, 11, 7), players=NAMES, first_dealer="Anna"
    )
    api.smazzata_record(turno=turno, record={"closer": "Bruno", "close": "POKERISSIMO"})
    api.turno_close(turno=turno, tiebreak=["Anna", "Carla"])
    after = client.get(url).content.decode()
    assert stats(after)["league_points"] == ("Punti", "6")
    assert dates(after)[0] == "2026-11-07"


def test_a_logged_in_member_reads_a_ramino_page_from_the_shared_cache(client):
    from tests.integration.test_pages_speed import MEMBER_PLAYER_WARM_QUERIES

    season = ramino_season()
    Season.objects.exclude(pk=season.pk).update(is_current=False)
    Season.objects.filter(pk=season.pk).update(is_current=True)
    user = User.objects.create_user("bruno", password="pw-kingclub-1")
    Player.objects.filter(name="Bruno").update(user=user)
    client.force_login(user)
    url = reverse("scoring:player", args=[Player.objects.get(name="Anna").pk])
    cache.clear()
    client.get(url)
    with CaptureQueriesContext(connection) as warm:
        page = client.get(url).content.decode()
    assert len(warm.captured_queries) == MEMBER_PLAYER_WARM_QUERIES  # as C.A.F.'s
    sql = " ".join(q["sql"] for q in warm.captured_queries)
    assert "scoring_seat" not in sql and "scoring_result" not in sql
    assert stats(page)["wins"] == ("Vinte", "3")


def test_the_first_reader_of_a_ramino_page_runs_the_same_queries_at_any_size(client, settings):
    """The member's page rendered after a close reads a page of giornate and grouped figures:
    as many queries for a season of two turni as for one of five."""
    counted = []
    for n, matches in ((2, MATCHES[:2]), (5, MATCHES)):
        season = ramino_season(matches, name=f"Ramino {n}")
        url = url_of(season)
        client.get(reverse("scoring:home") + f"?stagione={season.pk}")  # the session, alike
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            page = client.get(url).content.decode()
        counted.append(len(cold.captured_queries))
        assert len(dates(page)) == n
    assert counted[0] == counted[1]


def test_a_ramino_members_points_per_game_sum_again_only_the_changed_block(client, monkeypatch):
    """The points per game are summed from blocks of closed turni kept in the shared cache: a
    close sums again only its own block; a reopen, a correction and the close again show the
    corrected smazzata (the block's key names when each turno closed)."""
    from scoring import selectors_games

    monkeypatch.setattr(selectors_games, "GAMES_BLOCK", 2)
    season = ramino_season()  # five turni: blocks of turni 1-2, 3-4 and 5
    url = url_of(season)

    def pokerissimo() -> dict[str, str]:
        page = client.get(url).content.decode()
        row = page.split('<tr data-game="POKERISSIMO">')[1].split("</tr>")[0]
        return dict(re.findall(r'data-col="(\w+)"[^>]*>([^<]*)</td>', row))

    assert pokerissimo()["chosen"] == "3"
    turni = list(season.turni.order_by("giornata__date").values_list("pk", flat=True))
    sixth = api.turno_start(
        season=season, date=dt.date(2026, 11, 6), players=NAMES, first_dealer="Anna"
    )
    api.smazzata_record(turno=sixth, record={"closer": "Anna", "close": "POKERISSIMO"})
    api.turno_close(turno=sixth, tiebreak=["Bruno", "Carla"])
    with CaptureQueriesContext(connection) as cold:
        assert pokerissimo() == {"count": "6", "chosen": "4", "total": "0", "average": "0,00"}
    summed = [q["sql"] for q in cold.captured_queries if 'FROM "scoring_result"' in q["sql"]]
    assert len(summed) == 1
    assert re.search(r"IN \((\d+), (\d+)\)", summed[0]).groups() == (
        str(turni[4]),
        str(sixth.pk),
    )
    # the first turno reopened, its smazzata given to Bruno, closed again
    api.turno_reopen(turno=turni[0], reason="verifica")
    api.smazzata_correct(
        turno=turni[0], number=1, record={"closer": "Bruno", "close": "POKERISSIMO"}
    )
    api.turno_close(turno=turni[0], tiebreak=["Anna", "Carla"])
    assert pokerissimo() == {"count": "6", "chosen": "3", "total": "0", "average": "0,00"}
