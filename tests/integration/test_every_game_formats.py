"""Issue 25, "Every game first class": the six games read the same on every page, document, CSV
and mail (numbers, dates, arrows), each checked on a season of each game recorded through the
services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.demo_games import game_season
from scoring.models import Player, Standing

pytestmark = pytest.mark.django_db
P4 = ["Anna", "Bruno", "Carla", "Dario"]
GAMES = ["king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]


def season_of(code: str, giornate: int = 1, players=P4, seed: int = 1):
    for name in players:
        Player.objects.get_or_create(name=name)
    return game_season(
        code=code, name=f"{code} 2026-27", players=players, giornate=giornate, attendance=1.0,
        seed=seed, table_sizes=(len(players),),
    )  # fmt: skip


@pytest.mark.parametrize("code", GAMES)
def test_no_movement_arrows_after_the_first_giornata(code, client, socio):
    """Defect 2: after the season's first close there is no table to move from."""
    season = season_of(code)
    previous = Standing.objects.filter(season=season).values_list("previous_place", flat=True)
    assert len(previous) == 4 and set(previous) == {None}
    client.force_login(socio)
    html = client.get(reverse("scoring:classifica", args=[season.pk])).content.decode()
    assert 'class="classifica"' in html
    assert "↓" not in html and "↑" not in html


def test_movement_arrows_from_the_second_giornata(client, socio):
    season = season_of("ramino-101", giornate=2)
    previous = Standing.objects.filter(season=season).values_list("previous_place", flat=True)
    assert None not in set(previous) and len(previous) == 4


def test_caf_verbale_prints_each_count_in_one_pair_of_brackets(client, socio, make_season):
    """Defect 8: the page wrote "(3)" and its stylesheet wrapped it again, "((3)) −12"."""
    import re
    from pathlib import Path

    from django.conf import settings

    from scoring.models import Turno

    make_season(giornate=1)
    turno = Turno.objects.filter(status=Turno.CHIUSO).first()
    client.force_login(socio)
    html = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    counts = re.findall(r'<span class="count"[^>]*>([^<]*)</span>', html)
    assert counts and all(re.fullmatch(r"\(\d+\)", c) for c in counts)
    for sheet in re.findall(r'href="/static/(css/[^"]+\.css)"', html):
        css = (Path(settings.BASE_DIR) / "static" / sheet).read_text()
        assert not re.search(r"\.count::?(before|after)\s*\{[^}]*content", css), sheet
