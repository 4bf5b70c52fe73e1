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
    assert [m for m in MODULE_SECONDS if not (root / m).is_file()] == []
