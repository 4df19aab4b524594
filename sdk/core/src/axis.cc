// normalize_axis (nnbridge/axis.h).
#include "nnbridge/axis.h"

#include <string>

#include "nnbridge/error.h"

namespace nnbridge {

int64_t normalize_axis(int64_t axis, int64_t rank, std::string_view what) {
  if (axis < -rank || axis >= rank)
    throw Error(ErrorId::AttributeValue, std::string(what) + " " + std::to_string(axis) + " is out of range [" +
                                        std::to_string(-rank) + ", " + std::to_string(rank - 1) + "] for rank " +
                                        std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace nnbridge
