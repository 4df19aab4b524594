// thread_scratch (scratch.h).
#include "scratch.h"

#include <memory>

namespace nnbridge::cpu_ref {

float* thread_scratch(std::size_t count) {
  thread_local std::unique_ptr<float[]> buf;
  thread_local std::size_t size = 0;
  if (count > size) {
    buf.reset();  // the old block first: peak memory is one buffer, not two
    buf.reset(new float[count]);
    size = count;
  }
  return buf.get();
}

}  // namespace nnbridge::cpu_ref
