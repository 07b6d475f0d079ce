"""Which library modules each face imports: `python tools/face_imports.py [SRC]` (default: this tree's source).

A face is `cli/` or `web/`; the library is every other layer of `boardrecords`. Imports are read from the source
(module level and inside functions, relative ones resolved), so nothing is run. Prints, per face, how many distinct
library modules it names, those modules, and the face's imports of the other face.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FACES = ("cli", "web")


def package_root(src: Path) -> Path:
    """The folder holding `boardrecords`'s layers: src/boardrecords, or an older tree's root of layer folders."""
    return src / "src" / "boardrecords" if (src / "src" / "boardrecords").is_dir() else src


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["boardrecords", *parts])


def imports_of(root: Path, path: Path) -> set[str]:
    """Every boardrecords module `path` imports (for `from X import name`, X.name when that is a module)."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("boardrecords"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("boardrecords"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                as_path = root.joinpath(*sub.split(".")[1:])
                found.add(sub if as_path.with_suffix(".py").exists() or as_path.is_dir() else target)
    return found


def main(src: Path) -> int:
    root = package_root(src)
    for face in FACES:
        named: set[str] = set()
        for path in sorted((root / face).rglob("*.py")):
            named |= imports_of(root, path)
        library = sorted(m for m in named if m.split(".")[1] not in FACES)
        other = sorted(m for m in named if m.split(".")[1] in FACES and m.split(".")[1] != face)
        layers: dict[str, int] = {}
        for m in library:
            layers[m.split(".")[1]] = layers.get(m.split(".")[1], 0) + 1
        by_layer = ", ".join(f"{n} {layer}" for layer, n in sorted(layers.items()))
        print(f"{face}/: {len(library)} library modules ({by_layer}), {len(other)} modules of the other face")
        for m in library:
            print(f"  {m}")
        for m in other:
            print(f"  (other face) {m}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]))
