// archs: 75 89 100a 121a
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#if __has_include(<cuda_fp6.h>)
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#define HAVE_FP6 1
#endif
__global__ void half_rounding(const float* in, const double* din, __half* h, __nv_bfloat16* b, short* s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    double dx = din[i];
    __half a = __float2half_rn(x), c = __float2half_rz(x), d = __float2half_rd(x), e = __float2half_ru(x);
    __half dd = __double2half(dx);
    __nv_bfloat16 ba = __float2bfloat16_rn(x), bc = __float2bfloat16_rz(x), bd = __float2bfloat16_rd(x);
    __nv_bfloat16 bdd = __double2bfloat16(dx);
    int hi = __half2int_rn(a) + __half2int_rz(c) + __half2int_rd(d) + __half2int_ru(e);
    short hs = __half2short_rn(a) + __half2short_rz(a);
    unsigned short hu = __half2ushort_rd(a);
    long long hl = __half2ll_rz(a) + __half2ull_ru(a);
    __half fromi = __int2half_rn(i) + __uint2half_rz(i) + __short2half_rd((short)i) + __ll2half_ru(i) + __ushort2half_rn(i);
    __nv_bfloat16 bfromi = __int2bfloat16_rn(i) + __uint2bfloat16_rz(i) + __short2bfloat16_rd((short)i) + __ll2bfloat16_ru(i);
    float bf = __bfloat162float(ba) + __bfloat162float(bc) + __bfloat162float(bd) + __bfloat162float(bdd);
    int bi = __bfloat162int_rn(ba) + __bfloat162int_rz(bc) + __bfloat162uint_rd(bd) + __bfloat162ll_ru(bdd);
    __half2 p = __floats2half2_rn(x, bf);
    __half2 q = __hfma2(p, p, __half2half2(a));
#if __CUDA_ARCH__ >= 800
    q = __hfma2_relu(q, p, p);
    q = __hmax2_nan(q, p);
    __nv_bfloat162 bp = __floats2bfloat162_rn(x, bf);
    bp = __hfma2(bp, bp, bp);
    bp = __hmin2_nan(bp, __float2bfloat162_rn(1.f));
    bf += __low2float(bp) + __high2float(bp);
    __half ex = hexp2(a) + hlog2(a) + hrsqrt(a) + hrcp(a) + hsin(a) + hcos(a) + htrunc(a) + hceil(a);
    __nv_bfloat16 bex = hexp(ba) + hlog10(ba) + hsqrt(ba) + hfloor(ba) + hrint(ba);
    a = a + ex;
    ba = ba + bex;
#endif
    h[i] = a + c + d + e + dd + fromi + __low2half(q) + __high2half(q);
    b[i] = ba + bc + bd + bdd + bfromi;
    s[i] = hs + hu + hl + hi + bi + __half_as_short(a) + __bfloat16_as_short(ba);
}

__global__ void fp8_fp6_fp4(const float* in, unsigned char* o8, unsigned short* o16, float* back, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i], y = in[i] * 0.5f;
    __nv_fp8_e4m3 a(x);
    __nv_fp8_e5m2 b(y);
    __nv_fp8x2_e4m3 c(make_float2(x, y));
    __nv_fp8x4_e5m2 d(make_float4(x, y, x, y));
    __nv_fp8_storage_t s1 = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    __nv_fp8_storage_t s2 = __nv_cvt_double_to_fp8((double)y, __NV_NOSAT, __NV_E5M2);
    __nv_fp8x2_storage_t s3 = __nv_cvt_halfraw2_to_fp8x2(__floats2half2_rn(x, y), __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t s4 = __nv_cvt_bfloat16raw2_to_fp8x2(__floats2bfloat162_rn(x, y), __NV_SATFINITE, __NV_E5M2);
    __half_raw hr = __nv_cvt_fp8_to_halfraw(s1, __NV_E4M3);
    __half2_raw h2r = __nv_cvt_fp8x2_to_halfraw2(s3, __NV_E4M3);
    float acc = float(a) + float(b) + __half2float(__half(hr)) + __low2float(__half2(h2r));
    float2 cf = float2(c);
    float4 df = float4(d);
    acc += cf.x + cf.y + df.x + df.w;
#if __CUDA_ARCH__ >= 1000 && defined(HAVE_FP6)
    __nv_fp8_e8m0 e8(x);
    __nv_fp6_e2m3 f6a(x);
    __nv_fp6_e3m2 f6b(y);
    __nv_fp4_e2m1 f4(x);
    __nv_fp4x2_e2m1 f4x2(make_float2(x, y));
    __nv_fp4x4_e2m1 f4x4(make_float4(x, y, y, x));
    __nv_fp6x2_e2m3 f6x2(make_float2(x, y));
    __nv_fp4x2_storage_t fs = __nv_cvt_float2_to_fp4x2(make_float2(x, y), __NV_E2M1, cudaRoundNearest);
    __nv_fp6x2_storage_t f6s = __nv_cvt_float2_to_fp6x2(make_float2(x, y), __NV_E3M2, cudaRoundNearest);
    __nv_fp8_storage_t e8s = __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf);
    __half2_raw f4h = __nv_cvt_fp4x2_to_halfraw2(fs, __NV_E2M1);
    __half2_raw f6h = __nv_cvt_fp6x2_to_halfraw2(f6s, __NV_E3M2);
    acc += float(e8) + float(f6a) + float(f6b) + float(f4) + float2(f4x2).y + float4(f4x4).z + float2(f6x2).x;
    acc += __low2float(__half2(f4h)) + __high2float(__half2(f6h)) + e8s;
#endif
    o8[i] = s1 ^ s2 ^ a.__x ^ b.__x;
    o16[i] = s3 ^ s4 ^ c.__x;
    back[i] = acc;
}
