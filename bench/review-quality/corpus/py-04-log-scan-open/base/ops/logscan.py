import re
from pathlib import Path

ERROR = re.compile(r"\bERROR\b")


def log_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("app.log*"))
