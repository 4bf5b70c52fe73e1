"""Issue 25, "Every game first class": the Verbale of every game in the same frame (title and
running footer with the Verbale number and the season, "Turno chiuso il …", the segretario's name,
the season's own rules named) in the PDF and in the workbook, the workbooks' numbers as numbers
with a true minus sign, and the pages' footer naming the season's rules.

One season of each of the six games, built once for the module through ``scoring.api``; each
game's Verbale PDF is laid out once for the module (the PDF is what the frame tests read)."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import formatting
from scoring.demo_games import game_season
from scoring.models import Player, Turno
from scoring.services.documents import verbale_source
from tests.conftest import kept_for_the_scope
from tests.helpers import imported_game_season

GAMES = ["caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"]
RULES = {  # the season's own rules, as the Verbale names them
    "caf": "King C.A.F.",
    "king-classico": "King classico",
    "king-internazionale": "King internazionale",
    "le-king": "Le King",
    "skat-isko": "Skat (ISkO, lista Seeger-Fabian)",
    "ramino-101": "Ramino 101",
}
PLAYERS = {"skat-isko": 3, "ramino-101": 3}
P4 = ["Anna", "Bruno", "Carla", "Dario"]
SEGRETARIO = "Maria Rossi"


@pytest.fixture(scope="module")
def club(django_db_setup, django_db_blocker):
    """Per game: its season's last turno (closed by a segretario with a full name)."""
    from django.contrib.auth import get_user_model

    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            user = get_user_model().objects.create_user(
                "mrossi", first_name="Maria", last_name="Rossi"
            )
            for name in P4:
                Player.objects.get_or_create(name=name)
            turni = {}
            for code in GAMES:
                players = P4[: PLAYERS.get(code, 4)]
                # the five games imported (the same deals, turni, seats and results as recorded;
                # the recording path is test_games' and test_live_every_game's), C.A.F. recorded:
                # its import leaves the turno's segretario empty (closed_by signs its Verbale)
                build = game_season if code == "caf" else imported_game_season
                season = build(
                    code=code, name=f"{code} 2026-27", players=players, giornate=2,
                    attendance=1.0, table_sizes=(len(players),), user=user,
                )  # fmt: skip
                turni[code] = Turno.objects.filter(season=season).order_by("-verbale_number")[0]
        yield turni


@pytest.fixture
def turni(db, club):
    return club


_PDF: dict[str, bytes] = {}
_XLSX: dict[str, bytes] = {}


def pdf_of(turno: Turno, code: str) -> bytes:
    if code not in _PDF:
        _PDF[code] = verbale_source(turno.pk).renderers["pdf"]()
    return _PDF[code]


def xlsx_of(turno: Turno, code: str) -> bytes:
    if code not in _XLSX:
        _XLSX[code] = verbale_source(turno.pk).renderers["xlsx"]()
    return _XLSX[code]


def doc_id(turno: Turno) -> str:
    date = formatting.date_short(turno.giornata.date)
    return f"Verbale n. {turno.verbale_number} · {turno.season.name} · {date} turno {turno.number}"


@pytest.mark.parametrize("code", GAMES)
def test_every_verbale_pdf_has_the_same_frame(turni, code):
    """Title and footer with the Verbale number and the season, the close, the segretario, the
    season's own rules: the five games' Verbale had none of the footer, the close or the name."""
    turno = turni[code]
    reader = PdfReader(io.BytesIO(pdf_of(turno, code)))
    pages = [" ".join(p.extract_text().split()) for p in reader.pages]
    text = " ".join(pages)
    assert reader.metadata.title == f"Verbale di Turno n. {turno.verbale_number} · {code} 2026-27"
    assert f"Verbale di Turno n. {turno.verbale_number}" in pages[0]
    assert f"Stagione {code} 2026-27" in pages[0]
    assert f"Regolamento {RULES[code]}" in pages[0]
    for page in pages:  # the running footer on every page
        assert doc_id(turno) in page, page[-200:]
    assert f"Turno chiuso il {formatting.moment(turno.closed_at)}." in text
    assert f"Il segretario {SEGRETARIO}" in text
    assert "regolamento King C.A.F." not in text


