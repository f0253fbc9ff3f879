import secrets

MIN_LENGTH = 12


def check_strength(password: str) -> list[str]:
    problems = []
    if len(password) < MIN_LENGTH:
        problems.append(f"at least {MIN_LENGTH} characters")
    if password.lower() == password:
        problems.append("an upper-case letter")
    return problems
