// atomics.cu - atomic read-modify-write operations, memory scopes, fences and
// warp-level vote/match intrinsics, for sm_90.
//
// NVVM itself emits `atom` even when the result is unused (ptxas turns those
// into reductions later), so the `red` forms are written as inline PTX.

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
#include <climits>

// ---------------------------------------------------- explicit reductions

__device__ __forceinline__ void red_add_u32(unsigned int *p, unsigned int v)
{
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(v) : "memory");
}

__device__ __forceinline__ void red_add_f32_relaxed_gpu(float *p, float v)
{
    asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "f"(v) : "memory");
}

__device__ __forceinline__ void red_add_f16x2(__half2 *p, __half2 v)
{
    asm volatile("red.global.add.noftz.f16x2 [%0], %1;"
                 ::"l"(__cvta_generic_to_global(p)), "r"(*reinterpret_cast<unsigned int *>(&v)) : "memory");
}

__device__ __forceinline__ void red_add_u64_release_sys(unsigned long long *p, unsigned long long v)
{
    asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(v) : "memory");
}

__device__ __forceinline__ void red_max_s32_cta(int *p, int v)
{
    asm volatile("red.relaxed.cta.shared::cta.max.s32 [%0], %1;"
                 ::"r"((unsigned int)__cvta_generic_to_shared(p)), "r"(v) : "memory");
}

// -------------------------------------------------------------- histogram

// Shared-memory histogram with a block-scoped atomic, merged into global
// memory with device-scoped reductions (red.global.add).
extern "C" __global__ void histogram256(const unsigned char *__restrict__ data, size_t n,
                                        unsigned int *__restrict__ bins)
{
    __shared__ unsigned int local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();

    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        atomicAdd_block(&local[data[i]], 1u);
    __syncthreads();

    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i] != 0)
            red_add_u32(&bins[i], local[i]);
}

// --------------------------------------------------------- float helpers

// Floating-point max through a compare-and-swap loop on the bit pattern.
__device__ float atomic_max_float(float *addr, float value)
{
    int *addr_i = reinterpret_cast<int *>(addr);
    int old = *addr_i, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(addr_i, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

// Double multiply through a 64-bit CAS loop.
__device__ double atomic_mul_double(double *addr, double factor)
{
    unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * factor));
    } while (assumed != old);
    return __longlong_as_double(old);
}

struct Stats {
    float sum_f;
    double sum_d;
    int count;
    int min_i;
    int max_i;
    unsigned long long max_u64;
    float max_f;
    double product;
    unsigned int flags;
    unsigned int ticket;
};

// Accumulate several statistics over an array with a mix of atomics.
extern "C" __global__ void accumulate_stats(const float *__restrict__ x, int n, Stats *s,
                                            unsigned int *__restrict__ ticket_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    atomicAdd(&s->sum_f, v);
    atomicAdd(&s->sum_d, (double)v);
    atomicAdd(&s->count, 1);
    atomicMin(&s->min_i, __float2int_rd(v));
    atomicMax(&s->max_i, __float2int_ru(v));
    atomicMax(&s->max_u64, (unsigned long long)__float_as_uint(fabsf(v)));
    atomic_max_float(&s->max_f, v);
    if (v != 0.0f)
        atomic_mul_double(&s->product, (double)v);
    atomicOr(&s->flags, v < 0.0f ? 1u : 2u);
    atomicAnd(&s->flags, ~(isnan(v) ? 4u : 0u));
    atomicXor(&s->flags, 0x100u);
    // Result used: stays an atom.
    ticket_out[i] = atomicInc(&s->ticket, 0xffffffu);
}

// ------------------------------------------------------- half / vector adds

extern "C" __global__ void scatter_add_half(const int *__restrict__ idx, const __half2 *__restrict__ g,
                                            const __nv_bfloat16 *__restrict__ gb,
                                            const float2 *__restrict__ gf2,
                                            __half2 *grad_h, __nv_bfloat16 *grad_b, float2 *grad_f2,
                                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        atomicAdd(&grad_h[j], g[i]);
        atomicAdd(&grad_b[j], gb[i]);
        atomicAdd(&grad_f2[j], gf2[i]);
    }
}

