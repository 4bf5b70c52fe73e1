"""Issue 16, what members meet: the Classifica from the shared cache keyed by the season's
version (a close or a reopen shows at once, for every worker), and the player page from the
figures each close stored on the seats instead of a scan of the season's smazzate."""

from __future__ import annotations

import datetime as dt
import random
import re
import zlib
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q, Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import (
    Absence,
    Player,
    PlayerFigures,
    Result,
    Season,
    Seat,
    Smazzata,
    Standing,
    Turno,
)
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.ledger import ledger_differences
from scoring.services.season import enrollment_add
from scoring.services.season_rules import season_rescore
from scoring.services.turni import turno_close, turno_reopen, turno_start
from tests.helpers import deal_record

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
# an anonymous reader's warm Classifica: the whole page kept in the process, one query for the
# seasons' versions (so every worker shows a close at once)
ANONYMOUS_WARM_QUERIES = 1
# a logged-in member's warm Classifica: the table from the shared cache (their own row marked);
# the page around it rendered: the session, the user, their groups, their player, the current
# season, the season picker, one cache read, the footnote of contested or unconfirmed Verbali
MEMBER_WARM_QUERIES = 9
# cold: the current season, the season picker, the footnote, the stored rows, the header (last
# closed date, a backdated close) and the cache write (SQLite's database cache: savepoint,
# count, read, insert, release), + the seasons' versions for the anonymous reader's page
COLD_QUERIES = 12


@pytest.fixture
def season(make_season):
    return make_season(players=PLAYERS, giornate=3, seed=5)  # 4, 11 and 18 September 2026


def _play(season, players, date, *, seed=1, close=True) -> Turno:
    while True:
        record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
        if len(set(score_turno(caf(), record).totals.values())) == len(players):
            break
        seed += 1
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    for i, sm in enumerate(record.smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno_close(turno=turno) if close else turno


def _order(page: str) -> list[str]:
    return re.findall(r'<tr data-player="([^"]*)"', page)


def _table(page: str) -> str:
    return re.search(r"<table.*?</table>", page, re.S).group(0)


def _stored_order(season: Season) -> list[str]:
    return list(
        Standing.objects.filter(season=season)
        .order_by("place", "-scudetti", "player__name")
        .values_list("player__name", flat=True)
    )


def _version(season: Season) -> int:
    return Season.objects.values_list("version", flat=True).get(pk=season.pk)


def _queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


# -- the Classifica: shared cache, keyed by the season's version --------------------------------
def test_a_member_sees_the_new_classifica_the_moment_a_turno_closes(client, season):
    user = User.objects.create_user("elena", password="pw-kingclub-1")
    Player.objects.filter(name="Elena").update(user=user)
    client.force_login(user)
    before = client.get("/").content.decode()
    assert _order(before) == _stored_order(season)
    assert _table(client.get("/").content.decode()) == _table(before)  # from the cache
    # a turno of the last three on a new giornata: the absentees take the lowest score
    turno = _play(season, ["Carla", "Dario", "Elena"], dt.date(2026, 9, 25), seed=3)
    after = client.get("/").content.decode()
    assert _order(after) == _stored_order(season) != _order(before)
    assert 'data-player="Elena" class="me' in after
    # the reopen puts the table back as it was, at once
    turno_reopen(turno=turno, reason="verifica")
    again = client.get("/").content.decode()
    assert _order(again) == _order(before)
    assert _table(again) == _table(before)


def test_a_part_kept_by_an_older_release_is_rendered_again(client, season, monkeypatch):
    """An upgrade leaves the season's version as it was: the parts the shared cache kept under
    the old release (without the fields added since) are read as a miss, never a KeyError 500."""
    import scoring.views.public as public

    user = User.objects.create_user("elena", password="pw-kingclub-1")
    Player.objects.filter(name="Elena").update(user=user)
    client.force_login(user)
    elena = Player.objects.get(name="Elena")
    pages = {"classifica:": "/", "player:": f"/giocatori/{elena.pk}/"}
    fresh = {}
    for page in pages.values():
        cache.clear()
        fresh[page] = client.get(page).content.decode()
    older = {  # what 90a4b68 kept: the Classifica part had no notes, legend nor game
        "classifica:": {
            "table_zlib": zlib.compress(b"<table/>"),
            "last_date": None,
            "backdated": None,
        },
        "player:": {"html": ""},
    }
    kept = cache.get

    def get(key, *args, **kw):
        for prefix, part in older.items():
            if key.startswith(prefix):
                return part
        return kept(key, *args, **kw)

    monkeypatch.setattr(public.cache, "get", get)
    for page in pages.values():
        response = client.get(page)
        assert response.status_code == 200
        assert response.content.decode().count("<tr") == fresh[page].count("<tr") > 1


def test_every_change_of_the_classifica_bumps_the_season_version(season):
    v0 = _version(season)
    turno = _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 9, 25))
    assert _version(season) == v0 + 1  # one close, one new version, in its transaction
    turno_reopen(turno=turno, reason="verifica")
    assert _version(season) == v0 + 2
    turno_close(turno=turno)
    assert _version(season) == v0 + 3
    season_rescore(season=season, reason="prova")
    assert _version(season) == v0 + 4
    Player.objects.create(name="Zeno")
    enrollment_add(season=season, player=Player.objects.get(name="Zeno"))
    assert _version(season) == v0 + 5


