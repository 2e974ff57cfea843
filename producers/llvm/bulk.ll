; targets: sm_90:+ptx80 sm_90a:+ptx86 sm_100a:+ptx86 sm_120a:+ptx87 sm_103a:+ptx88
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem = internal addrspace(3) global [8192 x i8] zeroinitializer, align 128
@mbar = internal addrspace(3) global i64 0, align 8

declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.tensor.reduce.add.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.2d(ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
declare void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1), ptr addrspace(3), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
declare void @llvm.nvvm.cp.async.bulk.wait.group(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.prefetch.tensormap(ptr)

define ptx_kernel void @tma(ptr byval([128 x i8]) align 64 %desc, ptr addrspace(1) %g, i32 %x, i32 %y, i64 %hint) {
entry:
  %dst = addrspacecast ptr addrspace(3) @smem to ptr addrspace(7)
  call void @llvm.nvvm.prefetch.tensormap(ptr %desc)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 1)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @mbar, ptr %desc, i32 %x, i32 %y, i16 0, i64 %hint, i1 false, i1 true, i32 0)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d(ptr addrspace(7) %dst, ptr addrspace(3) @mbar, ptr %desc, i32 %x, i32 %y, i32 0, i16 3, i64 0, i1 true, i1 false, i32 0)
  call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) %dst, ptr addrspace(3) @mbar, ptr addrspace(1) %g, i32 256, i16 0, i64 %hint, i1 false, i1 true)
  %tok = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @mbar)
  br label %wait
wait:
  %ok = call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @mbar, i64 %tok)
  br i1 %ok, label %go, label %wait
go:
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @smem, ptr %desc, i32 %x, i32 %y, i64 %hint, i1 true)
  call void @llvm.nvvm.cp.async.bulk.tensor.reduce.add.tile.2d(ptr addrspace(3) @smem, ptr %desc, i32 %y, i32 %x, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.2d(ptr %desc, i32 %x, i32 %y, i64 %hint, i1 true)
  call void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1) %g, ptr addrspace(3) @smem, i32 512, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  call void @llvm.nvvm.cp.async.bulk.wait.group(i32 1)
  ret void
}
