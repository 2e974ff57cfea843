// archs: 75 80 90 100a 120a
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ double atomic_mul(double* addr, double f) {
    unsigned long long* p = (unsigned long long*)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * f));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void atomics_all(float* f, double* d, int* i, unsigned* u, unsigned long long* ull,
                                       long long* ll, __half2* h2, __half* h, __nv_bfloat16* b, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    atomicAdd(f, 1.5f);
    atomicAdd(d, 2.5);
    atomicSub(i, 3);
    atomicMax(i + 1, t);
    atomicMin(u, (unsigned)t);
    atomicInc(u + 1, 1000u);
    atomicDec(u + 2, 1000u);
    atomicAnd(u + 3, (unsigned)t);
    atomicOr(u + 4, (unsigned)t);
    atomicXor(u + 5, (unsigned)t);
    atomicExch(u + 6, (unsigned)t);
    atomicAdd(ull, 1ull);
    atomicMax(ll, (long long)t);
    atomicMin(ull + 1, (unsigned long long)t);
    atomicAdd(h2, __halves2half2(__float2half(1.f), __float2half(2.f)));
    atomicAdd(h, __float2half(0.5f));
    atomicAdd(b, __float2bfloat16(0.25f));
    atomic_mul(d + 1, 1.0001);
    atomicAdd_block(f + 1, 1.0f);
    atomicAdd_system(i + 2, 1);
    atomicCAS_block(i + 3, 0, t);
    atomicExch_system(f + 2, 3.0f);
}

extern "C" __global__ void shared_histogram(const unsigned char* in, unsigned* hist, int n) {
    __shared__ unsigned local[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x) local[k] = 0;
    __syncthreads();
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
        atomicAdd(&local[in[k]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        if (local[k]) atomicAdd(&hist[k], local[k]);
    __threadfence();
    __threadfence_system();
}
