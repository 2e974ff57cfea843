; targets: sm_75:+ptx63 sm_80:+ptx70 sm_90:+ptx83 sm_100:+ptx86 sm_120:+ptx87 sm_87:+ptx74
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@cnt = internal addrspace(3) global [64 x i32] zeroinitializer, align 4
@flag = addrspace(1) global i32 0, align 4

define ptx_kernel void @scoped(ptr %g, ptr %f, ptr %d, ptr %h, ptr %l, i32 %v) {
entry:
  %sh = addrspacecast ptr addrspace(3) @cnt to ptr
  %a1 = atomicrmw add ptr %g, i32 %v syncscope("block") monotonic
  %a2 = atomicrmw sub ptr %g, i32 %a1 syncscope("device") acquire
  %a3 = atomicrmw and ptr %g, i32 %a2 release
  %a4 = atomicrmw or ptr addrspace(3) @cnt, i32 %a3 syncscope("block") acq_rel
  %a5 = atomicrmw xor ptr %sh, i32 %a4 seq_cst
  %a6 = atomicrmw umax ptr %g, i32 %a5 syncscope("device") monotonic
  %a7 = atomicrmw min ptr %g, i32 %a6 syncscope("block") acquire
  %a8 = atomicrmw xchg ptr %g, i32 %a7 monotonic
  %a9 = atomicrmw uinc_wrap ptr %g, i32 %a8 syncscope("device") monotonic
  %a10 = atomicrmw udec_wrap ptr %g, i32 %a9 monotonic
  %fa = atomicrmw fadd ptr %f, float 1.0 syncscope("block") monotonic
  %fb = atomicrmw fadd ptr %f, float %fa release
  %da = atomicrmw fadd ptr %d, double 2.0 syncscope("device") acq_rel
  %ha = atomicrmw fadd ptr %h, half 0xH3C00 monotonic
  %la = atomicrmw add ptr %l, i64 5 syncscope("block") seq_cst
  %lb = atomicrmw max ptr %l, i64 %la monotonic
  %lc = atomicrmw and ptr %l, i64 %lb acquire
  %cx = cmpxchg ptr %g, i32 %a10, i32 %v syncscope("block") acq_rel monotonic
  %cv = extractvalue { i32, i1 } %cx, 0
  %cy = cmpxchg weak ptr %l, i64 %lc, i64 7 seq_cst seq_cst
  %cw = extractvalue { i64, i1 } %cy, 0
  %c16p = getelementptr i8, ptr %g, i32 64
  %c16 = cmpxchg ptr %c16p, i16 1, i16 2 syncscope("device") acquire acquire
  %ld = load atomic i32, ptr addrspace(1) @flag acquire, align 4
  %ld2 = load atomic i32, ptr %g syncscope("block") monotonic, align 4
  %ldv = load volatile i32, ptr addrspace(3) @cnt, align 4
  store atomic i32 %ld, ptr %g syncscope("device") release, align 4
  store atomic i64 %cw, ptr %l seq_cst, align 8
  fence syncscope("block") acq_rel
  fence seq_cst
  fence syncscope("device") release
  %s1 = add i32 %cv, %ld2
  %s2 = add i32 %s1, %ldv
  %fi = fptosi float %fb to i32
  %s3 = add i32 %s2, %fi
  store volatile i32 %s3, ptr %g
  ret void
}
