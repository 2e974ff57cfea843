// textures.cu - texture and surface objects (bindless), for sm_75.
//
// Exercises the texture/surface instruction families in PTX:
//   tex.1d (tex1Dfetch on a linear buffer), tex.2d (tex2D<float4>),
//   tex.level.2d (tex2DLod), tex.3d (tex3D), tex.a2d (tex2DLayered),
//   tld4 (tex2Dgather), suld/sust (surf2Dread/surf2Dwrite), and the query
//   instructions txq/suq through inline PTX.

#include <cuda_runtime.h>

// Query the width/height of a texture or surface object with txq/suq.
__device__ __forceinline__ int tex_width(cudaTextureObject_t t)
{
    int w;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    return w;
}

__device__ __forceinline__ int tex_levels(cudaTextureObject_t t)
{
    int n;
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(n) : "l"(t));
    return n;
}

__device__ __forceinline__ int surf_height(cudaSurfaceObject_t s)
{
    int h;
    asm("suq.height.b32 %0, [%1];" : "=r"(h) : "l"(s));
    return h;
}

// Bilinear resample of an RGBA image to a new size (normalised coordinates).
extern "C" __global__ void resize_rgba(cudaTextureObject_t src, float4 *__restrict__ dst,
                                       int out_w, int out_h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out_w || y >= out_h)
        return;
    float u = (x + 0.5f) / out_w;
    float v = (y + 0.5f) / out_h;
    dst[y * out_w + x] = tex2D<float4>(src, u, v);
}

// Sample a mip-mapped texture at a level chosen from the output/input ratio.
extern "C" __global__ void sample_mip(cudaTextureObject_t mip, float *__restrict__ out,
                                      int out_w, int out_h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out_w || y >= out_h)
        return;
    float ratio = (float)tex_width(mip) / (float)out_w;
    float lod = fminf(log2f(fmaxf(ratio, 1.0f)), (float)(tex_levels(mip) - 1));
    float4 c = tex2DLod<float4>(mip, (x + 0.5f) / out_w, (y + 0.5f) / out_h, lod);
    out[y * out_w + x] = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
}

// Look up a colour for each value through a 3-D LUT (trilinear filtering).
extern "C" __global__ void apply_lut3d(cudaTextureObject_t lut, const uchar4 *__restrict__ in,
                                       uchar4 *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uchar4 p = in[i];
    float4 c = tex3D<float4>(lut, p.x / 255.0f, p.y / 255.0f, p.z / 255.0f);
    out[i] = make_uchar4((unsigned char)(__saturatef(c.x) * 255.0f),
                         (unsigned char)(__saturatef(c.y) * 255.0f),
                         (unsigned char)(__saturatef(c.z) * 255.0f), p.w);
}

// Table lookup (two neighbouring entries) from a linear buffer bound as a texture.
extern "C" __global__ void gather_linear(cudaTextureObject_t table, const int *__restrict__ idx,
                                         float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(table, idx[i]) + tex1Dfetch<float>(table, idx[i] + 1);
}

// 3x3 box blur on a surface, reading with suld and writing with sust.
// Border pixels are clamped by the surface boundary mode.
extern "C" __global__ void box_blur_surface(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= surf_height(src))
        return;
    float sum = 0.0f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
            sum += surf2Dread<float>(src, (x + dx) * (int)sizeof(float), y + dy, cudaBoundaryModeClamp);
    surf2Dwrite(sum / 9.0f, dst, x * (int)sizeof(float), y);
}

// Convert RGBA8 to luminance in place on a surface of uchar4.
extern "C" __global__ void rgba_to_gray_surface(cudaSurfaceObject_t img, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    uchar4 p;
    surf2Dread(&p, img, x * 4, y);
    unsigned char g = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    surf2Dwrite(make_uchar4(g, g, g, p.w), img, x * 4, y, cudaBoundaryModeZero);
}

// Gather the four texels of a bilinear footprint (tld4) and a layered lookup.
extern "C" __global__ void gather_and_layers(cudaTextureObject_t img, cudaTextureObject_t layers,
                                             float4 *__restrict__ out, int w, int h, int nlayers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 red = tex2Dgather<float4>(img, x + 0.5f, y + 0.5f, 0);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int l = 0; l < nlayers; ++l) {
        float4 t = tex2DLayered<float4>(layers, x + 0.5f, y + 0.5f, l);
        acc.x += t.x; acc.y += t.y; acc.z += t.z; acc.w += t.w;
    }
    out[y * w + x] = make_float4(red.x + acc.x, red.y + acc.y, red.z + acc.z, red.w + acc.w);
}
