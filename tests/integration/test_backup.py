"""backup → restore gives back the club exactly: official records, who and when, events with
their reasons, the audit history, the members' accounts; the pages and documents are the same."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import api
from scoring.models import Player, PlayerFigures, Season, Turno, TurnoEvent
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.backup import backup_document, wipe_club
from scoring.services.season import season_create
from scoring.services.turni import turno_close, turno_reopen
from tests.conftest import _user, kept_for_the_scope

pytestmark = pytest.mark.django_db(transaction=False)
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def _play(season, date, seed, user, close=True, upto=None):
    """A turno played through the public API, its deals as the interchange file holds them."""
    record = simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer=PLAYERS[0])
    turno = api.turno_start(
        season=season, date=date, players=PLAYERS, first_dealer=PLAYERS[0], table="T1", user=user
    )
    for i, deal in enumerate(turno_to_input(record)["smazzate"][:upto], start=1):
        api.smazzata_record(turno=turno, record=deal, number=i, user=user)
    if close:
        api.turno_close(turno=turno, tiebreak=record.tiebreak, user=user)
    return turno


@pytest.fixture(scope="module")
def _club(django_db_setup, django_db_blocker):
    """The club, built once for the module (tests/conftest.py, ``kept_for_the_scope``): each
    test restores, wipes or reads it in a savepoint rolled back after it."""
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            segretario = _user(get_user_model(), "segretario", "Segretario")
            admin_user = _user(get_user_model(), "admin", is_superuser=True, is_staff=True)
            season = _build_club(segretario, admin_user)
        yield season


@pytest.fixture
def club(db, _club, sequences_high_water):
    """The module's club; on PostgreSQL a restore's sequences are put back after the test
    (``sequences_high_water``), for the kept rows' next insert."""
    return _club


def _build_club(segretario, admin_user):
    """Closed turni numbered out of date order, a reopen with a reason, a penalità, a sanction,
    an open turno, a member linked to an account."""
    for n in PLAYERS:
        Player.objects.create(name=n)
    Player.objects.filter(name="Anna").update(user=segretario)
    season = season_create(name="2026-27")
    late = _play(season, dt.date(2026, 11, 20), seed=1, user=segretario)
    _play(season, dt.date(2026, 11, 27), seed=2, user=admin_user)
    # closed last, on the earliest date: Verbale n. 3
    early = _play(season, dt.date(2026, 11, 13), seed=3, user=segretario, close=False)
    api.penalita_add(
        turno=early, player="Bruno", points=-5, article="9", reason="ritardo", user=segretario
    )
    turno_close(turno=early, tiebreak=None, user=segretario)
    turno_reopen(turno=late, reason="conteggio da verificare", user=admin_user)
    turno_close(turno=late, user=admin_user)
    open_turno = _play(season, dt.date(2026, 12, 4), seed=4, user=segretario, close=False, upto=5)
    api.sanction_add(turno=open_turno, player="Carla", reason="contatore", user=segretario)
    return season


def _backup_bytes(tmp_path, name: str) -> bytes:
    path = tmp_path / name
    call_command("backup", str(path), stdout=io.StringIO())
    return path.read_bytes()


def _pages(client) -> dict[str, str]:
    urls = ["/", "/serie/", "/turni/", "/giocatori/"]
    urls += [f"/turni/{t.pk}/" for t in Turno.objects.order_by("pk")]
    urls += [f"/giocatori/{p.pk}/" for p in Player.objects.order_by("pk")]
    out = {}
    for url in urls:
        html = client.get(url).content.decode()
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
        out[url] = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return out


GENERATED = re.compile(r"(?i)generat[oa] il \d\d/\d\d/\d{4} alle \d\d:\d\d")


def _stamp(value):
    """The documents say when they were generated: the only thing a restore may change."""
    return GENERATED.sub("generato il …", value) if isinstance(value, str) else value


