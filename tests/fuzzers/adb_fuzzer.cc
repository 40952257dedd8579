// What a client sends `roam sim serve`: the input is written to one connection of an in-process
// server (smart-socket requests, host services, transport switches, sync, shell v1 and v2, the
// interactive shell), the connection is half-closed, and the answer read until the server
// closes or goes quiet. The server runs for the whole fuzzing session, as it does for real.
#include <signal.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "device/android/adb_protocol.h"
#include "serve/sim_adb_server.h"
#include "sim/sim_app.h"

namespace {

namespace android = roam::device::android;

// The server of the session; a new one after a client sent host:kill (as adb's own server, it
// then stops accepting).
roam::serve::SimAdbServer* Server() {
  static std::unique_ptr<roam::serve::SimAdbServer> server;
  if (server && !server->kill_requested()) return server.get();
  if (server) server->Stop();
  signal(SIGPIPE, SIG_IGN);
  static const auto spec = roam::sim::LoadSpec(ROAM_SOURCE_DIR "/tests/apps/crashy.json");
  if (!spec.ok()) return nullptr;
  roam::serve::SimAdbServerOptions options;
  options.port = 0;
  options.devices = 2;
  options.idle_timeout_ms = 200;
  server = std::make_unique<roam::serve::SimAdbServer>(*spec, options);
  if (!server->Start().ok()) server.reset();
  return server.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  roam::serve::SimAdbServer* server = Server();
  if (!server) return 0;
  auto s = android::Socket::Connect("127.0.0.1", server->port(), 200);
  if (!s.ok()) return 0;
  (void)s->WriteAll(std::string_view(reinterpret_cast<const char*>(data), size));
  s->ShutdownWrite();
  char buf[4096];
  for (int reads = 0; reads < 64; ++reads) {
    auto n = s->ReadSome(buf, sizeof buf);
    if (!n.ok() || *n == 0) break;
  }
  return 0;
}
