// archs: 75 90a 103a
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/atomic>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void atomic_ref_orders(int* i32, unsigned long long* u64, float* f32, double* f64, int* flag) {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*i32);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> b(*u64);
    cuda::atomic_ref<float, cuda::thread_scope_block> c(*f32);
    cuda::atomic_ref<double, cuda::thread_scope_device> d(*f64);
    cuda::atomic_ref<int, cuda::thread_scope_system> fl(*flag);
    a.fetch_add(1, cuda::memory_order_relaxed);
    a.fetch_sub(2, cuda::memory_order_acq_rel);
    a.fetch_and(0xff, cuda::memory_order_release);
    a.fetch_or(0x10, cuda::memory_order_acquire);
    a.fetch_xor(3, cuda::memory_order_seq_cst);
    a.fetch_min(-4, cuda::memory_order_relaxed);
    a.fetch_max(100);
    b.fetch_add(5ull, cuda::memory_order_release);
    unsigned long long exp = 7;
    b.compare_exchange_strong(exp, 9ull, cuda::memory_order_acq_rel, cuda::memory_order_acquire);
    b.compare_exchange_weak(exp, 11ull);
    c.fetch_add(1.5f, cuda::memory_order_relaxed);
    c.store(2.0f, cuda::memory_order_release);
    float cv = c.load(cuda::memory_order_acquire);
    d.fetch_add(cv, cuda::memory_order_seq_cst);
    double old = d.exchange(3.0, cuda::memory_order_acq_rel);
    fl.store(1, cuda::memory_order_release);
    while (fl.load(cuda::memory_order_acquire) == 0) {}
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    *f64 = old;
}

__global__ void shared_atomics(unsigned* out) {
    __shared__ unsigned s[32];
    __shared__ unsigned long long sl;
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    if (threadIdx.x == 0) sl = 0;
    __syncthreads();
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> r(s[threadIdx.x & 31]);
    r.fetch_add(1u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> rl(sl);
    rl.fetch_max((unsigned long long)threadIdx.x, cuda::memory_order_acq_rel);
    __syncthreads();
    if (threadIdx.x < 32) out[threadIdx.x] = s[threadIdx.x] + (unsigned)sl;
}

__global__ void barrier_pipeline(const float4* in, float* out, int chunks) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    __shared__ float4 buf[2][128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.f;
    for (int c = 0; c < chunks; ++c) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[c & 1][threadIdx.x], &in[c * 128 + threadIdx.x], sizeof(float4), pipe);
        pipe.producer_commit();
        cuda::pipeline_consumer_wait_prior<0>(pipe);
        float4 v = buf[c & 1][threadIdx.x];
        acc += v.x * v.y + v.z * v.w;
        pipe.consumer_release();
        bar.arrive_and_wait();
    }
    auto tok = bar.arrive();
    bar.wait(std::move(tok));
    cuda::memcpy_async(block, &buf[0][0], &in[0], sizeof(float4) * 128, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = acc + buf[0][threadIdx.x].x;
#endif
}

__global__ void block_pipeline(const int* in, int* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    constexpr int stages = 3;
    __shared__ int sm[stages][256];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int sum = 0;
    for (int s = 0; s < stages; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, sm[s], in + s * 256, cuda::aligned_size_t<16>(sizeof(int) * 256), pipe);
        pipe.producer_commit();
    }
    for (int s = 0; s < stages; ++s) {
        pipe.consumer_wait();
        sum += sm[s][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = sum;
#endif
}
