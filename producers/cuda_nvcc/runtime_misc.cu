// nvcc only (NVRTC has no <cstdint>/<cstdio>); variants: PLAN in nvcc_compile.py
#include <cstdio>
#include <cassert>
#include <cuda_fp16.h>

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Sq : Shape { float s; __device__ Sq(float v) : s(v) {} __device__ float area() const override { return s * s; } };
struct Ci : Shape { float r; __device__ Ci(float v) : r(v) {} __device__ float area() const override { return 3.14159f * r * r; } };

__device__ int ackermann(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
__device__ long long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

typedef double (*binop)(double, double);
__device__ double op_add(double a, double b) { return a + b; }
__device__ double op_hyp(double a, double b) { return hypot(a, b); }
__device__ double op_pow(double a, double b) { return pow(a, b); }
__device__ binop table[3] = {op_add, op_hyp, op_pow};

__global__ void __launch_bounds__(128, 4) printf_assert(const double* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];
    assert(x == x);
    if (x < 0) __trap();
    printf("i=%d x=%f e=%e g=%g c=%c s=%s p=%p ll=%lld u=%u h=%hx\n", i, x, x, x, 'a' + (i & 15), "str",
           (void*)in, (long long)i * 3, (unsigned)i, (unsigned short)i);
    printf("%08.3f|%-5d|%+i\n", (float)x, i, -i);
}

__global__ void heap_virtual(float* out, int n, int which) {
    Shape* s = (threadIdx.x & 1) ? (Shape*)new Sq(threadIdx.x) : (Shape*)new Ci(threadIdx.x);
    float* scratch = (float*)malloc(n * sizeof(float));
    if (scratch) {
        for (int i = 0; i < n; ++i) scratch[i] = s->area() * i;
        out[threadIdx.x] = scratch[n - 1] + ackermann(2, which) + fib(which);
        free(scratch);
    }
    delete s;
}

__global__ void fnptr_int128(const double* in, double* out, unsigned long long* wide, int k) {
    binop f = table[k % 3];
    double r = f(in[threadIdx.x], in[threadIdx.x + 1]);
    __int128 a = (__int128)in[threadIdx.x] * 1000000007;
    unsigned __int128 b = (unsigned __int128)wide[threadIdx.x] * wide[threadIdx.x + 1];
    b = b / 12345 + (b % 777) + ((unsigned __int128)a >> 7);
    a = a * a - (__int128)b;
    long double ld = (long double)r * 1.5L;
    wide[threadIdx.x] = (unsigned long long)(b >> 64) ^ (unsigned long long)b ^ (unsigned long long)(a >> 3);
    out[threadIdx.x] = (double)ld;
}

__device__ float local_sum(int n) {
    float* buf = (float*)alloca(n * sizeof(float));
    for (int i = 0; i < n; ++i) buf[i] = i * 0.5f;
    float s = 0;
    for (int i = n - 1; i >= 0; --i) s += buf[i];
    return s;
}

__global__ void __launch_bounds__(256) local_arrays(float* out, int n, int idx) {
    float arr[64];
    for (int i = 0; i < 64; ++i) arr[i] = i * threadIdx.x;
    out[threadIdx.x] = arr[idx & 63] + local_sum(n);
}

__global__ void timing(unsigned long long* t, int ns) {
    long long c0 = clock64();
    unsigned c1 = clock();
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
#if __CUDA_ARCH__ >= 700
    __nanosleep(ns);
#endif
    unsigned smid, nsmid, lanemask, envreg;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(lanemask));
    asm("mov.u32 %0, %%envreg3;" : "=r"(envreg));
    unsigned long long pm;
    asm volatile("mov.u32 %0, %%pm0;" : "=r"(smid));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(pm));
    __prof_trigger(3);
    t[threadIdx.x] = clock64() - c0 + c1 + gt + smid + nsmid + lanemask + envreg + pm;
    __threadfence_system();
    __threadfence_block();
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
__global__ void __maxnreg__(40) maxreg_kernel(float* out) { out[threadIdx.x] = sqrtf(out[threadIdx.x]); }
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128, 1, 4) cluster_bounds(float* out) {
    out[threadIdx.x] += 1.f;
}
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
struct Params { float a[16]; int n; };
__global__ void gc_kernel(const __grid_constant__ Params p, float* out) {
    const float* q = &p.a[threadIdx.x & 15];
    out[threadIdx.x] = *q * p.n;
}
#endif
