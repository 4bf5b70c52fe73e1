"""Random and hostile documents fed to the importer: never a crash, never an impossible
season stored, the database unchanged after every rejected document."""

from __future__ import annotations

import contextlib
import copy
import json
import uuid
from collections.abc import Iterator

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.demo import simulated_season
from scoring.rules.caf.interchange import parse_document, score_document
from scoring.rules.problems import RuleViolation
from scoring.services.interchange import read_document, season_import
from scoring.services.ledger import ledger_differences

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
BASE = simulated_season(name="base", players=PLAYERS, giornate=2, seed=3, attendance=1.0)

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


PATHS = [p for p in _paths(BASE) if p]


@contextlib.contextmanager
def each_example_rolled_back() -> Iterator[None]:
    """One Hypothesis example in a savepoint rolled back after it: every example starts from the
    database the test's fixtures left (dumped once for all of them: ``database_before``), instead
    of on the seasons the earlier examples stored, which made every later dump and import longer.
    What an example stored is checked against its replay before the rollback
    (``assert_replays``): the ledger check at the test's end checked the pile of them."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def assert_replays() -> None:
    """The stored ledger equals the engine's replay (``_ledger_replays``'s check, in an example)."""
    found = ledger_differences()
    assert not found, "the ledger differs from the replay:\n" + "\n".join(map(str, found[:30]))


@pytest.fixture
def database_before(db_dump) -> str:
    """The database as the test's fixtures left it, dumped once for all the examples (each in a
    savepoint rolled back: ``each_example_rolled_back``)."""
    return db_dump()


def _set(doc, path, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(mutations=st.lists(st.tuples(st.sampled_from(PATHS), json_value), min_size=1, max_size=3))
def test_mutated_documents_are_stored_whole_or_not_at_all(db_dump, database_before, mutations):
    doc = copy.deepcopy(BASE)
    for path, value in mutations:
        with contextlib.suppress(KeyError, IndexError, TypeError):
            _set(doc, path, value)
    doc["season"] = f"fuzz-{uuid.uuid4().hex}"
    try:
        # what the engine alone says of the document
        score_document(parse_document(copy.deepcopy(doc)))
        valid = True
    except RuleViolation:
        valid = False
    with each_example_rolled_back():
        try:
            season = season_import(data=doc)
        except RuleViolation as exc:
            assert not valid
            assert exc.problems and all(p.message for p in exc.problems)
            assert db_dump() == database_before
        else:
            assert valid
            assert season.turni.count() == len(doc["turni"])
            assert_replays()


@pytest.mark.django_db
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=json_value)
def test_random_json_is_refused_cleanly(db_dump, database_before, data):
    with pytest.raises(RuleViolation):
        season_import(data=data)
    assert db_dump() == database_before


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"\xff\xfe garbage", "JSON_ENCODING"),
        (b"[" * 100 + b"]" * 100, "JSON_DEPTH"),
        (
            json.dumps(
                {
                    "a": {
                        "b": {
                            "c": {
                                "d": {
                                    "e": {"f": {"g": {"h": {"i": {"j": {"k": {"l": {"m": 1}}}}}}}}
                                }
                            }
                        }
                    }
                }
            ).encode(),
            "JSON_DEPTH",
        ),
        (b'{"format": "kingclub/v1", "turni": [', "JSON_SYNTAX"),
    ],
)
def test_unreadable_documents_are_named(raw, code):
    with pytest.raises(RuleViolation) as exc:
        read_document(raw)
    assert exc.value.problems[0].code == code


def test_oversized_document_is_refused(settings):
    settings.KINGCLUB_MAX_IMPORT_BYTES = 1000
    with pytest.raises(RuleViolation) as exc:
        read_document(b" " * 1001)
    assert exc.value.problems[0].code == "JSON_TOO_LARGE"
    assert "1001" in exc.value.problems[0].message


@pytest.mark.django_db
def test_absurd_penalty_points_are_refused_not_crashed(db_dump):
    doc = copy.deepcopy(BASE)
    doc["season"] = "huge-penalty"
    t = doc["turni"][0]
    t["penalties"] = [{"player": t["players"][0], "points": -(10**30), "article": "9"}]
    before = db_dump()
    with pytest.raises(RuleViolation) as exc:
        season_import(data=doc)
    assert [p.code for p in exc.value.problems] == ["PENALTY_POINTS"]
    assert "9999" in exc.value.problems[0].message
    assert db_dump() == before


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/serie/", "/turni/", "/giocatori/"])
def test_read_only_pages_refuse_post(client, url):
    assert client.post(url, {"x": "1"}).status_code == 405
