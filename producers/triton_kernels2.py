"""Triton kernels, second set (flash-attention backward, layer-norm backward with a lock, epilogue
matmuls in fp16/bf16/tf32/int8/fp8, TMA tensor descriptors, dot_scaled with fp4, split-K and other
atomics with sems/scopes, scans, sorting, random, libdevice), compiled for CUDA targets sm_75 to
sm_120 (no GPU needed). Written for ptxkit's "unseen PTX" measurement; see README.md.

Usage: python triton_kernels2.py OUTDIR
Writes OUTDIR/<kernel>.sm<CC>.ptx and prints "<file>\t<triton version>\t<note>" per file.
"""
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
warnings.filterwarnings("ignore")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402


@triton.jit
def flash_bwd_dq(Q, K, V, DO, DQ, L, D_, seqlen, scale, HD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 CAUSAL: tl.constexpr):
    pm = tl.program_id(0)
    off = tl.program_id(1) * seqlen * HD
    rm = pm * BM + tl.arange(0, BM)
    rd = tl.arange(0, HD)
    q = tl.load(Q + off + rm[:, None] * HD + rd[None, :], mask=rm[:, None] < seqlen, other=0.0)
    do = tl.load(DO + off + rm[:, None] * HD + rd[None, :], mask=rm[:, None] < seqlen, other=0.0)
    lse = tl.load(L + rm, mask=rm < seqlen, other=0.0)
    dd = tl.load(D_ + rm, mask=rm < seqlen, other=0.0)
    dq = tl.zeros([BM, HD], tl.float32)
    hi = (pm + 1) * BM if CAUSAL else seqlen
    for s in range(0, hi, BN):
        rn = s + tl.arange(0, BN)
        kt = tl.load(K + off + rn[None, :] * HD + rd[:, None], mask=rn[None, :] < seqlen, other=0.0)
        vt = tl.load(V + off + rn[None, :] * HD + rd[:, None], mask=rn[None, :] < seqlen, other=0.0)
        qk = tl.dot(q, kt) * scale
        if CAUSAL:
            qk = tl.where(rm[:, None] >= rn[None, :], qk, float("-inf"))
        p = tl.math.exp2(qk - lse[:, None])
        dp = tl.dot(do, vt)
        ds = p * (dp - dd[:, None])
        dq += tl.dot(ds.to(kt.dtype), tl.trans(kt))
    tl.store(DQ + off + rm[:, None] * HD + rd[None, :], dq.to(DQ.dtype.element_ty), mask=rm[:, None] < seqlen)


@triton.jit
def flash_bwd_dkdv(Q, K, V, DO, DK, DV, L, D_, seqlen, scale, HD: tl.constexpr, BM: tl.constexpr,
                   BN: tl.constexpr):
    pn = tl.program_id(0)
    off = tl.program_id(1) * seqlen * HD
    rn = pn * BN + tl.arange(0, BN)
    rd = tl.arange(0, HD)
    k = tl.load(K + off + rn[:, None] * HD + rd[None, :], mask=rn[:, None] < seqlen, other=0.0)
    v = tl.load(V + off + rn[:, None] * HD + rd[None, :], mask=rn[:, None] < seqlen, other=0.0)
    dk = tl.zeros([BN, HD], tl.float32)
    dv = tl.zeros([BN, HD], tl.float32)
    for s in tl.range(0, seqlen, BM, num_stages=2):
        rm = s + tl.arange(0, BM)
        q = tl.load(Q + off + rm[:, None] * HD + rd[None, :], mask=rm[:, None] < seqlen, other=0.0)
        do = tl.load(DO + off + rm[:, None] * HD + rd[None, :], mask=rm[:, None] < seqlen, other=0.0)
        lse = tl.load(L + rm, mask=rm < seqlen, other=0.0)
        dd = tl.load(D_ + rm, mask=rm < seqlen, other=0.0)
        qkT = tl.dot(k, tl.trans(q)) * scale
        pT = tl.math.exp2(qkT - lse[None, :])
        dv += tl.dot(pT.to(do.dtype), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - dd[None, :])
        dk += tl.dot(dsT.to(q.dtype), q)
    tl.store(DK + off + rn[:, None] * HD + rd[None, :], dk.to(DK.dtype.element_ty), mask=rn[:, None] < seqlen)
    tl.store(DV + off + rn[:, None] * HD + rd[None, :], dv.to(DV.dtype.element_ty), mask=rn[:, None] < seqlen)


