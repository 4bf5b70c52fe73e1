"""Issue 25, "Every game first class": the six games read the same on every page, document, CSV
and mail (numbers, dates, arrows), each checked on a season of each game imported through the
services (the deals of :func:`scoring.demo_games.game_season`, imported in bulk: the recording
path itself is what test_games and test_live_every_game drive)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring import formatting
from scoring.models import Player, Standing, Turno
from tests.helpers import imported_game_season

pytestmark = pytest.mark.django_db
P4 = ["Anna", "Bruno", "Carla", "Dario"]
GAMES = ["king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]


def season_of(code: str, giornate: int = 1, players=P4, seed: int = 1):
    for name in players:
        Player.objects.get_or_create(name=name)
    return imported_game_season(
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
    from pathlib import Path

    from django.conf import settings

    make_season(giornate=1)
    turno = Turno.objects.filter(status=Turno.CHIUSO).first()
    client.force_login(socio)
    html = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    counts = re.findall(r'<span class="count"[^>]*>([^<]*)</span>', html)
    assert counts and all(re.fullmatch(r"\(\d+\)", c) for c in counts)
    for sheet in re.findall(r'href="/static/(css/[^"]+\.css)"', html):
        css = (Path(settings.BASE_DIR) / "static" / sheet).read_text()
        assert not re.search(r"\.count::?(before|after)\s*\{[^}]*content", css), sheet


# -- numbers and dates (defect 9 and the friction of dates) --------------------------------------
HYPHEN_NUMBER = re.compile(r"(?<![\w\-/.:])-\d")  # a hyphen-minus signing a number


def shown(html: str) -> str:
    """The text a reader sees: no scripts, styles, tags or attributes."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", html)).split())


def pages_of(season) -> list[str]:
    turno = Turno.objects.filter(season=season).first()
    player = Player.objects.get(name="Anna")
    return [
        reverse("scoring:classifica", args=[season.pk]),
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:player", args=[player.pk]) + f"?stagione={season.pk}",
        reverse("scoring:turno_live", args=[turno.pk]),
        reverse("scoring:albo"),
        reverse("scoring:player_history", args=[player.pk]),
    ]


@pytest.mark.parametrize("code", GAMES)
def test_the_five_games_pages_print_a_true_minus_and_no_trailing_zeros(code, client, segretario):
    season = season_of(code)
    client.force_login(segretario)
    texts = {}
    for url in pages_of(season):
        page = client.get(url)
        assert page.status_code == 200, url
        texts[url] = text = shown(page.content.decode())
        bad = HYPHEN_NUMBER.search(text)
        assert not bad, (url, text[max(0, bad.start() - 80) : bad.end() + 20])
    assert "−" in " ".join(texts.values())  # every game of the seed has a negative figure
    # the season's whole points without ",00": the albo d'oro's leader, the player's seasons
    leader = Standing.objects.filter(season=season).order_by("place").first()
    whole = formatting.number(int(leader.score))
    albo, history = texts[reverse("scoring:albo")], pages_of(season)[-1]
    assert f"{leader.player.name} {whole} (provvisorio)" in albo
    if leader.player.name == "Anna":
        assert re.search(rf"\b1/4 {whole} ", texts[history]), texts[history]
    # the public Verbale's date: lower case in Italian
    assert "martedì 1 settembre 2026" in texts[pages_of(season)[1]]


def test_ramino_fee_with_a_decimal_comma_in_italian_a_point_in_english(client, socio):
    season = season_of("ramino-101")
    turno = Turno.objects.filter(season=season).first()
    client.force_login(socio)
    url = reverse("scoring:turno", args=[turno.pk])
    fees = {s.extra["fees"] for s in turno.seats.all()}
    assert fees and all(re.fullmatch(r"\d+\.\d\d", f) for f in fees)
    it = shown(client.get(url).content.decode())
    for fee in fees:
        assert f" {fee.replace('.', ',')} " in f" {it} "
    assert not re.search(r"\b\d+\.\d\d\b", it)
    client.get(reverse("scoring:language"), {"language": "en"})
    en = shown(client.get(url).content.decode())
    for fee in fees:
        assert f" {fee} " in f" {en} "


def test_skat_list_and_deal_lines_print_a_true_minus(client, socio):
    season = season_of("skat-isko", players=P4[:3])
    turno = Turno.objects.filter(season=season).first()
    client.force_login(socio)
    text = shown(client.get(reverse("scoring:turno", args=[turno.pk])).content.decode())
    assert not HYPHEN_NUMBER.search(text)
    assert "−" in text


def test_the_five_games_documents_print_a_true_minus():
    """The Verbale template of the PDF, without WeasyPrint (the PDF is tested elsewhere)."""
    from django.template.loader import render_to_string

    from scoring.selectors_games import verbale_rows

    for code in ("king-classico", "skat-isko"):
        season = season_of(code, players=P4[:3] if code == "skat-isko" else P4)
        v = verbale_rows(Turno.objects.filter(season=season).first())
        html = render_to_string(
            "scoring/documents/game_verbale.html",
            {"v": v, "date_long": formatting.date_long(v.date), "landscape": True},
        )
        text = shown(html)
        assert not HYPHEN_NUMBER.search(text), (code, HYPHEN_NUMBER.search(text))
        assert "−" in text


