"""Hostile files fed to the commands: malformed embedded rule sets, absurd turno numbers,
hostile texts, corrupted backups. Never a traceback: exit 2 with a message naming what is
wrong, and the database exactly as it was."""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import io
import json
import random
import uuid

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.demo import simulated_season
from scoring.models import Penalita, Player, Season
from scoring.rules.caf import caf
from scoring.rules.caf.ruleset import default_ruleset_dict
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.backup import backup_document
from scoring.services.interchange import season_import
from scoring.services.turni import turno_reopen, turno_start
from tests.helpers import deal_record
from tests.property.test_hostile_import import (
    _paths,
    _set,
    assert_replays,
    each_example_rolled_back,
)

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
BASE = simulated_season(name="base", players=PLAYERS, giornate=1, seed=3, attendance=1.0)
BASE["rules"] = default_ruleset_dict()
HYPO = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

hostile_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**31), max_value=10**31),
    st.sampled_from([0, -1, 1, 52, 2**15, 2**31, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "x", "1/0", "ROUND_X", "\x00", "\u200b", "\u202e", "A" * 100_000]),
    st.text(max_size=8),
)
hostile_value = st.recursive(
    hostile_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _mutated(base, paths, mutations):
    doc = copy.deepcopy(base)
    for path, value in mutations:
        with contextlib.suppress(KeyError, IndexError, TypeError):
            _set(doc, path, value)
    return doc


def _run(command: str, doc_or_bytes, tmp_path, *args) -> tuple[int, str]:
    """Run a command on a file: (exit code, stderr); a traceback fails the test."""
    path = tmp_path / f"{uuid.uuid4().hex}.json"
    raw = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes).encode()
    path.write_bytes(raw)
    err = io.StringIO()
    try:
        call_command(command, str(path), *args, stdout=io.StringIO(), stderr=err)
    except CommandError as exc:
        assert exc.returncode == 2, exc
        return 2, f"{err.getvalue()}\n{exc}"
    except SystemExit as exc:
        return int(exc.code), err.getvalue()
    return 0, err.getvalue()


RULE_PATHS = [("rules", *p) for p in _paths(BASE["rules"]) if p]


@pytest.fixture
def database_before(db_dump) -> str:
    """The database before the examples, dumped once for all of them (each in a savepoint rolled
    back: ``each_example_rolled_back``)."""
    return db_dump()


@HYPO
@given(
    mutations=st.lists(
        st.tuples(st.sampled_from(RULE_PATHS), hostile_value), min_size=1, max_size=3
    )
)
def test_malformed_rule_sets_never_crash_kingscore(tmp_path_factory, mutations):
    doc = _mutated(BASE, RULE_PATHS, mutations)
    code, err = _run("kingscore", doc, tmp_path_factory.mktemp("k"))
    assert code in (0, 2)
    if code == 2:
        assert "[" in err  # one "[CODE] message" line per problem


@pytest.mark.django_db
@HYPO
@given(
    mutations=st.lists(
        st.tuples(st.sampled_from(RULE_PATHS), hostile_value), min_size=1, max_size=3
    )
)
def test_malformed_rule_sets_never_crash_the_import(
    db_dump, database_before, tmp_path_factory, mutations
):
    doc = _mutated(BASE, RULE_PATHS, mutations)
    doc["season"] = f"fuzz-{uuid.uuid4().hex[:8]}"
    with each_example_rolled_back():
        code, err = _run("import_season", doc, tmp_path_factory.mktemp("i"))
        if code == 2:
            assert "nulla importato" in err
            assert db_dump() == database_before
        else:
            assert code == 0
            season = Season.objects.get(name=doc["season"])
            assert season.ruleset.to_dict()  # what was stored reads back
            assert_replays()


@pytest.mark.django_db
@pytest.mark.parametrize("number", [10**30, 2**15, 0, -1, 1.5, "1", True, None])
def test_absurd_turno_numbers_are_named(db_dump, tmp_path, number):
    doc = copy.deepcopy(BASE)
    doc["turni"][0]["number"] = number
    before = db_dump()
    for command in ("kingscore", "import_season"):
        code, err = _run(command, doc, tmp_path)
        assert code == 2
        assert "number: deve essere un intero da 1 a 32767" in err
    assert db_dump() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("A" * 100_000, "players: al massimo 60 caratteri (sono 100000)"),
        ("\u200b", "players: non può essere vuoto"),
        ("   \t ", "players: non può essere vuoto"),
    ],
)
def test_hostile_player_names_are_refused_naming_the_field(db_dump, tmp_path, name, message):
    doc = json.loads(json.dumps(BASE).replace('"Anna"', json.dumps(name)))
    before = db_dump()
    code, err = _run("import_season", doc, tmp_path)
    assert code == 2
    assert message in err
    assert db_dump() == before


