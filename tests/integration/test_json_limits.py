"""One bounded JSON reader for every file the club accepts (issue 26 item 1): depth, size and
count checked as the file streams by, before anything is built from it."""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Season
from scoring.rules.problems import RuleViolation
from scoring.services.interchange import read_document, season_import_file
from scoring.services.jsonread import Limits, check_limits

BRACKETS = b"[" * 4000 + b"]" * 4000  # 8 KB: ijson's paths of every level took 40 MB


def _peak(call) -> tuple[Exception, int]:
    tracemalloc.start()
    try:
        call()
    except Exception as exc:  # the refusal is what is measured
        refused = exc
    else:
        refused = AssertionError("accepted")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return refused, peak


def test_a_file_of_nested_brackets_is_refused_for_its_depth_in_little_memory(db, tmp_path):
    path = tmp_path / "brackets.json"
    path.write_bytes(BRACKETS)
    refused, peak = _peak(lambda: season_import_file(path))
    assert isinstance(refused, RuleViolation)
    assert [p.code for p in refused.problems] == ["JSON_DEPTH"]
    assert refused.problems[0].message == (
        "JSON annidato troppo in profondità (al massimo 12 livelli)"
    )
    assert peak < 4 * 1024 * 1024, peak
    assert not Season.objects.exists()


def test_the_depth_is_refused_at_the_first_level_too_many_whatever_follows(db, tmp_path):
    """The check stops at level 13: the rest of the file (even broken) is not read."""
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"turni": [' + b"[" * 200_000 + b" this is not JSON")
    with pytest.raises(RuleViolation) as exc:
        season_import_file(path)
    assert [p.code for p in exc.value.problems] == ["JSON_DEPTH"]


@pytest.mark.parametrize(
    ("raw", "depth_ok"),
    [
        (b'{"a": [[[[[[[[[[1]]]]]]]]]]}', True),  # 12 levels, the scalar counted
        (b'{"a": [[[[[[[[[[[1]]]]]]]]]]]}', False),
        (b'{"a": [[[[[[[[[[[]]]]]]]]]]]}', True),  # an empty list is one level
        (b'{"a": [[[[[[[[[[[[]]]]]]]]]]]]}', False),
    ],
)
def test_the_streaming_depth_is_the_depth_of_the_whole_document(raw, depth_ok):
    limits = Limits(max_bytes=None, max_values=None)
    if depth_ok:
        assert check_limits(io.BytesIO(raw), limits).is_object
        assert read_document(raw) == json.loads(raw)
    else:
        with pytest.raises(RuleViolation) as exc:
            check_limits(io.BytesIO(raw), limits)
        assert exc.value.problems[0].code == "JSON_DEPTH"


def test_a_document_of_too_many_values_is_refused(db, settings, tmp_path):
    settings.KINGCLUB_MAX_JSON_VALUES = 1000
    raw = b'{"format": "kingclub/v1", "turni": [' + b",".join([b"{}"] * 1000) + b"]}"
    path = tmp_path / "wide.json"
    path.write_bytes(raw)
    for read in (lambda: read_document(raw), lambda: season_import_file(path)):
        with pytest.raises(RuleViolation) as exc:
            read()
        assert [(p.code, p.message) for p in exc.value.problems] == [
            ("JSON_TOO_MANY", "il documento ha più di 1000 valori JSON, oltre il limite")
        ]
    # a backup is the administrator's own file: no count limit, the depth still checked
    assert len(read_document(raw, limit=None, max_values=None)["turni"]) == 1000


@pytest.mark.parametrize("command", ["import_season", "kingscore", "restore"])
def test_every_command_refuses_the_brackets_for_their_depth(db, tmp_path, capsys, command):
    path = tmp_path / "brackets.json"
    path.write_bytes(b"[" * 20_000 + b"]" * 20_000)
    with pytest.raises((CommandError, SystemExit)):
        call_command(command, str(path))
    assert "[JSON_DEPTH] JSON annidato troppo in profondità" in capsys.readouterr().err


def test_kingscore_keeps_the_size_limit_of_an_import(settings, tmp_path, capsys):
    settings.KINGCLUB_MAX_IMPORT_BYTES = 100
    path = tmp_path / "big.json"
    path.write_bytes(b'{"format": "kingclub/v1", "turni": []}' + b" " * 100)
    with pytest.raises(SystemExit):
        call_command("kingscore", str(path))
    assert "[JSON_TOO_LARGE] il documento è di 138 byte, oltre il limite di 100" in (
        capsys.readouterr().err
    )
