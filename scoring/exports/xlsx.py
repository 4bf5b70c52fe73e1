"""Excel workbooks (XlsxWriter) of the Verbale di Turno and of the Classifica Generale.

The Verbale's totals are Excel formulas (``=SUM`` of the player's points plus the penalità cell),
so the segretario can audit them, and each formula carries its computed value too, so that
viewers that do not compute formulas (phone previews, mail attachments) show the total.
Every other number is the engine's stored value.

Every text that a user typed (names, reasons, articles, the season and the table) is written as
a string cell, never as a formula: a member named ``=HYPERLINK(...)`` stays a name
(``strings_to_formulas`` is off and texts go through ``write_string``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from io import BytesIO
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from xlsxwriter import Workbook
from xlsxwriter.format import Format
from xlsxwriter.worksheet import Worksheet

from scoring import formatting
from scoring.exports import DRAFT_MARK, now, series_text, verbale_doc_id, verbale_title
from scoring.verbale import TITLE_LABELS, ClassificaRow, Verbale

GREEN = "#0B5D3B"
RED = "#C0262D"
TINT = "#E8F3EE"
GREY = "#F4F6F8"
THIN = "#9AA3AD"
MUTED = "#555555"
# Number formats: the number stays a number (Excel writes its decimal separator the reader's
# way: ``0,43`` in an Italian Excel, ``0.43`` in an English one) and a negative one is written
# with the true minus sign U+2212, as on the pages and in the PDFs (the format code's "." is
# the decimal separator whatever the reader's language; the minus is quoted text).
MINUS = f'"{formatting.MINUS}"'
POINTS_FORMAT = f"0;[Red]{MINUS}0;0"  # a smazzata's points, a penalità, a turno total
SIGNED_FORMAT = f"+0;{MINUS}0;0"  # the five games' points: +7, −15, 0
INT_FORMAT = f"0;{MINUS}0"  # a count or whole points: 2704, −46 (no ",00")
DEC_FORMAT = f"0.00;{MINUS}0.00"  # the rapporto, a season score: 0,43, −0,43
LEAGUE_FORMAT = f"+0.00;{MINUS}0.00;0.00"  # a turno's league points: +1,03, −0,64
DATE_FORMAT = "DD/MM/YYYY"
FONT_NAME = "Arial"  # Liberation Sans where Arial is missing: same metrics
BASE_SIZE = 10
WORKBOOK_OPTIONS = {
    "in_memory": True,
    "strings_to_formulas": False,  # user text is never a formula (OWASP CSV/formula injection)
    "strings_to_urls": False,
    "strings_to_numbers": False,
}

# the grid's fixed columns, before two columns (count, points) per player
FIXED_WIDTHS = (5, 11, 9, 18, 18, 10, 9, 16)
FIRST_PLAYER_COL = len(FIXED_WIDTHS) + 1


def spreadsheet_value(value: Any) -> Any:
    """A figure of a game's tables as a spreadsheet cell: a number kept as text by a record
    (the Ramino fee ``"1.00"``) becomes a number, so Excel writes it the reader's way; any
    other text stays text."""
    if isinstance(value, str):
        try:
            d = Decimal(value.strip())
        except ArithmeticError:
            return value
        return d if d.is_finite() and value.strip() else value
    return value


def number_format(value: Any) -> str | None:
    """The number format of a figure, as :func:`scoring.formatting.figure` writes it on the
    pages: integers and whole points without decimals (``916``, not ``916,00``), a decimal with
    its own places (the fee ``1,00``), a true minus sign; None for what is no number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    if isinstance(value, float):
        return DEC_FORMAT
    if isinstance(value, int):
        return INT_FORMAT
    places = max(0, -value.as_tuple().exponent)  # type: ignore[operator]
    if not places:
        return INT_FORMAT
    digits = "0" * places
    return f"0.{digits};{MINUS}0.{digits}"


def fixed_headers() -> tuple[str, ...]:
    return (
        _("N."),
        _("Gioco"),
        _("Briscola"),
        _("Mazziere"),
        _("Chiamante"),
        _("Obbligata"),
        _("Scazzata"),
        _("Cappotto"),
    )


