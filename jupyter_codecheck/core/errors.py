"""The errors a check may raise that views handle (the engine's, named here so that views need not
import the engine)."""
from ..engine.errors import ContextFullError, EngineError, GGUFError
from ..engine.paths import ModelNotFoundError
from .options import OptionError, UnknownOption


class NotTextError(UnicodeError):
    """A source that holds a lone surrogate (a str from bytes decoded with 'surrogateescape', or
    a JSON escape such as "\\ud800"): no tokenizer, and no Python file, can hold it."""

    @classmethod
    def check(cls, text: str, what: str) -> None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            line = text.count("\n", 0, e.start) + 1
            column = e.start - (text.rfind("\n", 0, e.start) + 1) + 1
            raise cls(f"{what} holds a lone surrogate ({text[e.start]!r}) at line {line}, column "
                      f"{column}, which is not text: decode the file as UTF-8 with errors='replace', "
                      "or fix its encoding") from None


__all__ = ["ContextFullError", "EngineError", "GGUFError", "ModelNotFoundError", "NotTextError",
           "OptionError", "UnknownOption"]
