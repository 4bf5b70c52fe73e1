"""A corrected member name changes no score, in every game (issue 24, item 3).

The admin corrects a name ("Bruno" -> "Zeno Rossi") after the season has been played; then a
turno of the last giornata is reopened, a smazzata naming that player is corrected (the same
facts, now under the new name), the turno is closed again and the season recomputed: every
stored figure is what it was, the Verbale and the Classifica show the new name only, and
``check_ledger`` finds nothing."""

from __future__ import annotations

import datetime as dt
import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring import api
from scoring.audit import turno_history
from scoring.demo import simulated_season
from scoring.demo_games import game_season
from scoring.models import Giornata, Player, Result, Seat, Smazzata, Standing, Turno
from scoring.rules.players import map_players
from scoring.services.backup import backup_document, backup_restore
from scoring.services.confirmations import turno_close_request, verbale_confirm
from scoring.services.games import (
    game_record,
    game_turni,
    game_turno_close,
    game_turno_reopen,
    season_turni_rescore,
)
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences
from scoring.services.season import season_create, season_recompute, seasons_of_player_bump
from scoring.services.turni import turno_close, turno_reopen
from tests.helpers import deal_correct, deal_counts, play_turno

pytestmark = pytest.mark.django_db
NEW = "Zeno Rossi"

# game -> (players, table size): every one at the table each giornata
GAMES = {
    "king-classico": (["Anna", "Bruno", "Carla", "Dario"], 4),
    "king-internazionale": (["Anna", "Bruno", "Carla", "Dario"], 4),
    "le-king": (["Anna", "Bruno", "Carla"], 3),
    "skat-isko": (["Anna", "Bruno", "Carla"], 3),
    "ramino-101": (["Anna", "Bruno", "Carla", "Dario"], 4),
}


def season_of(code: str, players: list[str], size: int, giornate: int):
    """A season of ``code`` with everyone at the one table of each giornata."""
    for name in players:
        Player.objects.get_or_create(name=name)
    return game_season(
        code=code, name=code, players=players, giornate=giornate, seed=5, attendance=1.0,
        table_sizes=(size,),
    )  # fmt: skip


def rename(player: Player, name: str) -> None:
    """What the admin's save of a corrected name does (``PlayerAdmin.save_model``)."""
    player.name = name
    player.save()
    seasons_of_player_bump(player_id=player.pk)


def figures(season) -> tuple[list, list, list, list]:
    """Every stored result of the season, by row and player id (never by name)."""
    seats = Seat.objects.filter(turno__season=season).order_by("turno_id", "position")
    return (
        list(
            seats.values_list(
                "turno_id", "player_id", "total", "penalty_total", "place", "tiebreak_rank",
                "ratio", "series_before", "series_after", "titles", "league_points", "extra",
            )
        ),
        list(
            Standing.objects.filter(season=season).order_by("player_id").values_list(
                "player_id", "place", "score", "series", "turni", "titles", "extra"
            )
        ),
        list(
            Result.objects.filter(smazzata__turno__season=season)
            .order_by("smazzata_id", "player_id")
            .values_list("smazzata_id", "player_id", "points")
        ),
        list(
            Turno.objects.filter(season=season).order_by("pk").values_list(
                "pk", "status", "verbale_number", "winner_id"
            )
        ),
    )  # fmt: skip


