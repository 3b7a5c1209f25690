"""check() options given on a benchmark's command line: `--option name=value`, the value read as
JSON where it is JSON (numbers, booleans, lists), else kept as text."""
from __future__ import annotations

import argparse
import json


def parse_option(text: str) -> tuple[str, object]:
    name, eq, value = text.partition("=")
    if not eq:
        raise argparse.ArgumentTypeError(f"--option takes name=value, got {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value
