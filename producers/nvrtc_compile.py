"""Compile producers/cuda/*.cu to PTX with NVRTC (through ctypes; no GPU needed).

Usage: python nvrtc_compile.py OUTDIR
Each .cu file names the architectures it is meant for on its first line ("// archs: 75 80 90a ...").
NVRTC 13.x comes from the nvidia-cuda-nvrtc wheel (with the nvidia-cuda-runtime / nvidia-cuda-cccl headers),
NVRTC 12.x from nvidia-cuda-nvrtc-cu12 (headers from nvidia-cuda-runtime-cu12 and nvidia-cuda-cccl-cu12).
Writes OUTDIR/<source>.<nvrtcMAJOR>.<arch>.ptx and prints "<file>\t<producer version>\t<note>".
"""
import ctypes
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def site_nvidia():
    import nvidia  # namespace package from the wheels
    return [p for p in nvidia.__path__]


def find(pattern):
    for base in site_nvidia():
        hits = sorted(glob.glob(os.path.join(base, pattern)))
        if hits:
            return hits[0]
    return None


class Nvrtc:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        self.version = (major.value, minor.value)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def compile(self, source, name, options):
        prog = ctypes.c_void_p()
        rc = self.lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
        if rc:
            raise RuntimeError(self.lib.nvrtcGetErrorString(rc).decode())
        opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        try:
            rc = self.lib.nvrtcCompileProgram(prog, len(options), opts)
            if rc:
                size = ctypes.c_size_t()
                self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
                buf = ctypes.create_string_buffer(size.value)
                self.lib.nvrtcGetProgramLog(prog, buf)
                raise RuntimeError(buf.value.decode(errors="replace").strip().splitlines()[:3])
            size = ctypes.c_size_t()
            self.lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value)
            self.lib.nvrtcGetPTX(prog, buf)
            return buf.value.decode()
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))


def archs_of(path):
    with open(path) as f:
        first = f.readline()
    assert first.startswith("// archs:"), path
    return first.split(":", 1)[1].split()


# (library glob, include dirs glob, which sources (None = all), arch filter)
TOOLCHAINS = [
    ("cu13/lib/libnvrtc.so.13", ["cu13/include", "cu13/include/cccl"], None, None),
    ("cuda_nvrtc/lib/libnvrtc.so.12", ["cuda_runtime/include", "cuda_cccl/include"], None, {"80", "90a", "100a"}),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sources = sorted(glob.glob(os.path.join(HERE, "cuda", "*.cu")))
    for lib_glob, inc_globs, only, arch_filter in TOOLCHAINS:
        lib = find(lib_glob)
        if not lib:
            print(f"# skip NVRTC {lib_glob}: not installed", file=sys.stderr)
            continue
        nv = Nvrtc(lib)
        incs = [find(g) for g in inc_globs]
        tag = f"nvrtc{nv.version[0]}"
        for src in sources:
            stem = os.path.basename(src)[:-3]
            if only is not None and stem not in only:
                continue
            text = open(src).read()
            for arch in archs_of(src):
                if arch_filter is not None and arch not in arch_filter:
                    continue
                opts = [f"--gpu-architecture=compute_{arch}", "-std=c++17", "-default-device"]
                opts += [f"-I{i}" for i in incs if i]
                if stem == "misc_calls":
                    opts.append("-rdc=true")  # device function pointers and recursion
                if stem in ("math", "half_bf16") and arch in ("80", "100a"):
                    opts.append("--use_fast_math")
                if stem == "warp_reduce" and arch == "90":
                    opts.append("-lineinfo")
                try:
                    ptx = nv.compile(text, f"{stem}.cu", opts)
                except Exception as e:
                    print(f"# skip {tag} {stem} {arch}: {e}", file=sys.stderr)
                    continue
                fname = f"{stem}.{tag}.sm{arch}.ptx"
                with open(os.path.join(out, fname), "w") as f:
                    f.write(ptx)
                print(f"{fname}\tNVRTC {nv.version[0]}.{nv.version[1]}\t{' '.join(opts[:1] + opts[3 + len(incs):])}")


if __name__ == "__main__":
    main()
