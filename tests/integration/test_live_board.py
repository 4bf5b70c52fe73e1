"""The club room's scoreboard (issue 17, part 1) and publishing a season (part 5).

The board's numbers are compared with the engine's (``score_turno``, ``progress_of``) and with
the stored closed seats; the poll answers 304 after one query while nothing changed and the
fresh board after a smazzata is recorded, corrected or undone; an unpublished season's every
public URL shows "risultati non ancora pubblicati" (documents 404) to everyone but the staff.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from pathlib import Path

import pytest
from django.core.cache import caches
from django.urls import reverse
from django.utils import timezone

from scoring import api
from scoring.models import Player, SeasonEvent, Seat, Turno
from scoring.rules.caf import caf, progress_of, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.games import game_turno_close
from scoring.services.publishing import season_publish
from scoring.services.season import season_create
from scoring.services.turni import turno_close, turno_reopen, turno_start
from scoring.views import live as live_views
from tests.helpers import deal_correct, deal_record

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
RAMINO = Path(__file__).resolve().parents[2] / "fixtures" / "ramino-sample.json"
LIVE = "/live/"
POLL = "/live/poll/"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The boards' versions live in the cache: each test starts without any."""
    caches["live"].clear()
    yield
    caches["live"].clear()


@pytest.fixture
def season():
    for name in PLAYERS:
        Player.objects.create(name=name)
    return season_create(name="2026-27")


def _simulated(seed: int = 7):
    return simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])


def _record(turno, smazzate, first: int = 1) -> None:
    for i, sm in enumerate(smazzate, start=first):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )


def _today_turno(season, played: int = 3, seed: int = 7, day: dt.date | None = None):
    sim = _simulated(seed)
    turno = turno_start(
        season=season,
        date=day or timezone.localdate(),
        players=PLAYERS,
        first_dealer=PLAYERS[0],
    )
    _record(turno, sim.smazzate[:played])
    return turno, sim


def _engine(turno):
    loaded = turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()
    record = turno_record(loaded)
    rules = loaded.season.ruleset
    return score_turno(rules, record, require_complete=False), progress_of(rules, record)


def _totals(html: str, turno) -> dict[str, int]:
    section = _section(html, turno)
    return {
        name: int(total)
        for name, total in re.findall(
            r'<tr data-player="([^"]+)"[^>]*>.*?data-total="(-?\d+)"', section, re.S
        )
    }


def _section(html: str, turno) -> str:
    match = re.search(
        rf'<section class="board-table[^"]*" data-turno="{turno.pk}".*?</section>', html, re.S
    )
    assert match, f"turno {turno.pk} not on the board"
    return match.group(0)


def _version(html: str) -> str:
    return re.search(r'<div id="board"[^>]*data-version="([0-9a-f]+)"', html).group(1)


# -- part 1: the board ----------------------------------------------------------------------------
def test_the_board_shows_the_engines_running_state(client, season):
    turno, sim = _today_turno(season, played=3)
    score, progress = _engine(turno)
    page = client.get(LIVE)
    assert page.status_code == 200
    html = page.content.decode()
    assert _totals(html, turno) == dict(score.totals)
    section = _section(html, turno)
    assert f'data-next="{progress.number}"' in section and progress.number == 4
    assert f"Smazzata 4 di {progress.total}" in section
    assert re.search(rf"data-dealer><bdi>{progress.dealer}</bdi>", section)
    assert progress.dealer == sim.smazzate[2].caller  # the previous chiamante deals
    calling = ", ".join(f"<bdi>{p}</bdi>" for p in progress.calling_order())
    assert f"<span data-calling>{calling}</span>" in section
    assert 'data-last="3"' in section
    assert f"chiamante {sim.smazzate[2].caller}" in section
    # the games left to call, per player, as the engine lists them
    for p in PLAYERS:
        assert len(progress.remaining_games(p)) > 0
    assert 'hx-trigger="every 2s"' in html and "js/scoreboard.js" in html
    assert "<script>" not in html  # CSP: no inline script


