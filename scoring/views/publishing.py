"""Views: the segretario's switch publishing a season's results (issue 17, part 5)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.models import Season
from scoring.permissions import segretario_required
from scoring.services.publishing import season_publish


@segretario_required
@require_POST
def season_publish_view(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=pk)
    raw = request.POST.get("pubblicati", "")
    if raw not in ("0", "1"):
        messages.error(request, _("Scelta di pubblicazione non valida: indicare 0 oppure 1."))
    else:
        season = season_publish(season=season, published=raw == "1", user=request.user)
        if season.published:
            messages.success(
                request, _("Risultati della stagione %(s)s pubblicati.") % {"s": season}
            )
        else:
            messages.success(
                request, _("Pubblicazione della stagione %(s)s ritirata.") % {"s": season}
            )
    back = reverse("scoring:segreteria")
    return redirect(back if season.is_current else f"{back}?stagione={season.pk}")


urlpatterns = [
    path("segreteria/stagioni/<pk:pk>/pubblica/", season_publish_view, name="season_publish"),
]
