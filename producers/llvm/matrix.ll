; targets: sm_80:+ptx71 sm_86:+ptx72 sm_89:+ptx84 sm_90:+ptx80 sm_100a:+ptx87 sm_120a:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [2048 x i32] zeroinitializer, align 128

declare {i32, i32, i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))
declare {i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3))
declare i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3))
declare {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
declare {<2 x half>, <2 x half>} @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>)
declare {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare {float, float, float, float} @llvm.nvvm.mma.m16n8k8.row.col.tf32(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k32.row.col.s8.u8(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare {double, double} @llvm.nvvm.mma.m8n8k4.row.col.f64(double, double, double, double)
declare {i32, i32, i32, i32} @llvm.nvvm.mma.and.popc.m16n8k256.row.col.b1(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k64.row.col.s4(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)

define ptx_kernel void @mma_zoo(ptr %out, ptr %dout, i32 %lane) {
entry:
  %p = getelementptr [2048 x i32], ptr addrspace(3) @tile, i32 0, i32 %lane
  %l4 = call {i32, i32, i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %p)
  %a0 = extractvalue {i32, i32, i32, i32} %l4, 0
  %a1 = extractvalue {i32, i32, i32, i32} %l4, 1
  %a2 = extractvalue {i32, i32, i32, i32} %l4, 2
  %a3 = extractvalue {i32, i32, i32, i32} %l4, 3
  %q = getelementptr i32, ptr addrspace(3) %p, i32 512
  %l2 = call {i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) %q)
  %b0 = extractvalue {i32, i32} %l2, 0
  %b1 = extractvalue {i32, i32} %l2, 1
  %l1 = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %q)
  %ha0 = bitcast i32 %a0 to <2 x half>
  %ha1 = bitcast i32 %a1 to <2 x half>
  %ha2 = bitcast i32 %a2 to <2 x half>
  %ha3 = bitcast i32 %a3 to <2 x half>
  %hb0 = bitcast i32 %b0 to <2 x half>
  %hb1 = bitcast i32 %b1 to <2 x half>
  %d1 = call {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, float 0.0, float 0.0, float 0.0, float 0.0)
  %c0 = extractvalue {float, float, float, float} %d1, 0
  %c1 = extractvalue {float, float, float, float} %d1, 1
  %d2 = call {<2 x half>, <2 x half>} @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, <2 x half> %ha0, <2 x half> %hb1)
  %h0 = extractvalue {<2 x half>, <2 x half>} %d2, 0
  %d3 = call {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, float %c0, float %c1, float %c0, float %c1)
  %e0 = extractvalue {float, float, float, float} %d3, 2
  %d4 = call {float, float, float, float} @llvm.nvvm.mma.m16n8k8.row.col.tf32(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %l1, float %e0, float %c1, float %c0, float %c1)
  %f0 = extractvalue {float, float, float, float} %d4, 3
  %d5 = call {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, i32 0, i32 1, i32 2, i32 3)
  %i0 = extractvalue {i32, i32, i32, i32} %d5, 0
  %d6 = call {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k32.row.col.s8.u8(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, i32 %i0, i32 1, i32 2, i32 3)
  %i1 = extractvalue {i32, i32, i32, i32} %d6, 1
  %d7 = call {i32, i32, i32, i32} @llvm.nvvm.mma.and.popc.m16n8k256.row.col.b1(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, i32 %i1, i32 1, i32 2, i32 3)
  %i2 = extractvalue {i32, i32, i32, i32} %d7, 2
  %d8 = call {i32, i32, i32, i32} @llvm.nvvm.mma.m16n8k64.row.col.s4(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, i32 %b1, i32 %i2, i32 1, i32 2, i32 3)
  %i3 = extractvalue {i32, i32, i32, i32} %d8, 3
  %dd = load double, ptr %dout
  %d9 = call {double, double} @llvm.nvvm.mma.m8n8k4.row.col.f64(double %dd, double %dd, double 1.0, double 2.0)
  %g0 = extractvalue {double, double} %d9, 0
  store double %g0, ptr %dout
  %hv = bitcast <2 x half> %h0 to i32
  %s1 = add i32 %hv, %i3
  %fi = bitcast float %f0 to i32
  %s2 = add i32 %s1, %fi
  store i32 %s2, ptr %out
  ret void
}
