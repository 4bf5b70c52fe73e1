"""The kept pages' token path: a page that prints a CSRF token is kept with a placeholder and
every visitor gets their own token in it (no public page prints one today; this guards the day
one does)."""

from __future__ import annotations

from django.http import HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, _unmask_cipher_token
from django.test import RequestFactory

from scoring.views import pagecache


def test_a_kept_page_with_a_token_gets_each_visitors_own():
    pagecache.clear()
    rendered = []

    def render(extra):
        rendered.append(extra)
        return HttpResponse(f"<form>{extra['csrf_token']}</form><b>{extra['csrf_token']}</b>")

    pages, secrets = [], []
    for _ in range(2):
        request = RequestFactory().get("/")
        body = pagecache.serve(request, "page:token-test", render).content.decode()
        pages.append(body)
        secrets.append(request.META["CSRF_COOKIE"])
    assert len(rendered) == 1  # the second visitor got the kept page
    for body, secret in zip(pages, secrets, strict=True):
        assert pagecache.CSRF_PLACEHOLDER not in body
        first, second = body.split("</form><b>")
        token = first.removeprefix("<form>")
        assert len(token) == CSRF_TOKEN_LENGTH and second == f"{token}</b>"
        assert _unmask_cipher_token(token) == secret  # this visitor's own secret
    assert secrets[0] != secrets[1]
    pagecache.clear()


def test_a_page_without_a_token_is_served_as_rendered_and_sets_no_cookie():
    pagecache.clear()
    request = RequestFactory().get("/")
    response = pagecache.serve(request, "page:plain", lambda extra: HttpResponse("<p>ok</p>"))
    assert response.content == b"<p>ok</p>"
    assert "CSRF_COOKIE" not in request.META
    pagecache.clear()
