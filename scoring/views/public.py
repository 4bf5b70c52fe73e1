"""The members' side: Classifica Generale, the series ladder, the turni and their Verbali, the
players. Read-only pages over what the engine stored; each runs a fixed number of queries
whatever the size of the season (``tests/integration/test_public.py`` pins them).

Every view is :func:`members_view`: public unless ``KINGCLUB_MEMBERS_ONLY`` is on.
"""

from __future__ import annotations

import hashlib
import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import EmptyPage
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from scoring.charts import Bar, Line, bar_chart, line_chart
from scoring.filters import TurnoFilter
from scoring.models import Player, Season, Turno
from scoring.permissions import members_view
from scoring.publishing import sees_unpublished, unpublished_page
from scoring.rules.numbers import typed_int_or_none
from scoring.selectors import (
    TURNO_RELATED,
    current_season,
    default_season,
    own_player_id,
    season_turni,
)
from scoring.selectors_games import member_season
from scoring.selectors_turno import turno_sheets
from scoring.services.season import CHART_LEADERS
from scoring.tables import (
    SheetCells,
    TurniTable,
    classifica_html,
    classifica_sort,
    player_timeline_html,
    season_figure,
    sheet_cells,
)
from scoring.templatetags.kingclub_tags import GAME_TEXT, format_number
from scoring.verbale import (
    ClassificaRow,
    classifica,
    classifica_dates,
    classifica_sheet,
    last_closed_date,
)
from scoring.views import pagecache

TURNI_PER_PAGE = 25
TIMELINE_PER_PAGE = 20  # giornate per page of a member's turni, newest first
# at most this many giornate on the league chart: a longer season is drawn one point every few
# giornate (the first and the last always), so drawing it costs the same in any season
CHART_POINTS = 60


# -- season choice ------------------------------------------------------------------------------
def _season_from(request: HttpRequest, season_pk: int | None = None) -> Season | None:
    """The season named by the URL (or ``?stagione=``), else the current one."""
    raw = season_pk if season_pk is not None else request.GET.get("stagione")
    if raw in (None, ""):
        return current_season()
    # a key in ASCII digits (at most 18: inside the column), never what else int() reads
    pk = raw if isinstance(raw, int) else typed_int_or_none(raw)
    if pk is None:
        raise Http404("stagione non valida")
    return get_object_or_404(Season, pk=pk)


def _season_context(request: HttpRequest, season: Season | None) -> dict[str, Any]:
    """The season picker: every season this visitor may see (an unpublished one only for the
    segretario and the staff: its name is not told to the public), and the query string that
    keeps a non-current one."""
    every = list(
        Season.objects.only("pk", "name", "is_current", "ruleset_code", "published").order_by(
            "-name"
        )
    )
    # the season shown without ?stagione= (as selectors.current_season picks it)
    default = default_season(every)
    seasons = every if sees_unpublished(request) else [s for s in every if s.published]
    keep = ""
    if season is not None and default is not None and season.pk != default.pk:
        keep = f"?stagione={season.pk}"
    return {"season": season, "seasons": seasons, "season_query": keep}


# -- Classifica Generale ----------------------------------------------------------------------
CLASSIFICA_CACHE_SECONDS = pagecache.CLASSIFICA_CACHE_SECONDS


def classifica_cache_key(
    season: Season, *, sort: str, language: str, stagione: int | None, me: int | None
) -> str:
    """The shared cache's key of one view of a season's Classifica: the season's ``version`` is
    bumped by every write that changes it (close, reopen, rescore, recompute, roster, names), so
    one close makes every worker render it again; ``created_at`` tells a season from another
    that got the same id after a restore."""
    made = season.created_at.timestamp() if season.created_at else 0
    return f"classifica:{season.pk}:{made}:{season.version}:{language}:{sort}:{stagione}:{me}:z"


#: what a kept Classifica part holds (:func:`_classifica_part`), and a member's season
#: (:func:`_player_part`)
CLASSIFICA_PART = frozenset({"table_zlib", "last_date", "backdated", "notes", "legend", "game"})
PLAYER_PART = frozenset({"standing", "html"})


def _kept_whole(part: Any, fields: frozenset[str]) -> bool:
    """A cached part holds every field this release reads. A part kept by an older release (the
    season's version unchanged by the upgrade) lacks the fields added since: read as a miss and
    rendered again, never a KeyError."""
    return isinstance(part, dict) and fields <= part.keys()