class Sheet:
    """A worksheet addressed 1-based (row, column) like the printed grid, with cached formats.

    Texts go through ``write_string``, numbers through ``write_number``: nothing is guessed.
    """

    def __init__(self, wb: Workbook, ws: Worksheet) -> None:
        self.wb, self.ws = wb, ws
        self._formats: dict[tuple, Format] = {}

    def fmt(self, **props: Any) -> Format:
        props = {"font_name": FONT_NAME, "font_size": BASE_SIZE, "valign": "vcenter", **props}
        key = tuple(sorted(props.items()))
        if key not in self._formats:
            self._formats[key] = self.wb.add_format(props)
        return self._formats[key]

    def put(self, row: int, col: int, value: Any, **style: Any) -> None:
        if style.get("num_format") is None:
            style.pop("num_format", None)
        f = self.fmt(**style)
        r, c = row - 1, col - 1
        if value is None or value == "":
            self.ws.write_blank(r, c, None, f)
        elif isinstance(value, bool):
            self.ws.write_boolean(r, c, value, f)
        elif isinstance(value, (int, float, Decimal)):
            self.ws.write_number(r, c, float(value) if isinstance(value, Decimal) else value, f)
        elif isinstance(value, dt.date):
            self.ws.write_datetime(r, c, value, f)
        else:
            self.ws.write_string(r, c, str(value), f)

    def formula(self, row: int, col: int, formula: str, value: int, **style: Any) -> None:
        """A formula with its computed value cached, for viewers that do not calculate."""
        self.ws.write_formula(row - 1, col - 1, formula, self.fmt(**style), value)

    def merge(self, row: int, col: int, last_row: int, last_col: int, value: Any, **style) -> None:
        f = self.fmt(**style)
        self.ws.merge_range(row - 1, col - 1, last_row - 1, last_col - 1, None, f)
        self.put(row, col, value, **style)

    def width(self, col: int, width: float) -> None:
        self.ws.set_column(col - 1, col - 1, width)

    def height(self, row: int, height: float) -> None:
        self.ws.set_row(row - 1, height)


def col_letter(col: int) -> str:
    """1 -> ``A``, 27 -> ``AA``."""
    text = ""
    while col:
        col, rem = divmod(col - 1, 26)
        text = chr(65 + rem) + text
    return text


def print_setup(s: Sheet, *, landscape: bool, title_rows: tuple[int, int], footer: str) -> None:
    """A4, one page wide, the title rows repeated, the running footer (the document and the
    page) on every page: every workbook's print frame."""
    ws = s.ws
    ws.set_paper(9)  # A4
    if landscape:
        ws.set_landscape()
    else:
        ws.set_portrait()
    ws.fit_to_pages(1, 0)
    ws.center_horizontally()
    ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.6)
    ws.repeat_rows(title_rows[0] - 1, title_rows[1] - 1)
    page = _("pagina &P di &N")
    ws.set_footer(f"&L&8{footer.replace('&', '&&')}&R&8{page}")


def _fact(s: Sheet, row: int, label: str, value: object, *, fmt: str | None = None) -> None:
    s.merge(row, 1, row, 3, label, font_color=MUTED)
    style: dict[str, Any] = {"bold": True, "align": "left"}
    if fmt:
        style["num_format"] = fmt
    s.put(row, 4, value, **style)


def frame_head(s: Sheet, v: Any) -> int:
    """The head every Verbale workbook shares (C.A.F. and the five other games): the club, the
    title with the Verbale number, the draft mark, then the facts (season, the season's rules,
    date, turno, first dealer, segretario). Returns the next free row."""
    s.put(1, 1, v.club, bold=True, font_size=11, font_color=GREEN)
    s.put(2, 1, verbale_title(v), bold=True, font_size=16)
    if not v.closed:
        s.put(2, 6, str(DRAFT_MARK), bold=True, font_size=12, font_color=RED)
    _fact(s, 3, _("Stagione"), v.season)
    _fact(s, 4, _("Regolamento"), v.rules)
    _fact(s, 5, _("Data"), v.date, fmt=DATE_FORMAT)
    s.put(5, 6, formatting.date_long(v.date), font_color=MUTED)
    _fact(s, 6, _("Turno n."), v.number)
    if v.table:
        s.put(6, 6, v.table, font_color=MUTED)
    _fact(s, 7, _("Primo mazziere"), v.first_dealer)
    _fact(s, 8, _("Segretario"), v.segretario or "")
    return 9


