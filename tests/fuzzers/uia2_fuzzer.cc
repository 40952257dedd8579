// What a client sends the served UiAutomator2 server (`roam sim serve`'s port 6790): the input is
// written as raw HTTP to one connection of ServeHttp routed to a SimUia2Server over a simulated
// device, and the answers are read until the server closes. Each "{SID}" in the input becomes the
// id of the session open at the time (one is made first), so the fuzzer reaches the session's
// routes (/source, /actions, /keys, settings, ...) and not only "invalid session id".
#include <signal.h>
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "device/android/adb_protocol.h"
#include "device/android/uia2_protocol.h"
#include "serve/sim_conns.h"
#include "serve/sim_http.h"
#include "serve/sim_shell.h"
#include "serve/sim_uia2.h"
#include "sim/sim_app.h"

namespace {

namespace android = roam::device::android;
namespace serve = roam::serve;

struct Served {
  std::unique_ptr<serve::SimAndroidDevice> device;
  std::unique_ptr<serve::SimUia2Server> server;
};

Served* Server() {
  static Served served;
  if (served.server) return &served;
  signal(SIGPIPE, SIG_IGN);
  auto spec = roam::sim::LoadSpec(ROAM_SOURCE_DIR "/tests/apps/crashy.json");
  if (!spec.ok()) return nullptr;
  served.device =
      std::make_unique<serve::SimAndroidDevice>("emulator-5554", *spec, roam::sim::SimOptions{}, 0);
  served.server = std::make_unique<serve::SimUia2Server>(*served.device);
  return &served;
}

// The open session's id, made when there is none (a DELETE in an input ends it).
std::string SessionId(serve::SimUia2Server& server) {
  serve::HttpResponse list = server.Handle({.method = "GET", .path = "/sessions"});
  auto sessions = nlohmann::json::parse(list.body, nullptr, false);
  if (sessions.is_object() && sessions["value"].is_array() && !sessions["value"].empty())
    return sessions["value"][0].value("id", "");
  serve::HttpResponse made =
      server.Handle({.method = "POST", .path = "/session", .body = android::Uia2NewSessionBody()});
  auto j = nlohmann::json::parse(made.body, nullptr, false);
  return j.is_object() && j["sessionId"].is_string() ? j["sessionId"].get<std::string>() : "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Served* served = Server();
  if (!served) return 0;
  std::string input(reinterpret_cast<const char*>(data), size);
  const std::string sid = SessionId(*served->server);
  for (size_t at; (at = input.find("{SID}")) != std::string::npos;) input.replace(at, 5, sid);

  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return 0;
  android::Socket client(fds[0], "client");
  serve::ConnPool pool(1);
  std::atomic<bool> stop{false};
  pool.Add(android::Socket(fds[1], "server"), [&](serve::PooledConn& conn) {
    serve::ServeHttp(conn, stop,
                     [&](const serve::HttpRequest& req) { return served->server->Handle(req); });
  });
  // Read the answers on another thread: a screenshot's answer is larger than a socket's buffer.
  std::thread reader([&client] {
    char buf[64 * 1024];
    for (;;) {
      auto n = client.ReadSome(buf, sizeof buf);
      if (!n.ok() || *n == 0) return;
    }
  });
  (void)client.WriteAll(input);
  client.ShutdownWrite();
  reader.join();
  stop = true;
  pool.CloseAll();
  return 0;
}
