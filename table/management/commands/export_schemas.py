import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from table import frames
from table.protocol import json_schemas


def schema_files() -> dict[Path, str]:
    """Every schema file: the commands a client sends (:mod:`table.protocol`) and the frames
    the server sends (:mod:`table.frames`)."""
    out = {}
    for name, schema in {**json_schemas(), **frames.json_schemas()}.items():
        path = Path(settings.BASE_DIR) / "docs" / "schemas" / f"{name}.schema.json"
        out[path] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out


class Command(BaseCommand):
    help = "Write the JSON Schemas of the websocket commands and frames into docs/schemas/."

    def handle(self, *args: Any, **options: Any) -> None:
        for path, text in schema_files().items():
            path.write_text(text)
            self.stdout.write(f"wrote {path}")