def shows_new_name(client, season, turno) -> None:
    for url in (
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:classifica", args=[season.pk]),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert NEW in html and "Bruno" not in html, url


@pytest.mark.parametrize("code", sorted(GAMES))
def test_a_corrected_name_changes_no_score(client, code):
    players, size = GAMES[code]
    season = season_of(code, players, size, giornate=2)
    system = season.system
    turno = Turno.objects.filter(season=season).order_by("giornata__date", "number").last()
    full = game_record(game_turni(Turno.objects.filter(pk=turno.pk)).get())
    named = [
        k
        for k, sm in enumerate(full["smazzate"], start=1)
        if "<Bruno>" in str(map_players(system.player_fields, sm, lambda ref: f"<{ref}>"))
    ]
    assert named, "the turno must have a smazzata that names Bruno"
    number = named[0]
    before = figures(season)

    rename(Player.objects.get(name="Bruno"), NEW)
    game_turno_reopen(turno=turno, reason="nome corretto")
    corrected = game_record(game_turni(Turno.objects.filter(pk=turno.pk)).get())
    record = corrected["smazzate"][number - 1]
    assert f"<{NEW}>" in str(map_players(system.player_fields, record, lambda ref: f"<{ref}>"))
    api.smazzata_correct(turno=turno, number=number, record=record)
    game_turno_close(turno=turno)
    assert figures(season) == before
    season_turni_rescore(season=season)
    season_recompute(season=season)

    assert figures(season) == before
    shows_new_name(client, season, turno)
    assert ledger_differences(seasons=[season]) == []


def test_a_corrected_name_changes_no_score_in_caf(client, make_season):
    """C.A.F.: counts are rows by player, and the series carried from one giornata to the next
    (``Giornata.state_after``) must follow the player, not the name."""
    season = make_season(
        name="caf", players=["Anna", "Bruno", "Carla", "Dario"], giornate=3, attendance=1.0
    )
    turno = Turno.objects.filter(season=season).order_by("giornata__date", "number").last()
    before = figures(season)

    rename(Player.objects.get(name="Bruno"), NEW)
    turno_reopen(turno=turno, reason="nome corretto")
    sm = Smazzata.objects.get(turno=turno, number=1)
    counts = deal_counts(sm)
    assert NEW in counts
    deal_correct(
        turno=turno, number=1, game=sm.game, caller=sm.caller.name, counts=counts,
        trump=sm.trump or None,
    )  # fmt: skip
    turno_close(turno=turno)  # the season replayed from this giornata, from the state before
    assert figures(season) == before
    season_recompute(season=season)

    assert figures(season) == before
    shows_new_name(client, season, turno)
    assert ledger_differences(seasons=[season]) == []


def test_the_seat_is_stored_not_the_name():
    season = season_of("skat-isko", ["Anna", "Bruno", "Carla"], 3, giornate=1)
    turno = Turno.objects.get(season=season)
    seat = {s.player.name: s.position for s in turno.seats.all()}
    played = [sm for sm in Smazzata.objects.filter(turno=turno) if "declarer" in sm.record]
    assert played
    for sm in played:
        assert sm.record["declarer"] == seat[sm.caller.name]  # the declarer's seat, a number


def test_check_ledger_reports_a_record_it_cannot_replay(ledger_unchecked):
    season = season_of("skat-isko", ["Anna", "Bruno", "Carla"], 3, giornate=1)
    turno = Turno.objects.get(season=season)
    sm = next(s for s in Smazzata.objects.filter(turno=turno) if "declarer" in s.record)
    Smazzata.objects.filter(pk=sm.pk).update(record={**sm.record, "declarer": 7})  # no seat 7
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("check_ledger", stdout=out, stderr=err)
    assert exit_.value.code == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"skat-isko · turno {turno.label} · registrazione rigiocabile: ")
    assert f"smazzata {sm.number}" in lines[0] and "FIELD_TYPE" in lines[0]
    assert lines[-1].startswith("skat-isko · classifica · registrazione rigiocabile: ")
    assert "differenze" in err.getvalue()


