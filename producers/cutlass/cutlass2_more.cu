// CUTLASS 2.x device GEMMs with element types and epilogues unlike cutlass2_gemm.cu (variant chosen by -D).
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/numeric_types.h>
#include <cutlass/epilogue/thread/linear_combination_relu.h>
#include <cutlass/epilogue/thread/linear_combination_clamp.h>
#include <cutlass/epilogue/thread/linear_combination_gelu.h>
using Row = cutlass::layout::RowMajor;
using Col = cutlass::layout::ColumnMajor;
using Swz = cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>;
template <int M, int N, int K> using GS = cutlass::gemm::GemmShape<M, N, K>;

#if defined(V_BF16)
using Gemm = cutlass::gemm::device::Gemm<cutlass::bfloat16_t, Row, cutlass::bfloat16_t, Row, cutlass::bfloat16_t, Row, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, GS<128, 128, 32>, GS<64, 64, 32>, GS<16, 8, 16>,
    cutlass::epilogue::thread::LinearCombinationRelu<cutlass::bfloat16_t, 8, float, float>, Swz, 4>;
#elif defined(V_TF32)
using Gemm = cutlass::gemm::device::Gemm<float, Col, float, Row, float, Row, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, GS<128, 64, 32>, GS<64, 32, 32>, GS<16, 8, 8>,
    cutlass::epilogue::thread::LinearCombinationGELU<float, 4, float, float>, Swz, 3>;
#elif defined(V_F64)
using Gemm = cutlass::gemm::device::Gemm<double, Row, double, Col, double, Row, double,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, GS<64, 64, 16>, GS<32, 32, 16>, GS<8, 8, 4>,
    cutlass::epilogue::thread::LinearCombination<double, 1, double, double>, Swz, 3>;
#elif defined(V_INT4)
using Gemm = cutlass::gemm::device::Gemm<cutlass::int4b_t, Row, cutlass::int4b_t, Col, int32_t, Row, int32_t,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, GS<128, 128, 128>, GS<64, 64, 128>, GS<16, 8, 64>,
    cutlass::epilogue::thread::LinearCombinationClamp<int32_t, 4, int32_t, float>, Swz, 3>;
#elif defined(V_FP8)
using Gemm = cutlass::gemm::device::Gemm<cutlass::float_e4m3_t, Row, cutlass::float_e5m2_t, Col, cutlass::half_t, Row, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm89, GS<128, 64, 64>, GS<64, 32, 64>, GS<16, 8, 32>,
    cutlass::epilogue::thread::LinearCombination<cutlass::half_t, 8, float, float>, Swz, 3>;
#elif defined(V_SIMT_F64)
using Gemm = cutlass::gemm::device::Gemm<double, Row, double, Row, double, Row, double,
    cutlass::arch::OpClassSimt, cutlass::arch::Sm50>;
#elif defined(V_SM75_INT8)
using Gemm = cutlass::gemm::device::Gemm<uint8_t, Row, uint8_t, Col, int32_t, Row, int32_t,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm75, GS<128, 128, 64>, GS<64, 64, 64>, GS<8, 8, 16>,
    cutlass::epilogue::thread::LinearCombinationClamp<int32_t, 4, int32_t, float>, Swz, 2>;
#else
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, Col, cutlass::half_t, Col, cutlass::half_t, Col, cutlass::half_t,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm70, GS<128, 128, 32>, GS<64, 64, 32>, GS<8, 8, 4>,
    cutlass::epilogue::thread::LinearCombination<cutlass::half_t, 8, cutlass::half_t, cutlass::half_t>, Swz, 2>;
#endif
void* kernel_address() { return (void*)cutlass::Kernel<Gemm::GemmKernel>; }
