"""The official documents: Verbale di Turno and Classifica Generale, as PDF and as Excel.

Every number printed is read back (pypdf for the PDFs, openpyxl for the workbooks) and checked
against the engine: the stored Seat / Result values, cross-checked with ``score_turno`` on the
turno's record.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import json
import re
from collections import Counter
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import load_workbook
from openpyxl.utils.cell import range_boundaries
from pypdf import PdfReader

from scoring import api
from scoring import formatting as fmt
from scoring.exports import date_it, verbale_basename
from scoring.exports.pdf import classifica_pdf, verbale_pdf
from scoring.exports.xlsx import classifica_xlsx, verbale_xlsx
from scoring.models import Player, Season, Turno
from scoring.rules.caf import score_turno
from scoring.rules.caf.ruleset import SUIT_SYMBOLS
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.season import season_create
from scoring.services.turni import turno_close, turno_reopen, turno_start
from scoring.verbale import (
    TITLE_LABELS,
    classifica,
    classifica_as_of,
    game_label,
    last_closed_date,
    verbale,
)
from tests.helpers import deal_record

FOUR = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi", "Elena Giusti"]
EIGHT = [*FOUR, "Franco Lazzari", "Giulia Marchi", "Luca Nardini"]
GENERATED = dt.datetime(2026, 11, 20, 23, 5, tzinfo=dt.UTC)


# -- helpers ----------------------------------------------------------------------------------


def pdf_pages(content: bytes) -> list[str]:
    return list(_pdf_pages(content))


@functools.lru_cache(maxsize=16)
def _pdf_pages(content: bytes) -> tuple[str, ...]:
    """pypdf's text of each page, read once per PDF (a test and check_verbale_pdf read the same
    document; the extraction cost about half as much as WeasyPrint's layout)."""
    reader = PdfReader(io.BytesIO(content))
    return tuple(page.extract_text() for page in reader.pages)


def pdf_lines(content: bytes) -> list[str]:
    return [
        re.sub(r"\s+", " ", line).strip()
        for page in pdf_pages(content)
        for line in page.splitlines()
        if line.strip()
    ]


def loaded(turno: Turno) -> Turno:
    return turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()


def labels(season: Season) -> dict[str, str]:
    return {s.code: s.label for s in season.ruleset.series}


def engine_score(turno: Turno):
    """The engine's own result for the stored record (with the spareggio as recorded)."""
    return score_turno(turno.season.ruleset, turno_record(turno), require_complete=True)


def check_verbale_pdf(turno: Turno, content: bytes) -> None:
    """Every name and number of the Verbale, from the stored values and the engine's."""
    score = engine_score(turno)
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    names = [s.player.name for s in seats]
    lines = pdf_lines(content)
    text = "\n".join(lines)

    assert turno.season.name in text
    assert f"Verbale di Turno n. {turno.verbale_number}" in text
    assert date_it(turno.giornata.date) in text
    for name in names:
        assert name in text
    assert f"Primo mazziere {turno.first_dealer.name}" in text

    # the grid: one line per smazzata, counts and points of every seat in seat order
    dealers_callers = []
    for sm, scored in zip(
        sorted(turno.smazzate.all(), key=lambda s: s.number), score.smazzate, strict=True
    ):
        assert sm.number == scored.number and sm.game == scored.game
        results = {r.player.name: r for r in sm.results.all()}
        parts = [str(sm.number), game_label(sm.game)]
        if sm.trump:
            parts.append(SUIT_SYMBOLS[sm.trump])
        for name in names:
            stored = results[name]
            assert stored.points == scored.points[name]  # stored = engine
            parts.append(str(scored.result[name]))  # the count recorded
            if sm.scazzata and name == sm.caller.name:
                parts.append("S")
            if sm.cappotto_id and name == sm.cappotto.name:
                parts.append("C")
            parts.append(fmt.points(stored.points))
        assert " ".join(parts) in lines, f"smazzata {sm.number}: {' '.join(parts)!r}"
        assert sm.scazzata == scored.scazzata
        assert (sm.cappotto.name if sm.cappotto_id else None) == scored.cappotto
        dealers_callers.append(
            f"{sm.dealer.name} {sm.caller.name}" + (" obbl." if sm.forced else "")
        )
        assert sm.forced == scored.forced
    assert not Counter(dealers_callers) - Counter(lines), "dealer / chiamante missing"

    # totals, penalità, places in seat order
    assert [s.total for s in seats] == [score.totals[n] for n in names]
    assert [s.penalty_total for s in seats] == [score.penalties[n] for n in names]
    tied = {t for t, n in Counter(s.total for s in seats).items() if n > 1}
    assert "Totale del turno " + " ".join(fmt.points(s.total) for s in seats) in lines
    assert "Penalità " + " ".join(fmt.points(s.penalty_total) for s in seats) in lines
    places = [f"{s.place}°" + ("*" if s.total in tied else "") for s in seats]
    assert "Posto " + " ".join(places) in lines
    smazzate_sums = [s.total - s.penalty_total for s in seats]
    assert "Punti delle smazzate " + " ".join(map(fmt.points, smazzate_sums)) in lines

    # the result, by place: total, ratio, titles, league points, series before -> after
    series = labels(turno.season)
    for seat in sorted(seats, key=lambda s: s.place):
        name = seat.player.name
        assert seat.place == score.places[name]
        assert seat.ratio == score.ratios[name]
        spareggio = " per spareggio, carta più alta" if seat.total in tied else ""
        line = result_block(lines, f"{seat.place}° {name}")
        start = f"{seat.place}° {name}{spareggio} {fmt.points(seat.total)} {fmt.ratio(seat.ratio)} "
        assert line.startswith(start), line
        assert f" {fmt.league(seat.league_points)} " in line
        for code in seat.titles:
            assert TITLE_LABELS[code] in line
        assert line.endswith(f"{series[seat.series_before]} → {series[seat.series_after]}")

    for pen in turno.penalita.all():
        points = fmt.points(pen.points)
        assert f"{pen.player.name} {points} art. {pen.article} {pen.reason}" in lines