@pytest.mark.parametrize("code", GAMES)
def test_every_verbale_workbook_has_the_same_frame(turni, code):
    turno = turni[code]
    book = load_workbook(io.BytesIO(xlsx_of(turno, code)))
    ws = book["Verbale"]
    cells = [[c.value for c in row if c.value is not None] for row in ws.iter_rows()]
    assert book.properties.title == f"Verbale di Turno n. {turno.verbale_number} · {code} 2026-27"
    assert cells[1] == [f"Verbale di Turno n. {turno.verbale_number}"]
    assert ["Stagione", f"{code} 2026-27"] in cells
    assert ["Regolamento", RULES[code]] in cells
    assert ["Segretario", SEGRETARIO] in cells
    assert f"Turno chiuso il {formatting.moment(turno.closed_at)}." in [c for r in cells for c in r]
    assert ["Il segretario", SEGRETARIO, "Firma"] in cells
    footer = ws.oddFooter.left.text
    assert doc_id(turno) in footer, footer


NUMBER_FORMAT_MINUS = re.compile(r'"−"')


@pytest.mark.parametrize("code", GAMES)
def test_workbook_numbers_are_numbers_with_a_true_minus(turni, code):
    """Every figure a number (Excel writes the decimal comma the reader's way), each number
    format with U+2212 for negatives, never a hyphen-minus; no text that is a number."""
    ws = load_workbook(io.BytesIO(xlsx_of(turni[code], code)))["Verbale"]
    formats = set()
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and not c.value.startswith("="):
                assert not re.fullmatch(r"[-−+]?\d+([.,]\d+)?", c.value.strip()), c.coordinate
            if isinstance(c.value, (int, float)) or str(c.value).startswith("="):
                formats.add(c.number_format)
    negative = {f for f in formats if ";" in f}
    assert negative, formats
    for f in negative:
        assert NUMBER_FORMAT_MINUS.search(f.split(";")[1]), f
        assert "-" not in f, f
    # every cell showing a negative number (a value, or a formula's cached value) shows U+2212
    cached = load_workbook(io.BytesIO(xlsx_of(turni[code], code)), data_only=True)["Verbale"]
    shown_negative = [
        (c.coordinate, c.number_format)
        for row in cached.iter_rows()
        for c in row
        if isinstance(c.value, (int, float)) and not isinstance(c.value, bool) and c.value < 0
    ]
    assert shown_negative, code  # every game's turno of the seed has a negative figure
    for coordinate, number_format in shown_negative:
        assert ";" in number_format and NUMBER_FORMAT_MINUS.search(number_format), coordinate


def test_ramino_fee_is_a_number_with_two_places_and_league_points_whole(turni):
    """The fee "1.00" was text (an Italian Excel left "1.00"); whole points keep no ",00"."""
    ws = load_workbook(io.BytesIO(xlsx_of(turni["ramino-101"], "ramino-101")))["Verbale"]
    rows = [list(r) for r in ws.iter_rows()]
    head = next(i for i, r in enumerate(rows) if r[0].value == "Posto")
    labels = [c.value for c in rows[head]]
    fee, league = labels.index("Quote"), labels.index("Punti classifica")
    results = rows[head + 1 : head + 4]
    for r in results:
        assert isinstance(r[fee].value, (int, float)), r[fee].value
        assert r[fee].number_format == '0.00;"−"0.00'
        assert isinstance(r[league].value, int)
        assert r[league].number_format == '0;"−"0'
    assert sorted(r[league].value for r in results) == [0, 1, 2]


def test_caf_workbook_ratio_and_league_points_formats(turni):
    ws = load_workbook(io.BytesIO(xlsx_of(turni["caf"], "caf")))["Verbale"]
    by_label = {row[0].value: row for row in ws.iter_rows() if isinstance(row[0].value, str)}
    ratios = [c for c in by_label["Rapporto"] if isinstance(c.value, (int, float))]
    league = [c for c in by_label["Punti classifica"] if isinstance(c.value, (int, float))]
    assert len(ratios) == len(league) == 4
    assert {c.number_format for c in ratios} == {'0.00;"−"0.00'}
    assert {c.number_format for c in league} == {'+0.00;"−"0.00;0.00'}
    assert any(c.value < 0 for c in ratios)  # a negative ratio shows "−0,43", not "-0,43"