// Per-block partial results pushed to global accumulators with `red`.
extern "C" __global__ void push_partials(const float *__restrict__ x, const __half2 *__restrict__ h,
                                         int n, float *sum, __half2 *hsum,
                                         unsigned long long *done_blocks, int *block_peak)
{
    __shared__ int peak;
    if (threadIdx.x == 0)
        peak = INT_MIN;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        red_add_f32_relaxed_gpu(sum, x[i]);
        red_add_f16x2(hsum, h[i]);
        red_max_s32_cta(&peak, __float2int_rn(x[i]));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        block_peak[blockIdx.x] = peak;
        cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
        red_add_u64_release_sys(done_blocks, 1ull);
    }
}

// ----------------------------------------------------- scoped / system ops

// Producer/consumer flag between the GPU and host-mapped memory.
extern "C" __global__ void publish_to_host(int *host_mapped_data, int *host_mapped_flag, int value)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicExch_system(host_mapped_data, value);
        __threadfence_system();
        atomicAdd_system(host_mapped_flag, 1);
    }
}

// The same idea with libcu++ atomic_ref and explicit scopes/orders.
extern "C" __global__ void scoped_counters(int *device_counter, int *system_counter,
                                           unsigned int *block_max, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> dev(*device_counter);
    cuda::atomic_ref<int, cuda::thread_scope_system> sys(*system_counter);

    __shared__ unsigned int smax;
    if (threadIdx.x == 0)
        smax = 0;
    __syncthreads();
    cuda::atomic_ref<unsigned int, cuda::thread_scope_block> blk(smax);

    int before = dev.fetch_add(1, cuda::memory_order_relaxed);
    blk.fetch_max((unsigned int)before, cuda::memory_order_relaxed);
    __syncthreads();

    if (threadIdx.x == 0) {
        atomicMax(&block_max[blockIdx.x], smax);
        sys.fetch_add(1, cuda::memory_order_release);
        out[blockIdx.x] = dev.load(cuda::memory_order_acquire);
    }
}

// --------------------------------------------------------------- spin lock

__device__ void lock(int *mutex)
{
    unsigned ns = 8;
    while (atomicCAS(mutex, 0, 1) != 0) {
        __nanosleep(ns);
        if (ns < 256)
            ns *= 2;
    }
    __threadfence();
}

__device__ void unlock(int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
}

// Append to a global linked structure under a lock, one thread per warp.
extern "C" __global__ void locked_append(int *mutex, int *list, int *length, int capacity)
{
    const unsigned lane = threadIdx.x % 32;
    const unsigned active = __activemask();
    const int leader = __ffs(active) - 1;
    if (lane == (unsigned)leader) {
        lock(mutex);
        int len = *length;
        if (len < capacity) {
            list[len] = blockIdx.x * blockDim.x + threadIdx.x;
            *length = len + 1;
        }
        unlock(mutex);
    }
}

// ----------------------------------------------------- warp-aggregated ops

// Warp-aggregated increment: threads with the same key elect one leader
// (via __match_any_sync) that does a single atomicAdd for the group.
extern "C" __global__ void count_keys(const int *__restrict__ keys, int n, int *__restrict__ counts,
                                      unsigned int *__restrict__ positive_per_warp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned in_range = __ballot_sync(0xffffffffu, i < n);
    if (i >= n)
        return;

    int key = keys[i];
    unsigned peers = __match_any_sync(in_range, key);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x % 32;
    if (lane == leader)
        atomicAdd(&counts[key], __popc(peers));

    unsigned pos = __ballot_sync(in_range, key > 0);
    if (__all_sync(in_range, key >= 0) && lane == __ffs(in_range) - 1)
        positive_per_warp[i / 32] = __popc(pos);
    if (__any_sync(in_range, key < 0) && lane == leader)
        atomicSub(&counts[0], 1);
}
