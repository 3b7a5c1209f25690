"""What the package claims of itself: the Python versions in pyproject.toml, its Jupyter entry
points. No model needed."""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import jupyter_codecheck

PACKAGE = Path(jupyter_codecheck.__file__).resolve().parent
REPO = Path(__file__).resolve().parents[1]       # the source tree (the package may be installed)

# standard-library names newer than the oldest Python pyproject.toml claims (3.10): module ->
# names (None: the module itself)
NEWER_THAN_310 = {
    "typing": {"Self", "LiteralString", "Never", "assert_never", "assert_type", "reveal_type",
               "Required", "NotRequired", "TypeVarTuple", "Unpack", "dataclass_transform",
               "override", "get_overloads", "clear_overloads"},
    "tomllib": None,
    "enum": {"StrEnum", "ReprEnum", "verify", "global_enum", "EnumCheck", "FlagBoundary"},
    "asyncio": {"TaskGroup", "timeout", "timeout_at", "Runner", "Barrier"},
    "contextlib": {"chdir"},
    "datetime": {"UTC"},
    "hashlib": {"file_digest"},
    "operator": {"call"},
    "itertools": {"batched"},
    "wsgiref.types": None,
}
BUILTINS_NEWER_THAN_310 = {"ExceptionGroup", "BaseExceptionGroup"}


def _sources():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def _newer_uses(path: Path) -> list[str]:
    """Uses of 3.11+ standard-library names and syntax in one file, as 'line: what'."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    aliases = {}                                   # local name -> module, for `import x as y`
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in NEWER_THAN_310 and NEWER_THAN_310[a.name] is None:
                    found.append(f"{node.lineno}: import {a.name}")
                aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in NEWER_THAN_310:
            newer = NEWER_THAN_310[node.module]
            for a in node.names:
                if newer is None or a.name in newer:
                    found.append(f"{node.lineno}: from {node.module} import {a.name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = aliases.get(node.value.id)
            if module in NEWER_THAN_310 and node.attr in (NEWER_THAN_310[module] or ()):
                found.append(f"{node.lineno}: {module}.{node.attr}")
        elif isinstance(node, ast.Name) and node.id in BUILTINS_NEWER_THAN_310:
            found.append(f"{node.lineno}: {node.id}")
        elif type(node).__name__ == "TryStar":
            found.append(f"{node.lineno}: except*")
    return [f"{path.relative_to(PACKAGE)}:{f}" for f in found]


def _claimed_minimum() -> tuple[int, int]:
    text = (REPO / "pyproject.toml").read_text()
    m = re.search(r'^requires-python\s*=\s*">=\s*(\d+)\.(\d+)"', text, re.MULTILINE)
    assert m, "pyproject.toml names no requires-python lower bound"
    return int(m.group(1)), int(m.group(2))


def test_the_package_uses_nothing_newer_than_the_python_it_claims():
    """pyproject.toml claims 3.10: a name newer than that (typing.Self is 3.11) would keep the
    engine from importing there. CI runs 3.11 only: this is what holds the claim."""
    assert _claimed_minimum() == (3, 10)
    assert [use for path in _sources() for use in _newer_uses(path)] == []


def _python310() -> str | None:
    """A working Python 3.10 (a pyenv shim may exist for a version that is not selected)."""
    for candidate in ("python3.10", os.path.expanduser("~/.pyenv/versions/3.10.13/bin/python")):
        path = shutil.which(candidate)
        if path is None:
            continue
        try:
            run = subprocess.run([path, "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30, check=False)
        except OSError:
            continue
        if run.returncode == 0 and run.stdout.strip() == "(3, 10)":
            return path
    return None


def test_every_module_compiles_under_python_310(tmp_path):
    """The syntax half of the claim, on a real 3.10 interpreter when the machine has one."""
    python = _python310()
    if python is None:
        pytest.skip("no Python 3.10 interpreter on this machine")
    script = ("import sys, pathlib\n"
              "assert sys.version_info[:2] == (3, 10), sys.version\n"
              "bad = []\n"
              "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n"
              "    try:\n"
              "        compile(p.read_text(encoding='utf-8'), str(p), 'exec')\n"
              "    except SyntaxError as e:\n"
              "        bad.append(f'{p}: {e}')\n"
              "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n")
    run = subprocess.run([python, "-c", script, str(PACKAGE)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_server_extension_is_declared_once_and_loads():
    """`_jupyter_server_extension_points` is defined on the package only (a second definition
    in views/server could disagree). The config enables the package; jupyter_server finds the
    loader through the package's one declaration."""
    import json

    from jupyter_server.extension.manager import ExtensionPackage

    from jupyter_codecheck.views import server
    config = json.loads((REPO / "jupyter-config" / "jupyter_server_config.d" /
                         "jupyter_codecheck.json").read_text())
    assert config["ServerApp"]["jpserver_extensions"] == {"jupyter_codecheck": True}
    package = ExtensionPackage(name="jupyter_codecheck", enabled=True)
    assert package.validate()
    assert list(package.extension_points) == ["jupyter_codecheck.views.server"]
    assert callable(server._load_jupyter_server_extension)
    declared = [p.relative_to(PACKAGE) for p in _sources()
                if "def _jupyter_server_extension_points" in p.read_text(encoding="utf-8")]
    assert declared == [Path("__init__.py")]


def test_llama_cpp_is_only_the_reference_of_the_tests_and_benchmarks():
    """A user's install compiles no llama.cpp: ggml is built alone (native/ggml.cmake) and the
    tokenizer reads the GGUF; llama-cpp-python is what the tests and benchmarks compare with."""
    import tomllib
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())

    def pins(requirements):
        return [r for r in requirements if re.match(r"llama[-_]cpp[-_]python\b", r)]
    assert pins(meta["project"]["dependencies"]) == []
    assert pins(meta["build-system"]["requires"]) == []
    extras = meta["project"]["optional-dependencies"]
    assert len(pins(extras["test"])) == 1 and pins(extras["test"]) == pins(extras["bench"])


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/self/maps (Linux)")
def test_a_new_process_runs_the_engine_on_the_ggml_installed_beside_it():
    code = ("import sys; import jupyter_codecheck.engine._native as n; print(n.library_path.parent); "
            "print(sorted({l.split()[-1] for l in open('/proc/self/maps') if 'libggml' in l})); "
            "print('llama_cpp' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "JUPYTER_CODECHECK_NATIVE_LIB")}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    engine_dir, libs, llama_cpp_loaded = run.stdout.strip().split("\n")
    libs = ast.literal_eval(libs)
    assert {Path(p).name for p in libs} >= {"libggml-base.so.0", "libggml-cpu.so.0"}
    assert {str(Path(p).parent) for p in libs} == {engine_dir}
    assert llama_cpp_loaded == "False"