def result_block(lines: list[str], start: str) -> str:
    """A result line of the Verbale, joined with its continuation lines (several titles)."""
    i = next((i for i, ln in enumerate(lines) if ln.startswith(start)), None)
    assert i is not None, f"no result line {start!r}"
    block = [lines[i]]
    for ln in lines[i + 1 :]:
        if re.match(r"\d+° ", ln) or ln.startswith("Penalità"):
            break
        block.append(ln)
    return " ".join(block)


def formula_value(ws, formula: str) -> int:
    """Evaluate ``=SUM(A1:A9)+B3+...`` by reading the referenced cells ourselves."""
    m = re.fullmatch(r"=SUM\(([A-Z]+\d+:[A-Z]+\d+)\)((?:\+[A-Z]+\d+)*)", formula)
    assert m, f"unexpected formula {formula!r}"
    min_col, min_row, max_col, max_row = range_boundaries(m[1])
    total = 0
    for row in ws.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col):
        for cell in row:
            assert isinstance(cell.value, int), f"{cell.coordinate} is not a number"
            total += cell.value
    for ref in re.findall(r"\+([A-Z]+\d+)", m[2]):
        value = ws[ref].value
        assert isinstance(value, int)
        total += value
    return total


def find_row(ws, label: str) -> int:
    for row in ws.iter_rows(min_col=1, max_col=1):
        if isinstance(row[0].value, str) and row[0].value.startswith(label):
            return row[0].row
    raise AssertionError(f"no row {label!r}")


def check_verbale_xlsx(turno: Turno, content: bytes) -> None:
    score = engine_score(turno)
    wb = load_workbook(io.BytesIO(content))
    assert wb.sheetnames == ["Verbale", "Classifica"]
    ws = wb["Verbale"]
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    head = find_row(ws, "N.")
    first = head + 2
    # header: players in seat order, two columns each (count, points) from column I
    cols = {}
    for i, seat in enumerate(seats):
        col = 9 + 2 * i
        assert ws.cell(head, col).value == f"{seat.position + 1}. {seat.player.name}"
        assert ws.cell(head + 1, col).value == "n."
        assert ws.cell(head + 1, col + 1).value == "punti"
        cols[seat.player.name] = col
    smazzate = sorted(turno.smazzate.all(), key=lambda s: s.number)
    for offset, sm in enumerate(smazzate):
        r = first + offset
        assert ws.cell(r, 1).value == sm.number
        assert ws.cell(r, 2).value == game_label(sm.game)
        assert ws.cell(r, 4).value == sm.dealer.name
        assert ws.cell(r, 5).value == sm.caller.name
        assert (ws.cell(r, 6).value == "obbligata") == sm.forced
        assert (ws.cell(r, 7).value == "S") == sm.scazzata
        assert (ws.cell(r, 8).value or None) == (sm.cappotto.name if sm.cappotto_id else None)
        if sm.trump:
            assert ws.cell(r, 3).value == f"{SUIT_SYMBOLS[sm.trump]} {sm.trump}"
        for res in sm.results.all():
            assert (
                ws.cell(r, cols[res.player.name]).value
                == score.smazzate[offset].result[res.player.name]
            )
            assert ws.cell(r, cols[res.player.name] + 1).value == res.points
    pen_row = find_row(ws, "Penalità")
    assert pen_row == first + len(smazzate)
    tot_row = find_row(ws, "Totale del turno")
    place_row, ratio_row, league_row = (
        find_row(ws, "Posto"),
        find_row(ws, "Rapporto"),
        find_row(ws, "Punti classifica"),
    )
    for seat in seats:
        name, col = seat.player.name, cols[seat.player.name] + 1
        assert ws.cell(pen_row, col).value == seat.penalty_total == score.penalties[name]
        formula = ws.cell(tot_row, col).value
        assert formula.startswith("=SUM(")
        assert formula_value(ws, formula) == seat.total == score.totals[name]
        assert ws.cell(place_row, col).value == seat.place == score.places[name]
        ratio = ws.cell(ratio_row, col)
        assert Decimal(str(ratio.value)).quantize(Decimal("0.01")) == seat.ratio
        assert seat.ratio == score.ratios[name]
        assert ratio.number_format == '0.00;"−"0.00'  # U+2212 before a negative ratio
        league = ws.cell(league_row, col)
        assert Decimal(str(league.value)).quantize(Decimal("0.01")) == seat.league_points
        assert league.number_format == '+0.00;"−"0.00;0.00'  # signed, as on the pages
    # audit-friendly and printable
    assert ws.freeze_panes == f"I{first}"
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4)
    assert int(ws.page_setup.fitToWidth or 1) == 1  # absent = 1 (the OOXML default)
    assert ws.sheet_properties.pageSetUpPr.fitToPage is True
    assert ws.column_dimensions["D"].width >= 15

    # the Classifica Generale as it stood after this turno's giornata
    expected = classifica_as_of(turno.season, turno.giornata.date)
    check_classifica_sheet(wb["Classifica"], expected)


