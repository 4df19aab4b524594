// thread_scratch (scratch.h).
#include "scratch.h"

#include <memory>
#include <new>

namespace nnbridge::cpu_ref {

namespace {
struct AlignedDelete {
  void operator()(float* p) const { ::operator delete[](p, std::align_val_t{64}); }
};
}  // namespace

float* thread_scratch(std::size_t count, int slot) {
  thread_local std::unique_ptr<float[], AlignedDelete> buf[2];
  thread_local std::size_t size[2] = {0, 0};
  const int s = slot == 1 ? 1 : 0;
  if (count > size[s]) {
    buf[s].reset();  // the old block first: peak memory is one buffer, not two
    buf[s].reset(static_cast<float*>(::operator new[](count * sizeof(float), std::align_val_t{64})));
    size[s] = count;
  }
  return buf[s].get();
}

}  // namespace nnbridge::cpu_ref
