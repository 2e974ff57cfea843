// calls.cu - real (non-inlined) calls in PTX, for sm_80.
//
//   * __noinline__ device functions  -> .func with .param passing, call.uni
//   * a recursive function           -> a .func that calls itself
//   * a call through a function pointer -> indirect call with .callprototype
//   * printf                         -> extern .func vprintf
//   * device-side malloc/free        -> extern .func malloc / free
//   * __launch_bounds__(256, 2)      -> .maxntid 256,1,1 and .minnctapersm 2

#include <cstdio>

// ------------------------------------------------------- plain calls

struct Vec3 {
    float x, y, z;
};

__device__ __noinline__ float dot3(Vec3 a, Vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __noinline__ Vec3 cross3(Vec3 a, Vec3 b)
{
    return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ void normalize3(Vec3 *v)
{
    float inv = rsqrtf(dot3(*v, *v));
    v->x *= inv;
    v->y *= inv;
    v->z *= inv;
}

// -------------------------------------------------------- recursion

// Recursive evaluation of an expression tree stored as an array of nodes.
struct Node {
    int op;          // 0 = constant, 1 = add, 2 = mul, 3 = max
    int left, right; // child indices (ignored for constants)
    float value;
};

__device__ __noinline__ float eval_node(const Node *nodes, int i, int depth)
{
    const Node nd = nodes[i];
    if (nd.op == 0 || depth > 16)
        return nd.value;
    float l = eval_node(nodes, nd.left, depth + 1);
    float r = eval_node(nodes, nd.right, depth + 1);
    switch (nd.op) {
    case 1: return l + r;
    case 2: return l * r;
    default: return fmaxf(l, r);
    }
}

// Classic recursive GCD, kept out of line.
__device__ __noinline__ unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    return b == 0 ? a : gcd(b, a % b);
}

// ------------------------------------------------ function pointers

typedef float (*activation_fn)(float, float);

__device__ __noinline__ float act_relu(float x, float) { return fmaxf(x, 0.0f); }
__device__ __noinline__ float act_leaky(float x, float slope) { return x > 0.0f ? x : slope * x; }
__device__ __noinline__ float act_elu(float x, float alpha) { return x > 0.0f ? x : alpha * (expf(x) - 1.0f); }
__device__ __noinline__ float act_silu(float x, float) { return x / (1.0f + expf(-x)); }

__device__ activation_fn g_activations[4] = {act_relu, act_leaky, act_elu, act_silu};

// ---------------------------------------------------------- kernels

extern "C" __global__ void __launch_bounds__(256, 2)
apply_activation(const float *__restrict__ in, float *__restrict__ out, int n, int which, float param)
{
    activation_fn f = g_activations[which & 3];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = f(in[i], param); // indirect call
}

extern "C" __global__ void triangle_normals(const Vec3 *__restrict__ verts, const int3 *__restrict__ tris,
                                            Vec3 *__restrict__ normals, float *__restrict__ areas,
                                            int ntris)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntris)
        return;
    int3 tri = tris[t];
    Vec3 a = verts[tri.x], b = verts[tri.y], c = verts[tri.z];
    Vec3 e1{b.x - a.x, b.y - a.y, b.z - a.z};
    Vec3 e2{c.x - a.x, c.y - a.y, c.z - a.z};
    Vec3 nrm = cross3(e1, e2);
    areas[t] = 0.5f * sqrtf(dot3(nrm, nrm));
    normalize3(&nrm);
    normals[t] = nrm;
}

extern "C" __global__ void eval_trees(const Node *__restrict__ nodes, const int *__restrict__ roots,
                                      float *__restrict__ results, int ntrees)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < ntrees)
        results[t] = eval_node(nodes, roots[t], 0);
}

extern "C" __global__ void pairwise_gcd(const unsigned long long *__restrict__ a,
                                        const unsigned long long *__restrict__ b,
                                        unsigned long long *__restrict__ g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        g[i] = gcd(a[i], b[i]);
        if (g[i] == 0)
            printf("pairwise_gcd: zero gcd at %d (a=%llu b=%llu)\n", i, a[i], b[i]);
    }
}

// Each block builds a small scratch list on the device heap, reports what it
// did with printf, and frees it again.
extern "C" __global__ void heap_scratch(const int *__restrict__ sizes, int *__restrict__ sums)
{
    __shared__ int *scratch;
    const int count = sizes[blockIdx.x];
    if (threadIdx.x == 0) {
        scratch = static_cast<int *>(malloc(count * sizeof(int)));
        if (scratch == nullptr)
            printf("block %d: malloc of %d ints failed\n", blockIdx.x, count);
    }
    __syncthreads();
    if (scratch == nullptr)
        return;

    for (int i = threadIdx.x; i < count; i += blockDim.x)
        scratch[i] = i * i;
    __syncthreads();

    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < count; ++i)
            s += scratch[i];
        sums[blockIdx.x] = s;
        printf("block %d: %d squares sum to %d (%.1f%% of heap slot used)\n",
               blockIdx.x, count, s, 100.0 * count / 1024.0);
        free(scratch);
    }
}
