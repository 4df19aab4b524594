// Attributes as text for messages and reports (the CLI's info and errors, nnbridge diff).
#pragma once

#include <string>

#include "nnbridge/attr.h"

namespace nnbridge {

/// An attribute as one line of compact JSON text (`[1,2]`, `"NHWC"`, `0.5`), bytes as
/// "<N bytes>"; bytes of a string that are not UTF-8 print as U+FFFD.
std::string attr_text(const Attr& a);

}  // namespace nnbridge