def test_the_documents_frame_in_english(turni):
    turno = turni["ramino-101"]
    with translation.override("en"):
        source = verbale_source(turno.pk)
        ws = load_workbook(io.BytesIO(source.renderers["xlsx"]()))["Verbale"]
    cells = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert "Rules" in cells and "Season" in cells
    assert f"Turno closed on {formatting.moment(turno.closed_at).replace('alle', 'at')}." in cells
    assert ws.oddFooter.left.text.startswith(f"Verbale no. {turno.verbale_number} · ")


@pytest.mark.parametrize("code", ["skat-isko", "caf"])
def test_the_pages_footer_names_the_seasons_own_rules(turni, client, code):
    """base.html said "regolamento King C.A.F." on every game's pages."""
    turno = turni[code]
    page = client.get(reverse("scoring:classifica", args=[turno.season.pk])).content.decode()
    footer = re.search(r'<footer class="footer">(.*?)</footer>', page, re.S).group(1)
    assert " ".join(footer.split()) == f"kingclub · regolamento {RULES[code]}"
    client.get(reverse("scoring:language"), {"language": "en"})
    page = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    footer = re.search(r'<footer class="footer">(.*?)</footer>', page, re.S).group(1)
    assert " ".join(footer.split()) == f"kingclub · {RULES[code]} rules"


@pytest.mark.parametrize("code", ["skat-isko", "caf"])
def test_the_flash_message_of_a_deleted_turno_writes_its_date_the_readers_way(
    turni, segretario_client, code
):
    """The five games' message said "Turno 2026-10-06 #1 eliminato." (the ISO date)."""
    import datetime as dt

    from scoring import api

    season = turni[code].season
    players = P4[: PLAYERS.get(code, 4)]
    day = dt.date(2026, 10, 6)
    opened = api.turno_start(season=season, date=day, players=players, first_dealer=players[0])
    response = segretario_client.post(
        reverse("scoring:turno_delete", args=[opened.pk]), follow=True
    )
    shown = [str(m) for m in response.context["messages"]]
    assert shown == ["Turno 06/10/2026 #1 eliminato."], shown


def test_the_standing_documents_and_page_say_the_footnote_in_english(turni, client):
    """ "A pari punti si condivide il posto…" stayed Italian on the English pages; the standing's
    PDF and workbook had no footnote and no running footer. One standing PDF laid out."""
    from scoring.exports import games
    from scoring.verbale import classifica_sheet

    season = turni["skat-isko"].season
    client.get(reverse("scoring:language"), {"language": "en"})
    page = client.get(reverse("scoring:classifica", args=[season.pk])).content.decode()
    assert "Players level on points share the place. Mov.: places gained or lost" in page
    assert "A pari punti" not in page
    with translation.override("en"):
        standing = classifica_sheet(season)
        book = load_workbook(io.BytesIO(games.standing_xlsx(standing, turni["skat-isko"].date)))
        content = games.standing_pdf(standing, turni["skat-isko"].date)
    ws = book["Classifica"]
    cells = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert [
        c.value for c in next(r for r in ws.iter_rows() if r[0].value == "Pos.") if c.value
    ] == ["Pos.", "Player", "List points", "Lists", "Won", "Lost"]
    assert "Players level on points share the place." in cells
    assert f"Up to {formatting.date_long(turni['skat-isko'].date)}" in " ".join(cells)
    assert ws.oddFooter.left.text == f"Classifica Generale · {season.name}"
    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages
    )
    assert "Players level on points share the place." in text
    assert f"Classifica Generale · {season.name}" in text  # the running footer
    assert "A pari punti" not in text


ITALIAN = re.compile(
    r"\b(Saldo|somma|Mano|Totale|Posto|Giocatore|Risultato|Regolamento|Stagione|Data|chiuso il|"
    r"generato|pagina|firma|Punti|punti|Vinte|Perse|Rientri|Quote|Partite|vinto|perso|passato|"
    r"sceglie|chiude|rientra|briscola|fuori|Legenda|Nessuna|Riaperto|Conferme)\b"
)


