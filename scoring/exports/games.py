"""The official documents of a game kept by the generic ledger (every game but C.A.F.): the
Verbale di Turno (the Skat Spielliste, the Ramino sheet, a King family turno) and the season's
standing, in PDF and XLSX, from their read models (:class:`scoring.selectors_games.GameVerbale`,
:class:`scoring.verbale.ClassificaSheet`).

The game system names every column and describes every smazzata; nothing here computes a point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring import formatting
from scoring.exports import DRAFT_MARK, now, verbale_doc_id, verbale_title
from scoring.exports.pdf import render_pdf
from scoring.exports.xlsx import (
    INT_FORMAT,
    SIGNED_FORMAT,
    Sheet,
    _book,
    col_letter,
    frame_head,
    frame_signature,
    number_format,
    print_setup,
    spreadsheet_value,
)
from scoring.rules.systems import Column
from scoring.selectors_games import GameVerbale
from scoring.verbale import ClassificaSheet


def basename(v: GameVerbale) -> str:
    """The file name of a generic Verbale (as the C.A.F. one: season, date, turno)."""
    from django.utils.text import slugify

    return slugify(f"verbale {v.season} {v.date.isoformat()} turno {v.number}")


def verbale_context(v: GameVerbale) -> dict[str, Any]:
    """What the Verbale template prints: the frame every game's Verbale shares (title and
    running footer with the Verbale number and the season, the season's rules, the close and the
    segretario; ``_frame_head.html``, ``_frame_signature.html``) and the game's own grid."""
    return {
        "v": v,
        "title": verbale_title(v),
        "doc_id": verbale_doc_id(v),
        "date_long": formatting.date_long(v.date),
        "closed_at": formatting.moment(v.closed_at),
        "generated": formatting.moment(now()),
        "draft_mark": "" if v.closed else DRAFT_MARK,
        "landscape": len(v.players) > 5 or v.sheet is not None,
    }


def verbale_pdf(v: GameVerbale) -> bytes:
    return render_pdf("scoring/documents/game_verbale.html", verbale_context(v))


def verbale_xlsx(v: GameVerbale) -> bytes:
    """Sheet "Verbale": one row per smazzata, the totals as =SUM formulas carrying their values,
    then the results; every text written as text (never a formula)."""
    wb, out = _book(f"{verbale_title(v)} · {v.season}", v.club)
    s = Sheet(wb, wb.add_worksheet("Verbale"))
    head = frame_head(s, v) + 1
    if v.sheet is not None:
        row = _sheet_xlsx(s, v, head)
        return _xlsx_closing(s, wb, out, v, row, head + 1)
    fixed = [_("N."), _("Mazziere"), _("Mano")]
    for c, text in enumerate([*fixed, *v.players], start=1):
        s.put(head, c, text, bold=True, bottom=1, text_wrap=True)
    s.width(1, 5)
    s.width(2, 16)
    s.width(3, 48)
    first = head + 1
    # a penalty is not a gain: no "+"; a true minus sign either way
    points = INT_FORMAT if v.penalty_points else SIGNED_FORMAT
    for i, r in enumerate(v.rows):
        row = first + i
        s.put(row, 1, r["number"])
        s.put(row, 2, r["dealer"])
        s.put(row, 3, formatting.text(r["line"]), text_wrap=True)
        for j, value in enumerate(r["points"]):
            s.put(row, 4 + j, value, num_format=points)
    last = first + len(v.rows) - 1
    total_row = last + 1
    s.put(total_row, 3, _("Totale"), bold=True, top=1)
    for j, value in enumerate(v.totals):
        col = 4 + j
        s.width(col, 12)
        if v.rows:
            letter = col_letter(col)
            s.formula(total_row, col, f"=SUM({letter}{first}:{letter}{last})", value,
                      bold=True, top=1, num_format=points)  # fmt: skip
        else:
            s.put(total_row, col, value, bold=True, top=1)
    row = total_row + 2
    if v.balance is not None:
        s.put(total_row + 1, 3, _("Saldo delle smazzate (somma dei punti)"))
        s.put(total_row + 1, 4, v.balance, bold=True, num_format=number_format(v.balance))
        row += 1
    return _xlsx_closing(s, wb, out, v, row, head)


