"""The engine: GGUF model, sessions with a per-layer exit hook, the model's tokenizer."""
from .errors import EngineError, GGUFError
from .model import Model, ModelInfo
from .paths import ModelNotFoundError, default_model_path
from .session import BatchResult, HeadResult, LayerStep, Session

__all__ = ["Model", "ModelInfo", "Session", "LayerStep", "BatchResult", "HeadResult",
           "EngineError", "GGUFError", "ModelNotFoundError", "default_model_path"]
