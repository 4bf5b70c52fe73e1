"""The demo club (issue 11.18): one club's members only, and a calendar that ends today."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.demo import DEMO_MEMBERS, HAND_TO_DEMO, demo_calendar, renamed
from scoring.models import Giornata, Player, Season, Seat, Standing, Turno
from scoring.rules.caf.interchange import parse_document, score_document
from scoring.services.ledger import ledger_differences
from scoring.services.preview import is_backdated
from tests.conftest import kept_for_the_scope
from tests.helpers import play_turno

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "season-hand.json"
TODAY = dt.date(2027, 2, 10)


def test_demo_calendar_ends_a_week_before_today():
    assert demo_calendar(dt.date(2026, 11, 23), 14) == (dt.date(2026, 8, 17), "2026-27")
    assert demo_calendar(dt.date(2027, 2, 10), 3) == (dt.date(2027, 1, 20), "2026-27")
    assert demo_calendar(dt.date(2027, 10, 1), 3) == (dt.date(2027, 9, 10), "2027-28")


def test_renamed_changes_names_not_free_text():
    doc = {"roster": ["Anna"], "t": [{"result": {"Anna": 1}, "reason": "Anna in ritardo"}]}
    assert renamed(doc, {"Anna": "Anna Bertini"}) == {
        "roster": ["Anna Bertini"],
        "t": [{"result": {"Anna Bertini": 1}, "reason": "Anna in ritardo"}],
    }


@pytest.fixture(scope="module")
def _seeded(django_db_setup, django_db_blocker):
    """The demo club seeded once for the module (tests/conftest.py, kept_for_the_scope): each
    test reads it in a savepoint rolled back after it."""
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            call_command("seed_demo", giornate=3, seed=11, today=TODAY, verbosity=0)
            current = Season.objects.get(is_current=True)
        yield current


@pytest.fixture
def demo(db, _seeded):
    return _seeded


def test_demo_holds_one_clubs_members(demo):
    assert sorted(Player.objects.values_list("name", flat=True)) == sorted(DEMO_MEMBERS)
    assert not Player.objects.filter(name__in=["Anna", "Bruno", "Carla"]).exists()


def test_demo_previous_season_is_the_hand_checked_one(demo):
    previous = Season.objects.exclude(pk=demo.pk).filter(ruleset_code="caf").get()
    engine = score_document(parse_document(json.loads(FIXTURE.read_text(encoding="utf-8"))))
    expected = {
        HAND_TO_DEMO[row.player]: (place, row.score) for place, row in engine.season.classifica
    }
    stored = {
        name: (place, score)
        for name, place, score in Standing.objects.filter(season=previous).values_list(
            "player__name", "place", "score"
        )
    }
    assert stored == expected


def test_demo_dates_follow_today(demo):
    closed = Turno.objects.filter(season=demo, status=Turno.CHIUSO)
    last = max(t.giornata.date for t in closed)
    assert last == TODAY - dt.timedelta(days=7)
    assert Giornata.objects.filter(season=demo).order_by("date").first().date == dt.date(
        2027, 1, 20
    )
    in_progress = Turno.objects.get(season=demo, status=Turno.IN_CORSO)
    assert in_progress.giornata.date == TODAY
    # a turno recorded today lands after the demo's last giornata: no back-dated warning
    assert is_backdated(demo.pk, TODAY) is None
    assert demo.name == "2026-27"


def test_demo_has_a_season_of_each_other_game(demo):
    from scoring.services.games import game_check

    others = Season.objects.exclude(ruleset_code="caf")
    assert sorted(s.ruleset_code for s in others) == sorted(
        code
        for code, *_ in __import__(
            "scoring.management.commands.seed_demo", fromlist=["DEMO_GAMES"]
        ).DEMO_GAMES
    )
    for season in others:
        assert season.name.endswith(demo.name)
        assert Turno.objects.filter(season=season, status=Turno.CHIUSO).exists()
        last = max(t.giornata.date for t in Turno.objects.filter(season=season))
        assert last < TODAY
        assert game_check(season) == []


def test_the_demo_club_replays_clean_after_a_later_close_with_its_turno_left_open(demo):
    """The issue's reproduction (it was in test_ledger.py, seeding a demo club of its own): the
    demo's turno left in progress, then a turno of the next week started, recorded and closed:
    the ladder is the replay's, nobody reset to Serie A."""
    out = io.StringIO()
    call_command("check_ledger", stdout=out)
    seasons = Season.objects.count()  # the championship, last season's and the other games'
    assert out.getvalue().startswith(f"check_ledger: nessuna differenza ({seasons} stagioni, ")
    season = Turno.objects.filter(status=Turno.IN_CORSO).get().season
    assert season == demo
    before = dict(Standing.objects.filter(season=season).values_list("player__name", "series"))
    later = Giornata.objects.filter(season=season).order_by("-date").first().date
    busy = set(
        Seat.objects.filter(turno__status=Turno.IN_CORSO).values_list("player__name", flat=True)
    )
    players = [p for p in DEMO_MEMBERS if p not in busy][:4]
    play_turno(season, later + dt.timedelta(days=7), players, seed=9)
    after = dict(Standing.objects.filter(season=season).values_list("player__name", "series"))
    assert len(before) == len(after) == len(DEMO_MEMBERS)
    # only the four players of the new turno may have moved, one step at most
    codes = season.ruleset.series_codes()
    for name in DEMO_MEMBERS:
        step = abs(codes.index(after[name]) - codes.index(before[name]))
        assert step <= (2 if name in players else 0), name
    assert ledger_differences() == []
