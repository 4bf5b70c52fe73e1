"""Issue #25, "flash messages with ISO dates": a message from the services names a turno as a
reader does (``20/11/2026 #1``), in the reader's language, never as the records keep it
(``2026-11-20 #1``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from scoring.models import Player, Season
from scoring.problem_text import localized
from scoring.rules.problems import RuleViolation
from scoring.services.games import game_turno_reopen
from scoring.services.season import season_create
from scoring.services.seasons_close import season_close
from scoring.services.turni import turno_reopen, turno_start

DAY = dt.date(2026, 11, 20)
FOUR = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture(autouse=True)
def _players(db):
    for name in [*FOUR, "Elena", "Franco", "Gino", "Ida"]:
        Player.objects.create(name=name)


def _said(call, language: str) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as exc:
        call()
    problem = exc.value.problems[0]
    with translation.override(language):
        return problem.code, localized(problem).message


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "il turno 20/11/2026 #1 è già aperto"),
        ("en", "turno 20/11/2026 #1 is already open"),
    ],
)
def test_reopening_an_open_caf_turno_names_it_by_its_date(db, language, expected):
    season = season_create(name="2026-27")
    turno = turno_start(season=season, date=DAY, players=FOUR, first_dealer="Anna")
    assert _said(lambda: turno_reopen(turno=turno, reason="prova"), language) == (
        "TURNO_OPEN",
        expected,
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "il turno 20/11/2026 #1 è già aperto"),
        ("en", "turno 20/11/2026 #1 is already open"),
    ],
)
def test_reopening_an_open_turno_of_another_game_names_it_by_its_date(db, language, expected):
    season = season_create(name="Ramino 2026", ruleset_code="ramino-101")
    turno = turno_start(season=season, date=DAY, players=FOUR[:3], first_dealer="Anna")
    assert _said(lambda: game_turno_reopen(turno=turno, reason="prova"), language) == (
        "TURNO_OPEN",
        expected,
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "it",
            "la stagione 2026-27 ha ancora 2 turno/i in corso (20/11/2026 #1, 20/11/2026 #2): "
            "chiuderli o eliminarli prima di chiudere la stagione",
        ),
        (
            "en",
            "season 2026-27 still has 2 turno(s) in progress (20/11/2026 #1, 20/11/2026 #2): "
            "close or delete them before closing the season",
        ),
    ],
)
def test_closing_a_season_names_the_turni_in_progress_by_their_date(db, language, expected):
    season = season_create(name="2026-27")
    turno_start(season=season, date=DAY, players=FOUR, first_dealer="Anna")
    turno_start(
        season=season, date=DAY, players=["Elena", "Franco", "Gino", "Ida"], first_dealer="Elena"
    )
    assert _said(lambda: season_close(season=season, reason="fine"), language) == (
        "SEASON_TURNO_IN_PROGRESS",
        expected,
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "esiste già il turno #1 del 20/11/2026"),
        ("en", "turno #1 of 20/11/2026 already exists"),
    ],
)
def test_a_second_turno_with_the_same_number_is_refused_in_the_readers_language(
    db, language, expected
):
    season = season_create(name="2026-27")
    turno_start(season=season, date=DAY, players=FOUR, first_dealer="Anna", number=1)
    others = ["Elena", "Franco", "Gino", "Ida"]
    start = lambda: turno_start(  # noqa: E731
        season=season, date=DAY, players=others, first_dealer="Elena", number=1
    )
    assert _said(start, language) == ("TURNO_DUPLICATE", expected)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "it",
            "la stagione 2026-27 è chiusa (il 21/11/2026): non si possono iniziare turni, "
            "registrare o correggere smazzate, riaprire turni né cambiarne il regolamento o gli "
            "iscritti",
        ),
        (
            "en",
            "season 2026-27 is closed (on 21/11/2026): no turno can be started, no smazzata "
            "recorded or corrected, no turno reopened, nor its rules or members changed",
        ),
    ],
)
def test_a_closed_season_says_when_in_the_readers_language(db, language, expected):
    season = season_create(name="2026-27")
    closed = timezone.make_aware(dt.datetime(2026, 11, 21, 12, 0))
    Season.objects.filter(pk=season.pk).update(closed_at=closed)
    season.refresh_from_db()
    start = lambda: turno_start(  # noqa: E731
        season=season, date=DAY, players=FOUR, first_dealer="Anna"
    )
    assert _said(start, language) == ("SEASON_CLOSED", expected)
