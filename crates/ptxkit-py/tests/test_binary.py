"""extract (`ptx extract`) and reading CUDA binaries."""

import pytest

import ptxkit
from conftest import DATA

BIN = DATA / "binary"


@pytest.mark.parametrize("mode", ["none", "default", "speed", "size", "balance"])
def test_fatbin_ptx_is_byte_identical(mode):
    es = ptxkit.extract(BIN / f"saxpy.{mode}.fatbin")
    assert [e.arch for e in es] == ["sm_80", "sm_90a"]
    assert [e.number for e in es] == [1, 2]
    for e in es:
        assert e.kind == "ptx"
        assert e.text.encode() == (BIN / f"saxpy.{e.arch}.ptx").read_bytes()
        assert e.parse().check() == []
    assert es[0].compression == {"none": "none", "speed": "lz4"}.get(mode, es[0].compression)


def test_bytes_input_and_selection():
    raw = (BIN / "saxpy.default.fatbin").read_bytes()
    (e,) = ptxkit.extract(raw, arch="sm_90a")
    assert e.name == "<bytes>#2.sm_90a" and e.ptx_version.count(".") == 1
    assert ptxkit.extract(raw, entry=1)[0].arch == "sm_80"
    assert ptxkit.extract(raw, arch="75") == []


def test_object_and_listing():
    (e,) = ptxkit.extract(BIN / "saxpy.rdc.o")
    assert e.text.encode() == (BIN / "saxpy.rdc.sm_75.ptx").read_bytes()
    every = ptxkit.fatbin_entries(BIN / "saxpy.default.fatbin")
    assert len(every) >= 2 and {x.kind for x in every} >= {"ptx"}
    assert every[0].to_dict()["arch"] in (80, 90)


def test_parse_file_reads_binaries():
    with pytest.raises(ValueError, match="choose one"):
        ptxkit.parse_file(BIN / "saxpy.default.fatbin")
    m = ptxkit.parse_file(BIN / "saxpy.default.fatbin", arch="sm_80")
    assert m.target == "sm_80" and m.path.endswith("#1.sm_80")


def test_errors():
    with pytest.raises(ValueError):
        ptxkit.extract(b"\x7fELF" + b"\x00" * 60)
    assert ptxkit.extract(BIN / "saxpy.sm_80.cubin") == []
    with pytest.raises(ValueError, match="no PTX"):
        ptxkit.parse_file(BIN / "saxpy.sm_80.cubin")
    with pytest.raises(FileNotFoundError):
        ptxkit.extract("/nonexistent.fatbin")
    with pytest.raises(ValueError):
        ptxkit.extract((BIN / "saxpy.sm_80.ptx").read_bytes())


USAGE = BIN / "usage"


def test_resource_usage_matches_cuobjdump_fixture():
    rows = ptxkit.resource_usage(USAGE / "kernels.sm_80.cubin")
    by = {r["name"]: r for r in rows}
    assert {r["arch"] for r in rows} == {"sm_80"}
    tile = by["_Z4tilePf"]
    assert tile["shared"] == 4096 and tile["max_threads"] == [256, 1, 1]
    assert tile["demangled"] == "tile(float*)"
    assert by["_Z7recursePii"]["stack"] is None  # cuobjdump: STACK:UNKNOWN
    mixed = ptxkit.resource_usage(USAGE / "mixed.fatbin", arch="sm_86")
    assert {r["arch"] for r in mixed} == {"sm_86"} and len(mixed) == 5


def test_compat_verdicts():
    (r,) = ptxkit.compat([USAGE / "mixed.fatbin"], gpus=["sm_86", "sm_80", "9.0"], driver="12.4")
    levels = [v["level"] for v in r["verdicts"]]
    assert levels == ["native", "cannot-run", "cannot-run"]
    assert r["verdicts"][2]["rule"] == "ptx-isa-driver"
    assert r["sass"] == ["sm_75", "sm_86"]
    assert r["ptx"] == [{"arch": "compute_90", "ptx_isa": "9.5"}]
    every = ptxkit.compat([USAGE])
    assert len(every) == 10
    with pytest.raises(ValueError):
        ptxkit.compat([USAGE], gpus=["nonsense"])
