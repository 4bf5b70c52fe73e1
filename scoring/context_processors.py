"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from scoring.permissions import is_segretario
from scoring.selectors import own_player_id


def club(request: HttpRequest) -> dict:
    return {
        "CLUB_NAME": settings.CLUB_NAME,
        "is_segretario": is_segretario(request.user),
        # the logged-in member's player id (their page is linked from the top bar): one query,
        # only on pages that show it
        "own_player_id": SimpleLazyObject(lambda: own_player_id(request) or 0),
    }