def check_classifica_sheet(ws, expected) -> None:
    head = find_row(ws, "Pos.")
    header = [c.value for c in ws[head]]
    assert header[:8] == [
        "Pos.",
        "Giocatore",
        "Serie",
        "Punti",
        "Turni",
        "Assenze",
        "Scudetti",
        "Media",
    ]
    titles = [c for c in TITLE_LABELS if c != "SCUDETTO"]
    assert header[8:] == [TITLE_LABELS[c] for c in titles]
    for i, row in enumerate(expected):
        values = [c.value for c in ws[head + 1 + i]]
        assert values[0] == row.place
        assert values[1] == row.player
        assert values[2] == row.series_label
        assert Decimal(str(values[3])).quantize(Decimal("0.01")) == row.score
        assert values[4:7] == [row.turni, row.absences, row.scudetti]
        assert values[8:] == [row.titles[c] for c in titles]
        assert ws.cell(head + 1 + i, 4).number_format == '0.00;"−"0.00'
    assert ws.cell(head + 1 + len(expected), 2).value is None
    assert ws.freeze_panes is not None
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4)


HAND_RECORD = [  # the smazzate of the hand turno: game, chiamante, counts, trump
    ("NH", "Bruno", [0, 13, 0, 0], None),  # cappotto N♥ by the caller
    ("NJ", "Carla", [1, 1, 1, 1], None),
    ("NK", "Dario", [2, 1, 0, 1], None),
    ("NJK", "Anna", [2, 2, 2, 2], None),
    ("NQS", "Bruno", [0, 1, 0, 0], None),  # scazzata: the caller takes Q♠
    ("NU2", "Carla", [1, 0, 0, 1], None),
    ("NF", "Dario", [0, 13, 0, 0], None),  # cappotto NF by a player who did not call
    *(
        (game, caller, counts, trump)
        for game, hands, trumps in (
            ("DOMINO", ([0, 3, 4, 5], [2, 0, 6, 3], [4, 2, 0, 1], [3, 1, 2, 0]), [None] * 4),
            ("SEMPLICE", ([5, 3, 3, 2], [3, 5, 2, 3], [2, 3, 6, 2], [1, 3, 2, 7]), [None] * 4),
            ("BRISCOLA", ([4, 3, 3, 3], [3, 4, 3, 3], [3, 3, 4, 3], [3, 3, 3, 4]), "HDSC"),
        )
        for caller, counts, trump in zip(
            ["Anna", "Bruno", "Carla", "Dario"], hands, trumps, strict=True
        )
    ),
]


def record_hand(turno: Turno, players: list, segretario=None) -> None:
    """Record :data:`HAND_RECORD` with ``players`` in the seats of Anna, Bruno, Carla, Dario."""
    seat = {name: k for k, name in enumerate(["Anna", "Bruno", "Carla", "Dario"])}
    for game, caller, counts, trump in HAND_RECORD:
        deal_record(
            turno=turno,
            game=game,
            caller=players[seat[caller]],
            counts=dict(zip(players, counts, strict=True)),
            trump=trump,
            user=segretario,
        )


def start_four(
    season_name: str, segretario=None, *, table: str = "", players: list | None = None
) -> tuple[Turno, list]:
    """A new season with four players (Anna, Bruno, Carla, Dario) at one table on 20 November
    2026, the first seat dealing first."""
    season = season_create(name=season_name)
    players = players or ["Anna", "Bruno", "Carla", "Dario"]
    for name in players:
        Player.objects.create(name=name)
    turno = turno_start(
        season=season,
        date=dt.date(2026, 11, 20),
        players=players,
        first_dealer=players[0],
        table=table,
        user=segretario,
    )
    return turno, players


def hand_turno(segretario=None) -> Turno:
    """A 4-player turno recorded through the services, with both cappotti, a scazzata and
    two penalità."""
    turno, players = start_four("Manuale", segretario, table="Tavolo verde")

    record_hand(turno, players, segretario)
    api.penalita_add(
        turno=turno,
        player="Carla",
        points=-5,
        article="9",
        reason="carte toccate prima del permesso",
    )
    api.penalita_add(turno=turno, player="Dario", points=-3, article="15", reason="ritardo")
    live = loaded(turno)
    order = sorted(live.seats.all(), key=lambda s: (-s.total, s.player.name))
    return turno_close(turno=turno, tiebreak=[s.player.name for s in order], user=segretario)


# -- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def season4(make_season):
    return make_season(
        name="2026-27", players=FOUR, giornate=3, seed=11, penalty_chance=0.3, table_sizes=(4,)
    )


@pytest.fixture
def season7(make_season):
    return make_season(
        name="Sette", players=EIGHT, giornate=2, seed=5, table_sizes=(7,), attendance=1.0
    )


def closed_turni(season: Season) -> list[Turno]:
    return list(
        turno_with_everything(Turno.objects.filter(season=season, status=Turno.CHIUSO)).order_by(
            "giornata__date", "number"
        )
    )


@pytest.fixture(autouse=True)
def _each_pdf_laid_out_once(pdf_rendered_once):
    """Many tests here render the same Verbale (the hand turno, rebuilt with the same rows in
    each test): WeasyPrint lays out each distinct HTML once per process, and every test reads
    the real bytes of its document (tests/conftest.py, pdf_rendered_once)."""


# -- the Verbale PDF --------------------------------------------------------------------------


def test_verbale_pdf_prints_every_number_of_the_engine(season4):
    turni = closed_turni(season4)
    assert turni
    for turno in turni:
        content = verbale_pdf(verbale(turno), series_labels=labels(season4))
        assert content.startswith(b"%PDF-")
        assert len(PdfReader(io.BytesIO(content)).pages) == 1  # a 4-player turno: one page
        check_verbale_pdf(turno, content)


