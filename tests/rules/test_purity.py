"""``rules`` is pure standard-library Python: no module imports anything else, and importing all of it pulls in
no numpy, OpenCV or Flask."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rules

RULES_DIR = Path(next(iter(rules.__path__)))  # a namespace package: no __init__.py
MODULES = sorted(RULES_DIR.rglob("*.py"))


def imported_names(path: Path) -> set[str]:
    """Top-level package names that a module imports (absolute imports only; relative ones stay inside)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_there_are_modules_to_check() -> None:
    assert {"dice.py", "notation.py", "legality.py", "game.py", "cli.py"} <= {p.name for p in MODULES}


def test_rules_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    foreign = {f"{path.relative_to(RULES_DIR)}: {name}" for path in MODULES for name in imported_names(path)
               if name not in allowed}
    assert foreign == set()


def test_importing_rules_loads_no_heavy_dependency() -> None:
    names = [f"rules.{p.relative_to(RULES_DIR).with_suffix('').as_posix().replace('/', '.')}" for p in MODULES
             if p.name != "__init__.py"]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in ('numpy', 'cv2', 'flask', 'PIL', 'torch', 'ultralytics', 'webui', 'vision')"
        " if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=RULES_DIR.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