def frame_signature(s: Sheet, v: Any, r: int, *, generated: str, last_col: int) -> int:
    """The close every Verbale workbook shares: when the turno was closed (or the draft mark),
    when the file was made, the segretario's name and the signature line. Returns the next row."""
    if v.closed:
        s.put(r, 1, _("Turno chiuso il %(when)s.") % {"when": formatting.moment(v.closed_at)})
    else:
        draft = _("%(mark)s: documento provvisorio.") % {"mark": DRAFT_MARK}
        s.put(r, 1, draft, bold=True, font_color=RED)
    s.put(r, 6, _("Generato il %(when)s") % {"when": generated}, font_size=9, font_color=MUTED)
    r += 2
    s.put(r, 1, _("Il segretario"), font_color=MUTED)
    s.put(r, 4, v.segretario or "", bold=True)
    s.put(r, 6, _("Firma"), font_color=MUTED, align="right")
    for col in range(7, last_col + 1):
        s.put(r, col, "", bottom=1)
    s.height(r, 24)
    return r + 1


def _write_verbale(
    s: Sheet,
    v: Verbale,
    *,
    series_labels: Mapping[str, str] | None,
    generated: str,
) -> None:
    fixed = fixed_headers()
    n = len(v.seats)
    last_col = len(fixed) + 2 * n
    row = frame_head(s, v)
    seating = " · ".join(f"{seat.position + 1}. {seat.player}" for seat in v.seats)
    _fact(s, row, _("Giocatori (posto)"), seating)

    head, sub = row + 2, row + 3
    header = {"bold": True, "bg_color": TINT, "align": "center", "text_wrap": True, "border": 1}
    header["border_color"] = THIN
    for col, text in enumerate(fixed, start=1):
        s.merge(head, col, sub, col, text, **header)
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        s.merge(head, col, head, col + 1, f"{seat.position + 1}. {seat.player}", **header)
        s.put(sub, col, _("n."), **header)
        s.put(sub, col + 1, _("punti"), **header)
    s.height(head, 30)

    first = sub + 1
    r = first
    box = {"border": 1, "border_color": THIN}
    for k, row in enumerate(v.rows):
        fill = {"bg_color": GREY} if k % 2 else {}
        trump = f"{row.trump_symbol} {row.trump}" if row.trump else ""
        red_game = {"font_color": RED} if row.game_label.endswith(("♥", "♦")) else {}
        red_trump = {"font_color": RED, "bold": True} if row.trump_red else {}
        s.put(r, 1, row.number, align="center", **box, **fill)
        s.put(r, 2, row.game_label, bold=True, **red_game, **box, **fill)
        s.put(r, 3, trump, align="center", **red_trump, **box, **fill)
        s.put(r, 4, row.dealer, **box, **fill)
        s.put(r, 5, row.caller, **box, **fill)
        s.put(r, 6, _("obbligata") if row.forced else "", align="center", **box, **fill)
        mark = {"bold": True, "font_color": RED}
        s.put(r, 7, "S" if row.scazzata else "", align="center", **box, **fill, **mark)
        s.put(r, 8, row.cappotto or "", **box, **fill, **mark)
        for i, cell in enumerate(row.cells):
            col = FIRST_PLAYER_COL + 2 * i
            s.put(r, col, cell.count, font_color="#666666", align="center", **box, **fill)
            s.put(r, col + 1, cell.points, num_format=POINTS_FORMAT, **box, **fill)
        r += 1
    last = r - 1

    def summary(label: str, *, bold: bool = False) -> int:
        nonlocal r
        s.merge(r, 1, r, len(fixed), label, bold=bold, align="right", **box)
        r += 1
        return r - 1

    pen_row = summary(_("Penalità"))
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        s.put(pen_row, col, "", **box)
        s.put(pen_row, col + 1, seat.penalty, num_format=POINTS_FORMAT, **box)
    tot_row = r
    s.merge(
        r, 1, r, len(fixed), _("Totale del turno (somma delle smazzate + penalità)"),
        bold=True, align="right", bg_color=TINT, border=1, top=2, bottom=2,
    )  # fmt: skip
    r += 1
    total_style = {"bold": True, "font_size": 12, "bg_color": TINT, "border": 1, "top": 2}
    total_style |= {"bottom": 2, "num_format": POINTS_FORMAT}
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        letter = col_letter(col + 1)
        if last >= first:
            formula = f"=SUM({letter}{first}:{letter}{last})+{letter}{pen_row}"
        else:
            formula = f"={letter}{pen_row}"
        s.put(tot_row, col, "", **total_style)
        s.formula(tot_row, col + 1, formula, seat.total, **total_style)
    place_row = summary(_("Posto"))
    ratio_row = summary(_("Rapporto"))
    league_row = summary(str(formatting.LEAGUE_POINTS), bold=True)
    titles_row = summary(_("Titoli"))
    before_row = summary(_("Serie prima del turno"))
    after_row = summary(_("Serie dopo il turno"))
    note_row = summary(_("Spareggio")) if v.spareggio else None
    wrap = {"align": "center", "text_wrap": True, **box}
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i + 1
        s.put(place_row, col - 1, "", **box)
        s.put(place_row, col, seat.place, align="right", **box)
        s.put(ratio_row, col - 1, "", **box)
        s.put(ratio_row, col, seat.ratio, num_format=DEC_FORMAT, **box)
        s.put(league_row, col - 1, "", **box)
        s.put(league_row, col, seat.league_points, num_format=LEAGUE_FORMAT, bold=True, **box)
        titles = ", ".join(
            f"{label} {formatting.title_value(value)}" for _c, label, value in seat.titles
        )
        texts = [
            (titles_row, titles),
            (before_row, series_text(seat.series_before, series_labels)),
            (after_row, series_text(seat.series_after, series_labels)),
        ]
        if note_row:
            texts.append((note_row, seat.place_text if seat.spareggio else ""))
        for tr, text in texts:
            s.merge(tr, col - 1, tr, col, text if text != formatting.DASH else "", **wrap)
    if any(seat.titles for seat in v.seats):
        s.height(titles_row, 28)
    if note_row:
        s.height(note_row, 28)

    r += 1
    section = {"bold": True, "font_size": 12, "font_color": GREEN}
    if v.reopens:
        s.put(r, 1, _("Riaperture"), **section)
        r += 1
        for reopen in v.reopens:
            text = _("Riaperto il %(at)s da %(user)s: %(reason)s") % {
                "at": formatting.moment(reopen.at),
                "user": reopen.user or formatting.DASH,
                "reason": reopen.reason,
            }
            s.put(r, 1, text)
            r += 1
        r += 1
    confirmations = v.confirmations
    if confirmations:
        s.put(r, 1, _("Conferme dei giocatori"), **section)
        r += 1
        for line in confirmations:
            s.put(r, 1, line)
            r += 1
        r += 1
    s.put(r, 1, _("Penalità"), **section)
    r += 1
    if v.penalties:
        head_style = {"bold": True, "bg_color": TINT}
        s.put(r, 4, _("Giocatore"), **head_style)
        s.put(r, 5, _("Punti"), align="center", **head_style)
        s.put(r, 6, _("Articolo"), **head_style)
        s.put(r, 7, _("Motivo"), **head_style)
        r += 1
        for p in v.penalties:
            s.put(r, 4, p.player)
            s.put(r, 5, p.points, num_format=POINTS_FORMAT, align="center")
            s.put(r, 6, _("art. %(a)s") % {"a": p.article})
            s.put(r, 7, p.reason)
            r += 1
    else:
        s.put(r, 4, _("Nessuna penalità."), italic=True, font_color=MUTED)
        r += 1
    if v.sanctions:
        r += 1
        s.put(r, 1, _("Retrocessioni per contatore"), **section)
        r += 1
        for sanction in v.sanctions:
            s.put(r, 4, sanction.player)
            s.put(r, 7, sanction.reason)
            r += 1

    r += 1
    legend = _(
        "Legenda: S = scazzata del chiamante · Cappotto = il giocatore che l'ha fatto · "
        "n. = carte, prese o cuori contati per il gioco · Totale = somma dei punti + penalità"
    )
    s.put(r, 1, legend, font_size=9, font_color=MUTED)
    r += 1
    frame_signature(s, v, r, generated=generated, last_col=max(last_col, 10))

    for col, width in enumerate(FIXED_WIDTHS, start=1):
        s.width(col, width)
    for i, seat in enumerate(v.seats):
        col = FIRST_PLAYER_COL + 2 * i
        s.width(col, 4.5)
        s.width(col + 1, max(9, len(seat.player) * 0.6))
    s.ws.freeze_panes(first - 1, FIRST_PLAYER_COL - 1)
    print_setup(s, landscape=n >= 5, title_rows=(head, sub), footer=verbale_doc_id(v))


