// archs: 75 86
// C++ device code: classes with virtual functions, lambdas, templates, exceptions-free RAII, constexpr.
struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Square : Shape {
    float s;
    __device__ Square(float v) : s(v) {}
    __device__ float area() const override { return s * s; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float v) : r(v) {}
    __device__ float area() const override { return 3.14159f * r * r; }
};

template <typename F>
__device__ void for_each(float* p, int n, F f) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = f(p[i], i);
}

__device__ const int kTable[5] = {1, 1, 2, 6, 24};

extern "C" __global__ void virtuals(float* out, int n) {
    Square sq(out[0]);
    Circle ci(out[1]);
    Shape* shapes[2] = {&sq, &ci};
    float scale = 0.5f;
    for_each(out, n, [=] __device__(float v, int i) { return v * scale + shapes[i & 1]->area() + kTable[i % 5]; });
}
