import json
import os
from pathlib import Path

DEFAULTS = {"debug": False, "workers": 4, "log_level": "info"}


def load(path: Path) -> dict:
    settings = dict(DEFAULTS)
    if path.exists():
        settings.update(json.loads(path.read_text(encoding="utf-8")))
    if "APP_WORKERS" in os.environ:
        settings["workers"] = int(os.environ["APP_WORKERS"])
    return settings