def test_a_rename_in_the_admin_bumps_the_version(client, season, admin_user):
    """A member's name is on the cached table (and check_ledger, run after every test, still
    agrees: ``Giornata.state_after`` keeps the series by player, not by name)."""
    v0 = _version(season)
    client.force_login(admin_user)
    anna = Player.objects.get(name="Anna")
    r = client.post(
        reverse("admin:scoring_player_change", args=[anna.pk]),
        {"name": "Annamaria", "active": "on", "user": ""},
    )
    assert r.status_code == 302
    assert _version(season) == v0 + 1
    client.logout()
    assert "Annamaria" in _order(client.get("/").content.decode())


def test_a_stale_full_save_does_not_put_an_old_version_back(season):
    stale = Season.objects.get(pk=season.pk)
    _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 9, 25))
    fresh = _version(season)
    stale.name = "2026-27 bis"
    stale.save()  # an admin form loaded before the close
    assert _version(season) == fresh
    assert Season.objects.get(pk=season.pk).name == "2026-27 bis"


def test_the_warm_classifica_reads_only_the_cache(client, season):
    cache.clear()
    cold = _queries(client, "/?sort=-score")
    assert len(cold) == COLD_QUERIES
    assert sum("scoring_standing" in q for q in cold) == 1
    warm = _queries(client, "/?sort=-score")
    assert len(warm) == ANONYMOUS_WARM_QUERIES
    assert "scoring_season" in warm[0] and "version" in warm[0]
    # a bigger season costs the same queries, cold and warm
    for i in range(4):
        _play(season, PLAYERS[:4], dt.date(2026, 9, 25) + dt.timedelta(days=7 * i), seed=10 + i)
    assert len(_queries(client, "/?sort=-score")) == COLD_QUERIES
    assert len(_queries(client, "/?sort=-score")) == ANONYMOUS_WARM_QUERIES


def test_a_member_reads_the_table_from_the_shared_cache(client, season):
    user = User.objects.create_user("elena", password="pw-kingclub-1")
    Player.objects.filter(name="Elena").update(user=user)
    client.force_login(user)
    client.get("/?sort=-score")
    warm = _queries(client, "/?sort=-score")
    assert len(warm) == MEMBER_WARM_QUERIES
    assert not any("scoring_standing" in q for q in warm)
    # the turni are read once, by the footnote of contested or unconfirmed Verbali only
    turni = [q for q in warm if "scoring_turno" in q]
    assert len(turni) == 1 and "scoring_verbaleconfirmation" in turni[0], turni


def test_the_kept_page_carries_no_token_and_its_language_switch_works(season):
    from django.test import Client

    from scoring.views.pagecache import CSRF_PLACEHOLDER

    client = Client(enforce_csrf_checks=True)
    page = client.get("/").content.decode()
    assert CSRF_PLACEHOLDER not in page and "csrfmiddlewaretoken" not in page
    assert "X-CSRFToken" not in page  # htmx's header: only for the logged-in (segreteria)
    assert "csrftoken" not in client.cookies  # nothing set: the same bytes for every visitor
    assert len(_queries(Client(), "/")) == ANONYMOUS_WARM_QUERIES  # the same page, kept
    # the language switch is a GET form: it works from the kept page, with no token
    form = re.search(r'<form action="([^"]+)" method="get" class="lang">', page)
    r = client.get(form.group(1), {"language": "en", "next": "/?sort=player"})
    assert (r.status_code, r["Location"]) == (302, "/?sort=player")
    english = client.get("/?sort=player").content.decode()
    assert 'lang="en"' in english and ">Player</a>" in english
    # an unknown language changes nothing; a foreign "next" goes home
    r = client.get(form.group(1), {"language": "xx", "next": "https://evil.example/"})
    assert (r.status_code, r["Location"]) == (302, "/")
    assert 'lang="en"' in client.get("/").content.decode()
    # a logged-in member's page still carries htmx's CSRF header
    user = User.objects.create_user("elena", password="pw-kingclub-1")
    client.force_login(user)
    assert '"X-CSRFToken": "' in client.get("/").content.decode()


