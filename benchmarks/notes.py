"""The hand-written part of docs/benchmarks.md (what the numbers mean), kept here so that
``make bench`` can regenerate the whole file. Update it when the numbers change meaning."""

NOTES = """
## Notes

### Reading the tables

- **The run of 2026-11-26 was taken under a load average of 14–18 on 2 cores** (the other
  engineers' test suites, and the games benchmark beside it): its milliseconds are inflated
  several times and unevenly (a close of the last turno 524 ms at 10k on PostgreSQL against
  2,749 ms at 1k, the same work), and this harness times the wall clock only, except the
  import's CPU seconds. Read the query counts (exact) and the import's CPU; the games section
  above times C.A.F. in CPU too. The run of 2026-11-22 (load under 1) measured, at 1k → 50k
  turni: recording 12 ms on SQLite and 18–21 ms on PostgreSQL, the close of a new last
  giornata 108–148 ms on SQLite and 127–203 ms on PostgreSQL, reopen and close of a
  giornata-1 turno about 0.9 s each at 5,000 turni per season.
- **Recording stays flat.** `smazzata_record` runs 17 queries whatever the size (15 on
  2026-11-22), all by primary key or by turno; `turno_start` 17 (13 then).
- **The Classifica page** is kept whole for an anonymous reader (issue 16): the median here is
  a warm request (the first one is the warm-up), 0.4–21 ms; its queries are those of the
  warm-up, the first reader after a close: 12 (4 on 2026-11-22, before the page read its
  header, footnote and the Verbali to confirm). The pages section above times it cold and warm.
- **Closing a turno** replays only its giornata: 67 queries on PostgreSQL and 70 on SQLite
  (45 and 50 on 2026-11-22; what a close does came to include, among others, the seats'
  figures and the members' `PlayerFigures` for the player page, the season's version for the
  caches and the Verbale's confirmations), the same at 1k and 10k. The cost that grows with
  the season is the Classifica refresh: its aggregate over the season's stored league points
  and the sums of the closing players' figures (the games section: ×2 in CPU from 40 to 2,000
  turni).
  **Reopening an early turno** replays the whole season (about 155 giornate at 5,000 turni):
  59–64 queries, and 65–68 to close it again.
- **The Verbale documents are stored** (README, "Stored documents"): the first request renders
  (PDF 3–20 s, XLSX 0.7–4 s under this load), the next ones are served from storage in 0.5–42 ms
  with 16 and 22 queries (the fingerprint of what the Verbale shows).

### What was slow, and what changed (November 2026)

The first runs, on the original code, at 1k and 10k turni (same harness; the 50k import was not
attempted: at ~55 turni/s it would take 15 minutes per backend):

| | 1k SQLite | 1k PostgreSQL | 10k SQLite | 10k PostgreSQL |
|---|---:|---:|---:|---:|
| import, turni/s (before → after) | 56 → 330 | 42 → 208 | 54 → 319 | 58 → 201 |
| import, peak RSS MB | 209 → 162 | 205 → 159 | 766 → 296 | 758 → 295 |
| `turno_reopen` giornata 1, ms | 6 732 → 264 | 9 412 → 273 | 26 020 → 924 | 31 296 → 865 |
| `turno_close` of it again, ms | 7 021 → 215 | 9 045 → 296 | 27 094 → 898 | 36 066 → 916 |
| `turno_close`, new last giornata, ms | 149 → 128 | 207 → 127 | 261 → 108 | 303 → 142 |

Why it was slow (pyinstrument):

1. **Import.** `season_import` scored the document with the engine, which also plays the whole
   season (`play_season`). It then wrote every row through `bulk_create`, about 0.15 ms of
   Python per `Result` row: 132 000 of them per 1 000 turni. Then `season_recompute` replayed
   the season a second time and rewrote every seat with `bulk_update`, whose
   `CASE WHEN id = … THEN …` expressions cost about 2 ms of Python per seat.
2. **Recompute** (every reopen, and every close of an earlier giornata). It loaded every closed
   turno of the season with its seats, players and sanctions as model instances (4–5 s for
   5 000 turni). It rewrote every seat with `bulk_update`, and deleted and re-inserted every
   title award and absence from the giornata on. It loaded the JSON state of every giornata
   when it needed one.

The changes (all in `scoring/services`, no schema change, no migration):

- `scoring/services/bulk.py` (new): `insert_rows` / `update_rows` / `delete_ids`. They write
  rows without model instances: `executemany` on SQLite; on PostgreSQL, `COPY` for inserts and
  `COPY` into a temporary table plus one `UPDATE … FROM` for updates of 200 rows or more.
- `season_import` stores the `SeasonResult` that `score_document` already computed: seats are
  written with their series, titles and league points, together with the giornate (lowest
  score, state after), the title awards and the absences. There is no second pass of the
  engine and no `season_recompute`; only `standings_refresh` runs. Rows are written 500 turni at
  a time, so one season of tuples, not of model instances, is in memory.
- `season_recompute` reads the closed turni and seats as plain values (`values_list`). It writes
  only the seats whose series, titles or league points changed, and adds or deletes only the
  title awards and absences that changed. It reads the state of one giornata only.
- `standings_refresh` gets the places before the last giornata (the movement arrows) as
  "now minus the last giornata": a small aggregate (`standings_aggregate(on=date)`, which
  selects that giornata and its turni by id so both databases use their indexes) instead of a
  second one over the whole season.

Checked three ways. (1) On both backends, a 300-turni season is imported, then a giornata-1
turno is reopened, and then two turni are played and closed on a new giornata. After each step
every stored row of 8 tables (seats, title awards, absences, giornate, standings, results,
smazzate, turni) is compared with what the original code stores: identical. (2) Every benchmark
run checks that reopen + close of the first turno leaves the season exactly as the import
stored it ("season identical" above). (3) `tests/integration/test_services.py` passes on SQLite
and on PostgreSQL.

### What remains slow

1. **The Classifica page: about 0.5 s for 300 members on 2026-11-22** (django-tables2 rendering
   300 rows × 16 columns): since issue 16 a plain loop (`scoring.tables.classifica_html`), the
   table kept in the shared cache by season version and the whole page kept for an anonymous
   reader (the pages section: 37 ms cold, under 1 ms warm).
2. **Verbale XLSX, about 0.6 s, and PDF, about 1 s, to render** (2026-11-22; openpyxl's styling
   of each cell and WeasyPrint's layout): rendered once per state of the Verbale and stored
   since (README, "Stored documents").
3. **Import: the engine is now half of the CPU time.** `score_turno` → `check_result` →
   `Deck.count_of` scans the deck three times on every smazzata (and again in
   `score_smazzata`). That is about 40 % of the engine's time, and caching the counts per deck
   would remove it (`scoring/rules/caf/ruleset.py`, outside these changes).
4. **Import on PostgreSQL: the foreign-key checks at COMMIT.** Django creates foreign keys
   `DEFERRABLE INITIALLY DEFERRED`, so the commit of one 5 000-turni season checks about 1.6
   million references, one index probe each. That takes 13–23 s of a 38–47 s import (measured
   on an empty and on a 65k-turni database, with the machine busy). It is the database's
   integrity check and is left in place. Both backends import the later seasons of the 50k set
   about 15 % slower than the first (PostgreSQL 212 → 183 turni/s, SQLite 312 → 266), because
   the indexes are bigger. An earlier run on a busy machine measured 212 → 119 on PostgreSQL.
5. **PostgreSQL scans every seat for a season-wide aggregate.** To sum a season's seats it
   chooses a sequential scan of `scoring_seat` (the whole database) and a hash join to the
   season's turni. So the floor query, `standings_aggregate` and therefore `turno_close` grow
   with the history of the club, not with the season: from 10k to 50k turni (2026-11-22) the
   floor goes from 21 to 81 ms, `standings_aggregate` from 40 to 104 ms and the close from 142
   to 203 ms. SQLite walks the turno index (floor 23 → 24 ms). The structural fix would be a
   `season` column on `Seat` (indexed with the player): proposed, not made, because it changes
   a table that every write path fills.
"""
