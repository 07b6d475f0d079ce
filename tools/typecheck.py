"""mypy over the layers under their installed names: `python tools/typecheck.py [mypy options]`.

mypy names a module after its folders and knows no package-dir mapping, so the layers are shown to it as the
installed package: build/typecheck/boardrecords/<layer> links to each layer's folder, made afresh on every run from
setup.py's mapping (nothing to keep in step by hand). Messages name the files through those links, from
build/typecheck/.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def layer_folders() -> dict[str, Path]:
    """Each top-level sub-package of `boardrecords` and its folder, from setup.py."""
    spec = importlib.util.spec_from_file_location("package_layout", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layout)  # not run as __main__: only the mapping is defined
    packages: dict[str, str] = layout.package_dirs(ROOT)
    return {name.split(".")[1]: ROOT / folder for name, folder in packages.items() if name.count(".") == 1}


def main(argv: list[str]) -> int:
    from mypy import api

    tree = ROOT / "build" / "typecheck" / "boardrecords"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    for layer, folder in layer_folders().items():
        (tree / layer).symlink_to(folder, target_is_directory=True)
    os.chdir(tree.parent)  # module names start at boardrecords
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--namespace-packages",
                                "--explicit-package-bases", "--cache-dir", str(ROOT / ".mypy_cache"), *argv,
                                "boardrecords"])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