def classifica_headers() -> list[str]:
    return [
        _("Pos."),
        _("Giocatore"),
        _("Serie"),
        _("Punti"),
        _("Turni"),
        _("Assenze"),
        _("Scudetti"),
        _("Media"),
        *(str(TITLE_LABELS[c]) for c in TITLE_LABELS if c != "SCUDETTO"),
    ]


def _write_classifica(
    s: Sheet,
    *,
    club: str,
    season_name: str,
    rows: Sequence[ClassificaRow],
    subtitle: str,
) -> None:
    s.put(1, 1, club, bold=True, font_size=11, font_color=GREEN)
    title = _("Classifica Generale — Campionato %(s)s") % {"s": season_name}
    s.put(2, 1, title, bold=True, font_size=16)
    s.put(3, 1, subtitle, font_color=MUTED)
    titles = [c for c in TITLE_LABELS if c != "SCUDETTO"]
    headers = classifica_headers()
    head = 5
    for col, text in enumerate(headers, start=1):
        s.put(head, col, text, bold=True, bg_color=TINT, align="center", text_wrap=True, border=1)
    s.height(head, 42)
    r = head + 1
    for k, row in enumerate(rows):
        style: dict[str, Any] = {"border": 1, "border_color": THIN}
        if k % 2:
            style["bg_color"] = GREY
        values = [
            row.place,
            row.player,
            row.series_label,
            row.score,
            row.turni,
            row.absences,
            row.scudetti,
            row.average,
            *(row.titles.get(c, 0) for c in titles),
        ]
        for col, value in enumerate(values, start=1):
            extra: dict[str, Any] = {}
            if col == 1:
                extra["align"] = "center"
            if col in (2, 4):
                extra["bold"] = True
            if col in (4, 8):
                extra["num_format"] = DEC_FORMAT
            s.put(r, col, value, **style, **extra)
        r += 1
    if not rows:
        empty = _("La classifica è vuota: nessun turno chiuso.")
        s.put(r, 2, empty, italic=True)
    widths = [6, max([22, *(len(x.player) + 2 for x in rows)]), 14, 9, 7, 9, 9, 8]
    widths += [15] * (len(headers) - len(widths))
    for col, width in enumerate(widths, start=1):
        s.width(col, width)
    s.ws.freeze_panes(head, 2)
    print_setup(
        s,
        landscape=True,
        title_rows=(head, head),
        footer=f"{_('Classifica Generale')} · {season_name}",
    )


