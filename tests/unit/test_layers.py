"""The import contracts of pyproject.toml ([tool.importlinter], docs/architecture.md) hold.

import-linter reads every import statement of a module, those inside functions included, so a
renderer that imports a service in a function body breaks the contract as a top-level import
does. The second test proves it on a copy of the package with such an import added.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_are_kept():
    proc = lint_imports(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_an_import_of_a_service_inside_a_renderer_function_breaks_the_contracts(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(
        ROOT / "scoring", tmp_path / "scoring", ignore=shutil.ignore_patterns("__pycache__")
    )
    csv = tmp_path / "scoring" / "exports" / "csv.py"
    csv.write_text(
        csv.read_text()
        + "\n\ndef _sneaky() -> None:\n    from scoring.services.turni import turno_close  # noqa\n"
    )
    proc = lint_imports(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Renderers and read models import no services BROKEN" in proc.stdout
    assert "Layers: rules < models < read models < renderers < services < views BROKEN" in (
        proc.stdout
    )
    assert "scoring.exports.csv -> scoring.services.turni" in proc.stdout
