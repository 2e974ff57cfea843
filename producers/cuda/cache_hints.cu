// archs: 75 90 100a
#include <cuda_fp16.h>
__global__ void cache_ops(const float4* __restrict__ a, const int2* __restrict__ b, const double* __restrict__ c,
                          const __half2* __restrict__ h, const char* __restrict__ s, float4* o, int2* oi, double* od,
                          __half2* oh, long long* ol) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 x = __ldg(&a[i]);
    float4 y = __ldcg(&a[i + 1]);
    float4 z = __ldca(&a[i + 2]);
    float4 w = __ldcs(&a[i + 3]);
    int2 p = __ldlu(&b[i]);
    int2 q = __ldcv(&b[i + 1]);
    double r = __ldg(&c[i]) + __ldcs(&c[i + 1]) + __ldlu(&c[i + 2]);
    __half2 hh = __ldg(&h[i]);
    __half2 hc = __ldcg(&h[i + 1]);
    char ch = __ldg(&s[i]);
    long long lv = __ldcs((const long long*)c + i);
    __stwb(&o[i], make_float4(x.x + y.y, z.z, w.w, ch));
    __stcg(&oi[i], make_int2(p.x + q.y, p.y));
    __stcs(&od[i], r);
    __stwt(&oh[i], __hadd2(hh, hc));
    __stwt(&ol[i], lv);
    __stcs(&o[i + 1], w);
#if __CUDA_ARCH__ >= 800
    float pf;
    asm volatile("ld.global.L1::evict_last.L2::256B.f32 %0, [%1];" : "=f"(pf) : "l"(a + i));
    asm volatile("prefetch.global.L2::evict_normal [%0];" :: "l"(a + i + 64));
    asm volatile("ld.global.nc.L1::no_allocate.L2::128B.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w) : "l"(a + i));
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 0.5;" : "=l"(pol));
    asm volatile("st.global.L2::cache_hint.f32 [%0], %1, %2;" :: "l"(o + i), "f"(pf), "l"(pol));
    asm volatile("discard.global.L2 [%0], 128;" :: "l"(o + 256));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(o + 512));
    o[i + 2] = x;
#endif
    asm volatile("prefetch.global.L1 [%0];" :: "l"(a + i + 128));
    asm volatile("prefetchu.L1 [%0];" :: "l"(a + i + 256));
}
