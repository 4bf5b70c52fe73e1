"""Each views module owns its URL patterns; this file only joins them."""

from scoring.views import confirm, documents, games, public, segreteria

app_name = "scoring"

urlpatterns = [
    *public.urlpatterns,
    *segreteria.urlpatterns,
    *games.urlpatterns,
    *documents.urlpatterns,
    *confirm.urlpatterns,
]
