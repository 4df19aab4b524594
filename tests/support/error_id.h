// The identifier of the nnbridge::Error a call throws, for tests that match errors on it
// (nnbridge/error.h: match the identifier and the place, never the prose).
#pragma once

#include <optional>

#include "nnbridge/error.h"

namespace nnbridge::test {

/// The Error `f` throws; nullopt when it returns, or throws anything else.
template <class F>
std::optional<Error> thrown(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  } catch (...) {
  }
  return std::nullopt;
}

/// The identifier of the Error `f` throws; nullopt when it returns, or throws anything else.
template <class F>
std::optional<ErrorId> thrown_id(F&& f) {
  if (auto e = thrown(f)) return e->id();
  return std::nullopt;
}

}  // namespace nnbridge::test
