"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def club(request: HttpRequest) -> dict:
    user = request.user
    return {
        "CLUB_NAME": settings.CLUB_NAME,
        "is_segretario": bool(
            user.is_authenticated
            and (user.is_superuser or user.groups.filter(name="Segretario").exists())
        ),
    }
