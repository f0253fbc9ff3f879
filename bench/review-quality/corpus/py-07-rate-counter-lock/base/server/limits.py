import threading
import time


class RateCounter:
    """Requests per client in the current minute, shared by the server's worker threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._minute = int(time.time() // 60)

    def _roll(self) -> None:
        minute = int(time.time() // 60)
        if minute != self._minute:
            self._minute = minute
            self._counts.clear()

    def count(self, client: str) -> int:
        with self._lock:
            self._roll()
            return self._counts.get(client, 0)