def test_verbale_pdf_hand_turno_with_cappotti_scazzata_and_penalita(db, segretario):
    turno = loaded(hand_turno(segretario))
    rows = {sm.number: sm for sm in turno.smazzate.all()}
    assert rows[1].cappotto.name == "Bruno" and rows[7].cappotto.name == "Bruno"
    assert rows[5].scazzata
    content = verbale_pdf(
        verbale(turno), series_labels=labels(turno.season), generated_at=GENERATED
    )
    assert len(PdfReader(io.BytesIO(content)).pages) == 1
    check_verbale_pdf(turno, content)
    lines = pdf_lines(content)
    text = "\n".join(lines)
    # the N♥ cappotto: Bruno 0 with the C mark, everybody else -15
    assert "1 N♥ 0 −15 13 C 0 0 −15 0 −15" in lines
    assert "7 NF 0 −20 13 C 0 0 −20 0 −20" in lines
    assert "5 NQ♠ 0 0 1 S −12 0 0 0 0" in lines
    assert "scazzata del chiamante" in text and "cappotto" in text
    assert "Carla −5 art. 9 carte toccate prima del permesso" in lines
    assert "Dario −3 art. 15 ritardo" in lines
    assert "Turno n. 1 · Tavolo verde" in text  # the club's own name of the table
    assert "venerdì 20 novembre 2026" in text
    assert "pagina 1 di 1" in text
    assert "generato il 21/11/2026 alle 00:05" in text  # Europe/Rome
    assert "Il segretario" in text and "segretario" in text.split("Il segretario")[1]
    assert "BOZZA" not in text


def test_verbale_pdf_embeds_the_fonts_and_fetches_nothing(db, segretario):
    turno = loaded(hand_turno(segretario))
    content = verbale_pdf(verbale(turno))
    reader = PdfReader(io.BytesIO(content))
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            desc = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
            assert desc is not None and any(k in desc for k in ("/FontFile2", "/FontFile3"))
            fonts.add(str(font["/BaseFont"]))
    assert any("DejaVu-Sans" in f for f in fonts), fonts
    assert b"http://" not in content and b"https://" not in content


def test_verbale_pdf_seven_players_landscape(season7):
    turni = closed_turni(season7)
    assert turni and all(t.seats.count() == 7 for t in turni)
    for turno in turni:
        content = verbale_pdf(verbale(turno), series_labels=labels(season7))
        reader = PdfReader(io.BytesIO(content))
        box = reader.pages[0].mediabox
        assert float(box.width) > float(box.height)  # landscape
        assert len(reader.pages) <= 2
        assert "pagina 1 di" in reader.pages[0].extract_text()
        check_verbale_pdf(turno, content)
        assert len(turno.smazzate.all()) == 28


def test_verbale_pdf_of_an_open_turno_is_a_draft(db, segretario):
    season = season_create(name="Aperta")
    players = ["Anna", "Bruno", "Carla", "Dario"]
    for name in players:
        Player.objects.create(name=name)
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 27), players=players, first_dealer="Anna"
    )
    deal_record(
        turno=turno,
        game="NJ",
        caller="Bruno",
        counts={"Anna": 1, "Bruno": 1, "Carla": 2, "Dario": 0},
    )
    v = verbale(loaded(turno))
    assert not v.closed
    content = verbale_pdf(v)
    text = "\n".join(pdf_pages(content))
    assert "BOZZA — turno in corso" in text
    assert "1 NJ 1 −3 1 −3 2 −6 0 0" in pdf_lines(content)
    assert "\n19\n" in "\n" + "\n".join(pdf_lines(content)) + "\n"  # blank rows to fill by hand
    assert verbale_basename(v) == "verbale-2026-11-27-1-bozza"
    book = load_workbook(io.BytesIO(verbale_xlsx(v, classifica_as_of(season, v.date))))
    assert "BOZZA — turno in corso" in [c.value for c in book["Verbale"][2]]


# -- the Verbale workbook ---------------------------------------------------------------------


def test_verbale_xlsx_values_and_formulas_match_the_engine(season4):
    for turno in closed_turni(season4):
        rows = classifica_as_of(season4, turno.giornata.date)
        check_verbale_xlsx(turno, verbale_xlsx(verbale(turno), rows, series_labels=labels(season4)))


def test_verbale_xlsx_hand_turno_and_seven_players(db, segretario, season7):
    turno = loaded(hand_turno(segretario))
    content = verbale_xlsx(verbale(turno), classifica_as_of(turno.season, turno.giornata.date))
    check_verbale_xlsx(turno, content)
    ws = load_workbook(io.BytesIO(content))["Verbale"]
    first = find_row(ws, "N.") + 2
    assert ws.cell(first, 8).value == "Bruno"  # the N♥ cappotto
    assert ws.cell(first + 4, 7).value == "S"  # the NQ♠ scazzata
    for turno7 in closed_turni(season7):
        rows = classifica_as_of(season7, turno7.giornata.date)
        check_verbale_xlsx(turno7, verbale_xlsx(verbale(turno7), rows))


# -- the Classifica Generale ------------------------------------------------------------------


def test_classifica_pdf_and_xlsx(season4):
    rows = classifica(season4)
    last = last_closed_date(season4)
    content = classifica_pdf(season4.name, rows, last)
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 1
    lines = pdf_lines(content)
    text = "\n".join(lines)
    assert "Classifica Generale" in text and season4.name in text
    assert date_it(last) in text
    for row in rows:
        start = f"{row.place} {row.player} {row.series_label} {fmt.score(row.score)} {row.turni} "
        line = next((ln for ln in lines if ln.startswith(start)), None)
        assert line is not None, start
        counts = [row.titles[c] for c in TITLE_LABELS if c != "SCUDETTO"]
        tail = f"{row.absences} {row.scudetti} {fmt.score(row.average)} " + " ".join(
            map(str, counts)
        )
        assert line.endswith(tail)
    book = load_workbook(io.BytesIO(classifica_xlsx(season4.name, rows, last)))
    assert book.sheetnames == ["Classifica"]
    check_classifica_sheet(book["Classifica"], rows)


def test_classifica_documents_of_an_empty_season(db):
    season = season_create(name="Vuota")
    content = classifica_pdf(season.name, classifica(season), last_closed_date(season))
    assert "nessun turno chiuso" in "\n".join(pdf_pages(content))
    book = load_workbook(io.BytesIO(classifica_xlsx(season.name, [], None)))
    assert "Nessun turno chiuso" in book["Classifica"]["A3"].value


