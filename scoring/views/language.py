"""The top bar's language switch: open to everyone, members-only mode or not (the login page
has it too)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language


def language(request: HttpRequest) -> HttpResponse:
    """The top bar's language switch, a GET form (``?language=en&next=/...``): a preference
    kept in the language cookie, as Django's POST ``set_language`` keeps it. A GET needs no
    CSRF token, so the public pages kept whole for anonymous visitors carry none (issue 16);
    the worst a forged link can do is change the visitor's language."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    code = request.GET.get("language", "")
    if code and check_for_language(code) and code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


urlpatterns = [path("lingua/", language, name="language")]