def _sheet_xlsx(s: Sheet, v: GameVerbale, head: int) -> int:
    """The system's own list (the Skat Spielliste): per game the facts and the game score, per
    player the running total and the running counts of games won (G) and lost (V), each a
    formula on the row above carrying the engine's value; under it the evaluation, each line a
    formula (count × factor, the sum) carrying the engine's value. Returns the next free row."""
    sheet = v.sheet
    assert sheet is not None
    facts = len(sheet["columns"])
    fixed = [_("N."), _("Mazziere"), *sheet["columns"]]
    for c, text in enumerate(fixed, start=1):
        s.put(head, c, text, bold=True, text_wrap=True)
        s.put(head + 1, c, "", bold=True, bottom=1)
    first_player_col = len(fixed) + 1

    def cols(j: int) -> tuple[int, int, int]:
        base = first_player_col + 3 * j
        return base, base + 1, base + 2

    for j, name in enumerate(v.players):
        run, g, lost = cols(j)
        s.put(head, run, name, bold=True)
        for col, label in zip((run, g, lost), sheet["player_columns"], strict=True):
            s.put(head + 1, col, label, bold=True, bottom=1)
        s.width(run, 9)
        s.width(g, 4)
        s.width(lost, 4)
    for col, width in zip(range(1, len(fixed) + 1), (5, 12, 12, 30, 10, 7, 16, 8), strict=False):
        s.width(col, width)
    score_col = 2 + facts  # the last fact: the declarer's game score, written as a number
    first = head + 2
    signed = SIGNED_FORMAT
    for i, r in enumerate(sheet["rows"]):
        row = first + i
        s.put(row, 1, r["number"])
        s.put(row, 2, r["dealer"])
        for c, fact in enumerate(r["facts"][:-1], start=3):
            value = spreadsheet_value(fact)  # the game's value "72" a number, "104 : 16" text
            if isinstance(value, str):
                s.put(row, c, formatting.text(value))
            else:
                s.put(row, c, value, num_format=number_format(value))
        s.put(row, score_col, r["score"], num_format=signed)
        score = f"${col_letter(score_col)}{row}"
        for j, cell in enumerate(r["cells"]):
            for col, value, step in zip(
                cols(j),
                (cell["running"], cell["won"], cell["lost"]),
                (score, "1" if r["won"] else None, "1" if r["won"] is False else None),
                strict=True,
            ):
                above = f"{col_letter(col)}{row - 1}" if i else None
                add = step if cell["changed"] else None
                terms = [t for t in (above, add) if t]
                style = {"bold": True} if add else {"font_color": "#6b7480"}
                style["num_format"] = INT_FORMAT  # a running total may be negative: "−46"
                if terms:
                    s.formula(row, col, "=" + "+".join(terms), value, **style)
                else:
                    s.put(row, col, value, **style)
    last = first + len(sheet["rows"]) - 1
    row = last + 1
    carry = row  # the first evaluation line: the last running line carried down
    for k, line in enumerate(sheet["summary"]):
        final = k == len(sheet["summary"]) - 1
        style: dict[str, Any] = {"bold": final, "top": 1 if k == 0 or final else 0}
        s.put(row, 3, formatting.text(line["label"]), **style)
        for j, cell in enumerate(line["cells"]):
            run, g, lost = (col_letter(c) for c in cols(j))
            kind = line["kind"]
            formula = None
            if kind == "carry" and sheet["rows"]:
                formula = f"={run}{last}"
                s.formula(row, cols(j)[1], f"={g}{last}", cell["g"], **style)
                s.formula(row, cols(j)[2], f"={lost}{last}", cell["v"], **style)
            elif kind == "carry":
                s.put(row, cols(j)[1], cell["g"], **style)
                s.put(row, cols(j)[2], cell["v"], **style)
            elif kind == "won":
                formula = f"={g}{carry}*{line['factor']}"
            elif kind == "lost":
                formula = f"={lost}{carry}*{line['factor']}"
            elif kind == "count":
                s.put(row, cols(j)[1], cell["g"], **style)
                formula = f"={g}{row}*{line['factor']}"
            elif kind == "sum":
                formula = f"=SUM({run}{carry}:{run}{row - 1})"
            if formula:
                s.formula(row, cols(j)[0], formula, cell["value"], num_format=signed, **style)
            else:
                s.put(row, cols(j)[0], cell["value"], num_format=signed, **style)
        row += 1
    return row + 1