def test_a_contestation_shows_at_once_on_the_kept_page(client, season):
    from scoring.services.confirmations import verbale_contest, verbale_contest_withdraw

    turno = Turno.objects.filter(season=season, status=Turno.CHIUSO).first()
    anna = turno.seats.order_by("position").first().player
    assert "contested-note" not in client.get("/").content.decode()
    v0 = _version(season)
    verbale_contest(turno=turno, player=anna, comment="il conteggio del turno è sbagliato")
    assert _version(season) == v0 + 1
    assert f'data-contested-turno="{turno.pk}"' in client.get("/").content.decode()
    verbale_contest_withdraw(turno=turno, player=anna)
    assert "contested-note" not in client.get("/").content.decode()


def test_a_visitor_with_a_message_or_a_session_gets_the_page_rendered(client, season):
    client.get("/")
    client.cookies["messages"] = "anything"
    assert len(_queries(client, "/")) > ANONYMOUS_WARM_QUERIES
    del client.cookies["messages"]
    assert len(_queries(client, "/")) == ANONYMOUS_WARM_QUERIES
    # a season picked by ?stagione= and an unknown one
    assert client.get(f"/?stagione={season.pk}").status_code == 200
    assert client.get("/?stagione=999999").status_code == 404
    assert client.get("/?stagione=abc").status_code == 404


