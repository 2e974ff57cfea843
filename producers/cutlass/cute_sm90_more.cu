// CUTLASS 3.x collective-builder GEMMs: element types, tile and cluster shapes unlike cute_sm90_gemm.cu.
#include <cute/tensor.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
using namespace cute;
#ifndef ARCH_TAG
#define ARCH_TAG cutlass::arch::Sm90
#endif
#ifndef EA
#define EA cutlass::bfloat16_t
#define EB cutlass::bfloat16_t
#define ALIGN_AB 8
#endif
#ifndef EC
#define EC cutlass::bfloat16_t
#endif
#ifndef TM
#define TM 64
#endif
#ifndef TN
#define TN 256
#endif
#ifndef TK
#define TK 64
#endif
#ifndef CM
#define CM 2
#endif
#ifndef SCHED
#define SCHED cutlass::gemm::collective::KernelScheduleAuto
#define ESCHED cutlass::epilogue::collective::EpilogueScheduleAuto
#endif
using TileShape = Shape<Int<TM>, Int<TN>, Int<TK>>;
using ClusterShape = Shape<Int<CM>, _1, _1>;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutC = cutlass::layout::ColumnMajor;
constexpr int AlignC = 128 / cutlass::sizeof_bits<EC>::value;
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    ARCH_TAG, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto,
    float, float, EC, LayoutC, AlignC, EC, LayoutC, AlignC, ESCHED>::CollectiveOp;
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    ARCH_TAG, cutlass::arch::OpClassTensorOp, EA, LayoutA, ALIGN_AB, EB, LayoutB, ALIGN_AB, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    SCHED>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
void* kernel_address() { return (void*)cutlass::device_kernel<Kernel>; }
