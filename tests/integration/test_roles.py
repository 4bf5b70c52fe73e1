"""The role groups survive a flush: the demo seeding and the segreteria's permissions read them."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_keeps_the_role_groups_and_their_permissions():
    call_command("flush", interactive=False, verbosity=0)
    segretario = Group.objects.get(name="Segretario")
    assert Group.objects.filter(name="Socio").exists()
    codenames = set(segretario.permissions.values_list("codename", flat=True))
    assert {"add_smazzata", "change_turno", "delete_penalita", "view_giornata"} <= codenames
    assert len(codenames) == 28
