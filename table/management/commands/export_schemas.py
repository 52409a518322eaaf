import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from table.protocol import json_schemas


def schema_files() -> dict[Path, str]:
    out = {}
    for name, schema in json_schemas().items():
        path = Path(settings.BASE_DIR) / "docs" / "schemas" / f"{name}.schema.json"
        out[path] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out


class Command(BaseCommand):
    help = "Write the JSON Schemas of the websocket commands into docs/schemas/."

    def handle(self, *args: Any, **options: Any) -> None:
        for path, text in schema_files().items():
            path.write_text(text)
            self.stdout.write(f"wrote {path}")
