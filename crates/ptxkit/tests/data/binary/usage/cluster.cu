// A kernel with cluster dimensions (sm_90 and later).
__global__ void __cluster_dims__(2, 1, 1) pair(float* out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