# -- views ------------------------------------------------------------------------------------


def test_document_views(client, season4):
    turno = closed_turni(season4)[0]
    name = f"verbale-{turno.giornata.date.isoformat()}-{turno.number}"
    response = client.get(reverse("scoring:turno_pdf", args=[turno.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{name}.pdf"'
    check_verbale_pdf(loaded(turno), response.content)

    response = client.get(reverse("scoring:turno_xlsx", args=[turno.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert response["Content-Disposition"] == f'attachment; filename="{name}.xlsx"'
    check_verbale_xlsx(loaded(turno), response.content)

    response = client.get(reverse("scoring:classifica_pdf", args=[season4.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="classifica-2026-27.pdf"' in response["Content-Disposition"]
    response = client.get(reverse("scoring:classifica_xlsx", args=[season4.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="classifica-2026-27.xlsx"'

    assert reverse("scoring:turno_pdf", args=[7]) == "/turni/7/verbale.pdf"
    assert reverse("scoring:classifica_xlsx", args=[3]) == "/classifica/3/classifica.xlsx"
    for url_name in ("turno_pdf", "turno_xlsx", "classifica_pdf", "classifica_xlsx"):
        assert client.get(reverse(f"scoring:{url_name}", args=[99999])).status_code == 404


def test_document_views_members_only(client, socio, season4, settings):
    settings.KINGCLUB_MEMBERS_ONLY = True
    turno = closed_turni(season4)[0]
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(socio)
    assert client.get(url).status_code == 200
    assert client.get(reverse("scoring:classifica_xlsx", args=[season4.pk])).status_code == 200


def test_open_turno_can_be_downloaded_as_a_draft(client, segretario):
    season = season_create(name="Aperta")
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        Player.objects.create(name=name)
    turno = turno_start(
        season=season,
        date=dt.date(2026, 11, 27),
        players=["Anna", "Bruno", "Carla", "Dario"],
        first_dealer="Anna",
    )
    response = client.get(reverse("scoring:turno_pdf", args=[turno.pk]))
    assert response.status_code == 200
    assert 'filename="verbale-2026-11-27-1-bozza.pdf"' in response["Content-Disposition"]
    assert "BOZZA — turno in corso" in "\n".join(pdf_pages(response.content))
    assert client.get(reverse("scoring:turno_xlsx", args=[turno.pk])).status_code == 200


# -- export_verbali ---------------------------------------------------------------------------


def test_export_verbali_writes_every_closed_turno(season4, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "archivio"
    call_command("export_verbali", season4.name, str(target), stdout=out, stderr=err)
    turni = closed_turni(season4)
    expected = {f"verbale-{t.giornata.date.isoformat()}-{t.number}" for t in turni}
    files = {p.name for p in target.iterdir()}
    assert files == {f"{b}.{ext}" for b in expected for ext in ("pdf", "xlsx")} | {
        "classifica-2026-27.pdf",
        "classifica-2026-27.xlsx",
    }
    for turno in turni:
        base = target / f"verbale-{turno.giornata.date.isoformat()}-{turno.number}"
        check_verbale_pdf(turno, (base.with_suffix(".pdf")).read_bytes())
        check_verbale_xlsx(turno, (base.with_suffix(".xlsx")).read_bytes())
    total = len(turni) + 1
    assert f"[{'#' * 30}] {total}/{total}" in err.getvalue()
    assert f"] 1/{total}" in err.getvalue()
    assert f"{len(turni)} verbali" in out.getvalue()


def test_export_verbali_only_pdf_and_unknown_season(season4, tmp_path):
    call_command(
        "export_verbali", season4.name, str(tmp_path), "--format", "pdf", stderr=io.StringIO()
    )
    assert {p.suffix for p in tmp_path.iterdir()} == {".pdf"}
    with pytest.raises(CommandError, match="stagione sconosciuta: 'Nessuna'"):
        call_command("export_verbali", "Nessuna", str(tmp_path))


def test_the_pdf_renderer_fetches_only_local_fonts_and_styles(tmp_path):
    from scoring.exports.pdf import FONT_DIR, LocalFetcher

    fetcher = LocalFetcher([FONT_DIR])
    with pytest.raises(ValueError, match="disallowed protocol"):
        fetcher.fetch("https://example.com/font.ttf")
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    with pytest.raises(ValueError, match="outside the allowed folders"):
        fetcher.fetch(secret.as_uri())


# -- the record in full: spareggio, reopens (issue 11 items 9, 10, 22; issue 12 item 8) --------


def tied_turno(segretario=None, *, reopen: str = "") -> Turno:
    """The hand turno with a tie for 3rd place, settled by the spareggio *against* the seat order
    (the later seat wins the high card); with ``reopen`` it is reopened and closed again."""
    turno, players = start_four("Spareggio", segretario)
    record_hand(turno, players, segretario)
    live = loaded(turno)
    ranked = sorted(live.seats.all(), key=lambda s: (-s.total, s.position))
    third, fourth = ranked[2], ranked[3]
    api.penalita_add(
        turno=turno,
        player=third.player.name,
        points=fourth.total - third.total,
        article="6",
        reason="ritardo",
    )
    order = [ranked[0].player.name, ranked[1].player.name, fourth.player.name]
    order.append(third.player.name)  # the spareggio: the later seat wins the high card
    turno = turno_close(turno=turno, tiebreak=order, user=segretario)
    if reopen:
        turno_reopen(turno=turno, reason=reopen, user=segretario)
        turno = turno_close(turno=turno, user=segretario)
    return loaded(turno)


def _tied(turno: Turno) -> list:
    seats = sorted(turno.seats.all(), key=lambda s: s.place)
    counts = Counter(s.total for s in seats)
    return [s for s in seats if counts[s.total] > 1]


def test_the_spareggio_is_on_the_verbale_web_pdf_xlsx_and_export(client, segretario):
    turno = tied_turno(segretario)
    tied = _tied(turno)
    assert [s.place for s in tied] == [3, 4]
    note = "per spareggio, carta più alta"
    others = [s.player.name for s in turno.seats.all() if s not in tied]

    html = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    result = html[
        html.index('class="result"') : html.index("</table>", html.index('class="result"'))
    ]
    for seat in tied:
        row = result[result.index(f'<tr data-player="{seat.player.name}">') :]
        row = row[: row.index("</tr>")]
        assert f'data-spareggio="{seat.place}">{seat.place}° {note}</span>' in row
    for name in others:
        row = result[result.index(f'<tr data-player="{name}">') :]
        assert note not in row[: row.index("</tr>")]

    lines = pdf_lines(verbale_pdf(verbale(turno), series_labels=labels(turno.season)))
    for seat in tied:
        line = result_block(lines, f"{seat.place}° {seat.player.name}")
        assert line.startswith(f"{seat.place}° {seat.player.name} {note} ")
    assert (
        "Posto "
        + " ".join(
            f"{s.place}°" + ("*" if s in tied else "")
            for s in sorted(turno.seats.all(), key=lambda s: s.position)
        )
        in lines
    )
    assert f"* {note}" in "\n".join(lines)

    content = verbale_xlsx(verbale(turno), classifica_as_of(turno.season, turno.giornata.date))
    ws = load_workbook(io.BytesIO(content))["Verbale"]
    row = find_row(ws, "Spareggio")
    by_name = {s.player.name: s for s in turno.seats.all()}
    for i, seat in enumerate(sorted(by_name.values(), key=lambda s: s.position)):
        text = ws.cell(row, 9 + 2 * i).value
        assert text == (f"{seat.place}° {note}" if seat in tied else None), seat.player.name

    out = io.StringIO()
    call_command("export_season", turno.season.name, stdout=out)
    exported = json.loads(out.getvalue())
    (doc,) = exported["turni"]
    assert doc["tiebreak"][-2:] == [tied[0].player.name, tied[1].player.name]


def test_the_reopen_reason_is_printed_on_the_verbale(segretario_client, segretario):
    turno = tied_turno(segretario, reopen="conteggio sbagliato alla smazzata 3")
    (event,) = turno.events.filter(kind="reopen")
    when = fmt.moment(event.at)
    expected = f"Riaperto il {when} da segretario: conteggio sbagliato alla smazzata 3"

    html = segretario_client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    assert f'<li data-reopen="1">{expected}</li>' in html
    text = "\n".join(pdf_lines(verbale_pdf(verbale(turno))))
    assert expected in text
    ws = load_workbook(io.BytesIO(verbale_xlsx(verbale(turno), [])))["Verbale"]
    assert expected in [c.value for c in ws["A"]]

    # the flash message promises it: reopen through the live screen, the draft says why
    response = segretario_client.post(
        reverse("scoring:turno_reopen", args=[turno.pk]), {"reason": "firma mancante"}, follow=True
    )
    assert "la motivazione è registrata nel verbale" in response.content.decode()
    draft = loaded(turno)
    second = draft.events.filter(kind="reopen").order_by("at", "id").last()
    text = "\n".join(pdf_lines(verbale_pdf(verbale(draft))))
    assert f"Riaperto il {fmt.moment(second.at)} da segretario: firma mancante" in text
    assert expected in text


# -- pages, print size, tagged PDF (issue 11 items 10, 22) ---------------------------------------


def pdf_text_sizes(content: bytes) -> list[tuple[int, float, float, str]]:
    """Every piece of text of the PDF: (page index, font size in pt, baseline y, text)."""
    import math

    out = []
    for index, page in enumerate(PdfReader(io.BytesIO(content)).pages):

        def visit(text, cm, tm, font, size, index=index):
            if text.strip():
                scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1])
                y = tm[5] * cm[3] + cm[5]
                out.append((index, round(size * scale, 2), y, text.strip()))

        page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("players", [5, 6, 7])
def test_the_verbale_of_five_to_seven_players_fits_the_pages_it_needs(make_season, players):
    season = make_season(
        name=f"Tavolo da {players}",
        players=EIGHT[: players + 1],
        giornate=2,
        seed=players,
        table_sizes=(players,),
        attendance=1.0,
        penalty_chance=0.6,
    )
    turni = closed_turni(season)
    assert turni
    # the layout of one Verbale per table size: the longest, the one with the most penalità
    # (the other turni of the season print the same grid; test_verbale_pdf_seven_players_landscape
    # renders every turno of a season of sevens)
    longest = max(turni, key=lambda t: (len(t.penalita.all()), len(t.smazzate.all()), -t.pk))
    assert len(longest.penalita.all()) > 0
    for turno in [longest]:
        content = verbale_pdf(verbale(turno), series_labels=labels(season))
        pages = pdf_pages(content)
        if players == 5:
            assert len(pages) == 1  # portrait, everything on one A4
        else:
            # landscape: the smazzate on page 1; the result, the penalità and the signature
            # together on page 2 (never a page with only the penalità and the signature)
            assert len(pages) == 2
            assert "Totale del turno" in pages[0] and "Risultato del turno" not in pages[0]
            assert "Risultato del turno" in pages[1] and "Il segretario" in pages[1]
        check_verbale_pdf(turno, content)


def test_the_pdfs_print_no_text_under_9_points(db, segretario, season7):
    documents = [
        verbale_pdf(verbale(loaded(hand_turno(segretario)))),
        verbale_pdf(verbale(closed_turni(season7)[0])),
        classifica_pdf(season7.name, classifica(season7), last_closed_date(season7)),
    ]
    for content in documents:
        sizes = pdf_text_sizes(content)
        assert sizes
        small = [(size, text) for _page, size, _y, text in sizes if size < 9]
        assert not small, small[:5]


def test_a_four_player_verbale_uses_the_page(db, segretario):
    content = verbale_pdf(verbale(loaded(hand_turno(segretario))))
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 1
    height = float(reader.pages[0].mediabox.height)
    sizes = pdf_text_sizes(content)
    grid = [size for _p, size, _y, text in sizes if text in {"Domino", "Semplice"}]
    assert grid and min(grid) >= 10  # the grid in 10 pt
    firma = [y for _p, _s, y, text in sizes if text == "firma"]
    assert firma and firma[0] < 0.2 * height  # the signature in the bottom fifth of the page


def test_the_pdfs_are_tagged_pdf_ua(db, segretario, season4):
    documents = [
        verbale_pdf(verbale(loaded(hand_turno(segretario)))),
        classifica_pdf(season4.name, classifica(season4), last_closed_date(season4)),
    ]
    for content in documents:
        reader = PdfReader(io.BytesIO(content))
        root = reader.trailer["/Root"]
        assert bool(root["/MarkInfo"]["/Marked"])
        assert "/StructTreeRoot" in root
        assert str(root["/Lang"]) == "it"
        assert bool(root["/ViewerPreferences"]["/DisplayDocTitle"])
        xmp = root["/Metadata"].get_object().get_data()
        assert b"pdfuaid:part" in xmp and b"1" in xmp.split(b"pdfuaid:part")[1][:8]
        assert reader.metadata.title
        # headings and tables are in the structure tree
        tree = repr(root["/StructTreeRoot"].get_object())
        assert tree


def _struct_types(node, out: set[str]) -> set[str]:
    node = node.get_object() if hasattr(node, "get_object") else node
    if isinstance(node, dict):
        if "/S" in node:
            out.add(str(node["/S"]))
        kids = node.get("/K")
        if kids is not None:
            for kid in kids if isinstance(kids, list) else [kids]:
                _struct_types(kid, out)
    return out


def test_the_verbale_structure_has_headings_and_tables(db, segretario):
    content = verbale_pdf(verbale(loaded(hand_turno(segretario))))
    root = PdfReader(io.BytesIO(content)).trailer["/Root"]
    types = _struct_types(root["/StructTreeRoot"], set())
    assert {"/H1", "/H2", "/Table", "/TH", "/TD"} <= types, types


# -- the workbooks: cached totals, text never a formula (issue 11 item 11; issue 12 item 4) ----


def test_xlsx_totals_carry_their_value_for_viewers_that_do_not_compute(db, segretario, season7):
    for turno in [loaded(hand_turno(segretario)), *closed_turni(season7)]:
        content = verbale_xlsx(verbale(turno), [])
        formulas = load_workbook(io.BytesIO(content))["Verbale"]
        values = load_workbook(io.BytesIO(content), data_only=True)["Verbale"]
        tot_row = find_row(formulas, "Totale del turno")
        for i, seat in enumerate(sorted(turno.seats.all(), key=lambda s: s.position)):
            col = 10 + 2 * i
            assert formulas.cell(tot_row, col).value.startswith("=SUM(")
            assert values.cell(tot_row, col).value == seat.total


EVIL = '=HYPERLINK("http://evil.example","x")'


def test_user_text_is_never_a_formula_in_the_workbooks_and_csv(client, db):
    turno, players = start_four(
        "Iniezione", table="=1+1", players=[EVIL, "+39 Bruno", "-Carla", "@Dario"]
    )
    season = turno.season
    record_hand(turno, players)
    api.penalita_add(turno=turno, player=EVIL, points=-1, article="=2+2", reason="@SUM(A1:A9)")
    live = loaded(turno)
    order = [s.player.name for s in sorted(live.seats.all(), key=lambda s: (-s.total, s.position))]
    turno = loaded(turno_close(turno=turno, tiebreak=order))

    workbooks = [
        verbale_xlsx(verbale(turno), classifica_as_of(season, turno.giornata.date)),
        classifica_xlsx(season.name, classifica(season), last_closed_date(season)),
        client.get(reverse("scoring:turno_xlsx", args=[turno.pk])).content,
        client.get(reverse("scoring:classifica_xlsx", args=[season.pk])).content,
    ]
    for content in workbooks:
        book = load_workbook(io.BytesIO(content))
        texts = set()
        for ws in book.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if cell.data_type == "f":
                        assert re.fullmatch(r"=SUM\([A-Z]+\d+:[A-Z]+\d+\)\+[A-Z]+\d+", cell.value)
                    elif isinstance(cell.value, str):
                        texts.add(cell.value)
        for name in players:
            assert name in texts or any(name in t for t in texts), name
        assert EVIL in texts  # the name itself, as a string cell

    for url in (
        reverse("scoring:classifica_csv", args=[season.pk]),
        reverse("scoring:turni_csv", args=[season.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
        cells = [c for row in rows for c in row]
        for c in cells:  # a text never starts a formula; negative numbers stay numbers
            if c.startswith(("=", "+", "-", "@", "\t", "\r")):
                assert re.fullmatch(r"-\d+(,\d+)?", c), c
        if "classifica" in url:
            assert "'" + EVIL in cells and "'+39 Bruno" in cells and "'-Carla" in cells
            assert "'@Dario" in cells
        else:
            assert any(c.startswith("'" + EVIL + ", ") for c in cells)


# -- CSV beside Excel (issue 11 item 17) ---------------------------------------------------------


def test_classifica_and_turni_csv(client, season4):
    rows = classifica(season4)
    response = client.get(reverse("scoring:classifica_csv", args=[season4.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="classifica-2026-27.csv"'
    # Italian: what a spreadsheet set to Italian reads, ";" between fields, "0,43"
    text = response.content.decode("utf-8-sig").replace(",", ".")
    table = list(csv.reader(io.StringIO(text), delimiter=";"))
    head = table[0]
    assert head[:9] == ["Pos.", "Giocatore", "Serie", "Punti", "Mov.", "Scudetti", "Turni",
                        "Assenze", "Media"]  # fmt: skip
    assert head[9:] == ["CdC", "Int", "UEFA", "Mit", "CI", "Retr", "RetrC"]
    assert len(table) == len(rows) + 1
    for row, line in zip(rows, table[1:], strict=True):
        assert line[0] == str(row.place) and line[1] == row.player
        assert line[2] == row.series_label
        assert Decimal(line[3]) == row.score
        assert line[4] == ("" if row.movement is None else str(row.movement))
        assert line[5] == str(row.scudetti) and line[6] == str(row.turni)
        assert line[7] == str(row.absences) and Decimal(line[8]) == row.average
        codes = ["COPPA_CAMPIONI", "INTERCONTINENTALE", "UEFA", "MITROPA", "COPPA_ITALIA"]
        codes += ["RETROCESSIONE", "RETROCESSIONE_CONTATORE"]
        assert line[9:] == [str(row.titles[c]) for c in codes]

    turni = list(
        turno_with_everything(Turno.objects.filter(season=season4)).order_by(
            "-giornata__date", "-number"
        )
    )
    response = client.get(reverse("scoring:turni_csv", args=[season4.pk]))
    assert response.status_code == 200
    assert 'filename="turni-2026-27.csv"' in response["Content-Disposition"]
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert table[0] == ["Data", "N.", "Tavolo", "Giocatori", "Vincitore", "Stato", "Verbale"]
    assert len(table) == len(turni) + 1  # every turno, not one page
    for turno, line in zip(turni, table[1:], strict=True):
        names = ", ".join(s.player.name for s in turno.seats.all())
        winner = turno.winner.name if turno.winner_id else ""
        expected = [turno.giornata.date.isoformat(), str(turno.number), turno.table, names]
        expected += [winner, turno.get_status_display(), str(turno.verbale_number or "")]
        assert line == expected
    # the list's filters apply
    one = turni[0].seats.all()[0].player
    response = client.get(reverse("scoring:turni_csv", args=[season4.pk]), {"giocatore": one.pk})
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    expected_count = sum(1 for t in turni if any(s.player_id == one.pk for s in t.seats.all()))
    assert len(table) == expected_count + 1 < len(turni) + 1 or expected_count == len(turni)
    # the pages link them
    assert reverse("scoring:classifica_csv", args=[season4.pk]) in client.get("/").content.decode()
    page = client.get(reverse("scoring:turni")).content.decode()
    assert reverse("scoring:turni_csv", args=[season4.pk]) in page


# -- one way to write a number and a date (issue 11 item 12) -------------------------------------


def _italian(value: Decimal, *, plus: bool) -> str:
    text = f"{abs(value):.2f}".replace(".", ",")
    return ("−" if value < 0 else "+" if plus and value > 0 else "") + text


def _english(value: Decimal, *, plus: bool) -> str:
    text = f"{abs(value):.2f}"
    return ("−" if value < 0 else "+" if plus and value > 0 else "") + text


@pytest.mark.parametrize(
    ("language", "date_text", "number"),
    [
        ("it", "venerdì 20 novembre 2026", _italian),
        ("en", "Friday 20 November 2026", _english),
    ],
)
def test_web_pdf_and_xlsx_write_numbers_dates_and_games_alike(
    client, segretario, language, date_text, number
):
    from django.utils import translation

    turno = loaded(hand_turno(segretario))
    seats = sorted(turno.seats.all(), key=lambda s: s.place)
    client.cookies["django_language"] = language
    html = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    with translation.override(language):
        pdf = "\n".join(pdf_lines(verbale_pdf(verbale(turno))))
        book = load_workbook(io.BytesIO(verbale_xlsx(verbale(turno), [])))
    ws = book["Verbale"]
    xlsx_texts = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]

    # the date: the same words and capitalisation everywhere
    assert date_text in html and date_text in pdf and date_text in xlsx_texts
    # the games: "Domino", never "DOMINO"
    for label in ("Domino", "Semplice", "Briscola", "NQ♠"):
        assert label in pdf and label in xlsx_texts
    assert ">Domino</abbr>" in html and ">Semplice</abbr>" in html
    assert "DOMINO" not in pdf and "DOMINO" not in xlsx_texts
    assert ">DOMINO<" not in html
    # ratios and league points: the language's decimal mark, a true minus, the same sign rule
    for seat in seats:
        ratio = number(seat.ratio, plus=False)
        league = number(seat.league_points, plus=True)
        line = result_block(pdf.splitlines(), f"{seat.place}° {seat.player.name}")
        assert f" {ratio} " in line and f" {league} " in line
        row = html[html.index(f'<tr data-player="{seat.player.name}">') :]
        row = row[: row.index("</tr>")]
        assert f'<td class="num">{ratio}</td>' in row
        assert f"<strong>{league}</strong>" in row
    # title values: "+0,3" / "+0.3" in the PDF and the workbook alike
    winner = seats[0]
    for code in winner.titles:
        value = turno.season.ruleset.titles[code]
        text = f"{TITLE_LABELS[code]} {number(value, plus=True).rstrip('0').rstrip(',.')}"
        assert text in pdf.replace("\n", " ")
        assert any(text in t for t in xlsx_texts)
    # the smazzata cell: "(count) points" on the web
    assert '<span class="count" title=' in html and ">(13)</span>" in html
    # one name for league points
    name = {"it": "Punti classifica", "en": "League points"}[language]
    assert html.count(name) >= 2 and name in pdf and name in xlsx_texts
