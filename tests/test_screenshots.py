"""The README's images (docs/*.png) are drawn only when asked, by `make screenshots`: the browser
tests save what they draw in a temporary directory (their `screenshots` fixture, unless
CODECHECK_SCREENSHOTS names one), so that `make test` leaves the tracked images as they are."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BROWSER = REPO / "tests" / "browser"


def _screenshot_paths(path: Path) -> list[tuple[int, str]]:
    """(line, the `path=` expression) of every `.screenshot(...)` call in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "screenshot":
            target = next((k.value for k in node.keywords if k.arg == "path"), None)
            found.append((node.lineno, ast.unparse(target) if target is not None else ""))
    return found


def test_browser_tests_save_screenshots_outside_the_source_tree():
    calls = {p.name: _screenshot_paths(p) for p in sorted(BROWSER.glob("test_*.py"))}
    assert any(calls.values()), "no browser test takes a screenshot: this test looks in the wrong place"
    outside = re.compile(r"\b(screenshots|tmp_path)\b")
    wrong = [f"{name}:{line}: {expr}" for name, found in calls.items() for line, expr in found
             if not outside.search(expr)]
    assert not wrong, "a browser test writes its screenshot into the source tree:\n" + "\n".join(wrong)


def test_every_readme_image_is_drawn_by_make_screenshots():
    shown = set(re.findall(r"\]\(docs/([\w.-]+\.png)\)", (REPO / "README.md").read_text()))
    assert shown
    target = re.search(r"^screenshots:.*\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(), re.MULTILINE)
    assert target, "the Makefile has no `screenshots` target"
    assert "CODECHECK_SCREENSHOTS=$(abspath docs)" in target.group(1)
    drawers = [p for p in BROWSER.glob("*.py") if p.name.startswith("test_") or p.name in target.group(1)]
    drawn = {name for p in drawers for name in re.findall(r'"([\w.-]+\.png)"', p.read_text())}
    assert shown <= drawn, f"README images no browser test or script of `make screenshots` draws: {shown - drawn}"
