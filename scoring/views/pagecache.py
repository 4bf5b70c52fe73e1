"""Whole public pages kept for anonymous visitors (issue 16: a warm page close to a constant view).

A member's Classifica is the same bytes for every anonymous visitor of the same URL, language
and state of the seasons. The page is rendered once and kept in this process's memory under a
key that holds everything it shows (the caller's tuple of the seasons: each one's
``version``, bumped inside every write that changes what the page shows). So a warm hit is one
query (the seasons' versions, which keeps every worker exact the moment a turno closes) and the
bytes; no template is rendered.

The public pages carry no CSRF token (the language switch is a GET form; htmx's CSRF header is
written for logged-in users only). Should a kept page ever print ``{{ csrf_token }}``, it is
rendered with a placeholder there and each response puts its own visitor's token in, so no
visitor is ever served another's token.

Only for a visitor with no session and no pending message (no session cookie, no messages
cookie): anyone logged in, or with a flash message to read, gets the page rendered as always.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

# what the templates print for {{ csrf_token }} while the page is rendered for the cache
CSRF_PLACEHOLDER = "kingclub-csrf-placeholder-7c1e"
_PLACEHOLDER = CSRF_PLACEHOLDER.encode()
MESSAGES_COOKIE = "messages"  # django.contrib.messages' CookieStorage

# how long the shared cache keeps a season's Classifica (a new version makes a new key anyway)
CLASSIFICA_CACHE_SECONDS = 24 * 3600

_lock = threading.Lock()
# key -> (content type, the page's bytes split at the placeholder)
_pages: OrderedDict[Hashable, tuple[str, list[bytes]]] = OrderedDict()


def max_pages() -> int:
    """How many pages a process keeps (least recently used out): ``KINGCLUB_PAGE_CACHE``."""
    return int(getattr(settings, "KINGCLUB_PAGE_CACHE", 64))


def cacheable(request: HttpRequest) -> bool:
    """An anonymous GET/HEAD with nothing personal to show: no session, no flash message."""
    return (
        request.method in ("GET", "HEAD")
        and max_pages() > 0
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and MESSAGES_COOKIE not in request.COOKIES
    )


class SeasonState(NamedTuple):
    """What a public page's key holds of each season (the picker, and the shown one's state)."""

    pk: int
    name: str
    is_current: bool
    ruleset_code: str
    version: int
    published: bool
    created_at: str  # as the database writes it: tells a season from another with its id


_SQL: dict[str, str] = {}  # the query, per database vendor


def season_states() -> list[SeasonState]:
    """Every season's state, newest name first: one plain query (no model instances, no
    datetime parsed: it runs on every kept page served)."""
    sql = _SQL.get(connection.vendor)
    if sql is None:
        from scoring.models import Season

        quote = connection.ops.quote_name
        columns = [quote(f) for f in SeasonState._fields if f not in ("pk", "created_at")]
        table = quote(Season._meta.db_table)
        sql = _SQL[connection.vendor] = (
            f"SELECT {quote('id')}, {', '.join(columns)}, CAST({quote('created_at')} AS TEXT) "
            f"FROM {table} ORDER BY {quote('name')} DESC"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [SeasonState(*row) for row in cursor.fetchall()]


def clear() -> None:
    """Forget every kept page (tests; a process that wants its memory back)."""
    with _lock:
        _pages.clear()


def serve(
    request: HttpRequest, key: Hashable, render: Callable[[dict[str, Any]], HttpResponse]
) -> HttpResponse:
    """The page under ``key`` (a tuple of everything the page shows, hashed by the dict, never
    digested: two states cannot meet under one key): kept bytes with this visitor's CSRF token,
    or ``render(extra)`` (``extra`` holds the placeholder token for the context) kept when it
    answers 200."""
    with _lock:
        kept = _pages.get(key)
        if kept is not None:
            _pages.move_to_end(key)
    if kept is None:
        response = render({"csrf_token": CSRF_PLACEHOLDER})
        if response.status_code != 200 or response.streaming:
            return response
        kept = (response["Content-Type"], response.content.split(_PLACEHOLDER))
        with _lock:
            _pages[key] = kept
            while len(_pages) > max_pages():
                _pages.popitem(last=False)
    content_type, parts = kept
    if len(parts) == 1:  # no token on the page (the public pages since the GET language switch)
        return HttpResponse(parts[0], content_type=content_type)
    token = get_token(request).encode()
    # the parts and the token, joined once by the response (a page is some 400 kB)
    chunks = [parts[0]]
    for part in parts[1:]:
        chunks += (token, part)
    return HttpResponse(chunks, content_type=content_type)