def _documents(client) -> dict[str, object]:
    out: dict[str, object] = {}
    for t in Turno.objects.filter(status=Turno.CHIUSO).order_by("pk"):
        pdf = client.get(f"/turni/{t.pk}/verbale.pdf").content
        out[f"{t.pk}.pdf"] = [_stamp(p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]
        book = load_workbook(io.BytesIO(client.get(f"/turni/{t.pk}/verbale.xlsx").content))
        out[f"{t.pk}.xlsx"] = [
            [[_stamp(c.value) for c in row] for row in ws.iter_rows()] for ws in book.worksheets
        ]
    return out


def _records():
    turni = list(
        Turno.objects.order_by("pk").values_list(
            "pk", "verbale_number", "closed_at", "closed_by__username", "segretario__username"
        )
    )
    events = list(
        TurnoEvent.objects.order_by("pk").values_list("turno_id", "kind", "reason", "at", "user")
    )
    history = list(Turno.history.order_by("history_id").values_list("history_id", "id", "status"))
    return turni, events, history


def test_backup_restore_backup_is_byte_identical_and_keeps_every_record(club, tmp_path, client):
    by_date = list(
        Turno.objects.order_by("giornata__date").values_list("verbale_number", flat=True)
    )
    assert by_date == [3, 1, 2, None]
    before = _records()
    pages, documents = _pages(client), _documents(client)
    first = _backup_bytes(tmp_path, "first.json")
    call_command("restore", str(tmp_path / "first.json"), "--force", stdout=io.StringIO())
    assert _records() == before
    second = _backup_bytes(tmp_path, "second.json")
    assert second == first
    assert _pages(client) == pages
    assert _documents(client) == documents
    reopen = TurnoEvent.objects.get(kind=TurnoEvent.REOPEN)
    assert (reopen.reason, reopen.user.username) == ("conteggio da verificare", "admin")
    assert Player.objects.get(name="Anna").user.username == "segretario"
    # the keys go on after the restored ones (PostgreSQL's sequences are reset)
    new = _play(club, dt.date(2026, 12, 11), seed=5, user=None, close=False, upto=1)
    assert new.pk == max(pk for pk, *_ in before[0]) + 1


def test_restore_into_a_new_database_recreates_the_accounts(club, tmp_path):
    first = _backup_bytes(tmp_path, "first.json")
    wipe_club()
    get_user_model().objects.all().delete()
    call_command("restore", str(tmp_path / "first.json"), stdout=io.StringIO())
    segretario = get_user_model().objects.get(username="segretario")
    assert segretario.check_password("pw-kingclub-1")
    assert list(segretario.groups.values_list("name", flat=True)) == ["Segretario"]
    assert _backup_bytes(tmp_path, "second.json") == first


def test_a_restore_computes_the_player_figures_again(club, tmp_path):
    """What the player page reads of a season (PlayerFigures) is not in a backup: the restore
    computes it from the restored play, and the seats' figures of their turno too when a
    backup taken before they were kept has them empty; a backup taken then is the same file."""
    rows = PlayerFigures.objects.values_list("season_id", "player_id", "figures", "line")
    kept = sorted(rows)
    assert kept and sum(1 for *_rest, line in kept if line is not None) == 3
    first = _backup_bytes(tmp_path, "first.json")
    doc = json.loads(first)
    assert "scoring.playerfigures" not in doc["tables"]
    seat = doc["tables"]["scoring.seat"]
    extra = seat["columns"].index("extra")
    for row in seat["rows"]:
        row[extra] = {}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    call_command("restore", str(old), "--force", stdout=io.StringIO())
    assert (
        sorted(PlayerFigures.objects.values_list("season_id", "player_id", "figures", "line"))
        == kept
    )
    assert _backup_bytes(tmp_path, "second.json") == first


def test_backup_holds_every_table_of_the_club(club):
    doc = backup_document()
    assert doc["format"] == "kingclub/v2-backup"
    tables = set(doc["tables"])
    assert {"scoring.turno", "scoring.turnoevent", "scoring.historicalturno"} <= tables
    assert json.loads(json.dumps(doc)) == doc


def test_restore_refuses_a_non_empty_database_without_force(club, tmp_path, db_dump):
    path = tmp_path / "b.json"
    call_command("backup", str(path), stdout=io.StringIO())
    before = db_dump()
    err = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("restore", str(path), stdout=io.StringIO(), stderr=err)
    assert exc.value.returncode == 2
    assert "--force" in err.getvalue()
    assert db_dump() == before
    assert Season.objects.count() == 1
    err = io.StringIO()  # in English (--language en): the refusal and its problem
    with pytest.raises(CommandError, match=r"^nothing restored$"):
        call_command("restore", str(path), language="en", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == (
        "[DATABASE_NOT_EMPTY] the database already holds data: the restore would overwrite it "
        "(use --force to delete it)\n"
    )
