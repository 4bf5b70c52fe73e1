"""What the test suite's own set-up must not hide: the club's settings and the registry's order."""

from __future__ import annotations

from django.conf import global_settings

from tests.conftest import TEST_PASSWORD_HASHERS


def test_the_club_hashes_passwords_with_djangos_strong_default():
    """The suite hashes with MD5 (tests/conftest.py); the club keeps Django's PBKDF2 first."""
    import kingclub.settings as club

    hashers = getattr(club, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert not set(TEST_PASSWORD_HASHERS) & set(hashers)


def test_the_systems_keep_their_order_whichever_module_registered_first(monkeypatch):
    """C.A.F. first, then the SYSTEM_MODULES order, even when a test imported Ramino's module
    before anything asked the registry (the suite runs in random order)."""
    from scoring.rules import systems as registry

    in_order = [s.code for s in registry.systems()]
    assert in_order[0] == "caf" and in_order[-2:] == ["skat-isko", "ramino-101"]
    # as registered when a test imports Ramino's and Skat's modules first
    first = {code: registry._REGISTRY[code] for code in ("ramino-101", "skat-isko")}
    scrambled = {**first, **registry._REGISTRY}
    assert next(iter(scrambled)) == "ramino-101"
    monkeypatch.setattr(registry, "_REGISTRY", scrambled)
    assert [s.code for s in registry.systems()] == in_order


def test_the_longest_first_table_names_modules_that_exist():
    """``MODULE_SECONDS`` orders the workers' modules: a key left behind by a renamed or merged
    module would silently send its successor to the estimate by folder, and the table would
    no longer say where the time goes."""
    from pathlib import Path

    from tests.conftest import MODULE_SECONDS

    root = Path(__file__).resolve().parents[2]
    assert [m for m in MODULE_SECONDS if not (root / m.split("::")[0]).is_file()] == []
    # a class's own entry (a scope of `--dist loadscope`) names a class of its module
    classes = [key.split("::") for key in MODULE_SECONDS if "::" in key]
    assert [
        (module, name)
        for module, name in classes
        if f"\nclass {name}:" not in (root / module).read_text()
    ] == []


def test_longest_first_orders_the_scopes_loadscope_sends_to_one_worker(monkeypatch):
    """A class is a scope of its own (it may go to another worker than the rest of its module):
    its own entry, or its share of its module's by number of tests; the rest by folder. Equal
    estimates keep the order they came in."""
    from types import SimpleNamespace

    import tests.conftest as suite

    table = {"tests/e2e/test_a.py::TestBig": 40.0, "tests/integration/test_b.py": 30.0}
    monkeypatch.setattr(suite, "MODULE_SECONDS", table)
    ids = [
        "tests/rules/test_r.py::test_one",  # 0.01
        "tests/integration/test_b.py::TestHalf::test_1",  # 30 × 2/3 = 20
        "tests/e2e/test_a.py::test_small",  # 4 (one e2e test)
        "tests/integration/test_b.py::test_rest",  # 30 × 1/3 = 10
        "tests/e2e/test_a.py::TestBig::test_x",  # 40
        "tests/integration/test_b.py::TestHalf::test_2",
        "tests/unit/test_u.py::test_one",  # 0.05
    ]
    ordered = suite.longest_first([SimpleNamespace(nodeid=i) for i in ids])
    assert [item.nodeid for item in ordered] == [
        "tests/e2e/test_a.py::TestBig::test_x",
        "tests/integration/test_b.py::TestHalf::test_1",
        "tests/integration/test_b.py::TestHalf::test_2",
        "tests/integration/test_b.py::test_rest",
        "tests/e2e/test_a.py::test_small",
        "tests/unit/test_u.py::test_one",
        "tests/rules/test_r.py::test_one",
    ]


def test_a_ledger_check_is_skipped_only_on_rows_it_found_equal_to_their_replay(
    make_season, monkeypatch
):
    """``_ledger_replays`` skips the check where the tables an earlier check read hold the rows
    it found equal to their replay (``checked_before``): a row it reads changed, the check runs
    again and finds it; put back, the state is the one checked; a row of a table it does not
    read (a session) changes nothing."""
    from django.contrib.sessions.models import Session
    from django.db.models import F
    from django.utils import timezone

    import tests.conftest as suite
    from scoring.models import Result

    make_season(giornate=1)
    monkeypatch.setattr(suite, "_CHECKED", {})
    assert suite.checked_before() is False
    found, read = suite.replayed_reading()
    assert found == []
    assert {"scoring_season", "scoring_turno", "scoring_result", "scoring_smazzata"} <= read
    assert "django_session" not in read
    suite._CHECKED.setdefault(read, set()).add(suite.rows_of(read))
    assert suite.checked_before() is True

    Session.objects.create(session_key="k" * 32, session_data="", expire_date=timezone.now())
    assert suite.checked_before() is True
    result = Result.objects.order_by("pk").first()
    Result.objects.filter(pk=result.pk).update(points=F("points") + 1)
    assert suite.checked_before() is False
    found, _read = suite.replayed_reading()
    # the one row changed, named as the check names it (the seat totals were not touched)
    assert [(d.where, d.field, d.stored, d.expected) for d in found] == [
        (f"turno {result.smazzata.turno.label}, smazzata {result.smazzata.number}, "
         f"{result.player.name}", "punti",
         result.points + 1, result.points)
    ]  # fmt: skip
    Result.objects.filter(pk=result.pk).update(points=F("points") - 1)
    assert suite.checked_before() is True