@pytest.mark.parametrize("code", GAMES)
def test_english_verbale_holds_no_italian_words(turni, code):
    """The English Verbale, its PDF's HTML (laid out by WeasyPrint as it is) and its workbook:
    no Italian word but names and the domain's terms ("Saldo delle smazzate", "Mano" stayed)."""
    from django.template.loader import render_to_string

    from scoring.exports import games
    from scoring.exports.pdf import verbale_context
    from scoring.selectors import turno_with_everything
    from scoring.selectors_games import game_turni, verbale_rows
    from scoring.verbale import verbale

    turno = turni[code]
    with translation.override("en"):
        if code == "caf":
            v = verbale(turno_with_everything(Turno.objects.filter(pk=turno.pk)).get())
            html = render_to_string("scoring/documents/verbale.html", verbale_context(v))
        else:
            v = verbale_rows(game_turni(Turno.objects.filter(pk=turno.pk)).get())
            html = render_to_string("scoring/documents/game_verbale.html", games.verbale_context(v))
        book = load_workbook(io.BytesIO(verbale_source(turno.pk).renderers["xlsx"]()))
    text = re.sub(r"<[^>]*>", " ", re.sub(r"<(style|title)\b.*?</\1>", " ", html, flags=re.S))
    found = ITALIAN.findall(text)
    assert not found, (found, text[:2000])
    cells = " | ".join(
        c.value for ws in book.worksheets for row in ws.iter_rows() for c in row
        if isinstance(c.value, str)
    )  # fmt: skip
    found = ITALIAN.findall(cells)
    assert not found, (found, cells)


def test_the_spielliste_lays_out_a_running_total_only_where_it_changed(turni):
    """Defect 7 (the Skat Verbale's rendering took 8.4-8.6 s): each game's row printed every
    player's running total and counts (3 cells each, the unchanged ones in grey); now only the
    declarer's, as on the paper list, and each other player's three columns are one empty cell.
    The template's HTML, without WeasyPrint (docs/benchmarks-documents.md has the timings)."""
    from django.template.loader import render_to_string

    from scoring.exports import games
    from scoring.selectors_games import game_turni, verbale_rows

    turno = turni["skat-isko"]
    v = verbale_rows(game_turni(Turno.objects.filter(pk=turno.pk)).get())
    html = render_to_string("scoring/documents/game_verbale.html", games.verbale_context(v))
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    assert len(rows) == len(v.sheet["rows"]) > 0
    players = len(v.players)
    for row, game in zip(rows, v.sheet["rows"], strict=True):
        cells = re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)
        played = game["declarer"] is not None
        assert len(cells) == 2 + 6 + (3 + players - 1 if played else players), row
        running = [c for c in cells[8:] if c.strip()]
        if played:
            d = v.players.index(game["declarer"])
            cell = game["cells"][d]
            count = cell["won"] if game["won"] else cell["lost"]
            assert running == [formatting.figure(cell["running"]), str(count)], row
        else:
            assert running == [], row


def test_the_caf_verbale_read_model_carries_the_series_names(turni):
    """One read model per document: the renderers print the series' names from the Verbale
    itself (the services and the mail computed them and passed them beside it; without them the
    renderers printed the codes, "A -> A")."""
    from scoring.exports.pdf import verbale_context
    from scoring.selectors import turno_with_everything
    from scoring.verbale import verbale

    turno = turni["caf"]
    v = verbale(turno_with_everything(Turno.objects.filter(pk=turno.pk)).get())
    names = dict(v.series_labels)
    assert names["A"] == "Serie A" and len(names) == 9
    results = verbale_context(v)["results"]
    seats = {s.player.name: s for s in turno.seats.all()}
    assert [(r["series_before"], r["series_after"]) for r in results] == [
        (names[seats[r["player"]].series_before], names[seats[r["player"]].series_after])
        for r in results
    ]
    ws = load_workbook(io.BytesIO(xlsx_of(turno, "caf")))["Verbale"]
    after = next(r for r in ws.iter_rows() if r[0].value == "Serie dopo il turno")
    assert {c.value for c in after if c.value and c.column > 8} <= set(names.values())
