// reduce_lineinfo.cu - block-level sum reductions, compiled with -lineinfo.
//
// The helpers below are __forceinline__, so the generated PTX carries
// ".loc ... inlined_at ..." records pointing back at their call sites.
// No cooperative groups: only intrinsics, shared memory and __syncthreads.

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

// Tree reduction inside one warp using shuffles; lane 0 ends with the total.
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

// Sum a value over the whole block. Every thread gets the result.
// `scratch` must hold at least one element per warp.
template <typename T>
__device__ __forceinline__ T block_sum(T v, T *scratch)
{
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    const int nwarps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;

    v = warp_sum(v);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();

    v = (threadIdx.x < nwarps) ? scratch[lane] : T(0);
    if (warp == 0)
        v = warp_sum(v);
    if (threadIdx.x == 0)
        scratch[0] = v;
    __syncthreads();
    T total = scratch[0];
    __syncthreads(); // scratch may be reused by the caller
    return total;
}

// Each thread accumulates a strided slice of the input.
__device__ __forceinline__ float thread_partial(const float *__restrict__ in, int n)
{
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += in[i];
    return acc;
}

// Pass 1: one partial sum per block, written to partial[blockIdx.x].
extern "C" __global__ void reduce_sum_f32(const float *__restrict__ in,
                                          float *__restrict__ partial,
                                          int n)
{
    __shared__ float scratch[WARP_SIZE];
    float s = block_sum(thread_partial(in, n), scratch);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s;
}

// Integer variant: the warp step uses the sm_80+ redux instruction
// (__reduce_add_sync), the block step goes through shared memory.
// Also counts how many inputs were above `threshold`.
extern "C" __global__ void reduce_count_u32(const unsigned *__restrict__ in,
                                            unsigned *__restrict__ out_sum,
                                            unsigned *__restrict__ out_count,
                                            unsigned threshold,
                                            int n)
{
    __shared__ unsigned sums[WARP_SIZE];
    __shared__ unsigned counts[WARP_SIZE];

    unsigned s = 0, c = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned v = in[i];
        s += v;
        c += (v > threshold);
    }

    s = __reduce_add_sync(FULL_MASK, s);
    c = __reduce_add_sync(FULL_MASK, c);

    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    if (lane == 0) {
        sums[warp] = s;
        counts[warp] = c;
    }
    __syncthreads();

    if (warp == 0) {
        const int nwarps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
        s = lane < nwarps ? sums[lane] : 0u;
        c = lane < nwarps ? counts[lane] : 0u;
        s = warp_sum(s);
        c = __reduce_add_sync(FULL_MASK, c);
        if (lane == 0) {
            atomicAdd(out_sum, s);
            atomicAdd(out_count, c);
        }
    }
}

// A double-precision block reduction using dynamic shared memory and a
// classic shared-memory tree for the first levels.
extern "C" __global__ void reduce_sum_f64(const double *__restrict__ in,
                                          double *__restrict__ partial,
                                          int n)
{
    extern __shared__ double tile[];
    const unsigned tid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x * 2 + tid;

    double v = 0.0;
    if (i < n) v += in[i];
    if (i + (int)blockDim.x < n) v += in[i + blockDim.x];
    tile[tid] = v;
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride >= WARP_SIZE; stride >>= 1) {
        if (tid < stride)
            tile[tid] += tile[tid + stride];
        __syncthreads();
    }

    if (tid < WARP_SIZE) {
        v = tile[tid];
        v = warp_sum(v);
        if (tid == 0)
            partial[blockIdx.x] = v;
    }
}
