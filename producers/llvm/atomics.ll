; targets: sm_75:+ptx64 sm_80:+ptx70 sm_90:+ptx78 sm_100a:+ptx86
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@flag = addrspace(1) global i32 0, align 4
@lock = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @atomics(ptr addrspace(1) %i, ptr addrspace(1) %f, ptr addrspace(1) %d, ptr %gen, i32 %v) {
  %a0 = atomicrmw add ptr addrspace(1) %i, i32 %v monotonic
  %p1 = getelementptr i32, ptr addrspace(1) %i, i64 1
  %a1 = atomicrmw xchg ptr addrspace(1) %p1, i32 %a0 acquire
  %p2 = getelementptr i32, ptr addrspace(1) %i, i64 2
  %a2 = atomicrmw max ptr addrspace(1) %p2, i32 %a1 syncscope("block") release
  %p3 = getelementptr i32, ptr addrspace(1) %i, i64 3
  %a3 = atomicrmw umin ptr addrspace(1) %p3, i32 %a2 acq_rel
  %p4 = getelementptr i32, ptr addrspace(1) %i, i64 4
  %a4 = atomicrmw and ptr addrspace(1) %p4, i32 %a3 seq_cst
  %p5 = getelementptr i32, ptr addrspace(1) %i, i64 5
  %cx = cmpxchg ptr addrspace(1) %p5, i32 %a4, i32 %v syncscope("device") acq_rel monotonic
  %cv = extractvalue { i32, i1 } %cx, 0
  %fa = atomicrmw fadd ptr addrspace(1) %f, float 1.0 monotonic
  %da = atomicrmw fadd ptr addrspace(1) %d, double 2.0 syncscope("block") monotonic
  %ga = atomicrmw or ptr %gen, i32 %cv monotonic
  %p6 = getelementptr i32, ptr addrspace(1) %i, i64 6
  %u = atomicrmw uinc_wrap ptr addrspace(1) %p6, i32 100 monotonic
  %p7 = getelementptr i32, ptr addrspace(1) %i, i64 7
  %w = atomicrmw udec_wrap ptr addrspace(1) %p7, i32 100 monotonic
  %l = atomicrmw add ptr addrspace(3) @lock, i64 1 monotonic
  %s = add i32 %u, %w
  store atomic i32 %s, ptr addrspace(1) @flag release, align 4
  %ld = load atomic i32, ptr addrspace(1) @flag acquire, align 4
  fence syncscope("block") acq_rel
  fence seq_cst
  %p8 = getelementptr i32, ptr addrspace(1) %i, i64 8
  store volatile i32 %ld, ptr addrspace(1) %p8, align 4
  %c64 = cmpxchg ptr addrspace(3) @lock, i64 %l, i64 0 seq_cst seq_cst
  %h = atomicrmw fadd ptr addrspace(1) %d, half 1.0 monotonic
  ret void
}
