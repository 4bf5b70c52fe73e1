"""Issue 25, "Done when": ``makemessages`` leaves no untranslated English entry. The project's
sources are copied (templates, the ``scoring`` and ``kingclub`` packages, the catalogue) and
``makemessages -l en`` is run on the copy: every msgid it finds must have an English msgstr that
is not fuzzy (a fuzzy entry is msgmerge's guess from a near msgid: Django does not use it)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _strings(block: str, keyword: str) -> list[str]:
    """The strings of ``keyword`` (``msgid``, ``msgstr``, ``msgstr[0]``...) in a block, each
    joined from its continuation lines."""
    found = re.findall(rf'^{re.escape(keyword)} ((?:".*"\n?)+)', block + "\n", re.M)
    return ["".join(re.findall(r'"(.*)"', part)) for part in found]


def _entries(po: str) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) of every live entry (obsolete ``#~`` ones left out); an entry
    with plural forms gives one row a form (``msgstr[0]``, ``msgstr[1]``), each to translate."""
    out = []
    for block in po.split("\n\n"):
        if block.lstrip().startswith("#~"):
            continue
        msgid = "".join(_strings(block, "msgid"))
        if not msgid:
            continue
        forms = _strings(block, "msgstr") or [
            form for n in range(2) for form in _strings(block, f"msgstr[{n}]")
        ]
        out.extend((msgid, msgstr, "#, fuzzy" in block) for msgstr in forms or [""])
    return out


def test_the_reader_counts_every_form_of_a_plural_entry():
    po = (
        '#, python-format\nmsgid "%(n)s turno"\nmsgid_plural "%(n)s turni"\n'
        'msgstr[0] "%(n)s turno"\nmsgstr[1] ""\n\n'
        'msgid "Classifica"\nmsgstr ""\n"Standings"\n'
    )
    assert _entries(po) == [
        ("%(n)s turno", "%(n)s turno", False),
        ("%(n)s turno", "", False),
        ("Classifica", "Standings", False),
    ]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_makemessages_leaves_no_untranslated_english_entry(tmp_path):
    for part in ("manage.py", "kingclub", "scoring", "templates", "locale"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / part)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path), "SECRET_KEY": "x"},
    )
    po = (tmp_path / "locale/en/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    missing = [msgid for msgid, msgstr, fuzzy in _entries(po) if fuzzy or not msgstr]
    assert missing == []
