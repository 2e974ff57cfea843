"""Hostile input from Python: errors are ptxkit.Error (never a
PanicException, which ``except Exception`` lets through), and the work
grows linearly, in a child under an address-space limit."""

import os
import struct
import subprocess
import sys
import textwrap

import pytest

import ptxkit
from conftest import EXAMPLES

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"


def test_errors_are_value_errors():
    assert issubclass(ptxkit.Error, ValueError)
    assert issubclass(ptxkit.InternalError, ptxkit.Error)


def test_a_path_that_is_not_text_is_an_error():
    # pyo3's own path conversion panicked on a lone surrogate.
    with pytest.raises(ptxkit.Error):
        ptxkit.parse_file("\ud800")
    m = ptxkit.parse(HEADER, path="\ud800")
    assert m.path is not None
    with pytest.raises(ptxkit.Error):
        ptxkit.check_asm_file("\ud800")


def test_text_that_is_not_unicode_is_an_error():
    # A lone surrogate cannot be UTF-8: it raised UnicodeEncodeError, which
    # `except ptxkit.Error` did not catch.
    for f in (ptxkit.parse, ptxkit.check_asm):
        with pytest.raises(ptxkit.Error, match="not valid Unicode"):
            f(HEADER + "// \ud800\n")
        with pytest.raises(ValueError):
            f("\udfff")


def test_names_that_are_not_unicode_are_errors():
    # A str argument with a lone surrogate raised pyo3's UnicodeEncodeError
    # before the function ran; every text argument now raises ptxkit.Error.
    bad = "\ud800"
    m = ptxkit.parse(EXAMPLES.joinpath("vector_add.ptx").read_text())
    inst = m.functions[0].instructions[0]
    calls = [
        lambda: m.function(bad),
        lambda: m.cfg(bad),
        lambda: m.resources(bad),
        lambda: m.stats(bad),
        lambda: m.grep(bad),
        lambda: m.check(target=bad),
        lambda: m.callgraph().reachable(bad),
        lambda: inst.group(bad),
        lambda: inst.operand(bad),
        lambda: ptxkit.explain(bad),
        lambda: ptxkit.explain_dict(bad),
        lambda: ptxkit.check_asm("", targets=[bad]),
        lambda: ptxkit.check_asm("", defines={bad: "1"}),
        lambda: ptxkit.check_asm("", defines={"A": bad}),
        lambda: ptxkit.extract(b"", arch=bad),
        lambda: ptxkit.resource_usage(b"", arch=bad),
        lambda: ptxkit.compat([], gpus=[bad]),
        lambda: ptxkit.compat([], driver=bad),
    ]
    for call in calls:
        with pytest.raises(ptxkit.Error, match="not valid Unicode"):
            call()
    # Not a str at all is still a TypeError.
    with pytest.raises(TypeError):
        m.function(3)


def test_paths_in_lists_that_are_not_text_are_errors():
    # pyo3's PathBuf conversion panicked (PanicException) on a lone
    # surrogate inside a list of paths.
    with pytest.raises(ptxkit.Error):
        ptxkit.compat(["\ud800"])
    with pytest.raises(ptxkit.Error):
        ptxkit.check_asm("", include_dirs=["\ud800"])


def test_a_huge_indent_is_an_error():
    # " " * indent was built before any bound: 2**32 - 1 aborted the
    # interpreter on its allocation, 2**63 raised InternalError.
    m = ptxkit.parse(HEADER)
    assert m.to_json(indent=1024).startswith("{")
    for n in (1025, 2**32 - 1, 2**63):
        with pytest.raises(ptxkit.Error, match="indent"):
            m.to_json(indent=n)


def zstd_bomb(blocks, claimed):
    """A fatbin of one zstd entry of RLE blocks (128 KiB for 4 bytes)."""
    frame = struct.pack("<I", 0xFD2FB528) + bytes([0, 7 << 3])
    for i in range(blocks):
        h = (1 if i == blocks - 1 else 0) | (1 << 1) | ((128 << 10) << 3)
        frame += struct.pack("<I", h)[:3] + b"a"
    payload = frame + b"\0" * (-len(frame) % 8)
    entry = struct.pack(
        "<HHIQIIHHIIIQQQ", 1, 0x0101, 64, len(payload), len(frame), 0, 0, 8, 90,
        0, 0, 0x8011, 0, claimed,
    ) + payload
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entry)) + entry


def test_a_decompression_bomb_is_entry_too_large():
    bomb = zstd_bomb(40_000, 40_000 * (128 << 10))
    (e,) = ptxkit.fatbin_entries(bomb)
    with pytest.raises(ptxkit.Error, match="entry too large"):
        e.text


CHILD = textwrap.dedent(
    """
    import resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    import ptxkit
    n = int(sys.argv[1])
    s = [".version 8.0\\n.target sm_90\\n.address_size 64\\n"]
    for i in reversed(range(n)):
        call = f"\\tcall f{i + 1};\\n" if i + 1 < n else ""
        s.append(f".func f{i}()\\n{{\\n\\t.local .b8 b[4];\\n{call}\\tret;\\n}}\\n")
    s.append(".visible .entry k()\\n{\\n\\tcall f0;\\n\\tret;\\n}\\n")
    m = ptxkit.parse("".join(s))
    t = time.perf_counter()
    r = m.resources("k")
    m.cfg("k")
    m.check()
    print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """
)


def run_child(n):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n)],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout.split()
    return float(out[0]), int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_resources_grow_linearly_with_call_depth():
    # A chain of 5,000 calls took over a minute (cubic).
    small_t, small_m = run_child(500)
    big_t, big_m = run_child(5_000)
    assert big_t <= 30 * small_t + 1.0, (small_t, big_t)
    assert big_m <= 30 * small_m, (small_m, big_m)


def test_did_you_mean_costs_the_length_of_the_word():
    # Edit distance and Jaro-Winkler against every catalog name, each the
    # product of the lengths: a 10 MB word took 76 s.
    import time

    t = time.perf_counter()
    with pytest.raises(ptxkit.Error, match="no instruction named"):
        ptxkit.explain("a" * 10_000_000)
    assert time.perf_counter() - t < 10


def test_to_dict_leaves_the_garbage_collector_as_it_was():
    import gc

    m = ptxkit.parse_file(EXAMPLES / "calls.ptx")
    assert gc.isenabled()
    assert m.to_dict()["items"]
    assert gc.isenabled()
    gc.disable()
    try:
        m.to_dict()
        assert not gc.isenabled()
    finally:
        gc.enable()
