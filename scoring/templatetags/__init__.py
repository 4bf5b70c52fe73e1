"""Template tags of kingclub."""
