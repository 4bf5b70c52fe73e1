"""A shared cache that fails never takes a page down (issue 26, item 2): with Redis at a dead
port the C.A.F. pages answer 200 from the database, the failure is logged once per burst, and
``/healthz`` says the cache is down; with the live Redis of the machine, the same pages use it."""

from __future__ import annotations

import logging
import socket

import pytest
from django.core.cache import caches
from django.urls import reverse

from kingclub.cache import RedisCache

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


def closed_port() -> int:
    """A port of 127.0.0.1 nobody listens on (taken from the system, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_caches(location: str) -> dict:
    return {
        "default": {
            "BACKEND": "kingclub.cache.RedisCache",
            "LOCATION": location,
            "KEY_PREFIX": "kingclub-test",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            "RETRY_SECONDS": 60,
        },
        "live": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
    }


def redis_alive() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.3) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def dead_redis(settings):
    settings.CACHES = redis_caches(f"redis://127.0.0.1:{closed_port()}/0")
    return settings


@pytest.fixture
def caf_season(make_season):
    season = make_season(name="2026-27", players=PLAYERS, giornate=2, seed=3)
    from scoring.models import Player

    return season, Player.objects.get(name="Anna")


def pages(season, player) -> list[str]:
    return [
        reverse("scoring:home"),
        reverse("scoring:classifica", args=[season.pk]),
        reverse("scoring:player", args=[player.pk]),
    ]


def test_dead_redis_pages_answer_from_the_database(client, caf_season, dead_redis, caplog):
    season, anna = caf_season
    assert isinstance(caches["default"], RedisCache)
    with caplog.at_level(logging.WARNING, logger="kingclub.cache"):
        for url in pages(season, anna) * 2:
            response = client.get(url)
            assert response.status_code == 200, url
            assert "Anna" in response.content.decode()
    warnings = [r for r in caplog.records if r.name == "kingclub.cache"]
    # one burst, one line: the next reads skip the dead server for RETRY_SECONDS
    assert len(warnings) == 1
    assert "pages are served from the database" in warnings[0].getMessage()
    assert caches["default"].failing


def test_dead_redis_every_operation_is_a_miss(dead_redis):
    c = caches["default"]
    assert c.get("k", "fallback") == "fallback"
    c.set("k", 1)
    assert c.add("k", 1) is False
    assert c.get_many(["k"]) == {}
    assert c.get_or_set("k", 7) == 7
    assert c.delete("k") is False
    assert c.has_key("k") is False
    with pytest.raises(ValueError):
        c.incr("k")


def test_dead_redis_health_check_says_degraded(client, db, dead_redis):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "degraded",
        "database": {"state": "ok", "vendor": response.json()["database"]["vendor"]},
        "cache": {"state": "down", "backend": "RedisCache"},
    }
    assert "127.0.0.1" not in response.content.decode()  # no address told to the world


def test_health_check_ok_with_the_database_cache(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["state"] == "ok"
    assert body["cache"] == {"state": "ok", "backend": "DatabaseCache"}


@pytest.mark.skipif(not redis_alive(), reason="no Redis at 127.0.0.1:6379")
def test_live_redis_keeps_the_pages_and_comes_back(client, caf_season, settings, caplog):
    season, anna = caf_season
    settings.CACHES = redis_caches("redis://127.0.0.1:6379/15")
    caches["default"].clear()
    for url in pages(season, anna):
        assert client.get(url).status_code == 200
    assert caches["default"].failing is False
    assert len(caches["default"]._cache.get_client().keys("kingclub-test:*")) >= 2
    assert client.get("/healthz").json()["cache"] == {"state": "ok", "backend": "RedisCache"}
    # a failure, then the server back after the pause: logged once each way
    c = caches["default"]
    c.retry_seconds = 0
    with caplog.at_level(logging.WARNING, logger="kingclub.cache"):
        c._failed(ConnectionError("gone"))
        assert c.get("nothing", "x") == "x"  # tried again at once (no pause), and it answers
    assert [r.getMessage()[:33] for r in caplog.records if r.name == "kingclub.cache"] == [
        "shared cache unavailable (Connect",
        "shared cache available again: pag",
    ]
    c.clear()