def test_caf_live_screen_of_a_closed_turno_prints_a_true_minus(segretario_client, make_season):
    """C.A.F.'s results on the segretario's screen: "Retrocessione −0,1", ratios "−0,42"."""
    make_season(giornate=1)
    texts = " ".join(
        shown(segretario_client.get(reverse("scoring:turno_live", args=[t.pk])).content.decode())
        for t in Turno.objects.filter(status=Turno.CHIUSO)
    )
    bad = HYPHEN_NUMBER.search(texts)
    assert not bad, texts[max(0, bad.start() - 80) : bad.end() + 20]
    assert re.search(r"−0,\d\d", texts)  # a negative ratio or league points


# -- CSV for the spreadsheet of the page's language -------------------------------------------
def test_csv_for_an_italian_spreadsheet_and_an_english_one(client, socio, make_season):
    import csv
    import io
    from decimal import Decimal

    caf = make_season(giornate=1)
    classico = season_of("king-classico")
    client.force_login(socio)

    def table(season, delimiter):
        body = client.get(reverse("scoring:classifica_csv", args=[season.pk]))
        return list(csv.reader(io.StringIO(body.content.decode("utf-8-sig")), delimiter=delimiter))

    scores = dict(Standing.objects.filter(season=caf).values_list("player__name", "score"))
    it = table(caf, ";")
    assert it[0][:4] == ["Pos.", "Giocatore", "Serie", "Punti"]
    assert {r[1]: r[3] for r in it[1:]} == {
        name: f"{score:.2f}".replace(".", ",") for name, score in scores.items()
    }
    assert any(r[3].startswith("-") for r in it[1:])  # a plain minus: the spreadsheet's number
    header, *lines = table(classico, ";")
    assert header == ["Pos.", "Giocatore", "Mov.", "Matchpoints", "Punti", "Turni", "Vittorie"]
    points = {r[1]: r[4] for r in lines}
    stored = Standing.objects.filter(season=classico)
    assert points == {st.player.name: str(st.extra["points"]) for st in stored}

    client.get(reverse("scoring:language"), {"language": "en"})
    en = table(caf, ",")
    assert {r[1]: Decimal(r[3]) for r in en[1:]} == scores
    assert all("," not in r[3] for r in en[1:])


# -- the Verbale on one A4 page width (defect 3) -------------------------------------------------
def test_caf_verbale_settled_by_spareggio_then_reopened_fits_one_a4_page(segretario):
    """Its results table ran off the page ("Serie B" at x 591-599 pt on a 595 pt page) and the
    Verbale took two pages. One PDF rendered: text runs, their font size and start."""
    import io

    from pypdf import PdfReader

    from scoring.exports.pdf import verbale_pdf
    from scoring.verbale import verbale
    from tests.integration.test_documents import labels, tied_turno

    turno = tied_turno(segretario, reopen="conteggio sbagliato alla smazzata 3")
    reader = PdfReader(io.BytesIO(verbale_pdf(verbale(turno), series_labels=labels(turno.season))))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    width = float(page.mediabox.width)
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = abs(tm[0] * cm[0]) or 1
            runs.append((tm[4] * cm[0] + cm[4], size * scale, text.strip()))

    page.extract_text(visitor_text=visit)
    series = [r for r in runs if r[2].startswith("Serie ")]  # the results' last column
    assert len(series) >= 4
    for x, size, text in series:  # "Serie B": DejaVu Sans, about 0.62 em a character
        assert x + 0.62 * size * len(text) <= width - 14, (text, x, size)


def test_skat_verbale_keeps_to_nine_points(client, segretario):
    """Defect 7: the Spielliste printed 465 runs of text at 7.5-8 pt; every Verbale keeps 9 pt."""
    import io

    from pypdf import PdfReader

    season = season_of("skat-isko", players=P4[:3])
    turno = Turno.objects.filter(season=season).first()
    client.force_login(segretario)
    response = client.get(reverse("scoring:turno_pdf", args=[turno.pk]))
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    sizes = []
    for page in PdfReader(io.BytesIO(content)).pages:

        def visit(text, cm, tm, font, size):
            if text.strip():
                sizes.append((round(size * (abs(tm[0] * cm[0]) or 1), 2), text.strip()))

        page.extract_text(visitor_text=visit)
    assert sizes and min(s for s, _t in sizes) >= 9, sorted(sizes)[:5]


def test_documents_lines_in_one_language(client, segretario):
    """Mixed lines: "riaperto il 26/11/2026 at 02:07", "aggiornata al Thursday 26 November"."""
    import datetime as dt

    from django.template.loader import render_to_string
    from django.utils import translation

    from scoring.selectors_games import verbale_rows
    from scoring.services.games import game_turno_reopen

    season = season_of("ramino-101")
    turno = Turno.objects.filter(season=season).first()
    game_turno_reopen(turno=turno, reason="conteggio", user=segretario)
    with translation.override("en"):
        (line,) = verbale_rows(Turno.objects.get(pk=turno.pk)).reopens
        assert line.startswith("Reopened on ") and " at " in line and " by segretario" in line
        html = render_to_string(
            "scoring/documents/game_classifica.html",
            {"season": "x", "game": "Ramino", "columns": [], "rows": [],
             "last_date": formatting.date_long(dt.date(2026, 11, 26))},
        )  # fmt: skip
        assert "Up to Thursday 26 November 2026" in html
    client.force_login(segretario)
    client.get(reverse("scoring:language"), {"language": "en"})
    page = shown(client.get(reverse("scoring:turno", args=[turno.pk])).content.decode())
    assert "Reopened on " in page and "riaperto" not in page