def _classifica_part(
    season: Season, *, sort: str, stagione: int | None, me: int | None
) -> dict[str, Any]:
    """What the page shows of the season's stored Classifica (two queries and the table)."""
    sheet = classifica_sheet(season)
    last_date, backdated = classifica_dates(season)
    html = classifica_html(sheet, sort=sort, stagione=stagione, me=me)
    note = None
    if backdated is not None:
        note = {
            "pk": backdated.pk,
            "giornata": {"date": backdated.giornata.date},
            "closed_at": backdated.closed_at,
        }
    # 300 members' rows are ~400 kB of HTML: kept compressed (~25 kB), a hit reads and inflates
    # that in about a millisecond instead of decoding the whole text from the cache's storage
    table = zlib.compress(html.encode(), 1)
    return {
        "table_zlib": table,
        "last_date": last_date,
        "backdated": note,
        "notes": sheet.notes,
        "legend": sheet.legend,
        "game": sheet.game,
    }


def _classifica_page(
    request: HttpRequest, season: Season | None, extra: dict[str, Any] | None = None
) -> HttpResponse:
    """The Classifica Generale of every game, in the columns its system declares: the table
    from the shared cache while the season's version stands."""
    ctx = _season_context(request, season)
    ctx.update(extra or {})
    if (hidden := unpublished_page(request, season, ctx)) is not None:
        return hidden
    if season is not None:
        sort = classifica_sort(request.GET.get("sort"), season.system.classifica_columns())
        stagione = season.pk if ctx["season_query"] else None
        me = own_player_id(request)
        key = classifica_cache_key(
            season, sort=sort, language=get_language(), stagione=stagione, me=me
        )
        part = cache.get(key)
        if not _kept_whole(part, CLASSIFICA_PART):  # cold: a close, a new sort or member...
            part = _classifica_part(season, sort=sort, stagione=stagione, me=me)
            cache.set(key, part, CLASSIFICA_CACHE_SECONDS)
        note = part["backdated"]
        ctx.update(
            # built by classifica_html, every text escaped there
            table_html=mark_safe(zlib.decompress(part["table_zlib"]).decode()),
            last_date=part["last_date"],
            backdated=None
            if note is None
            else SimpleNamespace(
                pk=note["pk"],
                giornata=SimpleNamespace(**note["giornata"]),
                closed_at=note["closed_at"],
            ),
            notes=part["notes"],
            title_legend=part["legend"],
            game=part["game"],
        )
    return render(request, "scoring/public/classifica.html", ctx)


def _anonymous_page(
    request: HttpRequest,
    season_pk: int | None,
    render_page: Callable[[Season, dict[str, Any]], HttpResponse],
    *key: Any,
) -> HttpResponse | None:
    """A public page of a season kept whole for anonymous visitors (:mod:`.pagecache`), or None
    when it does not apply (a logged-in visitor, an unknown or hidden season, another game's).
    One query reads every season's state: the page's key holds the shown season's ``version``
    (bumped by every write the page shows: close, reopen, contest, rename...), the season
    picker, the URL, the language and what the caller adds (``key``). A page is kept only where
    it shows nothing but what the version covers: every game's Classifica and a member's page
    (its turni in corso as they stood at the version, as the shared cache's part)."""
    if not pagecache.cacheable(request):
        return None
    raw = season_pk if season_pk is not None else request.GET.get("stagione")
    seasons = pagecache.season_states()
    if raw in (None, ""):
        season = default_season(seasons)
    else:
        season = next((s for s in seasons if str(s.pk) == str(raw)), None)
    if season is None or not season.published:
        return None  # the page as always (404, "non pubblicati")
    return pagecache.serve(
        request,
        (request.get_full_path(), get_language(), settings.CLUB_NAME, season.pk, *key, *seasons),
        # the whole season (its rule set) only when the page is rendered
        lambda extra: render_page(Season.objects.get(pk=season.pk), extra),
    )


@members_view
def home(request: HttpRequest) -> HttpResponse:
    """The Classifica Generale of the current season (or of ``?stagione=``)."""
    kept = _anonymous_page(
        request,
        None,
        lambda season, extra: _classifica_page(request, season, extra),
    )
    return kept if kept is not None else _classifica_page(request, _season_from(request))


@members_view
def classifica_view(request: HttpRequest, season_pk: int | None = None) -> HttpResponse:
    """The Classifica Generale of one season."""
    kept = _anonymous_page(
        request,
        season_pk,
        lambda season, extra: _classifica_page(request, season, extra),
    )
    if kept is not None:
        return kept
    return _classifica_page(request, _season_from(request, season_pk))


# -- La scala delle serie -----------------------------------------------------------------------
@dataclass(frozen=True)
class SeriesStep:
    code: str
    label: str
    amateur: bool
    rows: tuple[ClassificaRow, ...]


@dataclass(frozen=True)
class SeriesMove:
    row: ClassificaRow
    from_code: str
    from_label: str


