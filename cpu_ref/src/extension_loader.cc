// KernelRegistry::load_extension: dlopen an extension library and call its entry point
// (nnbridge/cpu_kernel_api.h).
#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "custom_kernels.h"

namespace nnbridge::cpu_ref {

namespace {

// What the extension registers through: a staged copy of the registry, committed only when
// the whole library registered without a refusal. Never lets an exception into the extension.
class Registrar final : public KernelRegistrar {
 public:
  Registrar(const KernelRegistry& target, std::shared_ptr<void> library, std::string source)
      : staged(target), library_(std::move(library)), source_(std::move(source)) {}

  bool add(CustomKernel kernel) override {
    try {
      auto e = std::make_shared<KernelRegistry::Entry>();
      e->library = library_;
      e->kernel = std::move(kernel);
      e->source = source_;
      RegistryAccess::add(staged, std::move(e));
      return true;
    } catch (const Error& e) {  // RegistryAccess::add's refusal: keep its identifier
      if (refusal.empty()) {
        refusal = e.message();
        refusal_id = e.id();
      }
    } catch (const std::exception& e) {
      if (refusal.empty()) refusal = e.what();
    } catch (...) {
      if (refusal.empty()) refusal = "a registration failed";
    }
    return false;
  }
  void fail(std::string_view why) override {
    try {
      if (failure.empty()) failure = std::string(why);
    } catch (...) {
    }
  }

  KernelRegistry staged;
  std::string refusal, failure;
  ErrorId refusal_id = ErrorId::InvalidOther;  ///< the identifier of the first refusal

 private:
  std::shared_ptr<void> library_;
  std::string source_;
};

std::string last_dl_error() {
  const char* e = ::dlerror();
  return e ? e : "unknown dynamic loader error";
}

}  // namespace

void KernelRegistry::load_extension(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string file = path.string();
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw Error(ErrorId::IoOpen, "no such extension library", file);
  if (fs::is_directory(st)) throw Error(ErrorId::IoNotRegular, "is a folder, not an extension library", file);
  // dlopen searches the library path for a name without a slash; a path means a path.
  const fs::path where = fs::absolute(path, ec);
  ::dlerror();
  void* handle = ::dlopen((ec ? path : where).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw Error(ErrorId::UnsupportedOther, "cannot load the extension library: " + last_dl_error(), file);
  std::shared_ptr<void> library(handle, [](void* h) { ::dlclose(h); });
  void* symbol = ::dlsym(handle, kCpuExtensionEntryPoint);
  if (!symbol)
    throw Error(ErrorId::UnsupportedOther,
                std::string("not an nnbridge cpu extension: it exports no ") + kCpuExtensionEntryPoint + " entry point", file);
  const auto entry = reinterpret_cast<CpuExtensionEntry>(symbol);
  Registrar registrar(*this, library, file);
  int32_t rc = kCpuExtensionFailed;
  try {
    rc = entry(kCpuKernelAbiVersion, &registrar);
  } catch (const std::exception& e) {
    registrar.fail(e.what());
  } catch (...) {
    registrar.fail("an exception of unknown type escaped the entry point");
  }
  if (rc > 0)
    throw Error(ErrorId::Version,
                "the extension was built for nnbridge cpu kernel ABI version " + std::to_string(rc) + ", this nnbridge has version " +
                    std::to_string(kCpuKernelAbiVersion) + ": rebuild it against this nnbridge's nnbridge/cpu_kernel_api.h",
                file);
  if (!registrar.refusal.empty()) throw Error(registrar.refusal_id, "a registration was refused: " + registrar.refusal, file);
  if (rc != kCpuExtensionOk)
    throw Error(ErrorId::InvalidOther,
                "the extension failed to register its kernels: " +
                    (registrar.failure.empty() ? std::string("it gave no reason") : registrar.failure),
                file);
  entries_ = std::move(registrar.staged.entries_);
}

}  // namespace nnbridge::cpu_ref
