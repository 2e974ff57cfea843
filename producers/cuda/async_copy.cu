// archs: 80 90 100a 120a
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

extern "C" __global__ void pipelined_copy(const float4* in, float4* out, int tiles) {
    __shared__ float4 buf[2][128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int k = 0; k < tiles; ++k) {
        if (k + 1 < tiles) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[k & 1][(t + 1) % 128];
        out[k * 128 + t] = make_float4(v.w, v.z, v.y, v.x);
        __syncthreads();
    }
}

extern "C" __global__ void barrier_memcpy(const int* in, int* out, int n) {
    __shared__ int sh[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, sh, in + blockIdx.x * 256, sizeof(int) * 256, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = sh[255 - threadIdx.x] * 2;
}

extern "C" __global__ void pipeline_obj(const float* in, float* out, int n) {
    __shared__ float sh[2][256];
    auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto pipe = cuda::make_pipeline(block, &state);
    for (int s = 0; s < 2; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, sh[s], in + s * 256, sizeof(float) * 256, pipe);
        pipe.producer_commit();
    }
    for (int s = 0; s < 2; ++s) {
        pipe.consumer_wait();
        out[s * 256 + threadIdx.x] = sh[s][threadIdx.x] + 1.f;
        pipe.consumer_release();
    }
}
