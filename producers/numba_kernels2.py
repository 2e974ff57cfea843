"""numba-cuda kernels, second set (every atomic kind, shared/local arrays, fp16 intrinsics, math and
libdevice, complex numbers, warp vote/shuffle/match, const arrays, records, 8/16/64-bit integers,
debug=True with opt=False), compiled to PTX with numba.cuda.compile_ptx (no GPU needed). Written
for ptxkit's "unseen PTX" measurement; see README.md. NVVM 13 takes cc 7.5 and newer only.

Usage: python numba_kernels2.py OUTDIR
Writes OUTDIR/<kernel>.sm<maj><min>.ptx, prints "<file>\t<numba-cuda version>\t<note>".
"""
import math
import os
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")

import numpy as np  # noqa: E402
from numba import cuda, float32, float64, int64, uint64, int8, uint8, int16, int32, uint32  # noqa: E402,F401
from numba.types import float16  # noqa: E402
from numba.cuda import fp16  # noqa: E402
from numba.cuda import libdevice  # noqa: E402


def atomic_all(f32, f64, i32, u32, i64, u64):
    i = cuda.grid(1)
    cuda.atomic.add(f32, 0, 1.5)
    cuda.atomic.sub(f32, 1, 0.5)
    cuda.atomic.max(f32, 2, float32(i))
    cuda.atomic.min(f32, 3, float32(i))
    cuda.atomic.nanmax(f32, 4, float32(i))
    cuda.atomic.nanmin(f64, 0, float(i))
    cuda.atomic.add(f64, 1, 2.0)
    cuda.atomic.max(f64, 2, float(i))
    cuda.atomic.add(i32, 0, 1)
    cuda.atomic.sub(i32, 1, 1)
    cuda.atomic.and_(i32, 2, i)
    cuda.atomic.or_(i32, 3, i)
    cuda.atomic.xor(i32, 4, i)
    cuda.atomic.exch(i32, 5, i)
    cuda.atomic.inc(u32, 0, uint32(100))
    cuda.atomic.dec(u32, 1, uint32(100))
    cuda.atomic.cas(u32, 2, uint32(0), uint32(i))
    cuda.atomic.compare_and_swap(u32[3:], uint32(1), uint32(i))
    cuda.atomic.max(u32, 4, uint32(i))
    cuda.atomic.min(i64, 0, int64(i))
    cuda.atomic.add(u64, 0, uint64(i))
    cuda.atomic.and_(u64, 1, uint64(i))
    cuda.atomic.cas(i64, 2, int64(0), int64(i))
    cuda.atomic.exch(u64, 3, uint64(i))


def shared_transpose(a, b):
    tile = cuda.shared.array((32, 33), dtype=float32)
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    if x < a.shape[0] and y < a.shape[1]:
        tile[ty, tx] = a[x, y]
    cuda.syncthreads()
    bx, by = cuda.blockIdx.x * 32 + ty, cuda.blockIdx.y * 32 + tx
    if by < b.shape[0] and bx < b.shape[1]:
        b[by, bx] = tile[tx, ty]
    cuda.syncthreads_count(int32(x > 3))
    if cuda.syncthreads_and(int32(y > 0)) and cuda.syncthreads_or(int32(x > 1)):
        b[0, 0] = 1.0


def local_sort(a):
    i = cuda.grid(1)
    loc = cuda.local.array(16, dtype=int32)
    for k in range(16):
        loc[k] = a[(i * 16 + k) % a.shape[0]]
    for p in range(16):
        for q in range(15 - p):
            if loc[q] > loc[q + 1]:
                loc[q], loc[q + 1] = loc[q + 1], loc[q]
    a[i % a.shape[0]] = loc[8]


def grid_sync(a, b):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1
    g.sync()
    if i < b.size:
        b[i] = a[(i + 1) % a.size]


