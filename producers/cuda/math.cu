// archs: 75 80 90 100a 120a
extern "C" __global__ void math_f32(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float s, c;
    sincosf(x, &s, &c);
    out[i] = s + c + expf(x) + logf(fabsf(x) + 1) + powf(fabsf(x), 1.7f) + tanhf(x) + erfinvf(x * 0.5f) + lgammaf(x)
             + __sinf(x) + __expf(x) + __fdividef(x, 3.f) + rsqrtf(fabsf(x) + 1) + cbrtf(x) + atan2f(x, 2.f)
             + fmodf(x, 1.3f) + remainderf(x, 0.7f) + __fmaf_rn(x, x, 1.f) + __frcp_rz(x + 2.f) + __fsqrt_ru(fabsf(x))
             + copysignf(1.f, x) + truncf(x) + nearbyintf(x) + ldexpf(x, 3) + j0f(x) + normcdff(x);
}

extern "C" __global__ void math_f64(const double* in, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];
    out[i] = sin(x) + exp(x) + log1p(fabs(x)) + pow(x, 2.5) + sqrt(fabs(x)) + __dadd_rn(x, 1.0) + __dmul_ru(x, x)
             + __ddiv_rz(x, 3.0) + __drcp_rn(x + 1.0) + fma(x, x, x) + erfc(x) + tgamma(x) + hypot(x, 1.0) + asinh(x)
             + rint(x) + ilogb(x) + (double)__double2hiint(x);
}

extern "C" __global__ void int_ops(const unsigned* a, const long long* b, unsigned* out, long long* o64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i];
    long long y = b[i];
    out[i] = __brev(x) + __clz(x) + __popc(x) + __byte_perm(x, i, 0x4321) + __funnelshift_l(x, i, 5) + __usad(x, i, 3)
             + __umulhi(x, 77u) + __vadd2(x, i) + __vabsdiffu4(x, 0x01020304u) + __hadd(x, 9) + x / (unsigned)(i + 1)
             + x % 7u;
    o64[i] = __mul64hi(y, y) + __clzll(y) + __popcll(y) + __brevll(y) + y / (i + 3) + __ffsll(y) + llmin(y, 4);
}
