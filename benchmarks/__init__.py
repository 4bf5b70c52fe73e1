"""Benchmarks of kingclub at federation scale: ``python -m benchmarks.run`` (``make bench``).

See docs/benchmarks.md for the results and how they are measured.
"""