@members_view
def serie(request: HttpRequest) -> HttpResponse:
    """The nine series, top to bottom, who is in each, who moved at the last giornata."""
    season = _season_from(request)
    ctx = _season_context(request, season)
    if (hidden := unpublished_page(request, season, ctx)) is not None:
        return hidden
    if season is not None and not season.system.series_ladder:
        ctx["no_series"] = season.system.label
    elif season is not None:
        rules = season.ruleset
        rows = classifica(season)
        by_series: dict[str, list[ClassificaRow]] = defaultdict(list)
        for r in rows:
            by_series[r.series].append(r)
        labels = {s.code: s.label for s in rules.series}
        ladder = [
            SeriesStep(s.code, s.label, s.amateur, tuple(by_series.get(s.code, ())))
            for s in rules.series
        ]

        def moves(sign: int) -> list[SeriesMove]:
            return [
                SeriesMove(r, r.previous_series, labels.get(r.previous_series, r.previous_series))
                for r in rows
                if r.series_movement == sign
            ]

        ctx.update(
            ladder=ladder,
            promoted=moves(1),
            relegated=moves(-1),
            last_date=last_closed_date(season),
        )
    return render(request, "scoring/public/serie.html", ctx)


# -- Turni and the Verbale on screen ------------------------------------------------------------
@members_view
def turni(request: HttpRequest) -> HttpResponse:
    """The season's turni, newest first, filterable by player, dates and status; paginated."""
    season = _season_from(request)
    ctx = _season_context(request, season)
    if (hidden := unpublished_page(request, season, ctx)) is not None:
        return hidden
    if season is not None:
        filterset = TurnoFilter(request.GET or None, queryset=season_turni(season), season=season)
        table = TurniTable(filterset.qs)
        try:
            RequestConfig(request, paginate={"per_page": TURNI_PER_PAGE}).configure(table)
        except (EmptyPage, ZeroDivisionError):  # ?per_page= of 0 or less: no such page
            raise Http404("pagina non valida") from None
        ctx.update(filter=filterset, table=table)
    return render(request, "scoring/public/turni.html", ctx)


@members_view
def turno(request: HttpRequest, pk: int) -> HttpResponse:
    """The Verbale di Turno on screen, every game alike: its one read model
    (:class:`scoring.selectors_turno.TurnoSheet`); a turno in corso shows its running state."""
    obj = get_object_or_404(Turno.objects.select_related(*TURNO_RELATED), pk=pk)
    if (hidden := unpublished_page(request, obj.season)) is not None:
        return hidden
    (sheet,) = turno_sheets([obj])
    ctx = {"t": sheet, "turno": obj, "season": obj.season}
    return render(request, "scoring/public/turno.html", ctx)


# -- Players ------------------------------------------------------------------------------------
@members_view
def players(request: HttpRequest) -> HttpResponse:
    """The members, each with their standing in the chosen season."""
    season = _season_from(request)
    ctx = _season_context(request, season)
    if (hidden := unpublished_page(request, season, ctx)) is not None:
        return hidden
    cells = SheetCells([], {})
    qs = Player.objects.filter(active=True)
    if season is not None:
        # the season's figures in its game's columns (not the abbreviated titles nor the
        # movement: the Classifica's)
        cells = sheet_cells(classifica_sheet(season), season_figure)
        qs = Player.objects.filter(Q(active=True) | Q(enrollments__season=season))
    ctx["headers"] = cells.headers
    ctx["entries"] = [(p, cells.rows.get(p.pk)) for p in qs.distinct().order_by("name")]
    return render(request, "scoring/public/players.html", ctx)


def _chart_number(value: float) -> str:
    """Chart labels: ``10``, ``2,5``, ``−0,25`` (as few decimals as the value needs)."""
    d = Decimal(str(round(value, 2)))
    places = next(p for p in (0, 1, 2) if d == round(d, p))
    return format_number(d, places)