def test_each_sort_and_language_is_its_own_page(client, season):
    by_score = _order(client.get("/?sort=-score").content.decode())
    by_name = _order(client.get("/?sort=player").content.decode())
    assert by_name == sorted(by_name) and by_score != by_name
    english = client.get("/?sort=player", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Player</a>" in english and _order(english) == by_name
    italian = client.get("/?sort=player").content.decode()
    assert ">Giocatore</a>" in italian
    # a sort the page does not know is the stored order, not a new cache entry
    assert _order(client.get("/?sort=<x>").content.decode()) == _stored_order(season)


# -- the player page: figures stored at close = a scan of the smazzate --------------------------
def _scan(season: Season, player: Player) -> tuple[dict[str, int], dict[str, list[int]]]:
    """What the player page computed before issue 16, over the closed turni."""
    closed = Smazzata.objects.filter(turno__season=season, turno__status=Turno.CHIUSO)
    calls = closed.aggregate(
        calls=Count("pk", filter=Q(caller=player)),
        forced=Count("pk", filter=Q(caller=player, forced=True)),
        scazzate=Count("pk", filter=Q(caller=player, scazzata=True)),
        cappotti=Count("pk", filter=Q(cappotto=player)),
    )
    games = {
        r["smazzata__game"]: [r["total"], r["n"]]
        for r in Result.objects.filter(
            player=player,
            smazzata__turno__season=season,
            smazzata__turno__status=Turno.CHIUSO,
        )
        .values("smazzata__game")
        .annotate(total=Sum("points"), n=Count("id"))
        .order_by()
    }
    return calls, games


def _stored(season: Season, player: Player) -> tuple[dict[str, int], dict[str, list[int]]]:
    calls = dict.fromkeys(("calls", "forced", "scazzate", "cappotti"), 0)
    games: dict[str, list[int]] = {}
    for extra in Seat.objects.filter(
        player=player, turno__season=season, turno__status=Turno.CHIUSO
    ).values_list("extra", flat=True):
        for key in calls:
            calls[key] += extra[key]
        for code, (points, n) in extra["games"].items():
            games.setdefault(code, [0, 0])
            games[code][0] += points
            games[code][1] += n
    return calls, games


def _kept(season: Season, player: Player) -> tuple[dict[str, int], dict[str, list[int]]]:
    """The player's season figures as kept (what the page reads), with the wins and podiums
    checked against the closed seats' places."""
    figures = PlayerFigures.objects.get(season=season, player=player).figures
    places = list(
        Seat.objects.filter(
            player=player, turno__season=season, turno__status=Turno.CHIUSO
        ).values_list("place", flat=True)
    )
    assert figures["wins"] == places.count(1), player.name
    assert figures["podiums"] == sum(1 for p in places if p <= 3), player.name
    calls = {key: figures[key] for key in ("calls", "forced", "scazzate", "cappotti")}
    return calls, figures["games"]


def _extras(turno: Turno) -> list[dict]:
    return list(
        Seat.objects.filter(turno=turno).order_by("position").values_list("extra", flat=True)
    )


def test_the_stored_figures_equal_a_scan_of_the_season(client, season):
    _play(season, ["Anna", "Bruno", "Carla", "Dario"], dt.date(2026, 9, 25), seed=7)
    # an open turno's smazzate are not in the figures until it closes
    open_turno = _play(season, ["Anna", "Bruno", "Elena"], dt.date(2026, 10, 2), close=False)
    assert _extras(open_turno) == [{}, {}, {}]
    for player in Player.objects.filter(name__in=PLAYERS):
        scanned = _scan(season, player)
        assert _stored(season, player) == scanned, player.name
        assert _kept(season, player) == scanned, player.name
        page = client.get(reverse("scoring:player", args=[player.pk])).content.decode()
        seats = Seat.objects.filter(player=player, turno__season=season)
        closed = seats.filter(turno__status=Turno.CHIUSO).values_list("place", flat=True)
        counts = {
            **scanned[0],
            # the open turno is a turno played; its places are not known yet
            "turni": seats.count(),
            "wins": list(closed).count(1),
            "podiums": sum(1 for p in closed if p <= 3),
        }
        for key, n in counts.items():
            shown = re.search(rf'data-stat="{key}"><dt>[^<]*</dt><dd>(\d+)</dd>', page).group(1)
            assert int(shown) == n, (player.name, key)
    anna = Player.objects.get(name="Anna")
    assert sum(n for _, n in _scan(season, anna)[1].values()) > 0
    # closed now: its seats are filled; reopened: cleared again
    elena = Player.objects.get(name="Elena")
    before = _kept(season, elena)
    turno_close(turno=open_turno)
    assert all(e["games"] for e in _extras(open_turno))
    assert _stored(season, anna) == _scan(season, anna) == _kept(season, anna)
    assert _kept(season, elena) == _scan(season, elena) != before
    # a rescore clears and stores again every closed seat's figures, and the season's
    season_rescore(season=season, reason="verifica")
    for player in Player.objects.filter(name__in=PLAYERS):
        assert _kept(season, player) == _scan(season, player), player.name
    turno_reopen(turno=open_turno, reason="verifica")
    assert _extras(open_turno) == [{}, {}, {}]
    assert _stored(season, anna) == _scan(season, anna) == _kept(season, anna)
    assert _kept(season, elena) == _scan(season, elena) == before


def test_check_ledger_finds_a_wrong_season_figure_and_a_wrong_line(season, ledger_unchecked):
    leader = Standing.objects.filter(season=season).order_by("place").first().player
    row = PlayerFigures.objects.get(season=season, player=leader)
    assert row.line is not None and row.line["points"]
    figures = dict(row.figures, scazzate=row.figures["scazzate"] + 1)
    points = [*row.line["points"][:-1], "999.00"]
    day = min(row.played)
    played = {**row.played, day: str(Decimal(row.played[day]) + 1)}
    PlayerFigures.objects.filter(pk=row.pk).update(
        figures=figures, played=played, line={**row.line, "points": points}
    )
    where = f"cifre del giocatore, {leader}"
    found = {d.field: d for d in ledger_differences() if d.where == where}
    assert set(found) == {
        "cifre della stagione",
        "punti per giornata giocata",
        "andamento in classifica",
    }
    assert found["cifre della stagione"].stored == figures
    wrong, day = found["punti per giornata giocata"], dt.date.fromisoformat(day)
    assert wrong.stored[day] == wrong.expected[day] + 1
    assert found["andamento in classifica"].stored["points"][-1] == Decimal("999.00")
    # a line kept for a member who is not among the leaders is a difference too, and so is a
    # member of the Classifica without a row
    last = Standing.objects.filter(season=season).order_by("-place").first()
    assert last.place > 3
    PlayerFigures.objects.filter(season=season, player=last.player).update(line=row.line)
    where = f"cifre del giocatore, {last.player}"
    assert [d.field for d in ledger_differences() if d.where == where] == [
        "andamento in classifica"
    ]
    PlayerFigures.objects.filter(season=season, player=last.player).delete()
    assert [(d.field, d.stored, d.expected) for d in ledger_differences() if d.where == where] == [
        ("riga", False, True)
    ]


def test_a_close_sums_again_the_figures_of_its_players_only(season, monkeypatch):
    """A close sums again the figures of its own turno's players (and of anyone at an open
    turno), not the roster's; the others' rows are left as they were."""
    from scoring.services import season as season_services

    turno = _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 10, 9), close=False)
    before = dict(PlayerFigures.objects.filter(season=season).values_list("player_id", "figures"))
    asked: list[set[int]] = []
    summed = season_services.player_figures_sum
    monkeypatch.setattr(
        season_services,
        "player_figures_sum",
        lambda season_id, ids, *rest, **kw: (
            asked.append(set(ids)) or summed(season_id, ids, *rest, **kw)
        ),
    )
    turno_close(turno=turno)
    seated = set(turno.seats.values_list("player_id", flat=True))
    assert asked == [seated]
    after = dict(PlayerFigures.objects.filter(season=season).values_list("player_id", "figures"))
    assert set(after) == set(before)
    assert {pid for pid in after if after[pid] != before[pid]} == seated


