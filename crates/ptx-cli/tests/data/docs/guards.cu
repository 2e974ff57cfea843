// Inline PTX under preprocessor guards and macros (docs/inline-asm.md).
#define LD_NC "ld.global.nc"
#define STR(x) #x
static constexpr int kRegs = 240;

__device__ void guarded(int* p, int x) {
#if __CUDA_ARCH__ < 900
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(kRegs));
#endif
#ifndef __CUDA_ARCH__
  asm("pause");
#endif
#if defined(__HIP_PLATFORM_AMD__)
  asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");
#endif
  asm volatile(LD_NC ".b32 %0, [%1];" : "=r"(x) : "l"(p));
  asm volatile("ld." STR(global) ".b32 %0, [%1];" : "=r"(x) : "l"(p));
}