@members_view
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A member's season, in every game: their standing in the season's columns; the turni a
    page of giornate at a time; points per game; what their ledger keeps besides (C.A.F.'s
    calls, titles and the chart of league points beside the leaders')."""
    member = get_object_or_404(Player, pk=pk)
    kept = _anonymous_page(
        request,
        None,
        lambda season, extra: _player_page(request, member, season, extra),
        "player",
        member.pk,
        member.name,
        member.active,
    )
    return kept if kept is not None else _player_page(request, member, _season_from(request))


def _player_page(
    request: HttpRequest, member: Player, season: Season | None, extra: dict[str, Any] | None = None
) -> HttpResponse:
    ctx = _season_context(request, season)
    ctx.update(extra or {})
    ctx["player"] = member
    if (hidden := unpublished_page(request, season, ctx)) is not None:
        return hidden
    if season is None:
        return render(request, "scoring/public/player.html", ctx)
    key = player_cache_key(
        season, member=member.pk, language=get_language(), path=request.get_full_path()
    )
    part = cache.get(key)
    if not _kept_whole(part, PLAYER_PART):  # the first reader of this version, member, page...
        part = _player_part(request, member, season)
        cache.set(key, part, CLASSIFICA_CACHE_SECONDS)
    ctx.update(
        system=season.system,
        standing=part["standing"],
        season_html=mark_safe(part["html"]),  # rendered from our template, texts escaped there
    )
    return render(request, "scoring/public/player.html", ctx)


def player_cache_key(season: Season, *, member: int, language: str, path: str) -> str:
    """The shared cache's key of a member's season below the page head: like the Classifica's
    (:func:`classifica_cache_key`), the season's ``version`` makes one close reach every worker;
    the path holds the timeline's page and the season asked for."""
    made = season.created_at.timestamp() if season.created_at else 0
    where = hashlib.blake2s(path.encode(), digest_size=8).hexdigest()
    return f"player:{season.pk}:{made}:{season.version}:{member}:{language}:{where}"


def _player_part(request: HttpRequest, member: Player, season: Season) -> dict[str, Any]:
    """The member's season as the page shows it below its head (:func:`member_season`,
    rendered), and their Classifica row (the head's series and place). The same for every
    visitor: what the shared cache keeps."""
    m = member_season(
        member,
        season,
        page=request.GET.get("pagina"),
        per_page=TIMELINE_PER_PAGE,
        leaders=CHART_LEADERS,
        chart_points=CHART_POINTS,
    )
    system = season.system
    cells = sheet_cells(m.sheet, season_figure)
    mine = cells.rows.get(member.pk)
    figures = [
        (col, header, cell)
        for (col, _css, header), (_c, _s, cell) in zip(cells.headers, mine or (), strict=False)
    ]
    ctx: dict[str, Any] = {
        "player": member,
        "season": season,
        "system": system,
        "standing": m.standing,
        "figures": figures,
        "kept": m.kept,
        "calls": m.calls,
        "titles_won": m.titles,
        "games": m.games,
        "counts_chosen": any(g.chosen is not None for g in m.games),
        "penalty_points": system.points_are_penalties,
        "signed": m.signed,
        "timeline": m.timeline,
        "timeline_columns": m.timeline_columns,
        "timeline_rows": player_timeline_html(m.timeline, m.timeline_columns),
        "timeline_page": m.page,
        "timeline_pages": list(m.page.paginator.get_elided_page_range(m.page.number, on_ends=1)),
    }
    if m.chart is not None:
        shown = len(m.chart.dates)
        ctx["chart"] = mark_safe(  # built by scoring.charts, every text escaped there
            line_chart(
                [
                    Line(li.name, li.values, highlight=li.highlight, start=li.start)
                    for li in m.chart.lines
                ],
                [d.strftime("%d/%m") for d in m.chart.dates],
                title=_("Punti in classifica, giornata per giornata"),
                chart_id="chart-league",
                x_title=_("Giornata"),
                y_title=_("Punti"),
                empty_text=_("Nessuna giornata chiusa."),
                fmt=_chart_number,
                show_title=False,
            )
        )
        ctx["chart_thinned"] = (shown, m.chart.giornate) if shown < m.chart.giornate else None
    ctx["games_chart"] = mark_safe(
        bar_chart(
            [
                Bar(
                    GAME_TEXT.get(g.code, (g.code, ""))[0] if g.symbol else _(g.name),
                    g.average,
                    suit=GAME_TEXT.get(g.code, ("", ""))[1] if g.symbol else "",
                    note=ngettext("%(n)d smazzata", "%(n)d smazzate", g.count) % {"n": g.count},
                )
                for g in m.games
            ],
            title=_("Media punti per gioco"),
            chart_id="chart-games",
            empty_text=_("Nessuna smazzata."),
            fmt=lambda v: format_number(Decimal(str(round(v, 2))), 2),
        )
    )
    html = render_to_string("scoring/public/_player_season.html", ctx, request)
    return {"standing": m.standing, "html": html}


urlpatterns = [
    path("", home, name="home"),
    path("classifica/", classifica_view, name="classifica"),
    path("classifica/<pk:season_pk>/", classifica_view, name="classifica"),
    path("serie/", serie, name="serie"),
    path("turni/", turni, name="turni"),
    path("turni/<pk:pk>/", turno, name="turno"),
    path("giocatori/", players, name="players"),
    path("giocatori/<pk:pk>/", player, name="player"),
]
