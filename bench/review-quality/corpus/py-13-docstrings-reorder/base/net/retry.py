import random
import time


def _delay(attempt: int, base: float) -> float:
    return base * (2**attempt) * random.uniform(0.5, 1.5)


def retry(operation, attempts: int = 3, base: float = 0.2):
    for attempt in range(attempts):
        try:
            return operation()
        except ConnectionError:
            if attempt == attempts - 1:
                raise
            time.sleep(_delay(attempt, base))
