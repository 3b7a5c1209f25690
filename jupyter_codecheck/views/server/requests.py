"""What a client may ask the server for: the body of `POST codecheck/check`, validated.

Every problem becomes a `RequestError` carrying the HTTP status and a message the user can act on,
raised before anything is queued, so that a bad request never occupies the worker.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ...core.options import CONTEXT_CHARS, OPTIONS, OptionError, option, validate
from ...facts import kernel_state
from ...core.long_sources import cell_check

# Options the server owns (scope "server" in the options contract): the model and the thread
# count pick the ONE engine every notebook shares; `cancel` and `namespace` are the program's own.
SERVER_OWNED = frozenset(o.name for o in OPTIONS if o.scope != "view")

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class HTTPProblem(Exception):
    """A problem the handlers answer with this HTTP status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class RequestError(HTTPProblem):
    """A request refused before anything is queued."""


@dataclass
class CheckRequest:
    source: str
    context: list[str] = field(default_factory=list)
    # the cells before the context, which the model does not read: what they define counts
    earlier: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    id: str | None = None           # client-chosen, so that it can cancel a check still running
    # with `cells`: where the notebook's context window started (the client sends it back with
    # its next cell, so that the model's reading of the earlier cells is reused)
    context_start: int | None = None


# what the notebook's kernel read for this cell (the server has no kernel: the panel asks it and
# sends its answer, views/panel_kernel.py): its state (names it defines, facts on its objects,
# which state they describe: KernelState.to_dict()), cells that failed; and the cells after this
# one (run order)
STATE_FIELDS = ("names", "facts", "objects")
KERNEL_FIELDS = ("later", "failed", *STATE_FIELDS)


def _kernel_fields(data: dict) -> dict:
    given = {k: data[k] for k in ("later", "failed") if data.get(k) is not None}
    try:
        out = validate(given, scope="api")
    except OptionError as e:
        raise RequestError(400, f"bad kernel fields: {e}") from None
    if any(data.get(k) is not None for k in STATE_FIELDS):
        try:
            out["namespace"] = kernel_state(data.get("names") or (), facts=data.get("facts"),
                                            when=data.get("objects"))
        except (TypeError, ValueError) as e:      # named as the request names them
            message = str(e).replace("namespace:", "names:", 1).replace("when:", "objects:", 1)
            raise RequestError(400, f"bad kernel fields: {message}") from None
    return out


def parse_options(raw, *, server_model: str | None, allow_client_model: bool) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RequestError(400, f'"options" must be an object, got {type(raw).__name__}')
    options, model = {}, {}
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
            if not isinstance(value, str):
                raise RequestError(400, f"bad options: model: {value!r} is not {option('model').expected()}")
            model["model"] = value
            continue
        if name in SERVER_OWNED:
            raise RequestError(400, f"option {name!r} is set by the server, not per request")
        options[name] = value
    try:
        return {**validate(options, scope="server"), **model}
    except OptionError as e:
        raise RequestError(400, f"bad options: {e}") from None


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
    unknown = sorted(set(data) - {"source", "context", "earlier", "options", "id", *KERNEL_FIELDS, *NOTEBOOK_FIELDS})
    if unknown:
        raise RequestError(400, f"unknown field(s) {', '.join(unknown)}; expected source, context, earlier, "
                                f"options, id, {', '.join(KERNEL_FIELDS)}, {', '.join(NOTEBOOK_FIELDS)}")
    context_start = None
    if data.get("cells") is not None:
        data, context_start = _from_cells(data)
    source = data.get("source")
    if not isinstance(source, str):
        raise RequestError(400, '"source" (the cell\'s code, a string) is required')
    context = data.get("context") or []
    if not isinstance(context, list) or not all(isinstance(c, str) for c in context):
        raise RequestError(400, '"context" must be a list of strings (the earlier cells)')
    earlier = data.get("earlier") or []
    if not isinstance(earlier, list) or not all(isinstance(c, str) for c in earlier):
        raise RequestError(400, '"earlier" must be a list of strings (the cells before the context)')
    for name, texts in (("source", [source]), ("context", context), ("earlier", earlier)):
        for text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as e:     # a JSON escape such as "\ud800": no character
                raise RequestError(400, f'"{name}" holds a lone surrogate ({text[e.start]!r} at '
                                        f'character {e.start}), which is not text') from None
    check_id = data.get("id")
    if check_id is not None and not (isinstance(check_id, str) and _ID.match(check_id)):
        raise RequestError(400, '"id" must be 1-64 characters of letters, digits, "_", "-", ".", ":"')
    options = parse_options(data.get("options"), server_model=server_model,
                            allow_client_model=allow_client_model)
    options.update(_kernel_fields(data))
    options.setdefault("notebook", True)      # the panel checks notebook cells
    return CheckRequest(source=source, context=context, earlier=earlier, options=options, id=check_id,
                        context_start=context_start)


# the notebook as the client sees it: its code cells in order and which one to check; the server
# picks the context the way every view does (core.long_sources.cell_check)
NOTEBOOK_FIELDS = ("cells", "index", "context_start", "context_chars")


def _from_cells(data: dict) -> tuple[dict, int]:
    cells, index = data.get("cells"), data.get("index")
    if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
        raise RequestError(400, '"cells" must be a list of strings (the notebook\'s code cells, in order)')
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(cells):
        raise RequestError(400, f'"index" must be the checked cell\'s position in "cells" (0 to {len(cells) - 1})')
    taken = [k for k in ("context", "earlier", "later") if data.get(k)]
    if taken:
        raise RequestError(400, f'"cells" and {", ".join(taken)} exclude each other: the server '
                                'picks the context from the cells')
    if "source" in data and data["source"] != cells[index]:
        raise RequestError(400, '"source" differs from cells[index]; send one of them')
    numbers = {}
    for key, default, low in (("context_start", 0, 0), ("context_chars", CONTEXT_CHARS, 1)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise RequestError(400, f'"{key}" must be a whole number >= {low}')
        numbers[key] = value
    job, start = cell_check(cells, index, numbers["context_start"], numbers["context_chars"])
    given = {k: v for k, v in data.items() if k not in NOTEBOOK_FIELDS}
    return {**given, "source": job.unit.source, "context": job.context, "earlier": job.before,
            "later": job.later or None}, start
