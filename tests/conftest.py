"""Shared fixtures."""

from __future__ import annotations

import pytest

from scoring.rules import caf


@pytest.fixture
def rules():
    return caf()
