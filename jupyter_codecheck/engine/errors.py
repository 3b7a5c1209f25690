"""Exceptions raised by the engine. Each GGUF problem has its own class; all carry `.offset`
(byte offset in the file, or None) and `.key` (metadata key or tensor name, or None)."""
from __future__ import annotations


class EngineError(RuntimeError):
    """Base class of every error the native engine reports."""

    def __init__(self, message: str, *, code: int = 0, offset: int | None = None,
                 key: str | None = None):
        super().__init__(message)
        self.code = code
        self.offset = offset
        self.key = key


class GGUFError(EngineError, ValueError):
    """The model file is not a GGUF file we can use."""


class EmptyFileError(GGUFError): ...
class BadMagicError(GGUFError): ...
class UnsupportedVersionError(GGUFError): ...
class TruncatedFileError(GGUFError): ...
class MetadataError(GGUFError): ...
class TensorInfoError(GGUFError): ...
class TensorOffsetError(GGUFError): ...
class UnsupportedArchitectureError(GGUFError): ...
class MissingTensorError(GGUFError): ...
class TensorShapeError(GGUFError): ...
class TensorTypeError(GGUFError): ...
class UnsupportedTokenizerError(GGUFError):
    """The GGUF's vocabulary is not one the tokenizer reads: `key` names the metadata key
    (tokenizer.ggml.model: not byte-level BPE; tokenizer.ggml.pre: a pre-tokenizer it does not know)."""


class ContextFullError(EngineError):
    """The sequence would exceed the context size (n_ctx)."""


class EngineStateError(EngineError):
    """A call made in the wrong state (e.g. stepping with no batch)."""


# cc_status codes (native/include/codecheck.h) -> exception class
BY_CODE: dict[int, type[EngineError]] = {
    -1: EngineError, -2: EmptyFileError, -3: BadMagicError, -4: UnsupportedVersionError,
    -5: TruncatedFileError, -6: MetadataError, -7: TensorInfoError, -8: TensorOffsetError,
    -9: UnsupportedArchitectureError, -10: MissingTensorError, -11: TensorShapeError,
    -12: TensorTypeError, -13: EngineError, -14: EngineStateError, -15: ContextFullError,
    -16: EngineError, -17: MemoryError,
}
