// archs: see cutlass_compile.py. CUTLASS 2.x device-level GEMMs; the kernels are instantiated by taking their address.
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/numeric_types.h>

using RowMajor = cutlass::layout::RowMajor;
using ColMajor = cutlass::layout::ColumnMajor;

#if defined(GEMM_TENSOROP_SM80)
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, RowMajor, cutlass::half_t, ColMajor, float, RowMajor, float,
                                         cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80>;
#elif defined(GEMM_TENSOROP_SM75)
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, ColMajor, cutlass::half_t, RowMajor, cutlass::half_t, RowMajor,
                                         float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm75>;
#elif defined(GEMM_INT8_SM80)
using Gemm = cutlass::gemm::device::Gemm<int8_t, RowMajor, int8_t, ColMajor, int32_t, RowMajor, int32_t,
                                         cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80>;
#else
using Gemm = cutlass::gemm::device::Gemm<float, ColMajor, float, ColMajor, float, ColMajor, float,
                                         cutlass::arch::OpClassSimt, cutlass::arch::Sm50>;
#endif

void* kernel_address() { return (void*)cutlass::Kernel<Gemm::GemmKernel>; }
