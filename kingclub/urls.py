"""URL map: the members' pages, the segretario's screens, accounts, admin."""

from django.contrib import admin
from django.urls import include, path

from kingclub.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
]
