#include "harness.h"

namespace peer {

std::vector<CaseDef> all_cases() {
  std::vector<CaseDef> out;
  add_elementwise_cases(out);
  add_conv_cases(out);
  add_shape_cases(out);
  add_misc_cases(out);
  add_conv_variant_cases(out);
  add_shape_variant_cases(out);
  add_recurrent_variant_cases(out);
  return out;
}

}  // namespace peer
