import csv
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Contact:
    name: str
    email: str
    phone: str | None


def read_contacts(path: Path) -> list[Contact]:
    contacts = []
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            name = row["name"].strip()
            email = row["email"].strip().lower()
            phone = row.get("phone", "").strip() or None
            contacts.append(Contact(name, email, phone))
    return contacts
