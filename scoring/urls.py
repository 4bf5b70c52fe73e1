"""Each views module owns its URL patterns; this file only joins them."""

from scoring.views import documents, public, segreteria

app_name = "scoring"

urlpatterns = [*public.urlpatterns, *segreteria.urlpatterns, *documents.urlpatterns]
