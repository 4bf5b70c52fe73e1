"""Who may see and change what (issue: roles).

- ``Segretario`` group: records and closes turni, manages penalità, reopens with a reason.
- ``Socio`` group: reads; sees the members-only pages when ``KINGCLUB_MEMBERS_ONLY`` is on.
- superusers: everything, via the admin too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

SEGRETARIO = "Segretario"
SOCIO = "Socio"


def is_segretario(user) -> bool:
    """In the Segretario group (or a superuser); asked once per request (kept on the user)."""
    known = getattr(user, "_kingclub_segretario", None)
    if known is None:
        known = bool(
            user.is_authenticated
            and user.is_active
            and (user.is_superuser or user.groups.filter(name=SEGRETARIO).exists())
        )
        if user.is_authenticated:
            user._kingclub_segretario = known
    return known


def segretario_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous users go to the login page; logged-in non-segretari get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_segretario(request.user):
            raise PermissionDenied("Solo il segretario può modificare i turni.")
        return view(request, *args, **kwargs)

    return wrapper


def members_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Public read-only pages (GET and HEAD only); login required when KINGCLUB_MEMBERS_ONLY
    is on."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if settings.KINGCLUB_MEMBERS_ONLY and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper
