// archs: 75 80 90 100a 120a
#ifndef __CUDACC_RTC__
#include <cstdio>
#endif

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

typedef float (*unary_fn)(float);
__device__ float op_sq(float x) { return x * x; }
__device__ float op_neg(float x) { return -x; }
__device__ float op_half(float x) { return x * 0.5f; }
__device__ unary_fn table[3] = {op_sq, op_neg, op_half};

struct Params {
    float scale[4];
    int mode;
    double bias;
    char tag[3];
};

__constant__ float coeffs[16];
__device__ int counter;
__device__ __noinline__ float dispatch(int which, float x) { return table[which % 3](x); }

extern "C" __global__ void calls(const Params p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = p.scale[i & 3] * coeffs[i & 15] + (float)p.bias;
    switch (p.mode + (i & 7)) {
        case 0: v += 1; break;
        case 1: v *= 2; break;
        case 2: v -= 3; break;
        case 3: v = -v; break;
        case 4: v = v * v; break;
        case 5: v += fib(i & 7); break;
        case 6: v = dispatch(i, v); break;
        default: v = 0;
    }
    if (v > 1e30f) printf("big value %f at %d tag %c\n", v, i, p.tag[0]);
    if (!(v == v)) __trap();
    atomicAdd(&counter, 1);
    out[i] = v;
}

extern "C" __global__ void heap_and_local(int n, int* out) {
    int* buf = (int*)malloc(n * sizeof(int));
    int local[32];
    for (int k = 0; k < 32; ++k) local[k] = k * threadIdx.x;
    if (buf) {
        for (int k = 0; k < n; ++k) buf[k] = local[(k * 13 + threadIdx.x) & 31];
        out[threadIdx.x] = buf[n - 1];
        free(buf);
    }
    if (n < 0) __trap();
    __nanosleep(50);
}

extern "C" __global__ void __launch_bounds__(256, 2) bounded(float* __restrict__ x, const float* __restrict__ y) {
    __shared__ double dbl[64];
    dbl[threadIdx.x & 63] = y[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = __ldg(y + threadIdx.x) + (float)dbl[(threadIdx.x + 1) & 63] + __ldcs(y) + __ldcg(y + 1);
    __stcs(x + 1000, 1.f);
    __stwt(x + 1001, 2.f);
}
