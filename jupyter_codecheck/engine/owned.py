"""Objects that own native memory (a model, a session, a tokenizer) and free it in `close()`."""
from __future__ import annotations

from typing import TypeVar

_Owned = TypeVar("_Owned", bound="Owned")   # typing.Self is 3.11+; we support 3.10


class Owned:
    """Frees its native memory in `close()` (idempotent), which also runs at the end of a `with`
    block and when the object is collected."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Owned) -> _Owned:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter shutdown the native module may be gone
            pass
