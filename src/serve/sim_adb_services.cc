// SimAdbServer's file and port services: adb's sync protocol (push, pull, stat, list) and
// forwards from the host to a device's port (JaCoCo's agent, the UiAutomator2 server).
#include <fmt/format.h>

#include "device/android/phone_pace.h"
#include "device/android/shell_escape.h"
#include "device/android/uia2_protocol.h"
#include "serve/sim_adb_internal.h"
#include "serve/sim_http.h"
#include "serve/sim_jacoco.h"
#include "serve/sim_uia2.h"

namespace roam::serve {

using namespace ::roam::device::android;  // NOLINT(google-build-using-namespace)

void SimAdbServer::SyncService(Conn* conn, Dev* dev) {
  Socket& s = conn->sock;
  if (!SendOkay(s).ok()) return;
  auto fail = [&](const std::string& msg) {
    std::string m = EncodeSyncHeader(kSyncFail, static_cast<uint32_t>(msg.size())) + msg;
    Closing(s.WriteAll(m));
  };
  while (!stopping_) {
    auto h = ReadSyncHeader(s);
    if (!h.ok() || h->id == kSyncQuit) return;
    // A request's argument (a path) is short; DATA is at most adb's 64 KiB chunk. Nothing the
    // peer announces is allocated before it is known to be small.
    if (h->value > (h->id == kSyncData ? kSyncMaxChunk : kMaxSyncRequest)) return;
    auto arg = s.ReadExact(h->value);
    if (!arg.ok()) return;
    // adbd runs as the shell's user: an app's private folder is shut to it (lstat fails, so
    // STAT answers zeros; RECV and SEND fail as adbd's SendSyncFailErrno words it).
    const bool may =
        dev->device->ShellMayAccess(h->id == kSyncSend ? arg->substr(0, arg->rfind(',')) : *arg);
    const auto read = [&]() -> Result<std::string> {
      if (!may) return Status::Io(*arg + ": Permission denied");
      return dev->device->ReadFile(*arg);
    };
    if (h->id == kSyncStat) {
      auto data = read();
      std::string reply = std::string(kSyncStat);
      PutU32Le(reply, data.ok() ? kRegularFileMode : 0);
      PutU32Le(reply, data.ok() ? static_cast<uint32_t>(data->size()) : 0);
      PutU32Le(reply, data.ok() ? kFileMtime : 0);
      if (!s.WriteAll(reply).ok()) return;
    } else if (h->id == kSyncRecv) {
      auto data = read();
      if (!data.ok()) {
        fail(may ? "open failed: No such file or directory" : "open failed: Permission denied");
        continue;
      }
      std::string out;
      for (size_t at = 0; at < data->size(); at += kSyncMaxChunk) {
        std::string_view chunk = std::string_view(*data).substr(at, kSyncMaxChunk);
        out += EncodeSyncHeader(kSyncData, static_cast<uint32_t>(chunk.size()));
        out.append(chunk);
      }
      out += EncodeSyncHeader(kSyncDone, 0);
      if (!s.WriteAll(out).ok()) return;
    } else if (h->id == kSyncSend) {
      std::string path = arg->substr(0, arg->rfind(','));
      std::string data;
      while (true) {
        auto d = ReadSyncHeader(s);
        if (!d.ok()) return;
        if (d->id == kSyncDone) break;
        if (d->id != kSyncData || d->value > kSyncMaxChunk) return;
        auto chunk = s.ReadExact(d->value);
        if (!chunk.ok()) return;
        if (data.size() + chunk->size() > kMaxPushedFile) {
          fail("file too large for the simulated device");
          return;
        }
        data += *chunk;
      }
      if (!may) {
        fail("couldn't create file: Permission denied");
        continue;
      }
      dev->device->WriteFile(path, std::move(data));
      if (!s.WriteAll(EncodeSyncHeader(kSyncOkay, 0)).ok()) return;
    } else if (h->id == kSyncList) {
      // Quoted by the one function the driver quotes with: a path is data, never shell.
      auto listing = dev->device->RunShell("ls " + device::android::ShellQuote(*arg));
      std::string out;
      size_t pos = 0;
      while (pos < listing.out.size()) {
        size_t nl = listing.out.find('\n', pos);
        std::string name = listing.out.substr(pos, nl - pos);
        pos = nl == std::string::npos ? listing.out.size() : nl + 1;
        std::string dent = std::string(kSyncDent);
        PutU32Le(dent, kRegularFileMode);
        PutU32Le(dent, 0);
        PutU32Le(dent, kFileMtime);
        PutU32Le(dent, static_cast<uint32_t>(name.size()));
        out += dent + name;
      }
      std::string done = std::string(kSyncDone);
      for (int k = 0; k < 4; ++k) PutU32Le(done, 0);
      if (!s.WriteAll(out + done).ok()) return;
    } else {
      fail("unknown sync request '" + h->id + "'");
      return;
    }
  }
}

void SimAdbServer::HandleForward(Conn* conn, const std::string& serial,
                                 const std::string& request) {
  Socket& s = conn->sock;
  // The first OKAY says the request was taken; the second (or a FAIL) how it went.
  auto done = [&](const Status& st, const std::string& port) {
    if (!SendOkay(s).ok()) return;
    if (!st.ok()) {
      Closing(SendFail(s, st.message()));
      return;
    }
    if (SendOkay(s).ok() && !port.empty()) Closing(WriteLengthPrefixed(s, port));
  };
  if (request == "killforward-all") return done((forwards_->RemoveAll(serial), Status::Ok()), "");
  // "forward:[norebind:]tcp:L;tcp:R" and "killforward:tcp:L"; other kinds (localabstract:, jdwp:)
  // are refused by name.
  auto port_of = [](std::string_view spec, int* port) {
    return spec.substr(0, 4) == "tcp:" && ParsePort(spec.substr(4), port);
  };
  if (request.starts_with("killforward:")) {
    int local = 0;
    if (!port_of(std::string_view(request).substr(12), &local))
      return done(Status::InvalidArgument("cannot parse '" + request.substr(12) + "'"), "");
    return done(forwards_->Remove(local), "");
  }
  std::string spec = request.substr(8);
  const bool no_rebind = spec.starts_with("norebind:");
  if (no_rebind) spec = spec.substr(9);
  const size_t semi = spec.find(';');
  int local = 0, remote = 0;
  if (semi == std::string::npos || !port_of(std::string_view(spec).substr(0, semi), &local) ||
      !port_of(std::string_view(spec).substr(semi + 1), &remote) || remote == 0)
    return done(Status::InvalidArgument("roam sim serve forwards tcp:LOCAL;tcp:REMOTE only, not '" +
                                        spec + "'"),
                "");
  auto bound = forwards_->Add(serial, local, remote, no_rebind);
  done(bound.status(), bound.ok() ? std::to_string(*bound) : "");
}

PortHandler SimAdbServer::DevicePort(const std::string& serial, int port) {
  SimAndroidDevice* device = Device(serial);
  if (device == nullptr) return nullptr;
  if (port == device::android::kUia2DevicePort) {
    if (!device->Uia2Running()) return nullptr;
    std::shared_ptr<SimUia2Server> server = Uia2Server(serial);
    const uint64_t generation = device->Uia2Generation();
    return [this, device, server, generation](PooledConn& conn, const std::atomic<bool>& stop) {
      ServeHttp(conn, stop, [&](const HttpRequest& req) -> HttpResponse {
        CountRequest();
        // The server's process is gone (a new one is another process): the connection breaks,
        // as a forward to a dead port.
        if (!device->Uia2Running() || device->Uia2Generation() != generation) return {.status = 0};
        HttpResponse r = server->Handle(req);
        r.delay_ms = static_cast<int>(Pace(r.delay_ms));
        return r;
      });
    };
  }
  // An agent with output=none (jacoco_tcpserver off) listens on no port.
  if (port != kJacocoPort || !device->AppRunning() || !device->jacoco_tcpserver()) return nullptr;
  const int pid = device->app_pid();
  return [this, device, pid](PooledConn& conn, const std::atomic<bool>& stop) {
    ServeJacoco(conn.socket(), stop, [&](bool reset) -> Result<device::jacoco::ExecData> {
      // The agent's server dies with the app's process: a restarted app is a new server.
      if (device->app_pid() != pid) return Status::Unavailable("the app's process ended");
      // Paced as a phone: a dump is an adb round trip (a small app's agent answers within it).
      if (device->phone_pace())
        SleepUnlessStopped(Pace(device::android::kPhoneRoundTripMs), stopping_);
      return device->JacocoDump(reset);
    });
  };
}

std::shared_ptr<SimUia2Server> SimAdbServer::Uia2Server(const std::string& serial) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& server = uia2_[serial];
  if (!server) {
    server = std::make_shared<SimUia2Server>(*Device(serial));
    for (const Fault& f : options_.faults)
      if (f.kind == FaultKind::kSource500) server->FailSources(f.fail, f.of);
  }
  return server;
}

}  // namespace roam::serve
