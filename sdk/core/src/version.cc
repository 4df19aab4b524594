#include "nnbridge/version.h"

namespace nnbridge {

// Compiled into the library, so it reports the library's version, not the caller's headers'.
std::string_view version() noexcept { return NNBRIDGE_VERSION_STRING; }

}  // namespace nnbridge
