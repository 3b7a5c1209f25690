"""The errors a check may raise that views handle (the engine's, named here so that views need not
import the engine)."""
from ..engine.errors import ContextFullError, EngineError, GGUFError
from ..engine.paths import ModelNotFoundError
from .options import OptionError, UnknownOption
from ..pytext.sources import NotTextError


__all__ = ["ContextFullError", "EngineError", "GGUFError", "ModelNotFoundError", "NotTextError",
           "OptionError", "UnknownOption"]
