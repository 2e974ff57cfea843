"""numba-cuda kernels compiled to PTX with numba.cuda.compile_ptx (no GPU needed).

Usage: python numba_kernels.py OUTDIR
Writes OUTDIR/<kernel>.sm<CC>.ptx and prints "<file>\t<producer version>\t<note>" lines.
"""
import math
import os
import sys
import warnings

warnings.filterwarnings("ignore")

import numba  # noqa: E402
from numba import cuda, float32, int32  # noqa: E402

TPB = 128


def vec_add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def block_reduce(a, out):
    sm = cuda.shared.array(TPB, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sm[tid] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sm[0])


def atomics(a, res, ires):
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        cuda.atomic.max(res, 0, v)
        cuda.atomic.min(res, 1, v)
        cuda.atomic.add(ires, 0, 1)
        cuda.atomic.inc(ires, 1, 100)
        cuda.atomic.dec(ires, 2, 100)
        u = ires.dtype.type(i)
        cuda.atomic.and_(ires, 3, u)
        cuda.atomic.or_(ires, 4, u)
        cuda.atomic.xor(ires, 5, u)
        cuda.atomic.exch(ires, 6, u)
        cuda.atomic.cas(ires, 7, ires.dtype.type(0), u)
        cuda.atomic.nanmax(res, 2, v)


def math_fns(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[i] = (math.sin(x) + math.cos(x) + math.exp(x) + math.log(x + 2.0) + math.sqrt(abs(x))
                  + math.tanh(x) + math.atan2(x, 1.5) + math.pow(abs(x), 1.3) + math.erf(x)
                  + math.floor(x) + math.lgamma(abs(x) + 1.0) + math.hypot(x, 2.0))


def math_fns_f64(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[i] = math.exp(x) * math.log1p(abs(x)) + math.asinh(x) + math.fmod(x, 0.7)


def fp16_ops(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        x = a[i]
        y = b[i]
        out[i] = cuda.fp16.hfma(x, y, cuda.fp16.hmax(x, y)) + cuda.fp16.hsqrt(cuda.fp16.habs(x)) \
            - cuda.fp16.hexp(y)


def warp_ops(a, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = a[i]
    m = cuda.activemask()
    v += cuda.shfl_down_sync(m, v, 16)
    v += cuda.shfl_xor_sync(m, v, 8)
    v += cuda.shfl_up_sync(m, v, 4)
    v += cuda.shfl_sync(m, v, 0)
    b = cuda.ballot_sync(m, v > 0)
    if cuda.all_sync(m, v > -1.0) and cuda.any_sync(m, v > 100.0):
        v += 1.0
    out[i] = v + cuda.popc(b) + lane + cuda.lanemask_lt() + cuda.match_any_sync(m, i % 4)


def stencil_2d(a, out):
    x, y = cuda.grid(2)
    tile = cuda.shared.array((18, 18), dtype=float32)
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1
    if x < a.shape[0] and y < a.shape[1]:
        tile[tx, ty] = a[x, y]
    cuda.syncthreads()
    if 0 < x < a.shape[0] - 1 and 0 < y < a.shape[1] - 1:
        out[x, y] = 0.25 * (tile[tx - 1, ty] + tile[tx + 1, ty] + tile[tx, ty - 1] + tile[tx, ty + 1])


def dynamic_shared(a, out):
    buf = cuda.shared.array(0, dtype=int32)
    t = cuda.threadIdx.x
    buf[t] = a[cuda.grid(1)]
    cuda.syncwarp()
    cuda.threadfence_block()
    out[cuda.grid(1)] = buf[cuda.blockDim.x - 1 - t] + cuda.brev(buf[t]) + cuda.clz(t) + cuda.ffs(t)
    cuda.threadfence()


def local_array(a, out):
    i = cuda.grid(1)
    tmp = cuda.local.array(16, dtype=float32)
    for k in range(16):
        tmp[k] = a[(i + k) % a.size]
    s = 0.0
    for k in range(16):
        s += tmp[(k * 7) % 16] * k
    out[i] = s


def complex_mul(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * b[i] + abs(a[i])


def device_helper(x, y):
    return x * y + cuda.fma(x, y, 1.0)


def clock_and_nanosleep(out):
    cuda.nanosleep(100)
    out[cuda.grid(1)] = cuda.threadIdx.x * cuda.blockDim.y + cuda.gridDim.z


# name, fn, signature, ccs, extra options
KERNELS = [
    ("vec_add", vec_add, "void(float32[:], float32[:], float32[:])", [(7, 5), (8, 0), (9, 0)], {}),
    ("vec_add_lineinfo", vec_add, "void(float64[:], float64[:], float64[:])", [(8, 6)], dict(lineinfo=True)),
    ("block_reduce", block_reduce, "void(float32[:], float32[:])", [(7, 5), (8, 0), (12, 0)], {}),
    ("atomics", atomics, "void(float32[:], float32[:], uint32[:])", [(7, 5), (9, 0)], {}),
    ("atomics_u64", atomics, "void(float64[:], float64[:], uint64[:])", [(8, 0)], {}),
    ("math_fns", math_fns, "void(float32[:], float32[:])", [(8, 0), (10, 0)], {}),
    ("math_fns_fastmath", math_fns, "void(float32[:], float32[:])", [(8, 9)], dict(fastmath=True)),
    ("math_fns_f64", math_fns_f64, "void(float64[:], float64[:])", [(8, 0)], {}),
    ("fp16_ops", fp16_ops, "void(float16[:], float16[:], float16[:])", [(7, 5), (8, 0), (9, 0)], {}),
    ("warp_ops", warp_ops, "void(float32[:], float32[:])", [(7, 5), (9, 0)], {}),
    ("stencil_2d", stencil_2d, "void(float32[:,:], float32[:,:])", [(8, 0)], {}),
    ("dynamic_shared", dynamic_shared, "void(int32[:], int32[:])", [(7, 5), (10, 0)], {}),
    ("local_array", local_array, "void(float32[:], float32[:])", [(8, 0)], {}),
    ("complex_mul", complex_mul, "void(complex64[:], complex64[:], complex64[:])", [(8, 0)], {}),
    ("device_fn", device_helper, "float32(float32, float32)", [(8, 0)], dict(device=True)),
    ("vec_add_debug", vec_add, "void(float32[:], float32[:], float32[:])", [(8, 0)], dict(debug=True, opt=False)),
    ("clock_nanosleep", clock_and_nanosleep, "void(int64[:])", [(7, 5), (9, 0)], {}),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    from importlib.metadata import version
    ver = f"numba-cuda {version('numba-cuda')}"
    for name, fn, sig, ccs, opts in KERNELS:
        for cc in ccs:
            try:
                ptx, _ = cuda.compile_ptx(fn, sig, cc=cc, **opts)
            except Exception as e:
                print(f"# skip {name} cc{cc}: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                      file=sys.stderr)
                continue
            fname = f"{name}.sm{cc[0]}{cc[1]}.ptx"
            with open(os.path.join(out, fname), "w") as f:
                f.write(ptx)
            print(f"{fname}\t{ver}\t{name}")


if __name__ == "__main__":
    main()
