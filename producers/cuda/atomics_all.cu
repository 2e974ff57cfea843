// archs: 75 89 100a 121a
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void atomics_types(int* i, unsigned* u, unsigned long long* ull, long long* ll, float* f, double* d,
                              __half2* h2, __half* h, __nv_bfloat162* b2, __nv_bfloat16* b, unsigned short* us,
                              float2* f2, float4* f4) {
    int t = threadIdx.x;
    __shared__ float sf[32];
    __shared__ double sd[4];
    __shared__ unsigned long long sul;
    atomicAdd(i, t); atomicSub(i, 1); atomicExch(i, t); atomicMin(i, -t); atomicMax(i, t);
    atomicAnd(i, 0xf0); atomicOr(i, 3); atomicXor(i, 5); atomicCAS(i, 0, t);
    atomicInc(u, 100u); atomicDec(u, 50u); atomicAdd(u, 1u); atomicMin(u, 2u); atomicMax(u, 3u);
    atomicAdd(ull, 1ull); atomicCAS(ull, 0ull, 2ull); atomicExch(ull, 7ull);
    atomicExch(f, 1.5f); atomicAdd(f, 0.25f);
    atomicAdd(&sf[t & 31], 1.f);
#if __CUDA_ARCH__ >= 350
    atomicMin(ll, (long long)-t); atomicMax(ll, (long long)t); atomicAnd(ull, 0xffull); atomicOr(ull, 1ull); atomicXor(ull, 2ull);
    atomicMin(ull, 4ull); atomicMax(ull, 5ull);
#endif
#if __CUDA_ARCH__ >= 600
    atomicAdd(d, 1.0);
    atomicAdd(&sd[t & 3], 0.5);
    atomicAdd_block(i, 1); atomicAdd_system(i, 2);
    atomicCAS_block(u, 0u, 1u); atomicExch_system(ull, 3ull); atomicMax_block(ll, 9ll);
    atomicAdd_system(d, 2.0); atomicAdd_block(f, 3.f);
    atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
    atomicInc_system(u, 9u); atomicAnd_block(&sul, 3ull);
#endif
#if __CUDA_ARCH__ >= 700
    atomicAdd(h, __float2half(1.f));
    atomicCAS(us, (unsigned short)1, (unsigned short)2);
#endif
#if __CUDA_ARCH__ >= 800
    atomicAdd(b2, __floats2bfloat162_rn(1.f, 2.f));
    atomicAdd(b, __float2bfloat16(1.f));
#endif
#if __CUDA_ARCH__ >= 900
    atomicAdd(f2, make_float2(1.f, 2.f));
    atomicAdd(f4, make_float4(1.f, 2.f, 3.f, 4.f));
    atomicAdd_block(f4, make_float4(1.f, 2.f, 3.f, 4.f));
    atomicExch((unsigned long long*)ll, 4ull);
#endif
    __syncthreads();
    f[t + 1] = sf[t & 31] + sd[t & 3] + sul;
}

__global__ void volatile_and_fences(volatile int* flag, volatile float* data, int* out) {
    if (threadIdx.x == 0) {
        data[blockIdx.x] = 3.f;
        __threadfence();
        flag[blockIdx.x] = 1;
    }
    while (flag[(blockIdx.x + 1) % gridDim.x] == 0) {}
    __threadfence_block();
    out[blockIdx.x] = (int)data[(blockIdx.x + 1) % gridDim.x];
    int v;
    asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(v) : "l"(flag));
#if __CUDA_ARCH__ >= 700
    asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(flag));
    asm volatile("st.release.sys.global.s32 [%0], %1;" :: "l"(out), "r"(v));
    asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(out));
    asm volatile("red.release.cta.global.add.f32 [%0], 1.0;" :: "l"(data));
    asm volatile("fence.acq_rel.gpu;");
    asm volatile("fence.sc.sys;");
#endif
    out[gridDim.x + blockIdx.x] = v;
}
