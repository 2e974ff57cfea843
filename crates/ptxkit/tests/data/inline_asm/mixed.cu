// Inline PTX written for ptxkit's tests: valid statements, broken ones,
// and forms the finder must read (or skip) correctly.
#include <cstdint>

#define PTX_TYPE ".u32"
#define FENCE() asm volatile("fence.acq_rel.gpu;" ::: "memory")

__device__ int valid_forms(int a, int b, float f, double d, short h,
                           unsigned long long p) {
  int c;
  /* asm("this is a comment, not a statement"); */
  const char *s = "asm(\"nor is this\")";
  asm("add.s32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.eq.s32 p, %1, 0;\n\t"
               "selp.b32 %0, 1, 0, p;\n"
               "}"
               : "=r"(c)
               : "r"(a));
  __asm__ __volatile__("mov.u32 %0, %%tid.x;" : "=r"(c));
  asm("fma.rn.f32 %0, %0, %0, %0;" : "+f"(f));
  asm("add.f64 %0, %0, %1;" : "+d"(d) : "d"(d));
  asm("add.s16 %0, %0, 1;" : "+h"(h));
  asm("ld.global.u32 %0, [%1 + 4];" : "=r"(c) : "l"(p) : "memory");
  asm(R"(add.s32 %0, %0, %1;)" : "+r"(c) : "n"(42));
  asm("add.s32 %0, %0, %1;" : "+r"(c)
      : "r"(a)  // the comma below is optional for nvcc
  );
  asm("{ .reg .b32 t%=; mov.b32 t%=, %0; }" :: "r"(a));
  asm("wgmma.fence.sync.aligned;" ::: "memory");
  asm("mov.b32 %0, " PTX_TYPE ";" : "=r"(c));
  FENCE();
  (void)s;
  return c;
}

__device__ int broken(int a, int b, unsigned long long p) {
  int c;
  asm("add.s23 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.eq.s32 p, %1, 0;\n\t"
               "selpp.b32 %0, 1, 0, p;\n"
               "}"
               : "=r"(c)
               : "r"(a));
  asm("add.s32 %0, %1;" : "=r"(c) : "r"(a));
  asm("add.s32 %0, %1, %2;" : "=r"(c) : "r"(a), "l"(p));
  asm("mov.b32 %0, %3;" : "=r"(c) : "r"(a));
  asm("add.s32 %[out], %1, %1;" : [out] "=r"(c) : "r"(a));
  asm("{ mov.b32 %0, %1;" : "=r"(c) : "r"(a));
  asm("add.s32 %0, %1, %2;" : "=r"(c) : "x"(a), "r"(b));
  return c;
}
