// Source of the binary fixtures in this directory (see README.md).
__device__ float twice(float x) { return 2.0f * x; }

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale(float *y, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = twice(y[i]);
}
