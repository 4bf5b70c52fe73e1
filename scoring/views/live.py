"""Views: the club room's scoreboard (issue 17, part 1), public and read-only.

- ``/live/``: every table of the giornata in progress (today's, else the latest with a turno in
  corso); ``/live/turno/<pk>/``: one table.
- ``…/poll/?v=<version>``: what the screen polls every 2 s (htmx). While nothing changed it
  answers ``304 Not Modified``, with the version from the cache (no query) or after ONE query
  (:func:`scoring.selectors_live.board_version`); otherwise the fresh board, which carries its
  new version. ``If-None-Match`` works as ``?v=``. Measured in docs/loadtest.md.

Public unless ``KINGCLUB_MEMBERS_ONLY``; a season whose results are not published
(:mod:`scoring.publishing`) is left off the board for everyone but the staff.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import get_language

from scoring.models import Turno
from scoring.permissions import members_view
from scoring.publishing import sees_unpublished, unpublished_page
from scoring.selectors_live import board, board_version, generation, live_turni, one_turno

T = "scoring/live/"
# the scoreboard's hot path: per-process memory (settings.CACHES["live"]), no query per poll
cache = caches["live"]
# how long a board's version is kept in the cache (0: computed at every poll)
VERSION_SECONDS = 1
# how long a rendered board is kept, under its version (a new version is a new key)
HTML_SECONDS = 60


def _public_only(request: HttpRequest) -> bool:
    return not sees_unpublished(request)


def _salt(request: HttpRequest, public_only: bool) -> str:
    """What the board's HTML depends on besides the data: the language and the visitor's kind."""
    return f"{get_language()}:{'public' if public_only else 'staff'}"


def _context(turni: QuerySet[Turno], poll_url: str, version: str) -> dict:
    return {"board": board(turni), "version": version, "poll_url": poll_url}


def _page(request: HttpRequest, turni: QuerySet[Turno], poll_url: str, **extra) -> HttpResponse:
    public_only = _public_only(request)
    version = board_version(turni, salt=_salt(request, public_only))
    ctx = _context(turni, poll_url, version)
    ctx.update(extra)
    return render(request, T + "board.html", ctx)


def _poll(
    request: HttpRequest, key: str, turni: Callable[[], QuerySet[Turno]], poll_url: str
) -> HttpResponse:
    """304 while the version the screen holds is current; else the fresh board fragment.

    The version is kept in the cache for :data:`VERSION_SECONDS` (per process with the default
    local-memory cache): however many screens poll, the database answers at most one version
    query per second per board and worker. A write made in the same process (or with a shared
    cache) bumps :func:`generation`, so the next poll sees it at once; with several workers and
    a per-process cache, a change reaches the screens within one poll interval plus that second.
    """
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    if settings.KINGCLUB_MEMBERS_ONLY and not request.user.is_authenticated:
        # never a login page swapped into the board: the screen shows "in aggiornamento"
        return HttpResponse(status=403)
    salt = _salt(request, _public_only(request))
    day = timezone.localdate().isoformat()
    cache_key = f"kingclub:live:{key}:{day}:{salt}:{generation()}"
    version = cache.get(cache_key) if VERSION_SECONDS else None
    if version is None:
        version = board_version(turni(), salt=salt)
        if VERSION_SECONDS:
            cache.set(cache_key, version, VERSION_SECONDS)
    held = request.GET.get("v") or request.headers.get("If-None-Match", "").strip('W/"')
    if held == version:
        response = HttpResponse(status=304)
    else:
        # after a change every screen asks at once: the first renders the board, the others
        # get the same HTML from the cache
        html = cache.get(f"kingclub:live:html:{key}:{version}") if VERSION_SECONDS else None
        if html is None:
            qs = turni()
            version = board_version(qs, salt=salt)  # the board is read now: so is its version
            html = render_to_string(
                T + "_board.html", _context(qs, poll_url, version), request=request
            )
            if VERSION_SECONDS:
                cache.set(cache_key, version, VERSION_SECONDS)
                cache.set(f"kingclub:live:html:{key}:{version}", html, HTML_SECONDS)
        response = HttpResponse(html)
    response["ETag"] = f'"{version}"'
    response["Cache-Control"] = "no-store"
    return response


@members_view
def live(request: HttpRequest) -> HttpResponse:
    """The giornata in progress, every table."""
    turni = live_turni(public_only=_public_only(request))
    return _page(request, turni, reverse("scoring:live_poll"))


def live_poll(request: HttpRequest) -> HttpResponse:
    return _poll(
        request,
        "day",
        lambda: live_turni(public_only=_public_only(request)),
        reverse("scoring:live_poll"),
    )


@members_view
def live_turno(request: HttpRequest, pk: int) -> HttpResponse:
    """One table."""
    turno = get_object_or_404(Turno.objects.select_related("season"), pk=pk)
    if (hidden := unpublished_page(request, turno.season)) is not None:
        return hidden
    return _page(
        request,
        one_turno(pk, public_only=_public_only(request)),
        reverse("scoring:live_turno_poll", args=[pk]),
        single=turno,
    )


def live_turno_poll(request: HttpRequest, pk: int) -> HttpResponse:
    exists = cache.get_or_set(
        f"kingclub:live:turno-exists:{pk}",
        lambda: Turno.objects.filter(pk=pk).exists(),
        VERSION_SECONDS,
    )
    if not exists:
        raise Http404("turno inesistente")
    return _poll(
        request,
        f"turno:{pk}",
        lambda: one_turno(pk, public_only=_public_only(request)),
        reverse("scoring:live_turno_poll", args=[pk]),
    )


urlpatterns = [
    path("live/", live, name="live"),
    path("live/poll/", live_poll, name="live_poll"),
    path("live/turno/<pk:pk>/", live_turno, name="live_turno"),
    path("live/turno/<pk:pk>/poll/", live_turno_poll, name="live_turno_poll"),
]
