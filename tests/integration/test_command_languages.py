"""Issue 25: the commands speak the reader's language (``--lingua``/``--language``, else the
environment's: scoring/management/commands/_language.py), check_ledger's differences included;
the Italian texts are the ones printed before. Each text exact, in Italian and in English,
in-process with the option (the suite's environment is Italian, tests/conftest.py)."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scoring.models import Player, Season, Seat, Smazzata, TitleAward, Turno
from scoring.problem_text import described, engine_text, localized
from scoring.rules.problems import Problem, RuleViolation, Said, gettext_noop
from scoring.services.differences import Difference, described_said, problem_said
from scoring.services.season import season_create
from scoring.services.turni import smazzata_correct
from tests.helpers import play_turno
from tests.integration.test_live_screen import _record, _turno
from tests.integration.test_live_screen import season as counts_season  # noqa: F401
from tests.integration.test_rename import season_of

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
P4 = ["Anna", "Bruno", "Carla", "Dario"]
LANGUAGES = ("it", "en")


def run(*args: str, **options) -> tuple[object, str, str]:
    """(exit code, stdout, stderr) of a command; a CommandError's message as its code."""
    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    try:
        call_command(*args, stdout=out, stderr=err, **options)
    except SystemExit as exc:
        code = exc.code
    except CommandError as exc:
        code = str(exc)
    return code, out.getvalue(), err.getvalue()


def _caf_season() -> Season:
    for name in P4:
        Player.objects.get_or_create(name=name)
    return season_create(name="2026-27")


# -- check_ledger -------------------------------------------------------------------------------
def test_check_ledger_says_each_difference_in_the_readers_language(ledger_unchecked):
    """A C.A.F. seat's league points and title changed, a Skat record the engine refuses: each
    line's place, field and texts in the reader's language, the values as stored."""
    season = _caf_season()
    turno, _ = play_turno(season, dt.date(2026, 11, 6), P4, seed=1)
    seat = Seat.objects.filter(turno=turno, place=4).select_related("player").get()
    Seat.objects.filter(pk=seat.pk).update(league_points=Decimal("5.00"))
    TitleAward.objects.filter(seat=seat).delete()
    skat = season_of("skat-isko", ["Anna", "Bruno", "Carla"], 3, giornate=1)
    played = Turno.objects.get(season=skat)
    sm = next(s for s in Smazzata.objects.filter(turno=played) if "declarer" in s.record)
    Smazzata.objects.filter(pk=sm.pk).update(record={**sm.record, "declarer": 7})  # no seat 7
    said = {language: run("check_ledger", language=language) for language in LANGUAGES}
    name, label, skat_label = seat.player.name, turno.label, played.label
    refused = f"turno {skat_label}, smazzata {sm.number}: [FIELD_TYPE] declarer:"
    assert said["it"] == (
        1,
        f"2026-27 · turno {label}, {name} · punti di lega: registrato Decimal('5.00'), "
        "atteso Decimal('-0.01')\n"
        f"2026-27 · titolo RETROCESSIONE (posto {seat.pk}) · assegnazioni: registrato 0, "
        "atteso 1\n"
        f"skat-isko · turno {skat_label} · registrazione rigiocabile: registrato '{refused} "
        "deve essere un nome (trovato 7)', atteso 'una registrazione che il regolamento "
        "accetta'\n"
        f"skat-isko · classifica · registrazione rigiocabile: registrato '{refused} deve essere "
        "un nome (trovato 7)', atteso 'una registrazione che il regolamento accetta'\n",
        "check_ledger: 4 differenze in 2 stagioni (2 turni)\n",
    )
    assert said["en"] == (
        1,
        f"2026-27 · turno {label}, {name} · league points: stored Decimal('5.00'), "
        "expected Decimal('-0.01')\n"
        f"2026-27 · title RETROCESSIONE (seat {seat.pk}) · awards: stored 0, expected 1\n"
        f"skat-isko · turno {skat_label} · replayable record: stored '{refused} must be a name "
        "(found 7)', expected 'a record the rule set accepts'\n"
        f"skat-isko · Classifica · replayable record: stored '{refused} must be a name "
        "(found 7)', expected 'a record the rule set accepts'\n",
        "check_ledger: 4 differences in 2 seasons (2 turni)\n",
    )


