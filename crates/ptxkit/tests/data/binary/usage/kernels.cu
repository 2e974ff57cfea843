// Kernels for the resource-usage and compatibility fixtures: each uses
// one resource cuobjdump -res-usage reports (registers, stack, shared,
// constant banks, global memory, barriers, launch bounds).
__constant__ float weights[64];
__device__ float totals[100];

__global__ void scale(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + weights[i & 63];
}

__global__ void __launch_bounds__(256, 2) tile(float* out)
{
    __shared__ float buf[1024];
    buf[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) & 1023];
}

__device__ int walk(int depth, const int* data)
{
    int frame[32];
    for (int k = 0; k < 32; k++) frame[k] = data[k * depth];
    return depth <= 0 ? frame[0] : walk(depth - 1, data) + frame[(depth * 7) & 31];
}

__global__ void recurse(int* out, int depth)
{
    out[threadIdx.x] = walk(depth, out);
}

__global__ void spill_free(float* out, int i)
{
    volatile float scratch[64];
    for (int k = 0; k < 64; k++) scratch[k] = out[k * i];
    out[threadIdx.x] = scratch[i & 63] + totals[i & 63];
}

extern __shared__ float dynamic_buf[];

__global__ void dynamic_shared(float* out)
{
    dynamic_buf[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dynamic_buf[threadIdx.x ^ 1];
}
