"""Issue 25: every command speaks the reader's language (``--lingua``/``--language``, else the
environment's: scoring/management/commands/_language.py), check_ledger's differences included;
the Italian texts are the ones printed before. Each text exact, in Italian and in English:
in-process with the option (the suite's environment is Italian, tests/conftest.py), and one
command in a child process whose environment is English (LANG), as a reader runs it."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scoring.models import Player, Season, Seat, Smazzata, TitleAward, Turno
from scoring.problem_text import described, engine_text, localized
from scoring.rules.problems import Problem, RuleViolation, Said, gettext_noop
from scoring.services.differences import Difference, described_said, problem_said
from scoring.services.season import season_create
from tests.helpers import deal_correct, play_turno
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
        "check_ledger: 4 differences in 2 seasons (2 turni)\n",  # the plural forms
    )


def test_check_ledger_clean_and_an_unknown_season_in_both_languages():
    """The counts with the language's plural forms: 1 stagione, 2 stagioni; 1 season, 2."""
    season = _caf_season()
    play_turno(season, dt.date(2026, 11, 6), P4, seed=1)
    assert run("check_ledger", language="it") == (
        0,
        "check_ledger: nessuna differenza (1 stagione, 1 turno)\n",
        "",
    )
    assert run("check_ledger", "--season", "2026-27", language="en") == (
        0,
        "check_ledger: no differences (1 season, 1 turno)\n",
        "",
    )
    assert run("check_ledger", "--season", "x", language="it")[0] == (
        "stagione sconosciuta: 'x' (stagioni: 2026-27)"
    )
    assert run("check_ledger", "--season", "x", language="en")[0] == (
        "unknown season 'x' (seasons: 2026-27)"
    )
    season_of("skat-isko", ["Anna", "Bruno", "Carla"], 3, giornate=1)  # a season, a turno
    assert run("check_ledger", language="it") == (
        0,
        "check_ledger: nessuna differenza (2 stagioni, 2 turni)\n",
        "",
    )
    assert run("check_ledger", language="en") == (
        0,
        "check_ledger: no differences (2 seasons, 2 turni)\n",
        "",
    )


