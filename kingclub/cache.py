"""The shared cache, degrading to the database when it fails (issue 26, item 2).

The cache every worker shares (``CACHES["default"]``: Redis when ``REDIS_URL`` is set) only keeps
what the database can always rebuild (a Classifica's table, a member's season). So a cache that
is gone (Redis stopped, a dead port, a timeout, an unreadable value) must never answer a page with
a 500: every operation of :class:`RedisCache` catches the failure and answers as a miss (``get``
gives the default, ``set`` stores nothing, ``add`` and ``delete`` say False), and the caller
renders from the database as it does on a cold cache.

A failure is logged once per burst: the first one logs a warning and the cache is then left
alone for ``RETRY_SECONDS`` (default 5; no connection attempt, so a dead server costs nothing
per request); the next operation after that tries the server again, and a success logs that the
cache is back. :func:`cache_health` (``/healthz``) asks the server directly, whatever that state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

logger = logging.getLogger("kingclub.cache")
T = TypeVar("T")
HEALTH_KEY = "kingclub:healthz"


class DegradingCacheMixin:
    """Turns every failure of a cache backend into a miss, logged once per burst."""

    retry_seconds: float = 5.0

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)  # type: ignore[call-arg]
        self.retry_seconds = float(params.get("RETRY_SECONDS", self.retry_seconds))
        self._down_until = 0.0  # monotonic time before which the server is not tried again
        self._failing = False
        self.last_error = ""

    # -- the failure state -------------------------------------------------------------------
    def _guarded(self, call: Callable[[], T], fallback: T) -> T:
        if self._failing and time.monotonic() < self._down_until:
            return fallback
        try:
            result = call()
        except Exception as exc:  # any failure of an optimisation: serve from the database
            self._failed(exc)
            return fallback
        if self._failing:
            self._failing = False
            logger.warning("shared cache available again: pages use it again")
        return result

    def _failed(self, exc: BaseException) -> None:
        self.last_error = f"{type(exc).__name__}: {exc}"
        self._down_until = time.monotonic() + self.retry_seconds
        if not self._failing:
            self._failing = True
            logger.warning(
                "shared cache unavailable (%s): pages are served from the database; "
                "next try in %s s",
                self.last_error,
                self.retry_seconds,
            )

    @property
    def failing(self) -> bool:
        """Did the last operation fail (the pages are served from the database)?"""
        return self._failing

    def ping(self) -> None:
        """Write and read a key on the server, whatever the failure state; raises on failure."""
        token = str(time.time_ns())
        super().set(HEALTH_KEY, token, 30)  # type: ignore[misc]
        if super().get(HEALTH_KEY) != token:  # type: ignore[misc]
            raise RuntimeError("the value written was not read back")

    # -- the cache API: each operation answers as a miss when the cache fails -----------------
    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._guarded(partial(super().add, key, value, timeout, version), False)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guarded(partial(super().get, key, default, version), default)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guarded(partial(super().set, key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guarded(partial(super().touch, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guarded(partial(super().delete, key, version), False)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._guarded(partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guarded(partial(super().has_key, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        missing = object()
        value = self._guarded(partial(super().incr, key, delta, version), missing)
        if value is missing:  # what a cache without the key says
            raise ValueError(f"Key '{key}' not found")
        return value

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._guarded(partial(super().set_many, data, timeout, version), list(data))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._guarded(partial(super().delete_many, keys, version), None)

    def clear(self) -> bool:
        return self._guarded(super().clear, False)


class RedisCache(DegradingCacheMixin, DjangoRedisCache):
    """Django's ``RedisCache`` that degrades to a miss when Redis fails (the settings' backend
    when ``REDIS_URL`` is set)."""


def cache_health(alias: str = "default") -> dict[str, Any]:
    """The shared cache's state for ``/healthz``: its backend, ``ok`` or ``down`` (with the
    error) from a write and read on the server now, never raising."""
    cache = caches[alias]
    backend = type(cache).__module__ + "." + type(cache).__qualname__
    try:
        if isinstance(cache, DegradingCacheMixin):
            cache.ping()
        else:
            token = str(time.time_ns())
            cache.set(HEALTH_KEY, token, 30)
            if cache.get(HEALTH_KEY) != token:
                raise RuntimeError("the value written was not read back")
    except Exception as exc:
        return {"state": "down", "backend": backend, "error": f"{type(exc).__name__}: {exc}"}
    return {"state": "ok", "backend": backend}
