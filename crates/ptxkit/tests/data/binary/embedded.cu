// A library with a stub kernel linked the usual way (in .nv_fatbin) and
// its real kernels kept as data, loaded through the driver API.
#include "embedded_kernels.h"
__global__ void stub() {}
extern "C" const void *kernel_image() { return embedded_kernels_fatbin; }