def test_a_close_sums_its_players_figures_from_their_checkpoint(season, ledger_unchecked):
    """A close or reopen on the season's last giornata reads its players' seats from their
    checkpoint on (``PlayerFigures.base_date``: the giornata of the last close), not the
    season's: a figure of an earlier seat, changed behind the ledger's back, is not read
    again; a backdated close sums that player's season again, the changed seat with it."""
    turno = _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 10, 9))
    anna = Player.objects.get(name="Anna")
    row = PlayerFigures.objects.get(season=season, player=anna)
    assert row.base_date == dt.date(2026, 10, 9)
    early = Seat.objects.filter(
        player=anna, turno__season=season, turno__giornata__date__lt=row.base_date
    ).first()
    before_base = Seat.objects.filter(
        player=anna,
        turno__season=season,
        turno__status=Turno.CHIUSO,
        turno__giornata__date__lt=row.base_date,
    )
    assert row.base["calls"] == sum(s.extra["calls"] for s in before_base)  # the seats before
    Seat.objects.filter(pk=early.pk).update(extra=dict(early.extra, calls=early.extra["calls"] + 7))
    turno_reopen(turno=turno, reason="prova")
    assert PlayerFigures.objects.get(season=season, player=anna).figures == row.base
    turno_close(turno=turno)
    again = PlayerFigures.objects.get(season=season, player=anna)
    assert (again.figures, again.base, again.base_date) == (row.figures, row.base, row.base_date)
    where = "cifre del giocatore, Anna"
    assert [d.field for d in ledger_differences() if d.where == where] == []
    # a close before Anna's checkpoint: her figures summed over every closed seat again, the
    # changed one too (the season's figures and the new checkpoint now differ from a replay)
    _play(season, ["Anna", "Dario", "Elena"], dt.date(2026, 9, 25))
    summed = PlayerFigures.objects.get(season=season, player=anna)
    assert summed.base_date == dt.date(2026, 9, 25)
    assert sorted(d.field for d in ledger_differences() if d.where == where) == [
        "cifre della stagione",
        "cifre prima della data",
    ]


def test_check_ledger_finds_a_wrong_stored_figure(season, ledger_unchecked):
    seat = Seat.objects.filter(turno__season=season, turno__status=Turno.CHIUSO).first()
    extra = dict(seat.extra, calls=seat.extra["calls"] + 1)
    Seat.objects.filter(pk=seat.pk).update(extra=extra)
    found = [d for d in ledger_differences() if d.field == "cifre del giocatore"]
    assert len(found) == 1
    assert found[0].stored == extra


