"""Shared paths and fixtures of the Python suite.

Inputs are real PTX: the repository's examples/, the library's test data
(fatbins, inline-asm C++) and, by path, ../shared/corpus. A test that needs
../shared skips with a note when it is absent, but fails under CI
(CI=true), like the Rust suites.
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
DATA = ROOT / "crates" / "ptxkit" / "tests" / "data"
SHARED = ROOT.parent / "shared"
KOKKOS = (SHARED / "corpus" / "jialunzhang-psu__ptx-90-parser"
          / "tests__sample__matrix_free_device_matrix_vector_01.1.sm_80.ptx")


def under_ci():
    return os.environ.get("CI") in ("true", "1")


def need(what, why):
    """Skip (or, under CI, fail) because `what` is missing."""
    msg = f"note: {what} not available ({why}); test skipped"
    if under_ci():
        pytest.fail(msg.replace("test skipped", "required under CI"))
    print(msg)
    pytest.skip(msg)


@pytest.fixture
def corpus():
    """The ../shared/corpus folder."""
    d = SHARED / "corpus"
    if not d.is_dir():
        need(str(d), "../shared is not laid beside the repository")
    return d


@pytest.fixture
def kokkos(corpus):
    """Path of the ~1 MB module of the corpus (issue #29's benchmark)."""
    if not KOKKOS.is_file():
        need(str(KOKKOS), "not in this corpus")
    return KOKKOS
