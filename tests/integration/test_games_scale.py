"""The five generic games at scale and on a par with C.A.F. (issue 24): the season standing kept
by giornata (a close or reopen costs the same queries in any season), the import written in
bulk, the Classifica cached, the reopen's reason and the audit trail, export_verbali; C.A.F.'s
refresh reads its season without joining the giornate."""

from __future__ import annotations

import datetime as dt
import io
import random
from typing import Any

import openpyxl
import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Giornata, Seat, Standing, Turno
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system
from scoring.services.games import (
    FOLD,
    game_differences,
    game_season_import,
    game_standing,
    game_turno_close,
    game_turno_reopen,
)

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo"]


def season_doc(code: str, turni: int, name: str) -> dict[str, Any]:
    """``turni`` valid random turni of ``code``, two tables of four a giornata."""
    system = get_system(code)
    rules, rng = system.rules(), random.Random(24)
    out = []
    for i in range(turni):
        if i % 2 == 0:
            present = rng.sample(PLAYERS, len(PLAYERS))
        record = system.random_turno(rng, present[(i % 2) * 4 : (i % 2) * 4 + 4], rules)
        date = dt.date(2026, 1, 1) + dt.timedelta(days=i // 2)
        out.append({**record, "date": date.isoformat(), "number": i % 2 + 1})
    return {"format": "kingclub/v1", "ruleset": code, "season": name, "roster": PLAYERS,
            "turni": out}  # fmt: skip


def stored_rows(season) -> list[tuple[str, int, Any, int | None, dict]]:
    return [
        (s.player.name, s.place, s.score, s.previous_place, s.extra)
        # tied rows by name: the order within a tie is not what these tests compare, and a
        # database may return tied rows in any order (PostgreSQL does)
        for s in Standing.objects.filter(season=season)
        .select_related("player")
        .order_by("place", "player__name")
    ]


def counted(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("code", ["ramino-101", "skat-isko", "le-king"])
def test_close_and_reopen_of_the_last_turno_cost_the_same_in_any_season(code, monkeypatch):
    from scoring.services import games
    from scoring.services import turno_frame as closing

    replayed = []
    record = games.game_record
    for module in (games, closing):  # the season's replay, and the close's own record
        monkeypatch.setattr(
            module, "game_record", lambda t, **kw: replayed.append(t.pk) or record(t, **kw)
        )
    costs = []
    for turni in (4, 24):
        season = game_season_import(data=season_doc(code, turni, f"{code} {turni}"))
        last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number")[0]
        replayed.clear()
        reopen = counted(lambda: game_turno_reopen(turno=last.pk, reason="verifica"))  # noqa: B023
        close = counted(lambda: game_turno_close(turno=last.pk))  # noqa: B023
        costs.append((reopen, close))
        assert replayed == [last.pk]  # the closed turno only: the season is never replayed
    assert costs[0] == costs[1]


def test_the_kept_standing_is_the_replay_after_a_reopen_in_the_middle_of_the_season():
    season = game_season_import(data=season_doc("ramino-101", 12, "Ramino"))
    first = stored_rows(season)
    middle = Turno.objects.get(season=season, giornata__date="2026-01-03", number=2)
    game_turno_reopen(turno=middle, reason="un punteggio da rivedere")
    open_rows = stored_rows(season)
    expected = {r["player"]: r for r in game_standing(season)}
    assert [(n, p, s) for n, p, s, _, _ in open_rows] == sorted(
        ((r["player"], r["place"], r["league_points"]) for r in expected.values()),
        key=lambda row: (row[1], row[0]),
    )
    played = {s.player.name for s in Seat.objects.filter(turno=middle)}
    for name, _, _, _, extra in open_rows:  # the reopened turno no longer counts
        before = next(e for n, _, _, _, e in first if n == name)
        assert extra["turni"] == before["turni"] - (name in played)
    # every giornata from the reopened one on keeps its new checkpoint; the earlier ones theirs
    states = dict(Giornata.objects.filter(season=season).values_list("date", "state_after"))
    assert all(FOLD in s for s in states.values())
    assert game_differences(season) == []
    game_turno_close(turno=middle)
    assert stored_rows(season) == first


def test_a_close_folds_from_an_earlier_checkpoint_when_its_giornata_has_none():
    season = game_season_import(data=season_doc("skat-isko", 8, "Skat"))
    before = stored_rows(season)
    Giornata.objects.filter(season=season).update(state_after={})  # a database from before
    last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number")[0]
    game_turno_reopen(turno=last, reason="verifica")
    game_turno_close(turno=last)
    assert stored_rows(season) == before
    assert all(FOLD in s for s in Giornata.objects.values_list("state_after", flat=True))


def test_check_ledger_reports_a_checkpoint_that_differs_from_the_replay(ledger_unchecked):
    season = game_season_import(data=season_doc("king-classico", 4, "King"))
    day = Giornata.objects.filter(season=season).order_by("date")[0]
    state = day.state_after[FOLD]
    key = sorted(state)[0]
    wrong = {**state, key: {**state[key], "wins": state[key]["wins"] + 1}}
    Giornata.objects.filter(pk=day.pk).update(state_after={FOLD: wrong})
    Standing.objects.filter(season=season, player_id=int(key)).update(extra={})
    found = [(d.where, d.field) for d in game_differences(season)]
    name = Standing.objects.get(season=season, player_id=int(key)).player.name
    assert found == [
        (f"giornata {day.date.isoformat()}", "stato dopo"),
        ("classifica", f"{name} (colonne)"),
    ]


def test_import_is_written_with_its_history_and_its_close_events():
    season = game_season_import(data=season_doc("ramino-101", 4, "Ramino"))
    turni = Turno.objects.filter(season=season)
    assert sorted(turni.values_list("verbale_number", flat=True)) == [1, 2, 3, 4]
    assert {t.events.filter(kind="close").count() for t in turni} == {1}
    seat = Seat.objects.filter(turno__season=season).first()
    assert seat.history.filter(history_type="+").count() == 1
    assert turni[0].history.filter(history_change_reason="importazione").exists()


def test_import_refuses_two_turni_with_the_same_date_and_number():
    doc = season_doc("skat-isko", 2, "Skat")
    doc["turni"][1]["number"] = 1
    with pytest.raises(RuleViolation) as exc:
        game_season_import(data=doc)
    assert exc.value.problems[0].code in ("TURNO_DUPLICATE", "DUPLICATE_TURNO")


def test_reopen_takes_its_reason_as_typed_text():
    season = game_season_import(data=season_doc("le-king", 2, "Le King"))
    turno = Turno.objects.filter(season=season)[0]
    with pytest.raises(RuleViolation) as exc:
        game_turno_reopen(turno=turno, reason="  \u200b ")
    assert [(p.code, p.field) for p in exc.value.problems] == [("REOPEN_REASON", "reason")]
    game_turno_reopen(turno=turno, reason="  un  errore\u00a0di conteggio ")
    assert turno.events.get(kind="reopen").reason == "un errore di conteggio"


def test_the_anonymous_classifica_of_a_game_is_kept_until_a_close(client):
    season = game_season_import(data=season_doc("ramino-101", 4, "Ramino"), current=True)
    kept = client.get("/").content
    assert counted(lambda: client.get("/")) == 1  # the seasons' versions, then the kept bytes
    assert client.get("/").content == kept
    last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number")[0]
    game_turno_reopen(turno=last, reason="verifica")
    assert client.get("/").content != kept  # the reopen's new version: rendered again
    game_turno_close(turno=last)
    assert client.get("/").content == kept


def test_export_verbali_writes_each_season_its_own_classifica(tmp_path):
    season = game_season_import(data=season_doc("ramino-101", 2, "Ramino 2026"))
    call_command(
        "export_verbali", season.name, str(tmp_path), "--jobs", "1", stdout=io.StringIO(),
        stderr=io.StringIO(),
    )  # fmt: skip
    book = openpyxl.load_workbook(tmp_path / "classifica-ramino-2026.xlsx")
    texts = {c.value for row in book.active.iter_rows() for c in row if c.value is not None}
    assert "Partite" in texts and "Serie" not in texts


def test_a_backup_keeps_the_checkpoints_by_name_and_restores_them_by_member():
    import json

    from scoring.services.backup import backup_document, backup_restore

    season = game_season_import(data=season_doc("le-king", 4, "Le King"))
    kept = dict(Giornata.objects.filter(season=season).values_list("date", "state_after"))
    doc = json.loads(json.dumps(backup_document()))
    table = doc["tables"]["scoring.giornata"]
    states = [row[table["columns"].index("state_after")] for row in table["rows"]]
    assert {name for s in states for name in s[FOLD]} <= set(PLAYERS)
    backup_restore(data=doc, force=True)
    assert dict(Giornata.objects.values_list("date", "state_after")) == kept


def test_caf_classifica_refresh_reads_the_season_without_joining_its_giornate(make_season):
    """C.A.F.'s refresh (every close and reopen) sums the season's seats, absences and titles
    and scans its seats for figures to fill: no model ordering in those reads, which joined
    every turno's giornata (half the aggregate's time at 2,000 turni, docs/benchmarks.md)."""
    from scoring.selectors import standings_aggregate
    from scoring.services.season import seat_figures_fill

    season = make_season(giornate=2)
    with CaptureQueriesContext(connection) as ctx:
        rows = standings_aggregate(season)
    assert (
        len(rows) == 5
        and sum(r.turni for r in rows) == Seat.objects.filter(turno__season=season).count()
    )
    sums = [q["sql"] for q in ctx.captured_queries if "GROUP BY" in q["sql"]]
    assert len(sums) == 3  # seats, absences, titles
    assert not [sql for sql in sums if "scoring_giornata" in sql]
    with CaptureQueriesContext(connection) as ctx:
        assert seat_figures_fill(season=season) == set()  # the import filled every seat
    (scan,) = ctx.captured_queries
    assert "scoring_giornata" not in scan["sql"] and "ORDER BY" not in scan["sql"]
