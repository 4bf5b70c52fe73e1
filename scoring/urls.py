"""Each views module owns its URL patterns; this file only joins them."""

from scoring.views import (
    confirm,
    documents,
    history,
    language,
    live,
    public,
    publishing,
    segreteria,
)

app_name = "scoring"

urlpatterns = [
    *public.urlpatterns,
    *segreteria.urlpatterns,
    *documents.urlpatterns,
    *history.urlpatterns,
    *live.urlpatterns,
    *publishing.urlpatterns,
    *confirm.urlpatterns,
    *language.urlpatterns,
]
