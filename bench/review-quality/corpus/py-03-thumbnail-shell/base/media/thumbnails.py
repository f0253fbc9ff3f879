import logging
from pathlib import Path

log = logging.getLogger(__name__)

THUMBNAIL_SIZE = "256x256"


def thumbnail_path(original: Path) -> Path:
    return original.with_name(f"{original.stem}.thumb{original.suffix}")