def test_a_backup_names_the_players_and_restores_seats_and_keys_exactly():
    """The backup's records and states name players (as every backup before did, so older and
    newer backups restore alike); a restore stores seats and keys again, and a second backup is
    the same file."""
    season = season_of("ramino-101", ["Anna", "Bruno", "Carla"], 3, giornate=1)
    season_import(
        data=simulated_season(name="caf", players=["Anna", "Bruno", "Carla", "Dario"], giornate=2)
    )
    raw = (
        dict(Smazzata.objects.values_list("pk", "record")),
        dict(Smazzata.history.values_list("history_id", "record")),
        dict(Giornata.objects.values_list("pk", "state_after")),
    )
    doc = json.loads(json.dumps(backup_document()))
    at = doc["tables"]["scoring.smazzata"]["columns"].index("record")
    rows = doc["tables"]["scoring.smazzata"]["rows"]
    # Ramino's closer by name; C.A.F.'s chiamante and counts too
    closers = {row[at]["closer"] for row in rows if "closer" in row[at]}
    assert closers <= {"Anna", "Bruno", "Carla"} and closers
    callers = {(row[at]["caller"], *row[at]["result"]) for row in rows if "result" in row[at]}
    assert {name for names in callers for name in names} == {"Anna", "Bruno", "Carla", "Dario"}
    states = doc["tables"]["scoring.giornata"]
    series = {
        name
        for row in states["rows"]
        for name in row[states["columns"].index("state_after")].get("series", {})
    }
    assert series == {"Anna", "Bruno", "Carla", "Dario"}
    backup_restore(data=doc, force=True)
    assert (
        dict(Smazzata.objects.values_list("pk", "record")),
        dict(Smazzata.history.values_list("history_id", "record")),
        dict(Giornata.objects.values_list("pk", "state_after")),
    ) == raw
    assert json.loads(json.dumps(backup_document())) == doc
    assert ledger_differences(seasons=[season]) == []


def test_the_change_trail_shows_a_corrected_record_with_names():
    season = season_of("skat-isko", ["Anna", "Bruno", "Carla"], 3, giornate=1)
    turno = Turno.objects.get(season=season)
    game_turno_reopen(turno=turno, reason="dichiarante sbagliato")
    full = game_record(game_turni(Turno.objects.filter(pk=turno.pk)).get())
    number, record = next(
        (k, sm) for k, sm in enumerate(full["smazzate"], start=1) if sm.get("declarer")
    )
    other = next(p for p in full["players"] if p != record["declarer"])
    api.smazzata_correct(turno=turno, number=number, record={**record, "declarer": other})
    (entry,) = [
        e
        for e in turno_history(turno)
        if e.what == f"smazzata {number}" and "registrazione: " in e.detail
    ]  # the changed fields by their labels (the model's verbose names), not their keys
    assert f"'declarer': '{record['declarer']}'" in entry.detail
    assert f"'declarer': '{other}'" in entry.detail
    # the member a column names, by name, never by the id the history keeps
    assert f"chiamante: {record['declarer']} → {other}" in entry.detail
    assert not re.search(r": \d+ → \d+", entry.detail), entry.detail
    # the points rescored in place (each changed row saved): by player and points, no count
    # (Skat has none)
    rescored = [e for e in turno_history(turno) if e.action == "modifica risultato"]
    assert rescored and all(
        re.fullmatch(r"(Anna|Bruno|Carla): [+-]\d+", e.detail) for e in rescored
    ), [e.detail for e in rescored]
    assert not [e for e in turno_history(turno) if e.action == "eliminazione risultato"]


def test_a_name_corrected_while_the_players_confirm_keeps_the_close_request(segretario):
    """The close request keeps the spareggio and the turno's fingerprint by player: the last
    confirmation closes the turno with the order asked, under the new name."""
    for name in ["Anna", "Bruno", "Carla", "Dario"]:
        Player.objects.create(name=name)
    season = season_create(name="2026-27")
    season.confirmation_required = True
    season.save(update_fields=["confirmation_required"])
    turno, _ = play_turno(season, dt.date(2026, 11, 20), ["Anna", "Bruno", "Carla", "Dario"], 3,
                          close=False)  # fmt: skip
    turno_close_request(turno=turno, tiebreak=["Bruno", "Anna"], user=segretario)  # tied on +39
    rename(Player.objects.get(name="Bruno"), NEW)
    for p in Player.objects.all():
        verbale_confirm(turno=turno, player=p)
    turno.refresh_from_db()
    assert turno.status == Turno.CHIUSO
    assert turno.seats.get(player__name=NEW).place == 1
    assert turno.seats.get(player__name="Anna").place == 2
