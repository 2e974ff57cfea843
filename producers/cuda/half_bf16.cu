// archs: 75 80 90 100a 120a
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void h2_axpy(const __half2* x, __half2* y, __half a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 a2 = __half2half2(a);
        __half2 r = __hfma2(a2, x[i], y[i]);
        r = __hmax2(r, __hneg2(x[i]));
        r = __hmul2_sat(r, h2exp(x[i]));
        y[i] = __hadd2(r, h2sqrt(__habs2(x[i])));
    }
}

extern "C" __global__ void bf16_ops(const __nv_bfloat16* x, const float* f, __nv_bfloat16* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 v = __hadd(x[i], __float2bfloat16_rn(f[i]));
        float g = __bfloat162float(v) * 3.f;
        __nv_bfloat162 p = __floats2bfloat162_rn(g, -g);
        p = __hmul2(p, p);
        y[i] = __hmax(__low2bfloat16(p), __high2bfloat16(p));
    }
}

extern "C" __global__ void conversions(const float* f, const double* d, __half* h, int* i32, unsigned long long* u64,
                                       float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        h[i] = __float2half_rz(f[i]);
        i32[i] = __float2int_rd(f[i]) + __double2int_ru(d[i]) + __half2int_rn(h[i]);
        u64[i] = __double2ull_rz(d[i]);
        out[i] = __int2float_rn(i32[i]) + __ull2float_ru(u64[i]) + __half2float(__ushort_as_half((unsigned short)i))
                 + (float)__double2float_rd(d[i]) + __saturatef(f[i]);
    }
}