@pytest.mark.django_db
def test_imported_texts_are_stored_normalised(tmp_path):
    """NUL bytes and zero-width characters are removed, NFC applied, spaces collapsed: the
    same file imports the same on SQLite and on PostgreSQL."""
    doc = json.loads(
        json.dumps(BASE).replace('"Anna"', json.dumps("  Ann\x00a\u200b\u202e  Mari\u0301a "))
    )
    t = doc["turni"][0]
    t["penalties"] = [
        {"player": t["players"][1], "points": -5, "article": "9", "reason": "r\x00itardo\u200b"}
    ]
    assert _run("import_season", doc, tmp_path)[0] == 0
    assert Player.objects.filter(name="Anna María").exists()
    assert Penalita.objects.get().reason == "ritardo"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("reason", "r" * 301, "al massimo 300 caratteri (sono 301)"),
        ("article", "9" * 21, "al massimo 20 caratteri (sono 21)"),
    ],
)
def test_over_length_penalty_texts_are_refused(db_dump, tmp_path, field, value, message):
    doc = copy.deepcopy(BASE)
    t = doc["turni"][0]
    t["penalties"] = [{"player": t["players"][1], "points": -5, "article": "9", field: value}]
    before = db_dump()
    code, err = _run("import_season", doc, tmp_path)
    assert (code, f"penalties.{field}: {message}" in err) == (2, True)
    assert db_dump() == before


# -- corrupted backups -------------------------------------------------------------------------
@pytest.fixture
def small_club(db, segretario):
    season_import(
        data=simulated_season(name="s", players=PLAYERS, giornate=1, seed=5, attendance=1.0)
    )
    season = Season.objects.get()
    turno = season.turni.first()
    turno_reopen(turno=turno, reason="verifica", user=segretario)
    record = simulate_turno(caf(), PLAYERS, random.Random(2), first_dealer=PLAYERS[0])
    other = turno_start(
        season=season, date=dt.date(2027, 1, 8), players=PLAYERS, first_dealer=PLAYERS[0]
    )
    sm = record.smazzate[0]
    deal_record(turno=other, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump)
    return backup_document()


@pytest.fixture
def club_before(small_club, db_dump) -> str:
    """The small club's database, dumped once for all the examples (``database_before``)."""
    return db_dump()


def _backup_paths(doc):
    """Paths into the backup: every column of a few rows of every table, and the headers."""
    out = [("format",), ("users",), ("tables",), ("users", 0, "username")]
    for label, table in doc["tables"].items():
        out += [("tables", label), ("tables", label, "columns"), ("tables", label, "rows")]
        out += [("tables", label, "columns", k) for k in range(len(table["columns"]))]
        for i in range(min(2, len(table["rows"]))):
            out += [("tables", label, "rows", i, k) for k in range(len(table["columns"]))]
    return out


@pytest.mark.django_db
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_corrupted_backups_are_refused_cleanly(
    small_club, db_dump, club_before, tmp_path_factory, data
):
    paths = _backup_paths(small_club)
    mutations = data.draw(
        st.lists(st.tuples(st.sampled_from(paths), hostile_value), min_size=1, max_size=3)
    )
    doc = _mutated(small_club, paths, mutations)
    with each_example_rolled_back():
        code, err = _run("restore", doc, tmp_path_factory.mktemp("r"), "--force")
        if code == 2:
            assert "nulla ripristinato" in err and "[" in err
            assert db_dump() == club_before
        else:
            assert code == 0
            assert_replays()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],
        lambda raw: raw.replace(b'"rows"', b'"r0ws"', 1),
        lambda raw: b"\xff" + raw,
        lambda raw: b"[]",
        lambda raw: b'{"format": "kingclub/v2-backup"}',
        lambda raw: b'{"format": "kingclub/v1-backup", "members": [{"x": 1}]}',
        lambda raw: b'{"format": "kingclub/v1-backup", "members": [], "seasons": [1]}',
        lambda raw: b'{"format": "kingclub/v1-backup", "seasons": [{"tables": {"x#y": 3}}]}',
        lambda raw: b'{"format": "kingclub/v1-backup", "seasons": [{"open_turni": [{}]}]}',
        lambda raw: raw.replace(b'"Anna"', b'"Anna\\u0000"'),
        lambda raw: raw.replace(b'"Anna"', b'"' + b"A" * 100 + b'"'),
        lambda raw: raw.replace(b'"scoring.turno": {', b'"scoring.turnx": {"rows": [], '),
        lambda raw: raw.replace(b'"verifica"', b"12"),
        lambda raw: raw.replace(b'"closed_at"', b'"closed_when"'),
        lambda raw: raw.replace(b'"in_corso"', b'"aperto"'),
    ],
)
def test_damaged_backup_files_are_named(small_club, db_dump, tmp_path, damage):
    raw = json.dumps(small_club).encode()
    before = db_dump()
    code, err = _run("restore", damage(raw), tmp_path, "--force")
    assert code == 2
    assert "nulla ripristinato" in err
    assert db_dump() == before


@pytest.mark.django_db
def test_a_legacy_backup_still_restores(small_club, tmp_path):
    from scoring.services.interchange import season_export

    season = Season.objects.get()
    doc = season_export(season=season)
    doc.update(rules=season.rules, current=True, tables={}, open_turni=[])
    legacy = {
        "format": "kingclub/v1-backup",
        "members": [{"name": n, "active": True} for n in PLAYERS],
        "seasons": [doc],
    }
    assert _run("restore", legacy, tmp_path, "--force")[0] == 0
    assert Season.objects.get().name == "s"
