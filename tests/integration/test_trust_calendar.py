"""A season's calendar as rule-set data (issue 26, items 6a and 6b).

6a: a turno dated 9999-12-31 was accepted and closed, after which every new turno counted as
back-dated. A turno's date must now fall within the season's span ± a year (the rule set's
``calendar.days_before_start`` / ``days_after_end``), checked where every path starts a turno or
imports one: the services, ``scoring.api``, the new-turno form, ``import_season`` of every game.
6b: one turno a day is the rule set's ``calendar.one_turno_a_day`` (default: the game's).

"Today" is 26/11/2026 in every test (the window's end is today + a year while a season is
played): the dates below are counted by hand from it.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from scoring import api
from scoring.models import Giornata, Player, Season, Seat, Turno
from scoring.rules import RuleViolation
from scoring.rules.calendar import Calendar
from scoring.rules.systems import get_system
from scoring.services.interchange import season_import, season_import_file
from scoring.services.season import season_create
from scoring.services.season_rules import season_rules_update
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TODAY = dt.date(2026, 11, 26)
P4 = ["Anna", "Bruno", "Carla", "Dario"]
GAMES = ["caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]
SAMPLES = {
    "caf": "season-hand.json",
    "king-classico": "king-classico-sample.json",
    "king-internazionale": "king-internazionale-sample.json",
    "le-king": "le-king-sample.json",
    "skat-isko": "skat-sample.json",
    "ramino-101": "ramino-sample.json",
}
FAR = dt.date(9999, 12, 31)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: TODAY)
    return TODAY


@pytest.fixture
def members():
    for name in [*P4, "Elena"]:
        Player.objects.create(name=name)


def _players(code: str) -> list[str]:
    return P4[:3] if code == "skat-isko" else P4


def _start(season, day: dt.date, players=None, via=turno_start):
    players = players or _players(season.ruleset_code)
    return via(season=season, date=day, players=players, first_dealer=players[0])


def _refused(call) -> list:
    with pytest.raises(RuleViolation) as exc:
        call()
    return list(exc.value.problems)


def _stored(season) -> tuple[int, int]:
    return Giornata.objects.filter(season=season).count(), Turno.objects.filter(
        season=season
    ).count()


# -- the window, pure -----------------------------------------------------------------------------
def test_the_window_is_the_span_plus_a_year_each_side():
    c = Calendar()
    first, last = dt.date(2026, 9, 4), dt.date(2026, 11, 20)
    assert c.window(first, last, TODAY) == (dt.date(2025, 9, 4), dt.date(2027, 11, 26))
    # a season whose last giornata is after today: its end counts
    assert c.window(first, dt.date(2027, 3, 1), TODAY) == (
        dt.date(2025, 9, 4),
        dt.date(2028, 2, 29),
    )
    # no giornata yet: no start, the end is today + a year
    assert c.window(None, None, TODAY) == (None, dt.date(2027, 11, 26))
    # at the edges of the calendar the window stops there (no OverflowError)
    assert c.window(dt.date(1, 1, 5), dt.date(9999, 12, 1), TODAY) == (dt.date.min, dt.date.max)
    p = c.date_problem(FAR, first=first, last=last, today=TODAY)
    assert (p.code, p.field) == ("DATE_OUTSIDE_SEASON", "date")
    assert p.message == (
        "Data: il 31/12/9999 è fuori dal periodo della stagione (dal 04/09/2025 al 26/11/2027)"
    )


def test_many_dates_are_checked_as_if_started_in_date_order():
    c = Calendar()
    days = [(dt.date(2026, 11, 20), "a"), (FAR, "far"), (dt.date(2019, 10, 4), "old")]
    # 2019-10-04 opens the span, 2026-11-20 is within today + a year, 9999 is not
    assert [(p.turno, p.code) for p in c.dates_problems(days, today=TODAY)] == [
        ("far", "DATE_OUTSIDE_SEASON")
    ]
    # a date refused does not widen the span for the dates after it
    days = [(dt.date(2026, 1, 1), "a"), (dt.date(2028, 1, 1), "b"), (dt.date(2028, 6, 1), "c")]
    assert [p.turno for p in c.dates_problems(days, today=TODAY)] == ["b", "c"]


# -- every path that starts a turno, every game -------------------------------------------------
@pytest.mark.parametrize("code", GAMES)
@pytest.mark.parametrize("via", [turno_start, api.turno_start], ids=["services", "api"])
def test_a_turno_outside_the_window_is_refused_and_nothing_stored(members, code, via):
    season = season_create(name=f"S {code}", ruleset_code=code, current=False)
    _start(season, dt.date(2026, 11, 20), via=via)
    for day, earliest in [(FAR, "20/11/2025"), (dt.date(2027, 11, 27), "20/11/2025")]:
        (problem,) = _refused(lambda d=day: _start(season, d, via=via))
        assert (problem.code, problem.field) == ("DATE_OUTSIDE_SEASON", "date")
        assert problem.message == (
            f"Data: il {day:%d/%m/%Y} è fuori dal periodo della stagione "
            f"(dal {earliest} al 26/11/2027)"
        )
    (problem,) = _refused(lambda: _start(season, dt.date(2025, 11, 19), via=via))
    assert problem.message == (
        "Data: il 19/11/2025 è fuori dal periodo della stagione (dal 20/11/2025 al 26/11/2027)"
    )
    assert _stored(season) == (1, 1)
    # the edges themselves are inside; a game where a member sits at one turno a day gets
    # other players there
    others = ["Elena", *_players(code)[1:]]
    assert _start(season, dt.date(2027, 11, 26), via=via).giornata.date == dt.date(2027, 11, 26)
    assert _start(season, dt.date(2025, 11, 20), players=others, via=via).number == 1


@pytest.mark.parametrize("code", GAMES)
def test_an_empty_season_takes_an_old_date_but_not_a_far_one(members, code):
    season = season_create(name=f"S {code}", ruleset_code=code, current=False)
    (problem,) = _refused(lambda: _start(season, FAR))
    assert problem.message == (
        "Data: il 31/12/9999 è fuori dal periodo della stagione (al più tardi il 26/11/2027)"
    )
    assert _stored(season) == (0, 0)
    # a season of years ago recorded today: its first date opens its span
    assert _start(season, dt.date(2019, 10, 4)).number == 1
    (problem,) = _refused(lambda: _start(season, dt.date(2018, 10, 3)))
    assert "(dal 04/10/2018 al 26/11/2027)" in problem.message


def test_the_form_says_it_by_the_date_in_both_languages(segretario_client, members):
    season = season_create(name="2026-27")
    pk = {p.name: p.pk for p in Player.objects.all()}
    data = {"season": season.pk, "date": "9999-12-31", "first_dealer_seat": 1}
    data |= {f"seat_{i}": pk[n] for i, n in enumerate(P4, start=1)}
    data["seat_4"], data["seat_4_new"] = "", "Zeno Nuovo"  # a new member, not created either
    url = reverse("scoring:turno_new")
    response = segretario_client.post(url, data)
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "date": [
            "Data: il 31/12/9999 è fuori dal periodo della stagione (al più tardi il 26/11/2027)"
        ]
    }
    response = segretario_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors == {
        "date": ["Date: 31/12/9999 is outside the season's dates (at the latest 26/11/2027)"]
    }
    assert not Player.objects.filter(name="Zeno Nuovo").exists()
    assert _stored(season) == (0, 0)
    data["date"] = "2026-11-27"
    assert segretario_client.post(url, data).status_code == 302
    assert _stored(season) == (1, 1)


# -- the imports ----------------------------------------------------------------------------------
def _document(code: str) -> dict:
    return json.loads((FIXTURES / SAMPLES[code]).read_text(encoding="utf-8"))


@pytest.mark.parametrize("code", GAMES)
def test_an_import_with_a_far_date_is_refused_and_nothing_stored(code, tmp_path):
    doc = _document(code)
    doc["turni"][-1]["date"] = "9999-12-31"
    label = f"9999-12-31 #{doc['turni'][-1].get('number', 1)}"
    others = sorted(dt.date.fromisoformat(t["date"]) for t in doc["turni"][:-1])
    seasons = Season.objects.count()
    problems = _refused(lambda: season_import(data=doc))
    assert [(p.code, p.turno) for p in problems] == [("DATE_OUTSIDE_SEASON", label)]
    # the span of the other turni (Skat and Ramino play on 27/11/2026 too: after "today")
    window = "al più tardi il 26/11/2027"
    if others:
        end = "27/11/2027" if others[-1] == dt.date(2026, 11, 27) else "26/11/2027"
        window = f"dal {others[0] - dt.timedelta(days=365):%d/%m/%Y} al {end}"
    assert problems[0].message == (
        f"Data: il 31/12/9999 è fuori dal periodo della stagione ({window})"
    )
    assert Season.objects.count() == seasons
    # the command says so and writes nothing either
    path = tmp_path / "far.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match=r"nulla importato"):
        call_command("import_season", str(path), stderr=err)
    assert "31/12/9999" in err.getvalue()
    assert Season.objects.count() == seasons


def test_an_import_of_a_season_of_years_ago_is_taken(tmp_path):
    doc = _document("caf")
    doc["turni"][0]["date"] = "2019-10-04"  # its span opens in 2019; the next date is within
    doc["turni"][1]["date"] = "2019-10-11"  # a year of it
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    season = season_import_file(path)
    assert sorted(g.date.isoformat() for g in season.giornate.all()) == ["2019-10-04", "2019-10-11"]
    # a turno dated today still fits: the season's span reaches today while it is played
    assert _start(season, TODAY, players=list(doc["turni"][0]["players"])).number == 1


def test_a_gap_of_more_than_the_window_inside_a_document_is_refused():
    doc = _document("ramino-101")  # two giornate, 20 and 27/11/2026
    doc["turni"][0]["date"] = "2024-01-05"  # the later one is more than a year after it, and
    doc["turni"][1]["date"] = "2027-12-01"  # after today + a year
    problems = _refused(lambda: season_import(data=doc))
    assert [(p.code, p.turno) for p in problems] == [("DATE_OUTSIDE_SEASON", "2027-12-01 #1")]


# -- the calendar is rule-set data a club changes ------------------------------------------------
@pytest.mark.parametrize("code", GAMES)
def test_the_club_sets_the_window(members, code):
    system = get_system(code)
    rules = dict(system.default_rules())
    rules["calendar"] = {"days_before_start": 3650, "days_after_end": 0}
    season = season_create(name=f"S {code}", ruleset_code=code, rules=rules, current=False)
    _start(season, dt.date(2026, 11, 20))
    (problem,) = _refused(lambda: _start(season, dt.date(2026, 11, 27)))
    assert problem.message == (
        "Data: il 27/11/2026 è fuori dal periodo della stagione (dal 22/11/2016 al 26/11/2026)"
    )
    others = ["Elena", *_players(code)[1:]]
    assert _start(season, dt.date(2016, 11, 22), players=others).number == 1


@pytest.mark.parametrize("code", GAMES)
@pytest.mark.parametrize(
    ("calendar", "key"),
    [
        ({"days_after_end": -1}, "calendar.days_after_end"),
        ({"days_before_start": "365"}, "calendar.days_before_start"),
        ({"days_after_end": 36526}, "calendar.days_after_end"),
        ({"one_turno_a_day": "sì"}, "calendar.one_turno_a_day"),
        ({"weeks": 3}, "calendar.weeks"),
        ([365], "calendar"),
    ],
)
def test_a_bad_calendar_is_refused_naming_the_key(code, calendar, key):
    rules = dict(get_system(code).default_rules())
    rules["calendar"] = calendar
    problems = _refused(
        lambda: season_create(name="S", ruleset_code=code, rules=rules, current=False)
    )
    assert any(key in p.message for p in problems), [p.message for p in problems]
    assert not Season.objects.exists()


def test_caf_keeps_one_turno_a_giornata():
    rules = dict(get_system("caf").default_rules())
    rules["calendar"] = {"one_turno_a_day": False}
    (problem,) = _refused(lambda: season_create(name="S", rules=rules))
    assert problem.message == (
        "regolamento, calendar.one_turno_a_day: in questo gioco vale sempre true"
    )
    rules["calendar"] = {"one_turno_a_day": True, "days_after_end": 30}
    season = season_create(name="S", rules=rules)
    assert season.rules["calendar"] == {"one_turno_a_day": True, "days_after_end": 30}
    assert season.system.calendar(season.rules) == Calendar(365, 30, True)


# -- 6b: one turno a day, rule-set data ---------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "default"),
    [
        ("king-classico", True),
        ("king-internazionale", True),
        ("le-king", True),
        ("skat-isko", False),
        ("ramino-101", False),
    ],
)
def test_one_turno_a_day_is_the_clubs_to_change(members, code, default):
    season = season_create(name=f"S {code}", ruleset_code=code, current=False)
    assert season.system.calendar(season.rules).one_turno_a_day is default
    rules = {**season.rules, "calendar": {"one_turno_a_day": not default}}
    season_rules_update(season=season, rules=rules)
    season = Season.objects.get(pk=season.pk)
    day = dt.date(2026, 11, 20)
    _start(season, day)
    second = ["Elena", *_players(code)[1:]]
    if default:  # switched off: Bruno sits at a second table the same evening
        assert _start(season, day, players=second).number == 2
        assert Seat.objects.filter(player__name="Bruno", turno__season=season).count() == 2
        return
    (problem,) = _refused(lambda: _start(season, day, players=second))
    assert (problem.code, problem.message) == (
        "PLAYER_TWICE_IN_GIORNATA",
        "Bruno gioca già il turno #1 del 20/11/2026",
    )
    assert _stored(season) == (1, 1)


@pytest.mark.parametrize(("code", "flag"), [("king-internazionale", False), ("skat-isko", True)])
def test_one_turno_a_day_in_an_import_follows_the_rule_set(code, flag):
    doc = _document(code)
    t = doc["turni"][0]
    doc["turni"] = [t, {**t, "number": 2}]  # the same table twice on one date
    doc["rules"] = {**(doc.get("rules") or {}), "calendar": {"one_turno_a_day": flag}}
    if not flag:
        season = season_import(data=doc)
        assert Turno.objects.filter(season=season).count() == 2
        return
    problems = _refused(lambda: season_import(data=doc))
    assert {p.code for p in problems} == {"PLAYER_TWICE_IN_GIORNATA"}
    assert [p.player for p in problems] == list(t["players"])
    assert not Season.objects.exists()
