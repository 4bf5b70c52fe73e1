"""The benchmark's URLconf (``benchmarks.pages``): the project's, plus the floor of any page."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

# the size of the Classifica of 300 members (about 390 kB), for the second floor
BIG = b"x" * 390_000


def constant(request: HttpRequest) -> HttpResponse:
    """A Django view through the same middleware, returning a constant."""
    return HttpResponse("ok", content_type="text/plain")


def constant_big(request: HttpRequest) -> HttpResponse:
    """The same, returning a constant of the Classifica's size: what moving the bytes costs."""
    return HttpResponse(BIG, content_type="text/html; charset=utf-8")


urlpatterns = [
    path("bench/constant/", constant),
    path("bench/constant-big/", constant_big),
    path("", include("kingclub.urls")),
]