def test_check_ledger_counts_one_difference_in_the_singular(ledger_unchecked):
    season = _caf_season()
    turno, _ = play_turno(season, dt.date(2026, 11, 6), P4, seed=1)
    seat = Seat.objects.filter(turno=turno, place=1).get()
    Seat.objects.filter(pk=seat.pk).update(ratio=Decimal("9.99"))
    assert run("check_ledger", language="it")[::2] == (
        1,
        "check_ledger: 1 differenza in 1 stagione (1 turno)\n",
    )
    assert run("check_ledger", language="en")[::2] == (
        1,
        "check_ledger: 1 difference in 1 season (1 turno)\n",
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
        deal_correct(
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
    # the smazzata named once: by the problem's number, not again in its message
    assert later.message == "Non fare Q♠ (NQS) è già stato giocato in questo turno"
    assert [described(p) for p in exc.value.problems] == [
        "smazzata 4: [CORRECTION_BREAKS_LATER] con questa correzione la smazzata 4 non è più "
        "valida: correggere prima quella",
        "smazzata 4: [GAME_ALREADY_PLAYED] Non fare Q♠ (NQS) è già stato giocato in questo turno",
    ]
    with translation.override("en"):
        assert localized(later).message == "Non fare Q♠ (NQS) has already been played in this turno"
        assert [described(p) for p in exc.value.problems] == [
            "smazzata 4: [CORRECTION_BREAKS_LATER] With this correction smazzata 4 is no longer "
            "valid: correct that one first.",
            "smazzata 4: [GAME_ALREADY_PLAYED] Non fare Q♠ (NQS) has already been played in "
            "this turno",
        ]


# -- backup, export_season, export_verbali --------------------------------------------------------
def test_backup_in_both_languages(tmp_path):
    play_turno(_caf_season(), dt.date(2026, 11, 6), P4, seed=1)
    path = tmp_path / "b.json"
    assert run("backup", str(path), language="it") == (
        0,
        f"backup scritto in {path}: 0 account, 4 soci, 1 stagione, 1 turno\n",
        "",
    )
    assert run("backup", str(path), language="en") == (
        0,
        f"backup written to {path}: 0 accounts, 4 members, 1 season, 1 turno\n",
        "",
    )
    # the plural forms: a second season and turno, one member more, one account
    get_user_model().objects.create_user("segretario")
    season_of("skat-isko", ["Anna", "Bruno", "Emma"], 3, giornate=1)
    assert run("backup", str(path), language="it")[1] == (
        f"backup scritto in {path}: 1 account, 5 soci, 2 stagioni, 2 turni\n"
    )
    assert run("backup", str(path), language="en")[1] == (
        f"backup written to {path}: 1 account, 5 members, 2 seasons, 2 turni\n"
    )
    assert run("backup", str(path), "--indent", "9", language="it")[0] == (
        "--indent: da 0 a 8 spazi"
    )
    assert run("backup", str(path), "--indent", "9", language="en")[0] == (
        "--indent: from 0 to 8 spaces"
    )
    missing = tmp_path / "no" / "b.json"
    assert run("backup", str(missing), language="it")[0] == (
        f"impossibile scrivere {missing}: No such file or directory"
    )
    assert run("backup", str(missing), language="en")[0] == (
        f"cannot write {missing}: No such file or directory"
    )


def test_restore_says_the_differences_it_refuses_in_the_readers_language(tmp_path):
    """A backup whose seat's league points were edited: restore refuses it and says each
    difference (place, field, the texts) in the reader's language, the values as stored."""
    from scoring.services.backup import backup_document

    turno, _ = play_turno(_caf_season(), dt.date(2026, 11, 6), P4, seed=1)
    doc = backup_document()
    seats = doc["tables"]["scoring.seat"]
    player_at, points_at = seats["columns"].index("player"), seats["columns"].index("league_points")
    dario = Player.objects.get(name="Dario").pk
    row = next(r for r in seats["rows"] if r[player_at] == dario)
    row[points_at] = "5.00"
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    said = {
        language: run("restore", str(path), "--force", language=language) for language in LANGUAGES
    }
    stored, expected = "Decimal('5.00')", "Decimal('0.62')"
    day = "datetime.date(2026, 11, 6)"
    assert said["it"] == (
        "nulla ripristinato",
        "",
        f"[LEDGER] stagione 2026-27: 2026-27 · turno {turno.label}, Dario · punti di lega: "
        f"registrato {stored}, atteso {expected}\n"
        "[LEDGER] stagione 2026-27: 2026-27 · cifre del giocatore, Dario · punti per giornata "
        f"giocata: registrato {{{day}: {stored}}}, atteso {{{day}: {expected}}}\n"
        "[LEDGER] stagione 2026-27: 2026-27 · cifre del giocatore, Dario · andamento in "
        f"classifica: registrato {{'start': 0, 'points': [{stored}]}}, atteso {{'start': 0, "
        f"'points': [{expected}]}}\n",
    )
    assert said["en"] == (
        "nothing restored",
        "",
        f"[LEDGER] season 2026-27: 2026-27 · turno {turno.label}, Dario · league points: "
        f"stored {stored}, expected {expected}\n"
        "[LEDGER] season 2026-27: 2026-27 · player's figures, Dario · points per giornata "
        f"played: stored {{{day}: {stored}}}, expected {{{day}: {expected}}}\n"
        "[LEDGER] season 2026-27: 2026-27 · player's figures, Dario · places over the season: "
        f"stored {{'start': 0, 'points': [{stored}]}}, expected {{'start': 0, "
        f"'points': [{expected}]}}\n",
    )
    assert Seat.objects.count() == 4  # nothing restored: the club as it was


def test_export_season_in_both_languages(tmp_path):
    assert run("export_season", "x", language="it")[0] == "stagione sconosciuta: 'x'"
    assert run("export_season", "x", language="en")[0] == "unknown season 'x'"
    play_turno(_caf_season(), dt.date(2026, 11, 6), P4, seed=1)
    path = tmp_path / "s.json"
    assert run("export_season", "2026-27", str(path), language="it") == (
        0,
        "",
        f"scritto {path}: 1 turno\n",
    )
    assert run("export_season", "2026-27", str(path), language="en") == (
        0,
        "",
        f"wrote {path}: 1 turno\n",
    )
    play_turno(Season.objects.get(), dt.date(2026, 11, 13), P4, seed=2)
    assert run("export_season", "2026-27", str(path), language="it")[2] == (
        f"scritto {path}: 2 turni\n"
    )
    assert run("export_season", "2026-27", str(path), language="en")[2] == (
        f"wrote {path}: 2 turni\n"
    )


def test_export_verbali_in_both_languages(tmp_path):
    """Its messages in the reader's language; the documents in the club's (Italian)."""
    from openpyxl import load_workbook

    assert run("export_verbali", "x", str(tmp_path), language="en")[0] == "unknown season 'x'"
    play_turno(_caf_season(), dt.date(2026, 11, 6), P4, seed=1)
    assert run("export_verbali", "2026-27", str(tmp_path), "--jobs", "0", language="it")[0] == (
        "--jobs deve essere almeno 1"
    )
    assert run("export_verbali", "2026-27", str(tmp_path), "--jobs", "0", language="en")[0] == (
        "--jobs must be at least 1"
    )
    done = {}
    for language in LANGUAGES:
        target = tmp_path / language
        code, out, err = run(
            "export_verbali", "2026-27", str(target), "--format", "xlsx", "--jobs", "1",
            language=language,
        )  # fmt: skip
        assert code == 0
        done[language] = (re.sub(r"\(\d+\.\d s\)", "(N s)", out), err.splitlines()[-1])
        sheet = load_workbook(target / "classifica-2026-27.xlsx").worksheets[0]
        cells = {str(c.value) for row in sheet.iter_rows() for c in row}
        assert {"Giocatore", "Assenze"} <= cells and "Player" not in cells  # the club's language
    assert done == {
        "it": (
            f"1 verbale e la classifica di 2026-27: 2 file in {tmp_path / 'it'} (N s)\n",
            f"[{'#' * 30}] 2/2 fatto",
        ),
        "en": (
            f"1 verbale and the Classifica of 2026-27: 2 files in {tmp_path / 'en'} (N s)\n",
            f"[{'#' * 30}] 2/2 done",
        ),
    }


# -- send_news, seed_demo -----------------------------------------------------------------------
def test_send_news_in_both_languages():
    assert run("send_news", language="it") == (
        0,
        "notizie in sospeso: 0 inviate, 0 non inviate\n",
        "",
    )
    assert run("send_news", "--digest", language="en") == (
        0,
        "digest: 0 sent, 0 pending\npending news: 0 sent, 0 not sent\n",
        "",
    )
    assert run("send_news", "--digest", language="it")[1] == (
        "riepilogo: 0 inviati, 0 in sospeso\nnotizie in sospeso: 0 inviate, 0 non inviate\n"
    )  # the singular: test_news.py ("1 inviata", "1 inviato")


def test_seed_demo_if_empty_in_both_languages():
    _caf_season()
    assert run("seed_demo", "--if-empty", language="it") == (
        0,
        "circolo dimostrativo non caricato: il database ha già una stagione\n",
        "",
    )
    assert run("seed_demo", "--if-empty", language="en") == (
        0,
        "demo club not loaded: the database already has a season\n",
        "",
    )


# -- the environment's language, in a child process ---------------------------------------------
def test_an_english_environment_gets_the_commands_help_in_english(tmp_path):
    """LANG=en_US.UTF-8 and no --lingua: export_verbali's --help is English throughout."""
    env = {k: v for k, v in os.environ.items() if k not in ("KINGCLUB_LANGUAGE", "LANGUAGE")}
    env |= {"LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": "200"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/missing/dir/db.sqlite3"
    proc = subprocess.run(
        [sys.executable, "manage.py", "export_verbali", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    text = " ".join(proc.stdout.split())
    for said in (
        "Export every closed turno of a season as Verbale PDF and XLSX into a folder, with the "
        "Classifica Generale.",
        "season the season's name, e.g. 2026-27",
        "directory the folder to write into (created if missing)",
        "--format {pdf,xlsx,all} write only the PDFs or only the workbooks (default: both)",
        "--jobs JOBS processes rendering the missing documents (default: one per core)",
        "--lingua {it,en}, --language {it,en} the language of the messages (default: the "
        "environment's, LANG)",
    ):
        assert said in text, said


def test_seed_demo_says_what_it_loaded_in_english():
    """The demo club (one giornata) seeded by an English reader: the summary and the accounts'
    roles in English, the club's seasons as named."""
    code, out, err = run(
        "seed_demo", "--giornate", "1", "--seed", "11", "--today", "2026-11-26", language="en"
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "demo club loaded: 13 members, season 2026-27, 2 closed turni and one in progress; "
        "King classico 2026-27 (King classico), King internazionale 2026-27 (King "
        "internazionale), Le King 2026-27 (Le King), Skat 2026-27 (Skat), Ramino 2026-27 "
        "(Ramino 101)",
        "demo accounts (change them before real use):",
        "  admin / admin-kingclub  (administrator)",
        "  segretario / segretario-kingclub  (Segretario)",
        "  socio / socio-kingclub  (Member)",
    ]