def test_check_ledger_clean_and_an_unknown_season_in_both_languages():
    season = _caf_season()
    play_turno(season, dt.date(2026, 11, 6), P4, seed=1)
    assert run("check_ledger", language="it") == (
        0,
        "check_ledger: nessuna differenza (1 stagioni, 1 turni)\n",
        "",
    )
    assert run("check_ledger", "--season", "2026-27", language="en") == (
        0,
        "check_ledger: no differences (1 seasons, 1 turni)\n",
        "",
    )
    assert run("check_ledger", "--season", "x", language="it")[0] == (
        "stagione sconosciuta: 'x' (stagioni: 2026-27)"
    )
    assert run("check_ledger", "--season", "x", language="en")[0] == (
        "unknown season 'x' (seasons: 2026-27)"
    )


def test_a_difference_is_the_same_italian_line_and_says_its_texts_in_english():
    """str() is the Italian line as before; text() the active language's, a value that is a
    list of engine texts (a closed turno's problems) said item by item."""
    problem = Problem.said(
        "DECLARER_MISSING",
        gettext_noop("%(label)s: scegliere chi gioca."),
        {"label": gettext_noop("Solista")},
    )
    difference = Difference(
        "2026-27",
        Said(gettext_noop("turno %(turno)s"), {"turno": "20/11/2026 #1"}),
        "turno chiuso valido",
        [problem_said(problem)],
        [],
    )
    line = "2026-27 · turno 20/11/2026 #1 · turno chiuso valido: registrato {}, atteso []"
    assert str(difference) == line.format("['Solista: scegliere chi gioca.']")
    with translation.override("it"):
        assert difference.text() == str(difference)
    with translation.override("en"):
        assert difference.text() == (
            "2026-27 · turno 20/11/2026 #1 · closed turno valid: "
            "stored ['Declarer: choose who plays.'], expected []"
        )
    # a field that is no word of the ledger's (a generic game's code) is printed as it is
    plain = Difference("Skat", "x", "points", {"Anna": 1}, {"Anna": 2})
    with translation.override("en"):
        assert plain.text() == "Skat · x · points: stored {'Anna': 1}, expected {'Anna': 2}"


def test_a_problem_said_again_is_its_line_in_either_language():
    """described_said: the line :meth:`Problem.describe` writes, in Italian as it is and in
    English as :func:`described` says it (a field's label translated too)."""
    problem = Problem.said(
        "PLAYER_UNKNOWN",
        gettext_noop("%(label)s: %(player)s non siede a questo tavolo."),
        {"label": gettext_noop("Solista"), "player": "Zorro"},
        smazzata=2,
        player="Anna",
        turno="20/11/2026 #1",
    )
    line = described_said(problem)
    assert (
        line
        == problem.describe()
        == (
            "turno 20/11/2026 #1, smazzata 2, giocatore Anna: [PLAYER_UNKNOWN] "
            "Solista: Zorro non siede a questo tavolo."
        )
    )
    with translation.override("en"):
        assert (
            engine_text(line)
            == described(problem)
            == (
                "turno 20/11/2026 #1, smazzata 2, player Anna: [PLAYER_UNKNOWN] "
                "Declarer: Zorro does not sit at this table."
            )
        )
        assert engine_text(problem_said(problem)) == localized(problem).message


# -- a correction's later smazzata ---------------------------------------------------------------
def test_a_later_smazzatas_problem_names_it_in_the_readers_language(counts_season):  # noqa: F811
    record = _record()
    turno = _turno(counts_season, record.smazzate[:5])
    second, fourth = record.smazzate[1], record.smazzate[3]
    with pytest.raises(RuleViolation) as exc:
        smazzata_correct(
            turno=turno,
            number=2,
            game=fourth.game,
            caller=second.caller,
            counts=fourth.result,
            trump=fourth.trump,
        )
    later = exc.value.problems[1]
    assert (later.code, later.smazzata, later.field, later.player) == (
        "GAME_ALREADY_PLAYED",
        4,
        None,
        None,
    )
    assert later.message == "smazzata 4: Non fare Q♠ (NQS) è già stato giocato in questo turno"
    with translation.override("en"):
        assert localized(later).message == (
            "smazzata 4: Non fare Q♠ (NQS) has already been played in this turno"
        )
