// archs: 75 87 103a 121a
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void warp_everything(const int* in, long long* out, double* dout, __half2* hout) {
    int t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    unsigned full = 0xffffffffu;
    unsigned act = __activemask();
    unsigned bal = __ballot_sync(full, v > 0);
    int any = __any_sync(full, v == 3), all = __all_sync(act, v != 7);
    int s1 = __shfl_sync(full, v, 5) + __shfl_up_sync(full, v, 1, 16) + __shfl_down_sync(full, v, 2, 8) +
             __shfl_xor_sync(full, v, 4, 4);
    double d = __shfl_xor_sync(full, (double)v * 0.5, 16);
    long long ll = __shfl_down_sync(full, (long long)v << 33, 1);
    float f = __shfl_up_sync(full, (float)v, 3);
    __half2 h2 = __shfl_xor_sync(full, __floats2half2_rn(f, d), 1);
#if __CUDA_ARCH__ >= 700
    unsigned ma = __match_any_sync(full, v & 3);
    int pred;
    unsigned mal = __match_all_sync(full, (long long)v >> 2, &pred);
    s1 += ma + mal + pred;
    __syncwarp(bal | 1);
#endif
#if __CUDA_ARCH__ >= 800
    unsigned r = __reduce_add_sync(full, (unsigned)v) ^ __reduce_and_sync(full, (unsigned)v) ^
                 __reduce_or_sync(full, (unsigned)v) ^ __reduce_xor_sync(full, (unsigned)v);
    int mn = __reduce_min_sync(full, v), mx = __reduce_max_sync(full, v);
    unsigned umx = __reduce_max_sync(full, (unsigned)v);
    s1 += r + mn + mx + umx;
#endif
    unsigned bits = __brev(v) ^ __popc(v) ^ __clz(v) ^ __ffs(v) ^ __fns(full, t, 2) ^ __byte_perm(v, t, 0x3210);
    bits += __funnelshift_l(v, t, 7) + __funnelshift_rc(v, t, 40) + __popcll(ll) + __clzll(ll) + __ffsll(ll);
    bits += __dp4a(v, t, 1) + __dp2a_lo(v, t, 2) + __dp2a_hi((unsigned)v, (unsigned)t, 3u);
    bits += __vadd4(v, t) + __vabsdiffu4(v, t) + __vcmpgeu2(v, t) + __vmaxs2(v, t) + __vsads4(v, t) + __vhaddu2(v, t);
    bits += __sad(v, t, 3) + __usad(v, t, 1) + __mul24(v, t) + __umulhi(v, t) + __mulhi(v, t) + __mul64hi(ll, ll) + __rhadd(v, t) + __uhadd(v, t);
    unsigned lm;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
    out[blockIdx.x * blockDim.x + t] = s1 + bal + any + all + ll + bits + lm + act;
    dout[blockIdx.x * blockDim.x + t] = d;
    hout[blockIdx.x * blockDim.x + t] = h2;
}
