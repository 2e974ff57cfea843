"""Triton kernels compiled to PTX for several CUDA targets (no GPU needed).

Usage: python triton_kernels.py OUTDIR
Writes OUTDIR/<kernel>.sm<CC>.ptx and prints one line per file:
    <file name>\t<triton version>\t<note>
"""
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
warnings.filterwarnings("ignore")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402


@triton.jit
def vadd(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + offs, a + b, mask=m)


@triton.jit
def saxpy_fp16(x, y, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m).to(tl.float32)
    b = tl.load(y + offs, mask=m).to(tl.float32)
    tl.store(y + offs, (alpha * a + b).to(tl.float16), mask=m)


@triton.jit
def softmax(inp, out, stride_in, stride_out, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < ncols
    x = tl.load(inp + row * stride_in + cols, mask=m, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out + row * stride_out + cols, num / den, mask=m)


@triton.jit
def layernorm(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, v - mean, 0.0)
        var_acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < N
        w = tl.load(W + cols, mask=m)
        b = tl.load(B + cols, mask=m)
        x = tl.load(X + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=m)


@triton.jit
def matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr, ACC: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    per_group = GROUP * npn
    gid = pid // per_group
    first = gid * GROUP
    gsz = min(npm - first, GROUP)
    pm = first + ((pid % per_group) % gsz)
    pn = (pid % per_group) // gsz
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        y = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def matmul_tf32(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y, input_precision="tf32")
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_desc(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    da = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    db = tl.make_tensor_descriptor(b, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    dc = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = da.load([pm * BM, k])
        y = db.load([k, pn * BN])
        acc = tl.dot(x, y, acc)
    dc.store([pm * BM, pn * BN], acc.to(tl.float16))


@triton.jit
def row_sum(x, out, ncols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, ncols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x + row * stride + cols, mask=cols < ncols, other=0.0)
    tl.store(out + row, tl.sum(acc, axis=0))


@triton.jit
def argmax_rows(x, out, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * ncols + cols, mask=cols < ncols, other=float("-inf"))
    tl.store(out + row, tl.argmax(v, axis=0))


@triton.jit
def histogram(x, bins, n, nbins, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0)
    idx = v % nbins
    tl.atomic_add(bins + idx, 1, mask=m)


@triton.jit
def atomics_mix(x, acc, mx, cnt, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    tl.atomic_add(acc, tl.sum(v, axis=0))
    tl.atomic_max(mx + (offs % 4), v.to(tl.int32), mask=m, sem="relaxed")
    old = tl.atomic_cas(cnt, 0, 1)
    tl.atomic_xchg(cnt + 1, old)
    tl.atomic_add(acc + 1 + (offs % 8), v, mask=m, sem="release", scope="gpu")


@triton.jit
def inline_asm(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0)
    r = tl.inline_asm_elementwise(
        "{ .reg .b32 t; shf.l.wrap.b32 t, $1, $1, 7; xor.b32 $0, t, $1; }",
        "=r,r", [v], dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(y + offs, r, mask=m)


@triton.jit
def inline_asm_packed(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0)
    r = tl.inline_asm_elementwise(
        "prmt.b32 $0, $1, 0, 0x0123;", "=r,r", [v], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y + offs, r, mask=m)


@triton.jit
def math_ops(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1.0)
    r = tl.sin(v) * tl.cos(v) + tl.log2(tl.abs(v) + 1) + tl.sqrt_rn(tl.abs(v)) \
        + tl.math.rsqrt(tl.abs(v) + 1) + tl.math.erf(v) + tl.exp2(v * 0.1) \
        + tl.math.floor(v) + tl.math.fma(v, v, v) + tl.math.div_rn(v, 3.0)
    tl.store(y + offs, r, mask=m)


@triton.jit
def cumsum(x, y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0)
    tl.store(y + offs, tl.cumsum(v, axis=0), mask=offs < n)


@triton.jit
def fp8_convert(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    q = v.to(tl.float8e5)
    tl.store(y + offs, q.to(tl.float16), mask=m)


@triton.jit
def dropout(x, y, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    r = tl.rand(seed, offs)
    tl.store(y + offs, tl.where(r > p, v / (1 - p), 0.0), mask=m)


@triton.jit
def transpose(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    t = tl.load(x + rm[:, None] * N + rn[None, :], mask=m)
    tl.store(y + rn[None, :] * M + rm[:, None], t, mask=m)


@triton.jit
def attention_fwd(Q, K, V, O, seqlen, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * seqlen * D
    rm = pm * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(Q + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < seqlen, other=0.0)
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, seqlen, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(K + base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < seqlen, other=0.0)
        s = tl.dot(q, k) * scale
        s = tl.where(rn[None, :] < seqlen, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < seqlen, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(O + base + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(O.dtype.element_ty),
             mask=rm[:, None] < seqlen)


@triton.jit
def persistent_matmul(a, b, c, M, N, K, NUM_SMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr):
    start = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    ntiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(start, ntiles, NUM_SMS, flatten=True):
        pm = tile // tiles_n
        pn = tile % tiles_n
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, K, BK):
            rk = k + tl.arange(0, BK)
            x = tl.load(a + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            y = tl.load(b + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(x, y, acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def debug_print(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.device_print("v", v)
    tl.debug_barrier()
    tl.store(x + offs, v * 2, mask=offs < n)


@triton.jit
def shapes(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    a, b = tl.split(tl.reshape(v, (BLOCK // 2, 2)))
    j = tl.join(b, a)
    t = tl.permute(tl.reshape(j, (BLOCK // 16, 8, 2)), (1, 0, 2))
    s = tl.sort(tl.reshape(t, (BLOCK,)))
    tl.store(y + offs, s + tl.flip(s, 0))


@triton.jit
def gather_hist(x, idx, y, h, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    i = tl.load(idx + offs) % BLOCK
    tl.store(y + offs, tl.gather(v, i, 0))
    tl.store(h + tl.arange(0, 16), tl.histogram(i % 16, 16))


@triton.jit
def int_math(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1)
    r = tl.umulhi(v, 0x9E3779B9) ^ (v >> 3) ^ (v << 5)
    r = r // (v | 1) + r % 7 + tl.minimum(v, 100) + tl.clamp(v, 2, 50)
    tl.store(y + offs, r.to(tl.int64) * v.to(tl.int64), mask=m)


@triton.jit
def dot_scaled_mx(a, a_scale, b, b_scale, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rs = tl.arange(0, BK // 32)
    x = tl.load(a + rm[:, None] * BK + rk[None, :])
    y = tl.load(b + rk[:, None] * BN + rn[None, :])
    xs = tl.load(a_scale + rm[:, None] * (BK // 32) + rs[None, :])
    ys = tl.load(b_scale + rn[:, None] * (BK // 32) + rs[None, :])
    acc = tl.dot_scaled(x, xs, "e4m3", y, ys, "e4m3")
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


P32, P16, PI = "*fp32", "*fp16", "*i32"
MM = dict(M="i32", N="i32", K="i32", sam="i32", sak="i32", sbk="i32", sbn="i32", scm="i32", scn="i32")

# name, fn, signature, constexprs, options, targets (None = all)
KERNELS = [
    ("vadd", vadd, dict(x=P32, y=P32, out=P32, n="i32"), dict(BLOCK=1024), {}, None),
    ("saxpy_fp16", saxpy_fp16, dict(x=P16, y=P16, alpha="fp32", n="i32"), dict(BLOCK=512), {}, None),
    ("softmax", softmax, dict(inp=P32, out=P32, stride_in="i32", stride_out="i32", ncols="i32"),
     dict(BLOCK=1024), dict(num_warps=8), None),
    ("layernorm", layernorm, dict(X=P16, Y=P16, W=P32, B=P32, Mean=P32, Rstd=P32, stride="i32", N="i32",
                                   eps="fp32"), dict(BLOCK=512), dict(num_warps=4), None),
    ("matmul_fp16", matmul, dict(a=P16, b=P16, c=P16, **MM), dict(BM=128, BN=64, BK=32, GROUP=8, ACC=tl.float32),
     dict(num_warps=4, num_stages=3), None),
    ("matmul_bf16_s4", matmul, dict(a="*bf16", b="*bf16", c=P32, **MM), dict(BM=64, BN=128, BK=64, GROUP=4, ACC=tl.float32),
     dict(num_warps=8, num_stages=4), (80, 90, 100, 120)),
    ("matmul_int8", matmul, dict(a="*i8", b="*i8", c=PI, **MM), dict(BM=64, BN=64, BK=64, GROUP=8, ACC=tl.int32),
     dict(num_warps=4, num_stages=2), (80, 90, 100, 120)),
    ("matmul_fp8", matmul, dict(a="*fp8e4nv", b="*fp8e4nv", c=P16, **MM), dict(BM=128, BN=64, BK=64, GROUP=8, ACC=tl.float32),
     dict(num_warps=4, num_stages=3), (90, 100, 120)),
    ("matmul_tf32", matmul_tf32, dict(a=P32, b=P32, c=P32, M="i32", N="i32", K="i32"),
     dict(BM=64, BN=64, BK=32), dict(num_warps=4, num_stages=2), (80, 90, 100, 120)),
    ("matmul_desc", matmul_desc, dict(a=P16, b=P16, c=P16, M="i32", N="i32", K="i32"),
     dict(BM=128, BN=128, BK=64), dict(num_warps=4, num_stages=3), (90, 100)),
    ("row_sum", row_sum, dict(x=P32, out=P32, ncols="i32", stride="i32"), dict(BLOCK=256), {}, None),
    ("argmax_rows", argmax_rows, dict(x=P32, out=PI, ncols="i32"), dict(BLOCK=512), {}, (80, 90)),
    ("histogram", histogram, dict(x=PI, bins=PI, n="i32", nbins="i32"), dict(BLOCK=256), {}, (75, 90)),
    ("atomics_mix", atomics_mix, dict(x=P32, acc=P32, mx=PI, cnt=PI, n="i32"), dict(BLOCK=128), {}, None),
    ("inline_asm", inline_asm, dict(x="*u32", y="*u32", n="i32"), dict(BLOCK=256), {}, (75, 90)),
    ("inline_asm_packed", inline_asm_packed, dict(x="*i8", y="*i8", n="i32"), dict(BLOCK=512), {}, (80, 120)),
    ("math_ops", math_ops, dict(x=P32, y=P32, n="i32"), dict(BLOCK=256), {}, (75, 90, 100)),
    ("cumsum", cumsum, dict(x=PI, y=PI, n="i32"), dict(BLOCK=1024), {}, (80, 90)),
    ("fp8_convert", fp8_convert, dict(x=P32, y=P16, n="i32"), dict(BLOCK=256), {}, (90, 100, 120)),
    ("dropout", dropout, dict(x=P32, y=P32, n="i32", p="fp32", seed="i32"), dict(BLOCK=512), {}, (80, 100)),
    ("attention_fwd", attention_fwd, dict(Q=P16, K=P16, V=P16, O=P16, seqlen="i32", scale="fp32"),
     dict(D=64, BM=64, BN=64), dict(num_warps=4, num_stages=2), (80, 90, 100, 120)),
    ("persistent_matmul", persistent_matmul, dict(a=P16, b=P16, c=P16, M="i32", N="i32", K="i32"),
     dict(NUM_SMS=132, BM=128, BN=128, BK=64), dict(num_warps=8, num_stages=3), (90, 100)),
    ("debug_print", debug_print, dict(x=P32, n="i32"), dict(BLOCK=128), {}, (80, 90)),
    ("shapes", shapes, dict(x=P32, y=P32), dict(BLOCK=256), {}, (75, 100)),
    ("gather_hist", gather_hist, dict(x=P32, idx=PI, y=P32, h=PI, n="i32"), dict(BLOCK=128), {}, (80, 120)),
    ("int_math", int_math, dict(x="*u32", y="*i64", n="i32"), dict(BLOCK=256), {}, (75, 90)),
    ("dot_scaled_mx", dot_scaled_mx, dict(a="*fp8e4nv", a_scale="*u8", b="*fp8e4nv", b_scale="*u8", c=P32),
     dict(BM=128, BN=128, BK=128), dict(num_warps=4), (90, 100, 120)),
    ("transpose", transpose, dict(x=P16, y=P16, M="i32", N="i32"), dict(BM=64, BN=64), {}, (75, 90)),
]

TARGETS = (75, 80, 90, 100, 120)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, fn, sig, consts, opts, targets in KERNELS:
        for cc in targets or TARGETS:
            src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=consts)
            try:
                c = triton.compiler.compile(src, target=GPUTarget("cuda", cc, 32), options=dict(opts))
            except Exception as e:  # a target the kernel cannot be lowered for
                print(f"# skip {name} sm{cc}: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                      file=sys.stderr)
                continue
            fname = f"{name}.sm{cc}.ptx"
            with open(os.path.join(out, fname), "w") as f:
                f.write(c.asm["ptx"])
            print(f"{fname}\ttriton {triton.__version__}\t{name}")


if __name__ == "__main__":
    main()
