"""The .pyi stubs agree with the native module (mypy's stubtest): every
class, method, property and signature in both, and nothing else."""

import os
import pathlib
import subprocess
import sys

from conftest import ROOT, need

ALLOWLIST = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")


def test_stubs_match_the_module(tmp_path):
    try:
        import mypy.stubtest  # noqa: F401
    except ImportError as e:
        need("mypy", f"cannot import it: {e}")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "ptxkit._ptxkit", "--allowlist", str(ALLOWLIST)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "MYPY_CACHE_DIR": str(ROOT / "target" / "py-mypy-cache")},
    )
    assert r.returncode == 0, r.stdout + r.stderr
