; targets: sm_90:+ptx83 sm_100a:+ptx86 sm_120:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@shq = internal addrspace(3) global [32 x i128] zeroinitializer, align 16

define ptx_kernel void @wide(ptr %p, i128 %x, i128 %y, ptr addrspace(7) %cl) {
  %c = cmpxchg ptr %p, i128 %x, i128 %y syncscope("block") acq_rel acquire
  %o = extractvalue { i128, i1 } %c, 0
  %s = atomicrmw xchg ptr %p, i128 %o syncscope("device") release
  %m = mul i128 %s, %y
  %sh = shl i128 %m, 17
  %sr = lshr i128 %sh, 5
  %ad = add i128 %sr, %x
  %g = getelementptr i128, ptr addrspace(3) @shq, i32 3
  store i128 %ad, ptr addrspace(3) %g, align 16
  %c2 = cmpxchg ptr addrspace(3) %g, i128 %ad, i128 0 monotonic monotonic
  %o2 = extractvalue { i128, i1 } %c2, 0
  %fc = atomicrmw fadd ptr addrspace(7) %cl, float 1.0 syncscope("cluster") monotonic
  %ci = atomicrmw add ptr addrspace(7) %cl, i32 3 syncscope("cluster") acq_rel
  %q = getelementptr i128, ptr %p, i32 1
  store i128 %o2, ptr %q
  ret void
}

define ptx_kernel void @fminmax(ptr %f, ptr %b, ptr addrspace(3) %s) {
  %a = atomicrmw fmin ptr %f, float 1.0 syncscope("device") monotonic
  %c = atomicrmw fmax ptr %f, float %a monotonic
  %bb = atomicrmw fadd ptr %b, bfloat 0xR3F80 syncscope("block") monotonic
  %bm = atomicrmw fmax ptr %b, bfloat %bb monotonic
  %sh = atomicrmw fadd ptr addrspace(3) %s, <2 x half> <half 0xH3C00, half 0xH3C00> monotonic
  %cf = fadd float %c, 1.0
  store float %cf, ptr %f
  ret void
}
