// vector_add.cu - two small element-wise kernels used as ptxkit's demo input.
//
//   vector_add: c[i] = a[i] + b[i]
//   saxpy:      y[i] = alpha * x[i] + y[i]
//
// Both use a grid-stride loop so that any launch configuration covers the
// whole array, and __restrict__ pointers so the compiler may use read-only
// (non-coherent) loads.

extern "C" __global__ void vector_add(const float *__restrict__ a,
                                      const float *__restrict__ b,
                                      float *__restrict__ c,
                                      size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        c[i] = a[i] + b[i];
    }
}

extern "C" __global__ void saxpy(float alpha,
                                 const float *__restrict__ x,
                                 float *__restrict__ y,
                                 int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = fmaf(alpha, x[i], y[i]);
    }
}