def _book(title: str, creator: str) -> tuple[Workbook, BytesIO]:
    out = BytesIO()
    wb = Workbook(out, WORKBOOK_OPTIONS)
    wb.set_properties({"title": title, "author": creator})
    return wb, out


def verbale_xlsx(
    v: Verbale,
    classifica_rows: Sequence[ClassificaRow],
    *,
    series_labels: Mapping[str, str] | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Verbale di Turno workbook: sheet "Verbale" (totals as formulas, with their values)
    and sheet "Classifica" (the Classifica Generale after the turno's giornata, as given)."""
    if series_labels is None:  # the read model's own: the season's ladder
        series_labels = dict(v.series_labels)
    generated = formatting.moment(generated_at or now())
    wb, out = _book(f"{verbale_title(v)} · {v.season}", v.club)
    _write_verbale(
        Sheet(wb, wb.add_worksheet("Verbale")), v, series_labels=series_labels, generated=generated
    )
    when = _("Dopo la giornata del %(date)s · generata il %(when)s") % {
        "date": formatting.date_long(v.date, weekday=False),
        "when": generated,
    }
    _write_classifica(
        Sheet(wb, wb.add_worksheet("Classifica")),
        club=v.club,
        season_name=v.season,
        rows=classifica_rows,
        subtitle=when,
    )
    wb.close()
    return out.getvalue()


def classifica_xlsx(
    season_name: str,
    rows: Sequence[ClassificaRow],
    last_date: dt.date | None,
    *,
    club: str | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Classifica Generale workbook (one sheet, "Classifica")."""
    generated = formatting.moment(generated_at or now())
    club = club if club is not None else settings.CLUB_NAME
    wb, out = _book(f"{_('Classifica Generale')} · {season_name}", club)
    if last_date:
        when = _("Aggiornata al %(date)s") % {
            "date": formatting.date_long(last_date, weekday=False)
        }
    else:
        when = _("Nessun turno chiuso")
    _write_classifica(
        Sheet(wb, wb.add_worksheet("Classifica")),
        club=club,
        season_name=season_name,
        rows=rows,
        subtitle=f"{when} · {_('generata il %(when)s') % {'when': generated}}",
    )
    wb.close()
    return out.getvalue()
