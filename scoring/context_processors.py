"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from scoring.permissions import is_segretario


def club(request: HttpRequest) -> dict:
    return {"CLUB_NAME": settings.CLUB_NAME, "is_segretario": is_segretario(request.user)}
