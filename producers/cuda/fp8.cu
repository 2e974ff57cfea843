// archs: 90 90a 100a 120a
#include <cuda_fp8.h>
#include <cuda_fp16.h>

extern "C" __global__ void quantize_fp8(const float* in, __nv_fp8_e4m3* q4, __nv_fp8_e5m2* q5, __half* back, float scale,
                                        int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8_e4m3 a(in[i] * scale);
    __nv_fp8_e5m2 b(in[i]);
    q4[i] = a;
    q5[i] = b;
    __nv_fp8x2_e4m3 pair(make_float2(in[i], -in[i]));
    __half2 h = (__half2)pair;
    back[i] = __hadd(__low2half(h), (__half)b);
}

extern "C" __global__ void fp8x4(const float4* in, __nv_fp8x4_e4m3* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __nv_fp8x4_e4m3(in[i]);
}