def test_poll_is_304_after_one_query_until_something_changes(
    client, season, django_assert_num_queries
):
    turno, sim = _today_turno(season, played=3)
    v = _version(client.get(LIVE).content.decode())
    with django_assert_num_queries(1):  # the version, computed
        still = client.get(POLL, {"v": v})
    assert still.status_code == 304 and still.content == b""
    assert still["ETag"] == f'"{v}"'
    with django_assert_num_queries(0):  # the version, from the cache
        assert client.get(POLL, HTTP_IF_NONE_MATCH=f'"{v}"').status_code == 304
    live_views.VERSION_SECONDS = 0  # every poll asks the database: still one query
    try:
        with django_assert_num_queries(1):
            assert client.get(POLL, {"v": v}).status_code == 304
    finally:
        live_views.VERSION_SECONDS = 1

    def changed() -> str:
        nonlocal v
        fresh = client.get(POLL, {"v": v})
        assert fresh.status_code == 200
        html = fresh.content.decode()
        assert _totals(html, turno) == dict(_engine(turno)[0].totals)
        previous, v = v, _version(html)
        assert v != previous
        return html

    _record(turno, sim.smazzate[3:4], first=4)  # recorded
    assert 'data-last="4"' in changed()
    sm = sim.smazzate[3]
    counts = dict(sm.result)
    a = next(p for p in PLAYERS if counts[p] != counts[PLAYERS[0]])
    counts[a], counts[PLAYERS[0]] = counts[PLAYERS[0]], counts[a]  # same sum, other points
    deal_correct(
        turno=turno, number=4, game=sm.game, caller=sm.caller, counts=counts, trump=sm.trump
    )  # corrected
    changed()
    api.smazzata_undo(turno=turno)  # undone
    assert 'data-last="3"' in changed()
    api.penalita_add(turno=turno, player="Bruno", points=-5, article="6")
    changed()
    assert client.get(POLL, {"v": v}).status_code == 304


def test_poll_of_one_turno(client, season, django_assert_max_num_queries):
    turno, sim = _today_turno(season, played=2)
    page = client.get(reverse("scoring:live_turno", args=[turno.pk]))
    assert page.status_code == 200
    v = _version(page.content.decode())
    url = reverse("scoring:live_turno_poll", args=[turno.pk])
    with django_assert_max_num_queries(2):
        assert client.get(url, {"v": v}).status_code == 304
    _record(turno, sim.smazzate[2:3], first=3)
    assert client.get(url, {"v": v}).status_code == 200
    assert client.get(reverse("scoring:live_turno_poll", args=[999999])).status_code == 404
    assert client.post(url).status_code == 405


def test_the_giornata_in_progress_is_todays_else_the_latest_open(client, season):
    old_open, _ = _today_turno(season, played=1, day=dt.date(2026, 3, 1))
    older_open, _ = _today_turno(season, played=1, day=dt.date(2026, 2, 1))
    html = client.get(LIVE).content.decode()
    assert f'data-turno="{old_open.pk}"' in html
    assert f'data-turno="{older_open.pk}"' not in html
    today, _ = _today_turno(season, played=1)
    html = client.get(LIVE).content.decode()
    assert f'data-turno="{today.pk}"' in html and f'data-turno="{old_open.pk}"' not in html


def test_no_turno_today(client, season):
    html = client.get(LIVE).content.decode()
    assert "Nessun turno in corso oggi." in html


def test_the_close_shows_places_ratios_titles_series_and_the_classifica(client, season):
    turno, sim = _today_turno(season, played=3)
    v = _version(client.get(LIVE).content.decode())
    _record(turno, sim.smazzate[3:], first=4)
    turno_close(turno=turno, tiebreak=sim.tiebreak)
    fresh = client.get(POLL, {"v": v})
    assert fresh.status_code == 200
    html = fresh.content.decode()
    section = _section(html, turno)
    assert "board-results" in section
    seats = Seat.objects.filter(turno=turno).select_related("player").order_by("place")
    rows = re.findall(r'<tr data-player="([^"]+)" data-place="(\d+)">', section)
    assert rows == [(s.player.name, str(s.place)) for s in seats]
    for s in seats:
        assert f'data-ratio="{s.ratio}"' in section
    winner = seats[0]
    assert winner.ratio == 1 and winner.titles == ["SCUDETTO"]
    assert "Scudetto" in section
    # the first turno of the season: everybody starts in A; the winner keeps A with the
    # Scudetto, the last goes down to B
    last = seats.last()
    assert (last.series_before, last.series_after) == ("A", "B")
    assert f"{last.player.name}: da Serie A a Serie B" in section
    standing = re.search(r'data-standing="\d+".*?</section>', html, re.S).group(0)
    assert re.findall(r"<th scope=\"row\"><bdi>([^<]+)</bdi>", standing)[0] == winner.player.name
    assert reverse("scoring:classifica", args=[season.pk]) in standing


