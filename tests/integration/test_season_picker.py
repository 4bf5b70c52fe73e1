"""The season picker lists only the seasons this visitor may see (issue 26, item 7): the name
of an unpublished season is not told to the public, nor to a member; the segretario and the
staff see it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Player
from scoring.services.publishing import season_publish

HIDDEN = "Stagione-segreta-2027"


@pytest.fixture
def two_seasons(make_season, segretario):
    make_season(name="2024-25", giornate=1, seed=1)
    shown = make_season(name="2025-26", giornate=1, seed=2)
    hidden = make_season(name=HIDDEN, giornate=1, seed=4)
    season_publish(season=hidden, published=False, user=segretario)
    shown.refresh_from_db()
    return shown, hidden


def pages(shown) -> list[str]:
    anna = Player.objects.get(name="Anna")
    return [
        reverse("scoring:classifica", args=[shown.pk]),
        reverse("scoring:serie") + f"?stagione={shown.pk}",
        reverse("scoring:turni") + f"?stagione={shown.pk}",
        reverse("scoring:player", args=[anna.pk]) + f"?stagione={shown.pk}",
    ]


@pytest.mark.parametrize("who", ["anonymous", "socio"])
def test_the_public_picker_leaves_out_an_unpublished_season(client, two_seasons, socio, who):
    shown, _hidden = two_seasons
    if who == "socio":
        client.force_login(socio)
    for url in pages(shown):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert 'id="season-select"' in html, url  # a picker there, of the others
        assert HIDDEN not in html, url


def test_the_segretario_picks_an_unpublished_season(client, two_seasons, segretario):
    shown, hidden = two_seasons
    client.force_login(segretario)
    for url in pages(shown):
        html = client.get(url).content.decode()
        assert f'<option value="{hidden.pk}">{HIDDEN}' in html, url
