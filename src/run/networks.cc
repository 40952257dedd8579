#include "run/networks.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

#include <fmt/format.h>

namespace roam::run {

namespace {

using FreshFn = explore::QNetwork* (*)(const explore::DqnShape*, double, uint64_t, std::string*);
using LoadFn = explore::QNetwork* (*)(const char*, size_t, const explore::DqnShape*, double,
                                      std::string*);

struct Module {
  FreshFn fresh = nullptr;
  LoadFn load = nullptr;
  std::string error;  // why it did not load
};

// The paths tried, in order: beside the binary, then the build's.
std::vector<std::string> Candidates() {
  std::vector<std::string> paths;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back((self.parent_path() / "libroam_net.so").string());
  if (std::string built = ROAM_NET_MODULE; paths.empty() || built != paths.front())
    paths.push_back(built);
  return paths;
}

const Module& TheModule() {
  static Module module;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const auto& path : Candidates()) {
      if (!std::filesystem::exists(path)) {
        tried += fmt::format("{}{}: no such file", tried.empty() ? "" : "; ", path);
        continue;
      }
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        tried += fmt::format("{}{}: {}", tried.empty() ? "" : "; ", path, ::dlerror());
        continue;
      }
      module.fresh = reinterpret_cast<FreshFn>(::dlsym(handle, "RoamNetFresh"));
      module.load = reinterpret_cast<LoadFn>(::dlsym(handle, "RoamNetLoad"));
      if (module.fresh && module.load) return;
      tried += fmt::format("{}{}: not Roam's network module", tried.empty() ? "" : "; ", path);
    }
    module.error = "dqn: cannot load the network library (libtorch): " + tried;
  });
  return module;
}

}  // namespace

explore::QNetworkMaker TorchNetworks() {
  explore::QNetworkMaker maker;
  maker.fresh = [](const explore::DqnShape& shape, double learning_rate,
                   uint64_t seed) -> Result<std::unique_ptr<explore::QNetwork>> {
    const Module& m = TheModule();
    if (!m.fresh) return Status::Unavailable(m.error);
    std::string error;
    std::unique_ptr<explore::QNetwork> network(m.fresh(&shape, learning_rate, seed, &error));
    if (!network) return Status::Unavailable("dqn: cannot make a network: " + error);
    return network;
  };
  maker.load = [](std::string_view weights, const explore::DqnShape& shape, double learning_rate,
                  const std::string& source) -> Result<std::unique_ptr<explore::QNetwork>> {
    const Module& m = TheModule();
    if (!m.load) return Status::Unavailable(m.error);
    std::string error;
    std::unique_ptr<explore::QNetwork> network(
        m.load(weights.data(), weights.size(), &shape, learning_rate, &error));
    if (!network) return Status::Corruption(fmt::format("{}: {}", source, error));
    return network;
  };
  return maker;
}

}  // namespace roam::run
