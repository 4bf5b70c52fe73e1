"""Publishing (issue 17, part 5): a season's results reach the public only once released.

``Season.published`` is the segretario's switch. When it is off, the members' pages of that
season (Classifica, serie, turni, Verbale, player pages, the scoreboard) show "risultati non
ancora pubblicati" and its documents (PDF, XLSX, CSV) answer 404; the segretario and the staff
still see everything. On top of ``KINGCLUB_MEMBERS_ONLY``, which decides who sees anything.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.models import Season
from scoring.permissions import is_segretario

_CACHE = "_kingclub_sees_unpublished"


def sees_unpublished(request: HttpRequest) -> bool:
    """The segretario, a superuser or a staff user: every season, published or not. No query for
    an anonymous visitor; at most one per request otherwise (remembered on the request)."""
    cached = getattr(request, _CACHE, None)
    if cached is None:
        user = getattr(request, "user", None)
        cached = bool(
            user is not None
            and user.is_authenticated
            and user.is_active
            and (user.is_staff or is_segretario(user))
        )
        setattr(request, _CACHE, cached)
    return cached


def season_visible(request: HttpRequest, season: Season | None) -> bool:
    return season is None or season.published or sees_unpublished(request)


def unpublished_page(
    request: HttpRequest, season: Season | None, ctx: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The "risultati non ancora pubblicati" page when ``season`` is hidden from this visitor,
    else None (the caller renders its page)."""
    if season_visible(request, season):
        return None
    context = dict(ctx or {})
    context.setdefault("season", season)
    return render(request, "scoring/public/unpublished.html", context)


def require_published(request: HttpRequest, season: Season) -> None:
    """Documents of an unpublished season do not exist for the public: 404."""
    if not season_visible(request, season):
        raise Http404("risultati non ancora pubblicati")