def test_a_generic_game_shows_its_ledgers_totals_and_last_smazzata(client):
    for name in PLAYERS:
        Player.objects.create(name=name)
    ramino = season_create(name="Ramino", ruleset_code="ramino-101")
    turno = turno_start(
        season=ramino, date=timezone.localdate(), players=PLAYERS, first_dealer="Anna"
    )
    hands = json.loads(RAMINO.read_text())["turni"][0]["smazzate"]
    for k, hand in enumerate(hands[:2], start=1):
        api.smazzata_record(turno=turno, record=hand, number=k)
    html = client.get(LIVE).content.decode()
    assert _totals(html, turno) == {"Anna": 62, "Bruno": 30, "Carla": -13, "Dario": 100}
    section = _section(html, turno)
    assert 'data-last="2"' in section and "Ramino 101" in section


def test_members_only_mode(client, season, settings, socio):
    settings.KINGCLUB_MEMBERS_ONLY = True
    _today_turno(season, played=1)
    page = client.get(LIVE)
    assert page.status_code == 302 and "login" in page["Location"]
    assert client.get(POLL, {"v": "x"}).status_code == 403
    client.force_login(socio)
    assert client.get(LIVE).status_code == 200
    assert client.get(POLL, {"v": "x"}).status_code == 200


# -- part 5: publishing ---------------------------------------------------------------------------
NOTICE = "Risultati non ancora pubblicati."


def _public_urls(season, turno, player) -> list[str]:
    q = f"?stagione={season.pk}"
    return [
        "/",
        reverse("scoring:classifica"),
        reverse("scoring:classifica", args=[season.pk]),
        reverse("scoring:serie") + q,
        reverse("scoring:turni") + q,
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:players") + q,
        reverse("scoring:player", args=[player.pk]) + q,
        reverse("scoring:live_turno", args=[turno.pk]),
    ]


def _documents(season, turno) -> list[str]:
    return [
        reverse("scoring:turno_pdf", args=[turno.pk]),
        reverse("scoring:turno_xlsx", args=[turno.pk]),
        reverse("scoring:classifica_pdf", args=[season.pk]),
        reverse("scoring:classifica_xlsx", args=[season.pk]),
        reverse("scoring:classifica_csv", args=[season.pk]),
        reverse("scoring:turni_csv", args=[season.pk]),
    ]


@pytest.fixture
def unpublished(season, segretario):
    turno, sim = _today_turno(season, played=3)
    _record(turno, sim.smazzate[3:], first=4)
    turno_close(turno=turno, tiebreak=sim.tiebreak)
    season_publish(season=season, published=False, user=segretario)
    return season, turno, Player.objects.get(name="Anna")


@pytest.mark.parametrize("who", ["anonymous", "socio"])
def test_every_public_url_of_an_unpublished_season(client, unpublished, socio, who):
    season, turno, player = unpublished
    if who == "socio":
        client.force_login(socio)
    for url in _public_urls(season, turno, player):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert NOTICE in html, url
        assert "board-results" not in html and "Anna</a>" not in html, url
    for url in _documents(season, turno):
        assert client.get(url).status_code == 404, url
    board = client.get(LIVE).content.decode()
    assert f'data-turno="{turno.pk}"' not in board
    assert "Nessun turno in corso oggi." in board


def test_the_staff_see_an_unpublished_season(client, unpublished, segretario, admin_user):
    season, turno, player = unpublished
    for user in (segretario, admin_user):
        client.force_login(user)
        for url in _public_urls(season, turno, player):
            page = client.get(url)
            assert page.status_code == 200, url
            assert NOTICE not in page.content.decode(), url
        for url in _documents(season, turno):
            assert client.get(url).status_code == 200, url
        assert f'data-turno="{turno.pk}"' in client.get(LIVE).content.decode()


def test_publishing_again_shows_everything(client, unpublished, segretario):
    season, turno, player = unpublished
    v = None
    season_publish(season=season, published=True, user=segretario)
    for url in _public_urls(season, turno, player):
        assert NOTICE not in client.get(url).content.decode(), url
    for url in _documents(season, turno):
        assert client.get(url).status_code == 200, url
    html = client.get(LIVE).content.decode()
    assert f'data-turno="{turno.pk}"' in html
    v = _version(html)
    season_publish(season=season, published=False, user=segretario)  # the poll notices
    assert client.get(POLL, {"v": v}).status_code == 200
    kinds = list(SeasonEvent.objects.filter(season=season).values_list("kind", flat=True))
    assert kinds == ["unpublish", "publish", "unpublish"]


