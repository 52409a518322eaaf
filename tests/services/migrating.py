"""Running the migrations back and forth in a migration's test."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; the apps (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def around(migration: tuple[str, str]) -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """The migration just before ``migration``, and the latest ones (to go back to after)."""
    executor = MigrationExecutor(connection)
    before = sorted(executor.loader.graph.node_map[migration].parents)[0].key
    return before, executor.loader.graph.leaf_nodes()
