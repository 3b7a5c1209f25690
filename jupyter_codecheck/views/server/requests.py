"""What a client may ask the server for: the body of `POST codecheck/check`, validated.

Every problem becomes a `RequestError` carrying the HTTP status and a message the user can act on,
raised before anything is queued, so that a bad request never occupies the worker.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields

from ...core.check import CheckOptions
from ...decoding.acceptance import AcceptanceRule
from ...decoding.sampler import SamplerChain
from ...decoding.exit_policy import make_policy

# Options the server owns: the model and the thread count pick the ONE engine every notebook
# shares (check() caches an engine per (model, n_threads)); `cancel` is the server's own Event.
SERVER_OWNED = frozenset({"model", "n_threads", "cancel"})

_JSON_TYPES = {
    "float": (int, float),
    "int": (int,),
    "bool": (bool,),
    "str": (str,),
    "None": (type(None),),
    "object": (str, type(None)),    # exit_policy: a policy name, or null for full depth
}

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class RequestError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class CheckRequest:
    source: str
    context: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    id: str | None = None           # client-chosen, so that it can cancel a check still running


def _option_types() -> dict[str, tuple[type, ...]]:
    """JSON types per client option, read from CheckOptions' annotations so the two never drift."""
    out = {}
    for f in fields(CheckOptions):
        if f.name in SERVER_OWNED:
            continue
        kinds: tuple[type, ...] = ()
        for part in str(f.type).split("|"):
            kinds += _JSON_TYPES.get(part.strip(), ())
        out[f.name] = kinds
    return out


OPTION_TYPES = _option_types()


def _type_names(kinds) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "a string",
             type(None): "null"}
    return " or ".join(dict.fromkeys(names[k] for k in kinds))


def parse_options(raw, *, server_model: str | None, allow_client_model: bool) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RequestError(400, f'"options" must be an object, got {type(raw).__name__}')
    options = {}
    for name, value in raw.items():
        if name == "model":
            # the panel sends its "model path" setting; it only matters when it differs from ours
            if value in (None, "") or value == server_model:
                continue
            if not allow_client_model:
                raise RequestError(
                    400, f"this server checks with {'the default model' if not server_model else server_model!r}; "
                    f"it does not load other models per request ({value!r} asked). Set "
                    "c.CodecheckServer.model (or allow_client_model) in the server config, or clear "
                    "the panel's model path setting.")
            options["model"] = value
            continue
        if name in SERVER_OWNED:
            raise RequestError(400, f"option {name!r} is set by the server, not per request")
        kinds = OPTION_TYPES.get(name)
        if kinds is None:
            raise RequestError(400, f"unknown option {name!r}; valid options: {', '.join(sorted(OPTION_TYPES))}")
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise RequestError(400, f"option {name!r} must be {_type_names(kinds)}, got {json.dumps(value)}")
        options[name] = value
    try:
        opts = CheckOptions.from_kwargs(**options)
        make_policy(options.get("exit_policy", "default"))
        # what check() builds from them, so that a bad value is refused here rather than failing
        # in the worker
        AcceptanceRule(prob=opts.accept_prob, rank=opts.accept_rank, argmax=opts.accept_argmax,
                       combine=opts.accept_combine, lenient_tokens=opts.lenient_tokens,
                       lenient_floor=opts.lenient_floor)
        SamplerChain(temperature=opts.temperature, top_k=opts.top_k, top_p=opts.top_p,
                     min_p=opts.min_p, seed=opts.seed)
    except (TypeError, ValueError) as e:
        raise RequestError(400, f"bad options: {e}") from None
    return options


def parse_check_request(body: bytes, *, max_bytes: int, server_model: str | None = None,
                        allow_client_model: bool = False) -> CheckRequest:
    if len(body) > max_bytes:
        raise RequestError(413, f"the request is {len(body)} bytes; this server accepts at most "
                                f"{max_bytes} (c.CodecheckServer.max_request_bytes). Check a smaller "
                                "cell, or fewer earlier cells as context.")
    try:
        data = json.loads(body)
    except UnicodeDecodeError as e:
        raise RequestError(400, f"the request body is not UTF-8 text: {e}") from None
    except json.JSONDecodeError as e:
        raise RequestError(400, f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise RequestError(400, f"the request must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - {"source", "context", "options", "id"})
    if unknown:
        raise RequestError(400, f"unknown field(s) {', '.join(unknown)}; expected source, context, options, id")
    source = data.get("source")
    if not isinstance(source, str):
        raise RequestError(400, '"source" (the cell\'s code, a string) is required')
    context = data.get("context") or []
    if not isinstance(context, list) or not all(isinstance(c, str) for c in context):
        raise RequestError(400, '"context" must be a list of strings (the earlier cells)')
    check_id = data.get("id")
    if check_id is not None and not (isinstance(check_id, str) and _ID.match(check_id)):
        raise RequestError(400, '"id" must be 1-64 characters of letters, digits, "_", "-", ".", ":"')
    options = parse_options(data.get("options"), server_model=server_model,
                            allow_client_model=allow_client_model)
    return CheckRequest(source=source, context=context, options=options, id=check_id)