def test_the_segretarios_button(client, season, segretario, socio):
    url = reverse("scoring:season_publish", args=[season.pk])
    assert season.published is True  # nothing changes for existing clubs
    client.force_login(socio)
    assert client.post(url, {"pubblicati": "0"}).status_code == 403
    client.force_login(segretario)
    dash = client.get(reverse("scoring:segreteria")).content.decode()
    assert 'data-published="1"' in dash and "Ritira la pubblicazione" in dash
    done = client.post(url, {"pubblicati": "0"})
    assert done.status_code == 302
    season.refresh_from_db()
    assert season.published is False
    dash = client.get(reverse("scoring:segreteria")).content.decode()
    assert 'data-published="0"' in dash and "Pubblica i risultati" in dash
    bad = client.post(url, {"pubblicati": "forse"}, follow=True)
    assert "Scelta di pubblicazione non valida" in bad.content.decode()
    season.refresh_from_db()
    assert season.published is False
    assert client.get(url).status_code == 405
    assert SeasonEvent.objects.filter(season=season, kind="unpublish").count() == 1


def test_after_a_change_the_other_screens_get_the_board_from_the_cache(
    client, season, django_assert_num_queries
):
    turno, sim = _today_turno(season, played=2)
    v = _version(client.get(LIVE).content.decode())
    assert client.get(POLL, {"v": v}).status_code == 304
    _record(turno, sim.smazzate[2:3], first=3)
    first = client.get(POLL, {"v": v})  # the first screen: the board is read and rendered
    assert first.status_code == 200 and 'data-last="3"' in first.content.decode()
    with django_assert_num_queries(0):  # the other 49: the same HTML, no query
        other = client.get(POLL, {"v": v})
    assert other.status_code == 200 and other.content == first.content
    assert other["ETag"] == first["ETag"] == f'"{_version(first.content.decode())}"'


def test_a_reopen_puts_the_table_back_in_progress(client, season):
    turno, sim = _today_turno(season, played=len(_simulated().smazzate))
    turno_close(turno=turno, tiebreak=sim.tiebreak)
    v = _version(client.get(LIVE).content.decode())
    assert "is-closed" in _section(client.get(LIVE).content.decode(), turno)
    turno_reopen(turno=turno, reason="errore di trascrizione")
    fresh = client.get(POLL, {"v": v})
    assert fresh.status_code == 200
    section = _section(fresh.content.decode(), turno)
    assert "is-open" in section and "board-results" not in section
    assert _totals(fresh.content.decode(), turno) == dict(_engine(turno)[0].totals)


def test_a_closed_generic_game_shows_its_places_and_figures(client):
    for name in PLAYERS:
        Player.objects.create(name=name)
    ramino = season_create(name="Ramino", ruleset_code="ramino-101")
    turno = turno_start(
        season=ramino, date=timezone.localdate(), players=PLAYERS, first_dealer="Anna"
    )
    for k, hand in enumerate(json.loads(RAMINO.read_text())["turni"][0]["smazzate"], start=1):
        api.smazzata_record(turno=turno, record=hand, number=k)
    game_turno_close(turno=turno)
    html = client.get(LIVE).content.decode()
    section = _section(html, turno)
    seats = Seat.objects.filter(turno=turno).select_related("player").order_by("place", "position")
    rows = re.findall(r'<tr data-player="([^"]+)" data-place="(\d+)">', section)
    assert rows == [(s.player.name, str(s.place)) for s in seats]
    labels = [label for _key, label in ramino.system.turno_columns()]
    for label in labels:
        assert f'<th scope="col" class="num">{label}</th>' in section
    assert 'data-last="7"' in section
    assert f'data-standing="{ramino.pk}"' in html  # the game's own standing after the close


def test_the_albo_and_a_members_history_leave_out_an_unpublished_season(
    client, unpublished, socio, segretario
):
    season, _turno, player = unpublished
    albo, history = reverse("scoring:albo"), reverse("scoring:player_history", args=[player.pk])
    for user in (None, socio):
        if user is not None:
            client.force_login(user)
        for url in (albo, history):
            html = client.get(url).content.decode()
            assert season.name not in html, (url, user)
    client.force_login(segretario)
    for url in (albo, history):
        assert season.name in client.get(url).content.decode(), url