def _xlsx_closing(s: Sheet, wb: Any, out: Any, v: GameVerbale, row: int, head: int) -> bytes:
    """The Verbale's closing lines (penalità, results, reopenings) and the frame every Verbale
    workbook shares (the close, the segretario, the running footer)."""
    if v.penalties:
        s.put(row, 1, _("Penalità"), bold=True)
        for p in v.penalties:
            row += 1
            s.put(row, 2, formatting.text(p))
        row += 2
    if v.results:
        headers = [_("Posto"), _("Giocatore"), _("Totale"), *(_(label) for _k, label in v.columns)]
        for c, text in enumerate(headers, start=1):
            s.put(row, c, text, bold=True, bottom=1)
        for r in v.results:
            row += 1
            for c, value in enumerate([r["place"], r["player"], r["total"], *r["values"]], 1):
                value = spreadsheet_value(value)
                s.put(row, c, value, num_format=number_format(value))
        row += 2
    for line in v.reopens:
        s.put(row, 1, line)
        row += 1
    for line in v.confirmations:
        s.put(row, 1, line)
        row += 1
    row += 1
    last_col = 3 + len(v.players) * (3 if v.sheet else 1)
    frame_signature(s, v, row, generated=formatting.moment(now()), last_col=max(last_col, 8))
    print_setup(
        s,
        landscape=len(v.players) > 4 or v.sheet is not None,
        title_rows=(head - 1 if v.sheet else head, head),
        footer=verbale_doc_id(v),
    )
    s.ws.freeze_panes(head, 0)
    wb.close()
    return out.getvalue()


def _printed(c: ClassificaSheet) -> tuple[list[Column], list[list[Any]]]:
    """The columns a printed standing shows (its figures: the movement since the last giornata
    is the page's) and each row's values in their order."""
    columns = [col for col in c.columns if col.kind != "movement"]
    return columns, [[r.get(col.key, "") for col in columns] for r in c.rows]


def standing_pdf(c: ClassificaSheet, last_date: Any) -> bytes:
    columns, values = _printed(c)
    return render_pdf(
        "scoring/documents/game_classifica.html",
        {
            "club": c.club,
            "season": c.season,
            "game": c.game,
            "columns": columns,
            "rows": [
                {"place": r["place"], "player": r["player"], "values": v}
                for r, v in zip(c.rows, values, strict=True)
            ],
            "last_date": formatting.date_long(last_date) if last_date else "",
            "generated": formatting.moment(now()),
            "doc_id": f"{_('Classifica Generale')} · {c.season}",
        },
    )


def standing_xlsx(c: ClassificaSheet, last_date: Any) -> bytes:
    columns, values = _printed(c)
    rows = c.rows
    wb, out = _book(f"{_('Classifica Generale')} · {c.season}", c.club)
    s = Sheet(wb, wb.add_worksheet("Classifica"))
    s.put(1, 1, f"{c.club} · {c.game}", bold=True, font_size=13)
    s.put(2, 1, f"{_('Classifica Generale')} {c.season}", bold=True, font_size=12)
    if last_date:
        s.put(3, 1, _("Aggiornata al %(date)s") % {"date": formatting.date_long(last_date)})
    headers: Sequence[str] = [_("Pos."), _("Giocatore"), *(_(col.label) for col in columns)]
    for col, text in enumerate(headers, start=1):
        s.put(5, col, text, bold=True, bottom=1)
    s.width(2, 24)
    for i, (r, figures) in enumerate(zip(rows, values, strict=True), start=6):
        for col, value in enumerate([r["place"], r["player"], *figures], start=1):
            value = spreadsheet_value(value)
            s.put(i, col, value, num_format=number_format(value))
    s.put(6 + len(rows) + 1, 1, _("A pari punti si condivide il posto."), font_color="#555555")
    s.ws.freeze_panes(5, 0)
    print_setup(
        s, landscape=False, title_rows=(5, 5), footer=f"{_('Classifica Generale')} · {c.season}"
    )
    wb.close()
    return out.getvalue()