# -- the player page: giornate a page at a time, the whole page kept for anonymous readers -------
def test_the_player_page_shows_the_giornate_a_page_at_a_time(client, season, monkeypatch):
    from scoring.views import public

    monkeypatch.setattr(public, "TIMELINE_PER_PAGE", 2)
    anna = Player.objects.get(name="Anna")
    dates = sorted(
        set(
            Seat.objects.filter(player=anna, turno__season=season).values_list(
                "turno__giornata__date", flat=True
            )
        )
        | set(Absence.objects.filter(player=anna).values_list("giornata__date", flat=True)),
        reverse=True,
    )
    assert len(dates) == 3
    url = f"/giocatori/{anna.pk}/"
    first = client.get(url).content.decode()
    shown = re.findall(r'data-date="(\d{4}-\d\d-\d\d)"', first)
    assert shown == [d.isoformat() for d in dates[:2]]  # newest first
    assert 'href="?pagina=2#turni-title"' in first and "Giornate: 3" in first
    second = client.get(url + "?pagina=2").content.decode()
    assert re.findall(r'data-date="(\d{4}-\d\d-\d\d)"', second) == [dates[2].isoformat()]
    # a page past the last is the last; the totals count every turno, whatever the page
    assert client.get(url + "?pagina=99").content.decode().count('data-date="') == 1
    turni = Seat.objects.filter(player=anna, turno__season=season).count()
    for page in (first, second):
        assert re.search(r'data-stat="turni"><dt>[^<]*</dt><dd>(\d+)</dd>', page).group(1) == str(
            turni
        )


def test_the_player_page_is_kept_for_anonymous_readers_until_a_close(client, season):
    anna = Player.objects.get(name="Anna")
    url = f"/giocatori/{anna.pk}/"
    before = client.get(url).content.decode()
    queries = _queries(client, url)
    assert len(queries) == 2  # the member, the seasons' versions
    _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 9, 25), seed=4)
    after = client.get(url).content.decode()
    assert after != before and 'data-date="2026-09-25"' in after


# a logged-in member's player page after the first reader of the season's version: the page
# around the shared cache's part (the member, the session, the user, their groups, their player,
# the current season, the season picker, one cache read)
MEMBER_PLAYER_WARM_QUERIES = 8


def test_a_member_reads_a_player_page_from_the_shared_cache(client, season):
    user = User.objects.create_user("bruno", password="pw-kingclub-1")
    Player.objects.filter(name="Bruno").update(user=user)
    client.force_login(user)
    anna = Player.objects.get(name="Anna")
    url = f"/giocatori/{anna.pk}/"
    cache.clear()

    def part(page: str) -> str:  # the page less its head (each response has its CSRF token)
        return page[page.index('<section class="stats"') : page.index("</main>")]

    first = part(client.get(url).content.decode())
    warm = _queries(client, url)
    assert len(warm) == MEMBER_PLAYER_WARM_QUERIES
    assert not any(t in q for q in warm for t in ("scoring_seat", "scoring_standing"))
    assert part(client.get(url).content.decode()) == first
    # the same bytes as the page rendered with nothing kept
    cache.clear()
    assert part(client.get(url).content.decode()) == first
    # a close shows at once: the season's version is in the key
    _play(season, ["Anna", "Bruno", "Carla"], dt.date(2026, 9, 25), seed=4)
    after = client.get(url).content.decode()
    assert 'data-date="2026-09-25"' in after and 'data-date="2026-09-25"' not in first
    assert len(_queries(client, url)) == MEMBER_PLAYER_WARM_QUERIES
    # each language is its own entry
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "Turni della stagione" not in english and "Turni della stagione" in after


def test_the_player_cache_key_holds_the_version_the_member_the_language_and_the_page(season):
    from scoring.views.public import player_cache_key

    def key(**kw):
        args = {"member": 1, "language": "it", "path": "/giocatori/1/"} | kw
        return player_cache_key(Season.objects.get(pk=season.pk), **args)

    base = key()
    assert len({base, key(member=2), key(language="en"), key(path="/giocatori/1/?pagina=2")}) == 4
    Season.objects.filter(pk=season.pk).update(version=_version(season) + 1)
    assert key() != base


def test_a_player_page_reads_only_the_leaders_and_the_member_of_the_classifica(
    season, ledger_unchecked
):
    from scoring.verbale import classifica

    full = classifica(season)
    assert len(full) == len(PLAYERS)
    for row in full:
        part = classifica(season, top=3, player_id=row.player_id)
        assert part == [r for i, r in enumerate(full) if i < 3 or r.player_id == row.player_id]
    # ties share a place (written by hand: unchecked): every row placed 3rd or better comes
    Standing.objects.filter(season=season).update(place=1)
    assert len(classifica(season, top=3, player_id=None)) == len(PLAYERS)
    assert classifica(season, top=None, player_id=full[-1].player_id) == [
        r for r in classifica(season) if r.player_id == full[-1].player_id
    ]
