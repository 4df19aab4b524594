// The checks of BackendOptions::options keys ("<backend>.<key>"), so that a misspelt option is an
// error rather than a run with the default.
#pragma once

#include <initializer_list>
#include <string_view>

#include "nnbridge/exec.h"

namespace nnbridge::exec {

/// What every backend's prepare() checks: a key without a "<backend>." prefix, and a key of
/// `backend` that is not `backend` + "." + one of `known`, are refused. Keys of other backends
/// are left alone (one BackendOptions serves every backend of validate() and of a fallback
/// list). Throws Error(UnknownOption) naming the key and the backend's options.
void check_option_keys(const BackendOptions& options, std::string_view backend, std::initializer_list<std::string_view> known);

/// What an entry point that takes options from a user (Python's prepare/run/validate, the CLI's
/// -B) checks before preparing: every key's prefix names a registered backend (find_backend).
/// Throws Error(UnknownOption) naming the key and the registered backends.
void check_option_backends(const BackendOptions& options);

}  // namespace nnbridge::exec
