"""The role groups survive a flush: the demo seeding and the segreteria's permissions read them."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_keeps_the_role_groups_and_their_permissions():
    call_command("flush", interactive=False, verbosity=0)
    groups = Group.objects.filter(name__in=["Segretario", "Socio"])
    assert sorted(groups.values_list("name", flat=True)) == ["Segretario", "Socio"]
    # as migration 0004 left them: the screens check the group, never a model permission
    assert list(Permission.objects.filter(group__in=groups)) == []