@triton.jit
def layernorm_bwd(DY, X, W, Mean, Rstd, DX, DW, DB, Lock, stride, N, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=m, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=m).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(m, (x - mean) * rstd, 0.0)
    wdy = tl.where(m, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=m)
    lid = row % GROUP
    lock = Lock + lid
    count = Lock + GROUP + lid
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    first = tl.load(count)
    pdw = (dy * xhat).to(w.dtype)
    pdb = dy.to(w.dtype)
    if first == 0:
        tl.atomic_xchg(count, 1)
    else:
        pdw += tl.load(DW + lid * N + cols, mask=m)
        pdb += tl.load(DB + lid * N + cols, mask=m)
    tl.store(DW + lid * N + cols, pdw, mask=m)
    tl.store(DB + lid * N + cols, pdb, mask=m)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def online_softmax(X, Y, ncols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    sm = tl.zeros([BLOCK], tl.float32)
    for c in range(0, ncols, BLOCK):
        cols = c + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < ncols, other=float("-inf"), eviction_policy="evict_last").to(tl.float32)
        nm = tl.maximum(mx, x)
        sm = sm * tl.exp(mx - nm) + tl.exp(x - nm)
        mx = nm
    gm = tl.max(mx, 0)
    tot = tl.sum(sm * tl.exp(mx - gm), 0)
    for c in range(0, ncols, BLOCK):
        cols = c + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < ncols, other=0.0, eviction_policy="evict_first").to(tl.float32)
        tl.store(Y + row * stride + cols, (tl.exp(x - gm) / tot).to(Y.dtype.element_ty), mask=cols < ncols,
                 cache_modifier=".cs")


@triton.jit
def matmul_epilogue(a, b, c, bias, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr, ACT: tl.constexpr, ACC: tl.constexpr, PREC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    A = a + rm[:, None] * sam + rk[None, :] * sak
    B = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(A, mask=rk[None, :] < K - k * BK)
        y = tl.load(B, mask=rk[:, None] < K - k * BK)
        acc = tl.dot(x, y, acc, input_precision=PREC, out_dtype=ACC)
        A += BK * sak
        B += BK * sbk
    out = acc.to(tl.float32) + tl.load(bias + rn, mask=rn < N, other=0.0)[None, :]
    if ACT == 1:
        out = tl.where(out > 0, out, 0.01 * out)
    elif ACT == 2:
        out = out * tl.sigmoid(out)
    elif ACT == 3:
        out = 0.5 * out * (2 * tl.sigmoid(1.5957691216 * (out + 0.044715 * out * out * out)))
    cm = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, out.to(c.dtype.element_ty), mask=cm)


