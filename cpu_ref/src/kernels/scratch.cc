// thread_scratch (scratch.h).
#include "scratch.h"

#include <memory>

namespace nnbridge::cpu_ref {

float* thread_scratch(std::size_t count, int slot) {
  thread_local std::unique_ptr<float[]> buf[2];
  thread_local std::size_t size[2] = {0, 0};
  const int s = slot == 1 ? 1 : 0;
  if (count > size[s]) {
    buf[s].reset();  // the old block first: peak memory is one buffer, not two
    buf[s].reset(new float[count]);
    size[s] = count;
  }
  return buf[s].get();
}

}  // namespace nnbridge::cpu_ref
