"""``/healthz``: is the database answering, is the shared cache (issue 26, item 2).

For a load balancer or a monitor: JSON, never cached, for anyone (it tells no data and no
address: the cache's error goes to the log, not to the page). ``200`` while the database answers,
with ``"status": "degraded"`` when the shared cache is down (the pages are then served from the
database, slower but right); ``503`` when the database does not answer.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from kingclub.cache import cache_health

logger = logging.getLogger("kingclub.health")


def database_health() -> dict[str, Any]:
    """``ok`` when ``SELECT 1`` answers on the default database, else ``down``; never raises."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        logger.warning("healthz: database down (%s: %s)", type(exc).__name__, exc)
        return {"state": "down", "vendor": connection.vendor}
    return {"state": "ok", "vendor": connection.vendor}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_health()
    cache = cache_health()
    if cache["state"] != "ok":
        logger.warning("healthz: shared cache down (%s)", cache.get("error", ""))
    body = {
        "status": "down"
        if database["state"] != "ok"
        else ("ok" if cache["state"] == "ok" else "degraded"),
        "database": database,
        "cache": {"state": cache["state"], "backend": cache["backend"].rsplit(".", 1)[-1]},
    }
    return JsonResponse(body, status=200 if database["state"] == "ok" else 503)
