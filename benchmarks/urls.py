"""The benchmark's URLconf (``benchmarks.pages``): the project's, plus the floor of any page."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def constant(request: HttpRequest) -> HttpResponse:
    """A Django view through the same middleware, returning a constant."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/constant/", constant),
    path("", include("kingclub.urls")),
]
