"""Publishing a season's results (issue 17, part 5): the segretario's switch, logged."""

from __future__ import annotations

from django.db import transaction

from scoring.models import Season, SeasonEvent

PUBLISH = "publish"
UNPUBLISH = "unpublish"


@transaction.atomic
def season_publish(*, season: Season | int, published: bool, user=None) -> Season:
    """Publish (or withdraw) a season's results; the change is in the season's audit trail.
    Setting the value it already has changes and logs nothing."""
    season = Season.objects.select_for_update().get(
        pk=season.pk if isinstance(season, Season) else season
    )
    if season.published == published:
        return season
    season.published = published
    season.save(update_fields=["published"])
    SeasonEvent.objects.create(season=season, kind=PUBLISH if published else UNPUBLISH, user=user)
    return season
