// The file docs/inline-asm.md checks: one asm statement with a typo'd
// modifier, on line 40 (the lines before it are this comment).
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
//
__device__ int add(int a, int b) {
  int c;
  asm("add.s23 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
  return c;
}
