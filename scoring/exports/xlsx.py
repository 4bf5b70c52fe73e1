"""Excel workbooks (openpyxl) of the Verbale di Turno and of the Classifica Generale.

The Verbale's totals are Excel formulas (``=SUM`` of the player's points plus the penalità cell),
so the segretario can audit them; every other number is the engine's stored value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from io import BytesIO

from django.conf import settings
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from scoring.exports import (
    DRAFT_MARK,
    date_it,
    local_datetime,
    now,
    series_text,
    signed,
    verbale_doc_id,
    verbale_title,
)
from scoring.verbale import TITLE_LABELS, ClassificaRow, Verbale

GREEN = "0B5D3B"
RED = "C0262D"
TINT = PatternFill("solid", fgColor="E8F3EE")
GREY = PatternFill("solid", fgColor="F4F6F8")
THIN = Side(style="thin", color="9AA3AD")
THICK = Side(style="medium", color="333333")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
BOLD = Font(bold=True)
LABEL = Font(color="555555")
TITLE = Font(bold=True, size=16)
CLUB = Font(bold=True, size=11, color=GREEN)
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
RIGHT = Alignment(horizontal="right", vertical="center")
LEFT_WRAP = Alignment(horizontal="left", vertical="top", wrap_text=True)
POINTS_FORMAT = "0;[Red]-0;0"
DEC_FORMAT = "0.00"
DATE_FORMAT = "DD/MM/YYYY"

# the grid's fixed columns, before two columns (count, points) per player
FIXED = ("N.", "Gioco", "Briscola", "Mazziere", "Chiamante", "Obbligata", "Scazzata", "Cappotto")
FIXED_WIDTHS = (5, 11, 9, 18, 18, 10, 9, 16)
FIRST_PLAYER_COL = len(FIXED) + 1
LEGEND = (
    "Legenda: S = scazzata del chiamante · Cappotto = il giocatore che l'ha fatto · "
    "n. = carte, prese o cuori contati per il gioco · Totale = somma dei punti + penalità"
)


FONT_NAME = "Arial"  # Liberation Sans where Arial is missing: same metrics
BASE_SIZE = 10


def _save(wb: Workbook) -> bytes:
    """The workbook as bytes, every cell in one sans-serif face (Excel and LibreOffice alike)."""
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                f = cell.font
                size = f.sz if f.sz and f.sz != 11 else BASE_SIZE
                cell.font = Font(name=FONT_NAME, sz=size, b=f.b, i=f.i, color=f.color)
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def _print_setup(ws: Worksheet, *, landscape: bool, title_rows: str | None, footer: str) -> None:
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = 0.5
    ws.page_margins.bottom = 0.6
    if title_rows:
        ws.print_title_rows = title_rows
    ws.oddFooter.left.text = footer
    ws.oddFooter.left.size = 8
    ws.oddFooter.right.text = "pagina &P di &N"
    ws.oddFooter.right.size = 8


def _fact(ws: Worksheet, row: int, label: str, value: object, *, fmt: str | None = None) -> None:
    ws.cell(row, 1, label).font = LABEL
    cell = ws.cell(row, 4, value)
    cell.font = BOLD
    cell.alignment = Alignment(horizontal="left")
    if fmt:
        cell.number_format = fmt
    ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=3)


def _write_verbale(
    ws: Worksheet,
    v: Verbale,
    *,
    series_labels: Mapping[str, str] | None,
    generated: str,
) -> None:
    n = len(v.seats)
    last_col = len(FIXED) + 2 * n
    ws.cell(1, 1, v.club).font = CLUB
    title = ws.cell(2, 1, verbale_title(v))
    title.font = TITLE
    if not v.closed:
        ws.cell(2, 6, DRAFT_MARK).font = Font(bold=True, size=12, color=RED)
    _fact(ws, 3, "Stagione", v.season)
    _fact(ws, 4, "Data", v.date, fmt=DATE_FORMAT)
    ws.cell(4, 6, date_it(v.date, weekday=True)).font = LABEL
    _fact(ws, 5, "Turno n.", v.number)
    if v.table:
        ws.cell(5, 6, f"tavolo {v.table}").font = LABEL
    _fact(ws, 6, "Primo mazziere", v.first_dealer)
    _fact(ws, 7, "Segretario", v.segretario or "")
    seating = " · ".join(f"{s.position + 1}. {s.player}" for s in v.seats)
    _fact(ws, 8, "Giocatori (posto)", seating)

    head, sub = 10, 11
    for col, text in enumerate(FIXED, start=1):
        c = ws.cell(head, col, text)
        ws.merge_cells(start_row=head, start_column=col, end_row=sub, end_column=col)
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        ws.cell(head, col, f"{seat.position + 1}. {seat.player}")
        ws.merge_cells(start_row=head, start_column=col, end_row=head, end_column=col + 1)
        ws.cell(sub, col, "n.")
        ws.cell(sub, col + 1, "punti")
    for row in (head, sub):
        for col in range(1, last_col + 1):
            c = ws.cell(row, col)
            c.font = BOLD
            c.fill = TINT
            c.alignment = CENTER
            c.border = BOX
    ws.row_dimensions[head].height = 30

    first = sub + 1
    r = first
    for row in v.rows:
        trump = f"{row.trump_symbol} {row.trump}" if row.trump else ""
        values = (
            row.number,
            row.game_label,
            trump,
            row.dealer,
            row.caller,
            "obbligata" if row.forced else "",
            "S" if row.scazzata else "",
            row.cappotto or "",
        )
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value)
            cell.border = BOX
        ws.cell(r, 2).font = BOLD
        if row.trump_red:
            ws.cell(r, 3).font = Font(color=RED, bold=True)
        if row.game_label.endswith("♥"):
            ws.cell(r, 2).font = Font(bold=True, color=RED)
        for col in (1, 3, 6, 7):
            ws.cell(r, col).alignment = Alignment(horizontal="center")
        if row.scazzata:
            ws.cell(r, 7).font = Font(bold=True, color=RED)
        if row.cappotto:
            ws.cell(r, 8).font = Font(bold=True, color=RED)
        for i, cell_value in enumerate(row.cells):
            col = FIRST_PLAYER_COL + 2 * i
            count = ws.cell(r, col, cell_value.count)
            count.font = Font(color="666666")
            count.alignment = Alignment(horizontal="center")
            pts = ws.cell(r, col + 1, cell_value.points)
            pts.number_format = POINTS_FORMAT
            count.border = pts.border = BOX
        if (r - first) % 2:
            for col in range(1, last_col + 1):
                ws.cell(r, col).fill = GREY
        r += 1
    last = r - 1

    def summary(label: str, *, bold: bool = False) -> int:
        nonlocal r
        cell = ws.cell(r, 1, label)
        cell.font = Font(bold=bold)
        cell.alignment = RIGHT
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=len(FIXED))
        for col in range(1, last_col + 1):
            ws.cell(r, col).border = BOX
        r += 1
        return r - 1

    pen_row = summary("Penalità")
    for i, seat in enumerate(v.seats):
        c = ws.cell(pen_row, FIRST_PLAYER_COL + 2 * i + 1, seat.penalty)
        c.number_format = POINTS_FORMAT
    tot_row = summary("Totale del turno (somma delle smazzate + penalità)", bold=True)
    for i, _seat in enumerate(v.seats):
        letter = get_column_letter(FIRST_PLAYER_COL + 2 * i + 1)
        rng = f"{letter}{first}:{letter}{last}" if last >= first else f"{letter}{pen_row}"
        formula = f"=SUM({rng})+{letter}{pen_row}" if last >= first else f"={letter}{pen_row}"
        c = ws.cell(tot_row, FIRST_PLAYER_COL + 2 * i + 1, formula)
        c.number_format = POINTS_FORMAT
        c.font = Font(bold=True, size=12)
    for col in range(1, last_col + 1):
        ws.cell(tot_row, col).fill = TINT
        ws.cell(tot_row, col).border = Border(left=THIN, right=THIN, top=THICK, bottom=THICK)
    place_row = summary("Posto")
    ratio_row = summary("Rapporto")
    league_row = summary("Punti classifica", bold=True)
    titles_row = summary("Titoli")
    before_row = summary("Serie prima del turno")
    after_row = summary("Serie dopo il turno")
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i + 1
        ws.cell(place_row, col, seat.place).alignment = RIGHT
        ws.cell(ratio_row, col, seat.ratio).number_format = DEC_FORMAT
        lp = ws.cell(league_row, col, seat.league_points)
        lp.number_format = DEC_FORMAT
        lp.font = BOLD
        text_cells = (
            (titles_row, ", ".join(f"{label} {signed(value)}" for _c, label, value in seat.titles)),
            (before_row, series_text(seat.series_before, series_labels)),
            (after_row, series_text(seat.series_after, series_labels)),
        )
        for tr, text in text_cells:
            c = ws.cell(tr, col - 1, text if text != "—" else "")
            c.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
            ws.merge_cells(start_row=tr, start_column=col - 1, end_row=tr, end_column=col)
    if any(s.titles for s in v.seats):
        ws.row_dimensions[titles_row].height = 28

    r += 1
    ws.cell(r, 1, "Penalità").font = Font(bold=True, size=12, color=GREEN)
    r += 1
    if v.penalties:
        for col, text in ((4, "Giocatore"), (5, "Punti"), (6, "Articolo"), (7, "Motivo")):
            c = ws.cell(r, col, text)
            c.font = BOLD
            c.fill = TINT
            c.alignment = Alignment(horizontal="center" if col == 5 else "left")
        r += 1
        for p in v.penalties:
            ws.cell(r, 4, p.player)
            points = ws.cell(r, 5, p.points)
            points.number_format = POINTS_FORMAT
            points.alignment = Alignment(horizontal="center")
            ws.cell(r, 6, f"art. {p.article}")
            ws.cell(r, 7, p.reason)
            r += 1
    else:
        ws.cell(r, 4, "Nessuna penalità.").font = Font(italic=True, color="555555")
        r += 1
    if v.sanctions:
        r += 1
        ws.cell(r, 1, "Retrocessioni per contatore").font = Font(bold=True, size=12, color=GREEN)
        r += 1
        for s in v.sanctions:
            ws.cell(r, 4, s.player)
            ws.cell(r, 7, s.reason)
            r += 1

    r += 1
    ws.cell(r, 1, LEGEND).font = Font(size=8, color="555555")
    r += 1
    if v.closed:
        ws.cell(r, 1, f"Turno chiuso il {local_datetime(v.closed_at)}.")
    else:
        ws.cell(r, 1, f"{DRAFT_MARK}: documento provvisorio.").font = Font(bold=True, color=RED)
    ws.cell(r, 6, f"Generato il {generated}").font = Font(size=8, color="555555")
    r += 2
    ws.cell(r, 1, "Il segretario").font = LABEL
    ws.cell(r, 4, v.segretario or "").font = BOLD
    ws.cell(r, 6, "Firma").font = LABEL
    ws.cell(r, 6).alignment = RIGHT
    for col in range(7, max(last_col, 10) + 1):
        ws.cell(r, col).border = Border(bottom=Side(style="thin", color="111111"))
    ws.row_dimensions[r].height = 24

    for col, width in enumerate(FIXED_WIDTHS, start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        ws.column_dimensions[get_column_letter(col)].width = 4.5
        ws.column_dimensions[get_column_letter(col + 1)].width = max(9, len(seat.player) * 0.6)
    ws.freeze_panes = ws.cell(first, FIRST_PLAYER_COL)
    _print_setup(ws, landscape=n >= 5, title_rows=f"{head}:{sub}", footer=verbale_doc_id(v))


def _write_classifica(
    ws: Worksheet,
    *,
    club: str,
    season_name: str,
    rows: Sequence[ClassificaRow],
    subtitle: str,
) -> None:
    ws.cell(1, 1, club).font = CLUB
    ws.cell(2, 1, f"Classifica Generale — Campionato {season_name}").font = TITLE
    ws.cell(3, 1, subtitle).font = LABEL
    titles = list(TITLE_LABELS)
    headers = [
        "Pos.",
        "Giocatore",
        "Serie",
        "Punti",
        "Turni",
        "Assenze",
        "Scudetti",
        "Media",
        *(TITLE_LABELS[c] for c in titles if c != "SCUDETTO"),
    ]
    head = 5
    for col, text in enumerate(headers, start=1):
        c = ws.cell(head, col, text)
        c.font = BOLD
        c.fill = TINT
        c.alignment = CENTER
        c.border = BOX
    ws.row_dimensions[head].height = 42
    r = head + 1
    for row in rows:
        values = [
            row.place,
            row.player,
            row.series_label,
            row.score,
            row.turni,
            row.absences,
            row.scudetti,
            row.average,
            *(row.titles.get(c, 0) for c in titles if c != "SCUDETTO"),
        ]
        for col, value in enumerate(values, start=1):
            c = ws.cell(r, col, value)
            c.border = BOX
            if (r - head) % 2 == 0:
                c.fill = GREY
        ws.cell(r, 2).font = BOLD
        ws.cell(r, 4).number_format = DEC_FORMAT
        ws.cell(r, 4).font = BOLD
        ws.cell(r, 8).number_format = DEC_FORMAT
        ws.cell(r, 1).alignment = Alignment(horizontal="center")
        r += 1
    if not rows:
        ws.cell(r, 2, "La classifica è vuota: nessun turno chiuso.").font = Font(italic=True)
    widths = [6, max([22, *(len(x.player) + 2 for x in rows)]), 14, 9, 7, 9, 9, 8]
    widths += [15] * (len(headers) - len(widths))
    for col, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    ws.freeze_panes = ws.cell(head + 1, 3)
    _print_setup(
        ws,
        landscape=True,
        title_rows=f"{head}:{head}",
        footer=f"Classifica Generale · {season_name}",
    )


def verbale_xlsx(
    v: Verbale,
    classifica_rows: Sequence[ClassificaRow],
    *,
    series_labels: Mapping[str, str] | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Verbale di Turno workbook: sheet "Verbale" (totals as formulas) and sheet
    "Classifica" (the Classifica Generale after the turno's giornata, as given)."""
    generated = local_datetime(generated_at or now())
    wb = Workbook()
    ws = wb.active
    ws.title = "Verbale"
    _write_verbale(ws, v, series_labels=series_labels, generated=generated)
    _write_classifica(
        wb.create_sheet("Classifica"),
        club=v.club,
        season_name=v.season,
        rows=classifica_rows,
        subtitle=f"Dopo la giornata del {date_it(v.date)} · generata il {generated}",
    )
    wb.properties.title = f"{verbale_title(v)} · {v.season}"
    wb.properties.creator = v.club
    return _save(wb)


def classifica_xlsx(
    season_name: str,
    rows: Sequence[ClassificaRow],
    last_date: dt.date | None,
    *,
    club: str | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Classifica Generale workbook (one sheet, "Classifica")."""
    generated = local_datetime(generated_at or now())
    wb = Workbook()
    ws = wb.active
    ws.title = "Classifica"
    when = f"Aggiornata al {date_it(last_date)}" if last_date else "Nessun turno chiuso"
    _write_classifica(
        ws,
        club=club if club is not None else settings.CLUB_NAME,
        season_name=season_name,
        rows=rows,
        subtitle=f"{when} · generata il {generated}",
    )
    wb.properties.title = f"Classifica Generale · {season_name}"
    wb.properties.creator = club if club is not None else settings.CLUB_NAME
    return _save(wb)
