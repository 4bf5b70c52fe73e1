"""The season services at their edges: which season is current, the rule set each game starts
from, the limits of a rule change's reason, who and why the audit trail records, a season
closed under a stale copy, a member who has not played, and the giornata a reopen replays."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring.models import Enrollment, Giornata, Player, Season, SeasonEvent, Seat, Standing
from scoring.rules.caf.ruleset import get_ruleset
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system
from scoring.services.season import enrollment_add, season_create
from scoring.services.season_rules import season_rescore, season_rules_update
from scoring.services.seasons_close import season_close
from scoring.services.turni import turno_reopen
from tests.helpers import play_turno

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def segretario(django_user_model):
    """A signed-in user (no role needed: the services do not check roles)."""
    return django_user_model.objects.create_user("segretario", password="x")


def _codes(exc) -> list[str]:
    return [p.code for p in exc.value.problems]


def test_a_new_season_is_current_by_default_and_the_old_one_stops_being_current():
    first = season_create(name="2025-26")
    assert first.is_current
    second = season_create(name="2026-27")
    first.refresh_from_db()
    assert (first.is_current, second.is_current) == (False, True)
    third = season_create(name="prova", current=False)
    second.refresh_from_db()
    assert (second.is_current, third.is_current) == (True, False)


def test_each_game_starts_from_its_own_rule_table_unless_the_club_gives_one():
    ramino = season_create(name="Ramino", ruleset_code="ramino-101")
    assert ramino.rules == dict(get_system("ramino-101").default_rules())
    edited = dict(get_system("ramino-101").default_rules())
    edited["elimination"] = 151
    assert season_create(name="Ramino 151", ruleset_code="ramino-101", rules=edited).rules == edited
    assert season_create(name="King").rules == get_ruleset("caf").to_dict()


def test_a_rule_change_reason_holds_2000_characters_and_no_more(segretario):
    season = season_create(name="2026-27")
    season_rules_update(season=season, rules=season.rules, reason="x" * 2000, user=segretario)
    with pytest.raises(RuleViolation) as exc:
        season_rules_update(season=season, rules=season.rules, reason="x" * 2001)
    assert [(p.code, p.field) for p in exc.value.problems] == [("TEXT_INVALID", "reason")]
    event = SeasonEvent.objects.get(kind="rules_update")
    assert (len(event.reason), event.user) == (2000, segretario)


def test_after_a_close_the_rules_change_only_with_an_explicit_recompute(segretario):
    for name in PLAYERS:
        Player.objects.get_or_create(name=name)
    season = season_create(name="2026-27")
    play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=1)
    with pytest.raises(RuleViolation) as exc:
        season_rules_update(season=season, rules=season.rules, reason="prova")
    assert _codes(exc) == ["RULESET_LOCKED"]
    season_rules_update(season=season, rules=season.rules, recompute=True, user=segretario)
    kinds = list(SeasonEvent.objects.order_by("pk").values_list("kind", "reason", "user"))
    assert kinds == [
        ("rules_update", "", segretario.pk),
        ("recompute", "cambio del regolamento", segretario.pk),
    ]


@pytest.mark.parametrize("game", ["caf", "ramino-101"])
def test_a_recompute_says_why_and_who_and_never_an_anonymous_user(game, segretario):
    season = season_create(name="S", ruleset_code=game)
    season_rescore(season=season, user=AnonymousUser(), reason="   ")
    season_rescore(season=season, user=segretario, reason=" errore di trascrizione ")
    events = SeasonEvent.objects.filter(season=season, kind="recompute").order_by("pk")
    assert list(events.values_list("reason", "user")) == [
        ("ricalcolo della stagione", None),
        ("errore di trascrizione", segretario.pk),
    ]
    assert Season.objects.get(pk=season.pk).is_current


def test_a_season_closed_since_it_was_loaded_refuses_a_new_member():
    for name in [*PLAYERS, "Zeno"]:
        Player.objects.get_or_create(name=name)
    stale = season_create(name="2026-27")
    play_turno(stale, dt.date(2026, 11, 20), PLAYERS, seed=1)
    season_close(season=stale.pk, reason="fine della stagione")
    assert stale.closed_at is None  # this copy was loaded before the close
    with pytest.raises(RuleViolation) as exc:
        enrollment_add(season=stale, player=Player.objects.get(name="Zeno"))
    assert _codes(exc) == ["SEASON_CLOSED"]
    assert not Enrollment.objects.filter(player__name="Zeno").exists()


def test_a_member_who_has_not_played_stands_with_no_turni():
    for name in [*PLAYERS, "Zeno"]:
        Player.objects.get_or_create(name=name)
    season = season_create(name="2026-27")
    play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=1)
    enrollment_add(season=season, player=Player.objects.get(name="Zeno"))
    rows = dict(Standing.objects.filter(season=season).values_list("player__name", "turni"))
    assert rows == {"Anna": 1, "Bruno": 1, "Carla": 1, "Dario": 1, "Zeno": 0}
    assert Standing.objects.get(season=season, player__name="Zeno").absences == 1


def test_a_reopen_replays_its_own_giornata_not_only_the_later_ones():
    for name in PLAYERS:
        Player.objects.get_or_create(name=name)
    season = season_create(name="2026-27")
    d1, d2 = dt.date(2026, 11, 6), dt.date(2026, 11, 13)
    t1, _ = play_turno(season, d1, PLAYERS, seed=1)
    t2, _ = play_turno(season, d2, PLAYERS, seed=2)
    assert set(Seat.objects.filter(turno=t2).values_list("series_before", flat=True)) != {"A"}
    turno_reopen(turno=t1, reason="errore di trascrizione")
    # the giornata of the reopened turno has no closed turno left: no lowest score, and the
    # next giornata is the first played, everybody starting from Serie A
    lowest = dict(Giornata.objects.filter(season=season).values_list("date", "lowest"))
    t2_points = Seat.objects.filter(turno=t2).values_list("league_points", flat=True)
    assert lowest == {d1: None, d2: min(t2_points)}
    assert set(Seat.objects.filter(turno=t2).values_list("series_before", flat=True)) == {"A"}
    assert dict(Standing.objects.filter(season=season).values_list("player__name", "turni")) == (
        dict.fromkeys(PLAYERS, 1)
    )


def test_player_figures_fill_gives_figures_only_to_the_players_who_have_none(make_season):
    """What a restore does (a backup holds no PlayerFigures): the rows the fill writes are
    exactly the ones a recorded season keeps, and the rows already there are left alone."""
    from scoring.models import Absence, PlayerFigures, Turno
    from scoring.services.season import player_figures_fill

    season = make_season(giornate=3)
    kept = {
        f.player_id: (f.pk, f.figures, f.played, f.line, f.base_date, f.base)
        for f in PlayerFigures.objects.filter(season=season)
    }
    assert len(kept) == 5
    dario = Player.objects.get(name="Dario").pk
    PlayerFigures.objects.filter(season=season, player_id=dario).delete()
    player_figures_fill(season.pk, Standing, PlayerFigures, Seat, Absence, Giornata, Turno.CHIUSO)
    after = {
        f.player_id: (f.pk, f.figures, f.played, f.line, f.base_date, f.base)
        for f in PlayerFigures.objects.filter(season=season)
    }
    assert after.keys() == kept.keys()
    for pid, row in kept.items():
        if pid == dario:  # a new row, with what the season kept
            assert after[pid][0] != row[0]
            assert after[pid][1:] == row[1:]
        else:  # the very same row
            assert after[pid] == row


def test_a_version_bump_leaves_the_loaded_season_at_the_stored_version():
    """The pages cached under a season's version are keyed by ``season.version``: after a bump
    the loaded season holds the stored number itself, not a row of it."""
    from scoring.services.season import season_version_bump

    season = season_create(name="2026-27")
    assert season.version == 0
    season_version_bump(season=season)
    season_version_bump(season=season)
    assert season.version == 2
    assert Season.objects.get(pk=season.pk).version == 2


def test_a_generic_game_close_folds_from_the_day_after_the_last_checkpoint():
    """Ramino on two consecutive days: the second close folds its giornata from the first's
    kept state (the checkpoint's day + 1 is the second day itself), and the arrows read the
    places after the first day."""
    from scoring.demo_games import game_season

    for name in PLAYERS:
        Player.objects.get_or_create(name=name)
    season = game_season(
        code="ramino-101", name="Ramino", players=PLAYERS, giornate=2, every_days=1, attendance=1.0
    )
    rows = Standing.objects.filter(season=season).order_by("place", "player__name")
    assert [(r.player.name, r.place, r.score, r.previous_place, r.extra) for r in rows] == [
        ("Carla", 1, 5, 2, {"league_points": 5, "turni": 2, "wins": 1}),
        ("Bruno", 2, 3, 1, {"league_points": 3, "turni": 2, "wins": 1}),
        ("Anna", 3, 2, 3, {"league_points": 2, "turni": 2, "wins": 0}),
        ("Dario", 3, 2, 4, {"league_points": 2, "turni": 2, "wins": 0}),
    ]
