// The OpenCL C sources of gpu/kernels/*.cl, embedded at build time (cmake/embed_kernels.cmake).
#pragma once

#include <vector>

namespace nnbridge::gpu {

struct EmbeddedSource {
  const char* name;  ///< the file name, e.g. "conv.cl"
  const char* text;  ///< its contents
};
const std::vector<EmbeddedSource>& embedded_sources();

}  // namespace nnbridge::gpu
