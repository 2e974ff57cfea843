; targets: sm_100a:+ptx86 sm_103a:+ptx88 sm_110a:+ptx90
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tslot = internal addrspace(3) global i32 0, align 4
@mb = internal addrspace(3) global i64 0, align 8

declare void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
declare <2 x i32> @llvm.nvvm.tcgen05.ld.16x64b.x2(ptr addrspace(6), i1)
declare i32 @llvm.nvvm.tcgen05.ld.16x32bx2.x1(ptr addrspace(6), i64, i1)
declare void @llvm.nvvm.tcgen05.st.16x64b.x2(ptr addrspace(6), <2 x i32>, i1)
declare void @llvm.nvvm.tcgen05.wait.ld()
declare void @llvm.nvvm.tcgen05.wait.st()
declare void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3))
declare void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3), i16)
declare void @llvm.nvvm.tcgen05.fence.before.thread.sync()
declare void @llvm.nvvm.tcgen05.fence.after.thread.sync()
declare void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6), i64)
declare void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6))

define ptx_kernel void @tmem(ptr %out, i64 %sdesc) {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @tslot, i32 64)
  call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %ta = load i32, ptr addrspace(3) @tslot
  %tp = inttoptr i32 %ta to ptr addrspace(6)
  call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %tp, i64 %sdesc)
  call void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3) @mb)
  call void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3) @mb, i16 3)
  %v = call <2 x i32> @llvm.nvvm.tcgen05.ld.16x64b.x2(ptr addrspace(6) %tp, i1 false)
  %w = call i32 @llvm.nvvm.tcgen05.ld.16x32bx2.x1(ptr addrspace(6) %tp, i64 16, i1 true)
  call void @llvm.nvvm.tcgen05.wait.ld()
  call void @llvm.nvvm.tcgen05.st.16x64b.x2(ptr addrspace(6) %tp, <2 x i32> %v, i1 true)
  call void @llvm.nvvm.tcgen05.wait.st()
  call void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6) %tp)
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %tp, i32 64)
  %e = extractelement <2 x i32> %v, i32 1
  %s = add i32 %e, %w
  store i32 %s, ptr %out
  ret void
}
