// Kernels the library loads itself (cuModuleLoadData), as cuFFT does.
extern "C" __global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
