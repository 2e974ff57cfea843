__device__ int f(int a){ int x; asm volatile("add.s32 %0, %1, 1;" : "=r"(x) : "r"(a)); return x; }