def half_intrinsics(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        r = fp16.hfma(x, y, x)
        r = fp16.hadd(r, fp16.hmul(x, y))
        r = fp16.hsub(r, fp16.hneg(y))
        r = fp16.hmax(r, fp16.habs(x))
        r = fp16.hmin(r, fp16.hdiv(x, y))
        r = r + fp16.hsqrt(fp16.habs(x)) + fp16.hexp(x) + fp16.hlog(fp16.habs(y)) + fp16.hsin(x) + fp16.hcos(y)
        r = r + fp16.hrcp(y) + fp16.hrsqrt(fp16.habs(y)) + fp16.hfloor(x) + fp16.hceil(y) + fp16.htrunc(x)
        if fp16.hgt(x, y) or fp16.heq(x, y):
            r = r + fp16.hexp2(x) + fp16.hlog10(fp16.habs(y))
        c[i] = r


def math_lib(a, b):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        b[i] = (math.atan2(x, 2.0) + math.hypot(x, 3.0) + math.expm1(x) + math.log1p(abs(x)) + math.erfc(x)
                + math.gamma(abs(x) + 1) + math.lgamma(abs(x) + 1) + math.copysign(x, -1.0) + math.fmod(x, 3.0)
                + math.ldexp(x, 3) + math.frexp(x)[0] + math.isinf(x) + math.isnan(x) + math.cosh(x)
                + math.asin(x / 10) + math.acosh(abs(x) + 1) + math.pow(abs(x), 1.5) + math.trunc(x)
                + math.remainder(x, 2.0) + math.modf(x)[1])


def complex_ops(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i] * b[i] + a[i] / (b[i] + 1j)
        c[i] = z.conjugate() * abs(z) + z.real - z.imag * 1j


def _fib(n):
    if n < 2:
        return n
    return _fib(n - 1) + _fib(n - 2)


_fib_dev = None


def ld_funcs(a, b):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        b[i] = (libdevice.fast_sinf(x) + libdevice.fast_powf(abs(x), 0.5) + libdevice.erfcinvf(0.5)
                + libdevice.fmaf_rn(x, x, x) + libdevice.frcp_rz(x + 1) + libdevice.fsqrt_ru(abs(x))
                + libdevice.float_as_int(x) + libdevice.int_as_float(libdevice.popc(i))
                + libdevice.saturatef(x) + libdevice.brev(i) + libdevice.clzll(int64(i))
                + libdevice.umulhi(uint32(i), uint32(7)) + libdevice.double2float_rd(float(x) * 3.0)
                + libdevice.rhadd(i, 3) + libdevice.usad(uint32(i), uint32(3), uint32(1)))


def warp_intrinsics(a, b):
    i = cuda.grid(1)
    lane = cuda.laneid
    x = a[i % a.size]
    mask = cuda.activemask()
    v = cuda.shfl_sync(mask, x, 0)
    v += cuda.shfl_up_sync(mask, x, 1)
    v += cuda.shfl_down_sync(mask, x, 2)
    v += cuda.shfl_xor_sync(mask, x, 4)
    all_ = cuda.all_sync(mask, x > 0)
    any_ = cuda.any_sync(mask, x > 1)
    eq = cuda.eq_sync(mask, x > 2)
    bal = cuda.ballot_sync(mask, x > 3)
    m, pred = cuda.match_all_sync(mask, int32(x))
    ma = cuda.match_any_sync(mask, int32(x))
    lm = cuda.lanemask_lt()
    cuda.syncwarp(mask)
    b[i % b.size] = v + all_ + any_ + eq + bal + m + pred + ma + lm + lane + cuda.popc(bal) + cuda.ffs(bal) + cuda.brev(bal)


CONST = np.arange(64, dtype=np.float32) * 0.5
CONST_I = np.arange(16, dtype=np.int64)


def const_array(a):
    c = cuda.const.array_like(CONST)
    d = cuda.const.array_like(CONST_I)
    i = cuda.grid(1)
    if i < a.size:
        a[i] = c[i % 64] * a[i] + d[i % 16]


REC = np.dtype([("x", np.float32), ("y", np.int16), ("z", np.uint8), ("w", np.float64)], align=True)


def records(r, out):
    i = cuda.grid(1)
    if i < r.size:
        out[i] = r[i].x + r[i].y + r[i].z + r[i].w
        r[i].y = int16(i)
        r[i].z = uint8(i & 0xff)


def small_types(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        c[i] = int64(x) * int64(y) + (uint64(x) << 40) + (int64(y) >> 3) + int64(uint8(x) // uint8(y | 1)) \
            + int64(int16(x) % int16(y | 1)) + (int64(x) ^ -1)


def dyn_shared_multi(a, b):
    sm = cuda.shared.array(0, dtype=float32)
    smi = cuda.shared.array(0, dtype=int32)
    i = cuda.threadIdx.x
    sm[i] = a[i]
    cuda.syncthreads()
    s = 0.0
    k = cuda.blockDim.x // 2
    while k > 0:
        if i < k:
            sm[i] += sm[i + k]
        cuda.syncthreads()
        k //= 2
    smi[i] = i
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    if i == 0:
        b[cuda.blockIdx.x] = sm[0] + s + smi[1]


def fp16_arith(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        z = x * y + x - y / (x + float16(1))
        if z > x:
            z = -z
        c[i] = z


def f64_atomics_loop(a, out):
    i = cuda.grid(1)
    acc = 0.0
    for k in range(i, a.size, cuda.gridsize(1)):
        acc += a[k] * a[k]
    cuda.atomic.add(out, 0, acc)
    cuda.atomic.max(out, 1, acc)


KERNELS = [
    ("atomic_all", atomic_all, "void(float32[:], float64[:], int32[:], uint32[:], int64[:], uint64[:])",
     [(7, 5), (9, 0), (12, 0)], {}),
    ("shared_transpose", shared_transpose, "void(float32[:,:], float32[:,:])", [(7, 5), (8, 6), (10, 0), (12, 0)], {}),
    ("local_sort", local_sort, "void(int32[:])", [(7, 5), (8, 9), (10, 3)], {}),
    ("local_sort_dbg", local_sort, "void(int32[:])", [(7, 5)], dict(debug=True, opt=False)),
    ("half_intrinsics", half_intrinsics, "void(float16[:], float16[:], float16[:])",
     [(8, 9), (12, 0)], {}),
    ("half_intrinsics_fast", half_intrinsics, "void(float16[:], float16[:], float16[:])", [(8, 6)],
     dict(fastmath=True)),
    ("math_lib", math_lib, "void(float32[:], float32[:])", [(12, 1)], {}),
    ("math_lib_f64", math_lib, "void(float64[:], float64[:])", [(8, 0)], {}),
    ("math_lib_fast", math_lib, "void(float32[:], float32[:])", [(8, 0)], dict(fastmath=True, lineinfo=True)),
    ("complex_ops", complex_ops, "void(complex128[:], complex128[:], complex128[:])", [(7, 5), (9, 0)], {}),
    ("complex64_li", complex_ops, "void(complex64[:], complex64[:], complex64[:])", [(8, 6)],
     dict(lineinfo=True, fastmath=True)),
    ("ld_funcs", ld_funcs, "void(float32[:], float32[:])", [(7, 5), (8, 0), (10, 0)], {}),
    ("warp_intrinsics", warp_intrinsics, "void(int32[:], int32[:])", [(7, 5), (8, 0), (9, 0), (10, 0), (12, 0)], {}),
    ("warp_intrinsics_dbg", warp_intrinsics, "void(int32[:], int32[:])", [(8, 0)], dict(debug=True, opt=False)),
    ("const_array", const_array, "void(float32[:])", [(7, 5), (8, 6), (10, 0)], {}),
    ("small_types", small_types, "void(int8[:], int8[:], int64[:])", [(7, 5), (8, 9)], {}),
    ("small_types_u8", small_types, "void(uint8[:], uint8[:], int64[:])", [(9, 0)], dict(opt=False)),
    ("dyn_shared_multi", dyn_shared_multi, "void(float32[:], float32[:])", [(8, 0), (12, 0)], {}),
    ("dyn_shared_dbg", dyn_shared_multi, "void(float32[:], float32[:])", [(7, 5)], dict(debug=True, opt=False)),
    ("fp16_arith", fp16_arith, "void(float16[:], float16[:], float16[:])", [(7, 5), (8, 0), (9, 0)], {}),
    ("f64_atomics_loop", f64_atomics_loop, "void(float64[:], float64[:])", [(7, 5), (8, 0), (10, 0)],
     dict(lineinfo=True)),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    from importlib.metadata import version
    ver = f"numba-cuda {version('numba-cuda')}"
    from numba import from_dtype
    rec = from_dtype(REC)
    extra = [("records", records, (rec[:], float64[:]), [(7, 5), (8, 0)], {}),
             ("records_dbg", records, (rec[:], float64[:]), [(9, 0)], dict(debug=True, opt=False))]
    fib = cuda.jit(device=True)(_fib)

    def recurse(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = fib(a[i])
    for name, fn, sig, ccs, opts in KERNELS + extra:
        for cc in ccs:
            try:
                ptx, _ = cuda.compile_ptx(fn, sig, cc=cc, **opts)
            except Exception as e:
                print(f"# skip {name} cc{cc}: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                      file=sys.stderr, flush=True)
                continue
            fname = f"{name}.sm{cc[0]}{cc[1]}.ptx"
            with open(os.path.join(out, fname), "w") as f:
                f.write(ptx)
            print(f"{fname}\t{ver}\t{name}", flush=True)




if __name__ == "__main__":
    main()