@triton.jit
def tma_persistent(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr, WS: tl.constexpr):
    a_d = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_d = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_d = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    start = tl.program_id(0)
    tn = tl.cdiv(N, BN)
    nt = tl.cdiv(M, BM) * tn
    for t in tl.range(start, nt, NUM_SMS, flatten=True, warp_specialize=WS):
        om = (t // tn) * BM
        on = (t % tn) * BN
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            x = a_d.load([om, k * BK])
            y = b_d.load([on, k * BK])
            acc = tl.dot(x, y.T, acc)
        c_d.store([om, on], acc.to(tl.float16))


@triton.jit
def tma_store_reduce(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    v = xd.load([om, on])
    yd.atomic_add([om, on], v * 2)


@triton.jit
def dot_scaled_fp4(a, a_scale, b, b_scale, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   FA: tl.constexpr, FB: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    DA: tl.constexpr = 2 if FA == "e2m1" else 1
    DB: tl.constexpr = 2 if FB == "e2m1" else 1
    rka = tl.arange(0, BK // DA)
    rkb = tl.arange(0, BK // DB)
    rs = tl.arange(0, BK // 32)
    x = tl.load(a + rm[:, None] * (BK // DA) + rka[None, :])
    y = tl.load(b + rkb[:, None] * BN + rn[None, :])
    xs = tl.load(a_scale + rm[:, None] * (BK // 32) + rs[None, :])
    ys = tl.load(b_scale + rn[:, None] * (BK // 32) + rs[None, :])
    acc = tl.dot_scaled(x, xs, FA, y, ys, FB)
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def splitk_atomics(a, b, c, cnt, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   SPLIT: tl.constexpr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    pk = tl.program_id(2)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(pk * BK, K, BK * SPLIT):
        rk = k + tl.arange(0, BK)
        x = tl.load(a + rm[:, None] * K + rk[None, :], mask=rk[None, :] < K, other=0.0)
        y = tl.load(b + rk[:, None] * N + rn[None, :], mask=rk[:, None] < K, other=0.0)
        acc = tl.dot(x, y, acc)
    cm = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c + rm[:, None] * N + rn[None, :], acc, mask=cm, sem=SEM, scope=SCOPE)
    tl.atomic_max(cnt + pm, pk, sem="release", scope="gpu")
    tl.atomic_min(cnt + 64 + pn, pk, sem="relaxed", scope="cta")


@triton.jit
def atomic_zoo(f32, f16, bf16, i64, u32, f64, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(f16 + offs % 32, tl.full([BLOCK], 1.0, tl.float16), mask=m, sem="relaxed")
    tl.atomic_add(bf16 + offs % 32, tl.full([BLOCK], 1.0, tl.bfloat16), mask=m, sem="acq_rel", scope="sys")
    tl.atomic_add(f64 + offs % 16, offs.to(tl.float64), mask=m, sem="acquire")
    tl.atomic_max(i64 + offs % 8, offs.to(tl.int64), mask=m, sem="release", scope="cta")
    tl.atomic_min(i64 + 8 + offs % 8, -offs.to(tl.int64), mask=m)
    tl.atomic_and(u32 + offs % 4, offs.to(tl.uint32), mask=m, scope="sys")
    tl.atomic_or(u32 + 4 + offs % 4, offs.to(tl.uint32), mask=m)
    tl.atomic_xor(u32 + 8 + offs % 4, offs.to(tl.uint32), mask=m, sem="relaxed", scope="cta")
    old = tl.atomic_xchg(f32 + offs, offs.to(tl.float32), mask=m, sem="acquire", scope="gpu")
    tl.atomic_max(f32 + n + offs % 8, old, mask=m)
    tl.atomic_min(f32 + n + 8 + offs % 8, old, mask=m)
    c = tl.atomic_cas(u32 + 12 + offs % 4, offs.to(tl.uint32), tl.full([BLOCK], 7, tl.uint32), sem="release", scope="cta")
    c64 = tl.atomic_cas(i64 + 16 + offs % 4, offs.to(tl.int64), tl.full([BLOCK], 7, tl.int64), sem="acq_rel")
    tl.store(f32 + offs, c.to(tl.float32) + c64.to(tl.float32), mask=m)


@triton.jit
def inline_asm_multi(x, y, z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    w = tl.load(y + offs, mask=m, other=0.0)
    lo, hi = tl.inline_asm_elementwise(
        "{ .reg .f32 t; max.f32 t, $2, $3; min.f32 $1, $2, $3; mov.f32 $0, t; }",
        "=r,=r,r,r", [v, w], dtype=(tl.float32, tl.float32), is_pure=True, pack=1)
    b = tl.inline_asm_elementwise(
        "{ .reg .pred p; setp.gt.f32 p, $1, 0f00000000; selp.u32 $0, 1, 0, p; }",
        "=r,r", [lo], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(z + offs, hi + b.to(tl.float32), mask=m)


@triton.jit
def histogram_atomic(x, bins, n, NB: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    b = tl.minimum(tl.maximum((v * NB).to(tl.int32), 0), NB - 1)
    h = tl.histogram(b, NB)
    tl.atomic_add(bins + tl.arange(0, NB), h, sem="relaxed")


@triton.jit
def topk_sort(x, vals, idx, BLOCK: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * BLOCK + offs)
    s = tl.sort(v, descending=True)
    top = tl.reshape(s, (BLOCK // K, K))
    tl.store(vals + tl.program_id(0) * BLOCK + offs, tl.reshape(top, (BLOCK,)))
    i = tl.argmax(v, 0)
    tl.store(idx + tl.program_id(0), i)


@triton.jit
def _combine(a, b, c, d):
    return a * c, b * c + d


@triton.jit
def scan_ops(x, y, z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    w = tl.load(y + offs)
    cp = tl.cumprod(v, 0, reverse=True)
    a, b = tl.associative_scan((v, w), 0, _combine)
    cs = tl.cumsum(w.to(tl.int64), 0)
    tl.store(z + offs, cp + a + b + cs.to(tl.float32))


@triton.jit
def gather_scatter(x, idx, y, M, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    i = tl.load(idx + offs, mask=offs < M, other=0)
    v = tl.load(x + i.to(tl.int64) * 3, mask=offs < M, other=0.0, cache_modifier=".cg")
    tl.store(y + i, v * 2.0, mask=offs < M, eviction_policy="evict_last")
    p = tl.load(x + offs, mask=offs < M, other=0.0, cache_modifier=".ca")
    tl.store(y + offs + M, p, mask=offs < M, cache_modifier=".wt")


@triton.jit
def random_ops(out, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.rand(seed, offs)
    b = tl.randn(seed, offs)
    c = tl.randint(seed, offs)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(out + offs, a + b + c.to(tl.float32) + (r0 ^ r1 ^ r2 ^ r3).to(tl.float32), mask=offs < n)


@triton.jit
def libdevice_ops(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.5)
    d = v.to(tl.float64)
    r = libdevice.tanh(v) + libdevice.asinh(v) + libdevice.erfinv(v * 0.5) + libdevice.lgamma(v + 2) \
        + libdevice.pow(v, 2.5) + libdevice.cbrt(v) + libdevice.j0(v) + libdevice.nextafter(v, 1.0) \
        + libdevice.rint(v) + libdevice.fast_expf(v) + libdevice.ilogb(v).to(tl.float32) \
        + libdevice.rsqrt_rn(v + 1) + libdevice.fast_dividef(v, 3.0) + libdevice.saturatef(v)
    r64 = libdevice.exp(d) + libdevice.log1p(d) + libdevice.sqrt_rd(d) + libdevice.atan2(d, d + 1) \
        + libdevice.fma_rz(d, d, d) + libdevice.div_ru(d, d + 3)
    p = libdevice.popc(offs) + libdevice.clz(offs) + libdevice.ffs(offs) + libdevice.brev(offs) \
        + libdevice.byte_perm(offs, offs, 0x3210) + libdevice.mulhi(offs, offs) + libdevice.sad(offs, offs, 1)
    tl.store(y + offs, r + r64.to(tl.float32) + p.to(tl.float32), mask=m)


@triton.jit
def half_math(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1.0)
    h = v.to(tl.bfloat16)
    f = v.to(tl.float16)
    r = tl.maximum(h * h + h, h) - tl.minimum(h, -h)
    s = tl.maximum(f * f + f, f) - tl.abs(f)
    e4 = v.to(tl.float8e4nv)
    e5 = v.to(tl.float8e5, fp_downcast_rounding="rtne")
    rz = v.to(tl.float16, fp_downcast_rounding="rtz")
    tl.store(y + offs, r.to(tl.float32) + s.to(tl.float32) + e4.to(tl.float32) + e5.to(tl.float32)
             + rz.to(tl.float32), mask=m)


@triton.jit
def cluster_reduce(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.atomic_add(y, tl.sum(v, 0))


@triton.jit
def fp8_matmul_e5(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        rk = k + tl.arange(0, BK)
        x = tl.load(a + rm[:, None] * K + rk[None, :])
        y = tl.load(b + rk[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc, max_num_imprecise_acc=32)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def mixed_int(x, y, z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=0)
    b = tl.load(y + offs, mask=m, other=1)
    q = (a.to(tl.int16) * b.to(tl.int16)) >> 2
    u = a.to(tl.uint8) + b.to(tl.uint8)
    r = tl.where(q > 0, q.to(tl.int32), u.to(tl.int32)) // 3
    s = tl.cdiv(a.to(tl.int64), b.to(tl.int64) | 1)
    tl.store(z + offs, r.to(tl.int64) + s, mask=m)


P32, P16, PB, PI = "*fp32", "*fp16", "*bf16", "*i32"
MM = dict(M="i32", N="i32", K="i32", sam="i32", sak="i32", sbk="i32", sbn="i32", scm="i32", scn="i32")
FL = dict(Q=P16, K=P16, V=P16, DO=P16)
ALL = (75, 80, 86, 89, 90, 100, 103, 120)


def mm(a, b, c, acc, prec, act, targets, warps=4, stages=3, bm=64, bn=64, bk=32):
    return (dict(a=a, b=b, c=c, bias=P32, **MM), dict(BM=bm, BN=bn, BK=bk, ACT=act, ACC=acc, PREC=prec),
            dict(num_warps=warps, num_stages=stages), targets)


KERNELS = [
    ("flash_bwd_dq", flash_bwd_dq, dict(**FL, DQ=P16, L=P32, D_=P32, seqlen="i32", scale="fp32"),
     dict(HD=64, BM=64, BN=32, CAUSAL=True), dict(num_warps=4, num_stages=2), (86, 103)),
    ("flash_bwd_dq_bf16", flash_bwd_dq, dict(Q=PB, K=PB, V=PB, DO=PB, DQ=PB, L=P32, D_=P32, seqlen="i32", scale="fp32"),
     dict(HD=128, BM=64, BN=64, CAUSAL=False), dict(num_warps=8, num_stages=3), (90,)),
    ("flash_bwd_dkdv", flash_bwd_dkdv, dict(**FL, DK=P16, DV=P16, L=P32, D_=P32, seqlen="i32", scale="fp32"),
     dict(HD=64, BM=32, BN=64), dict(num_warps=4), (120,)),
    ("layernorm_bwd", layernorm_bwd, dict(DY=P16, X=P16, W=P16, Mean=P32, Rstd=P32, DX=P16, DW=P16, DB=P16, Lock=PI,
                                          stride="i32", N="i32"), dict(GROUP=32, BLOCK=1024), dict(num_warps=8), (75, 89, 103)),
    ("online_softmax", online_softmax, dict(X=PB, Y=PB, ncols="i32", stride="i32"), dict(BLOCK=2048),
     dict(num_warps=16), (75, 86, 100, 120)),
    ("mm_fp16_leaky", mm, (P16, P16, P16, tl.float32, "ieee", 1, (75, 89))),
    ("mm_bf16_silu", mm, (PB, PB, PB, tl.float32, "ieee", 2, (103,), 8, 4, 128, 128, 64)),
    ("mm_tf32_gelu", mm, (P32, P32, P32, tl.float32, "tf32", 3, (86, 120))),
    ("mm_tf32x3", mm, (P32, P32, P32, tl.float32, "tf32x3", 0, (90,))),
    ("mm_int8", mm, ("*i8", "*i8", PI, tl.int32, "ieee", 0, (89, 120), 4, 3, 64, 64, 64)),
    ("mm_fp16acc", mm, (P16, P16, P16, tl.float16, "ieee", 0, (75, 100))),
    ("mm_e4m3", mm, ("*fp8e4nv", "*fp8e4nv", PB, tl.float32, None, 2, (89,), 4, 3, 128, 128, 64)),
    ("mm_e5m2", mm, ("*fp8e5", "*fp8e5", P16, tl.float32, None, 1, (120,), 8, 3, 128, 128, 64)),
    ("mm_ws_small", mm, (P16, P16, P32, tl.float32, "ieee", 0, (103,), 4, 2, 64, 128, 64)),
    ("fp8_e5_imprecise", fp8_matmul_e5, dict(a="*fp8e5", b="*fp8e5", c=PB, M="i32", N="i32", K="i32"),
     dict(BM=128, BN=128, BK=64), dict(num_warps=4, num_stages=3), (90,)),
    ("tma_persistent", tma_persistent, dict(a_ptr=P16, b_ptr=P16, c_ptr=P16, M="i32", N="i32", K="i32"),
     dict(NUM_SMS=148, BM=128, BN=128, BK=64, WS=False), dict(num_warps=4, num_stages=3), (90, 120)),
    ("tma_persistent_ws", tma_persistent, dict(a_ptr=P16, b_ptr=P16, c_ptr=P16, M="i32", N="i32", K="i32"),
     dict(NUM_SMS=148, BM=128, BN=128, BK=64, WS=True), dict(num_warps=4, num_stages=3), (100,)),
    ("tma_store_reduce", tma_store_reduce, dict(x_ptr=P32, y_ptr=P32, M="i32", N="i32"), dict(BM=64, BN=64),
     {}, (90, 100, 120)),
    ("dot_scaled_fp4", dot_scaled_fp4, dict(a="*u8", a_scale="*u8", b="*u8", b_scale="*u8", c=P32),
     dict(BM=128, BN=128, BK=128, FA="e2m1", FB="e2m1"), dict(num_warps=4), (103,)),
    ("dot_scaled_e5fp4", dot_scaled_fp4, dict(a="*fp8e5", a_scale="*u8", b="*u8", b_scale="*u8", c=P32),
     dict(BM=128, BN=128, BK=128, FA="e5m2", FB="e2m1"), dict(num_warps=4), (100,)),
    ("splitk_relaxed", splitk_atomics, dict(a=P16, b=P16, c=P32, cnt=PI, M="i32", N="i32", K="i32"),
     dict(BM=64, BN=64, BK=32, SPLIT=4, SEM="relaxed", SCOPE="gpu"), dict(num_warps=4), (80, 103)),
    ("splitk_acqrel_sys", splitk_atomics, dict(a=P16, b=P16, c=P32, cnt=PI, M="i32", N="i32", K="i32"),
     dict(BM=64, BN=32, BK=32, SPLIT=2, SEM="acq_rel", SCOPE="sys"), dict(num_warps=2), (75, 120)),
    ("atomic_zoo", atomic_zoo, dict(f32=P32, f16=P16, bf16=PB, i64="*i64", u32="*u32", f64="*fp64", n="i32"),
     dict(BLOCK=128), dict(num_warps=4), ALL),
    ("inline_asm_multi", inline_asm_multi, dict(x=P32, y=P32, z=P32, n="i32"), dict(BLOCK=256), {}, (75, 90, 120)),
    ("histogram_atomic", histogram_atomic, dict(x=P32, bins=PI, n="i32"), dict(NB=64, BLOCK=1024), {}, (80, 100)),
    ("topk_sort", topk_sort, dict(x=P32, vals=P32, idx=PI), dict(BLOCK=512, K=8), dict(num_warps=4), (89,)),
    ("scan_ops", scan_ops, dict(x=P32, y=P32, z=P32), dict(BLOCK=512), {}, (103,)),
    ("gather_scatter", gather_scatter, dict(x=P32, idx=PI, y=P32, M="i32"), dict(BLOCK=256), {}, ALL),
    ("random_ops", random_ops, dict(out=P32, seed="i32", n="i32"), dict(BLOCK=256), {}, (86,)),
    ("libdevice_ops", libdevice_ops, dict(x=P32, y=P32, n="i32"), dict(BLOCK=128), {}, (75, 100)),
    ("half_math", half_math, dict(x=P32, y=P32, n="i32"), dict(BLOCK=256), {}, ALL),
    ("cluster_reduce", cluster_reduce, dict(x=P32, y=P32, n="i32"), dict(BLOCK=512),
     dict(num_warps=4, num_ctas=2), (90, 100)),
    ("mixed_int", mixed_int, dict(x="*i8", y="*i8", z="*i64", n="i32"), dict(BLOCK=512), dict(num_warps=2), (75, 90)),
    ("softmax_w1", online_softmax, dict(X=P16, Y=P32, ncols="i32", stride="i32"), dict(BLOCK=256),
     dict(num_warps=1), (80, 120)),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for entry in KERNELS:
        name, fn = entry[0], entry[1]
        if fn is mm:
            sig, consts, opts, targets = mm(*entry[2])
            fn = matmul_epilogue
        else:
            sig, consts, opts, targets = entry[2:]
        for cc in targets:
            src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=consts)
            try:
                c = triton.compiler.compile(src, target=GPUTarget("cuda", cc, 32), options=dict(opts))
            except Exception as e:
                print(f"# skip {name} sm{cc}: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                      file=sys.stderr, flush=True)
                continue
            fname = f"{name}.sm{cc}.ptx"
            with open(os.path.join(out, fname), "w") as f:
                f.write(c.asm["ptx"])
            print(f"{fname}\ttriton {triton.__version__}\t{name}", flush=True)


if __name__ == "__main__":
    main()
