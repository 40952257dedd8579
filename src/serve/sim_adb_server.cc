#include "serve/sim_adb_server.h"

#include <charconv>
#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "device/android/phone_pace.h"
#include "serve/sim_adb_internal.h"
#include "serve/sim_http.h"

namespace roam::serve {

// The wire format is the adb driver's own (device/android/adb_protocol.h): one definition for
// both ends.
using namespace ::roam::device::android;  // NOLINT(google-build-using-namespace)

namespace {
constexpr int kAcceptPollMs = 100;
constexpr int kStreamPollMs = 100;
constexpr char kFeatures[] = "shell_v2";
}  // namespace

std::vector<std::string> DeviceSerials(const std::string& first, int count) {
  std::vector<std::string> out;
  int port = 0;
  bool emulator = first.starts_with("emulator-") && (port = std::atoi(first.c_str() + 9)) > 0;
  for (int k = 0; k < count; ++k) {
    if (emulator)
      out.push_back(fmt::format("emulator-{}", port + 2 * k));
    else
      out.push_back(k == 0 ? first : fmt::format("{}-{}", first, k + 1));
  }
  return out;
}

SimAdbServer::SimAdbServer(std::shared_ptr<const sim::AppSpec> spec, SimAdbServerOptions options)
    : spec_(std::move(spec)), options_(std::move(options)) {
  auto serials = DeviceSerials(options_.serial, std::max(1, options_.devices));
  for (size_t k = 0; k < serials.size(); ++k) {
    Dev d;
    d.device =
        std::make_unique<SimAndroidDevice>(serials[k], spec_, options_.sim, static_cast<int>(k));
    d.device->set_phone_pace(options_.phone_pace);
    d.device->set_system_dialogs(options_.system_dialogs);
    d.device->set_root(options_.root);
    d.device->set_jacoco_tcpserver(options_.jacoco_tcpserver);
    if (options_.stale_coverage) d.device->LeaveStaleCoverage();
    d.transport_id = k + 1;
    devs_.push_back(std::move(d));
  }
  if (!options_.faults.empty()) fault_clock_ = std::make_unique<FaultClock>(options_.faults);
  conns_ = std::make_unique<ConnPool>(options_.max_connections);
  forwards_ = std::make_unique<Forwards>(
      [this](const std::string& serial, int port) { return DevicePort(serial, port); },
      options_.max_connections);
}

SimAdbServer::~SimAdbServer() { Stop(); }

Status SimAdbServer::Start() {
  auto l = Listener::Listen(options_.host, options_.port);
  if (!l.ok()) return l.status().Wrap("roam sim serve");
  listener_ = std::move(*l);
  port_ = listener_.port();
  started_ = std::chrono::steady_clock::now();
  try {
    accept_thread_ = std::thread([this] { AcceptLoop(); });
    if (fault_clock_) fault_thread_ = std::thread([this] { FaultLoop(); });
  } catch (const std::system_error& e) {
    stopping_ = true;
    if (accept_thread_.joinable()) accept_thread_.join();
    listener_.Close();
    return Status::Unavailable(fmt::format("roam sim serve: cannot start a thread: {}", e.what()));
  }
  return Status::Ok();
}

void SimAdbServer::Stop() {
  stopping_ = true;
  fault_cv_.notify_all();
  if (fault_thread_.joinable()) fault_thread_.join();
  { std::lock_guard<std::mutex> wait(fault_mu_); }  // a fault being applied ends first; no more
  if (accept_thread_.joinable()) accept_thread_.join();
  listener_.Close();
  forwards_->RemoveAll("");
  DropConnections();
  for (auto& d : devs_) d.device->NotifyAll();
  conns_->CloseAll();
}

void SimAdbServer::AcceptLoop() {
  while (!stopping_ && !kill_requested_ && !adb_down_) {
    auto s = listener_.Accept(kAcceptPollMs, options_.idle_timeout_ms);
    if (!s.ok()) {
      if (s.status().code() == Status::Code::kAborted) return;
      continue;
    }
    conns_->Add(
        std::move(*s),
        [this](PooledConn& pooled) {
          Conn conn(pooled);
          Serve(&conn);
        },
        [](Socket& sock, const std::string& why) { Closing(SendFail(sock, why)); });
  }
}

std::vector<std::string> SimAdbServer::Serials() const {
  std::vector<std::string> out;
  for (const auto& d : devs_) out.push_back(d.device->serial());
  return out;
}

SimAndroidDevice* SimAdbServer::Device(const std::string& serial) {
  for (auto& d : devs_)
    if (d.device->serial() == serial) return d.device.get();
  return nullptr;
}

void SimAdbServer::SetOffline(const std::string& serial, bool offline) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& d : devs_)
      if (d.device->serial() == serial) d.offline = offline;
  }
  if (offline) {
    conns_->Shutdown(serial);
    forwards_->DropAll(serial);
  }
}

void SimAdbServer::DropConnections() { conns_->Shutdown(); }

size_t SimAdbServer::OpenConnections() const { return conns_->Open(); }

std::string SimAdbServer::DevicesText(bool long_form) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& d : devs_) {
    if (d.gone) continue;
    out += d.device->serial() + "\t" + (d.offline ? "offline" : "device");
    if (long_form) {
      out += fmt::format(" product:roam_sim model:Roam_Sim device:roam transport_id:{}",
                         d.transport_id);
    }
    out += "\n";
  }
  return out;
}

SimAdbServer::Dev* SimAdbServer::Select(const std::string& selector, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Dev*> matches;
  std::string what = selector;
  if (selector == "any" || selector == "usb" || selector == "local") {
    for (auto& d : devs_) {
      bool emulator = d.device->is_emulator();
      if (!d.gone && (selector == "any" || (selector == "local") == emulator))
        matches.push_back(&d);
    }
    if (matches.empty()) {  // adb's acquire_one_transport
      *error = selector == "usb"     ? "no devices found"
               : selector == "local" ? "no emulators found"
                                     : "no devices/emulators found";
      return nullptr;
    }
    if (matches.size() > 1) {
      *error = selector == "local" ? "more than one emulator" : "more than one device/emulator";
      return nullptr;
    }
  } else {
    bool by_id = selector.starts_with("transport-id:");
    std::string key = selector.starts_with("serial:") ? selector.substr(7) : selector;
    for (auto& d : devs_) {
      if (d.gone) continue;
      if (by_id ? std::to_string(d.transport_id) == selector.substr(13) : d.device->serial() == key)
        matches.push_back(&d);
    }
    if (matches.empty()) {
      *error = by_id ? "no device with transport id '" + selector.substr(13) + "'"
                     : "device '" + key + "' not found";
      return nullptr;
    }
  }
  if (matches[0]->offline) {
    *error = "device offline";
    return nullptr;
  }
  return matches[0];
}

void SimAdbServer::Serve(Conn* conn) {
  Socket& s = conn->sock;
  while (!stopping_) {
    conn->pooled.SetWaiting(true);
    auto req = ReadRequest(s);
    conn->pooled.SetWaiting(false);
    if (!req.ok()) return;
    CountRequest();
    if (req->starts_with("host")) {
      if (!HandleHost(conn, *req)) return;
      continue;
    }
    Dev* dev = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& d : devs_)
        if (d.device->serial() == conn->serial) dev = &d;
    }
    if (dev == nullptr) {
      Closing(SendFail(s, "no device selected: send host:transport:<serial> first"));
      return;
    }
    HandleDeviceService(conn, dev, *req);
    return;
  }
}

bool SimAdbServer::HandleHost(Conn* conn, const std::string& req) {
  Socket& s = conn->sock;
  auto answer = [&](const std::string& payload) {
    if (SendOkay(s).ok()) Closing(WriteLengthPrefixed(s, payload));
    return false;
  };
  // "host-serial:S:REQ", "host-transport-id:N:REQ", "host-usb:REQ", "host-local:REQ", "host:REQ".
  std::string selector, request;
  if (req.starts_with("host:")) {
    request = req.substr(5);
  } else if (req.starts_with("host-serial:")) {
    std::string rest = req.substr(12);
    for (const auto& serial : Serials()) {
      if (rest.starts_with(serial + ":")) {
        selector = serial;
        request = rest.substr(serial.size() + 1);
      }
    }
    if (selector.empty()) {
      size_t colon = rest.rfind(':');
      selector = rest.substr(0, colon);
      request = colon == std::string::npos ? "" : rest.substr(colon + 1);
    }
  } else if (req.starts_with("host-transport-id:")) {
    std::string rest = req.substr(18);
    size_t colon = rest.find(':');
    selector = "transport-id:" + rest.substr(0, colon);
    request = colon == std::string::npos ? "" : rest.substr(colon + 1);
  } else if (req.starts_with("host-usb:") || req.starts_with("host-local:")) {
    selector = req.starts_with("host-usb:") ? "usb" : "local";
    request = req.substr(req.find(':') + 1);
  } else {
    Closing(SendFail(s, "unknown host service '" + req + "'"));
    return false;
  }

  if (selector.empty()) {
    if (request == "version") return answer(Hex4(kAdbServerVersion));
    if (request == "devices" || request == "devices-l")
      return answer(DevicesText(request == "devices-l"));
    if (request == "track-devices" || request == "track-devices-l") {
      TrackDevices(conn, request == "track-devices-l");
      return false;
    }
    if (request == "features" || request == "host-features") return answer(kFeatures);
    if (request == "list-forward") return answer(forwards_->List());
    if (request.starts_with("forward:") || request.starts_with("killforward")) {
      // After a transport switch (newer clients), else the one device there is.
      std::string serial;
      {
        std::lock_guard<std::mutex> lock(mu_);
        serial = conn->serial;
      }
      if (serial.empty()) {
        std::string error;
        Dev* d = Select("any", &error);
        if (d == nullptr) {
          Closing(SendFail(s, error));
          return false;
        }
        serial = d->device->serial();
      }
      HandleForward(conn, serial, request);
      return false;
    }
    if (request == "kill") {
      kill_requested_ = true;
      Closing(SendOkay(s));
      return false;
    }
    // Transport switches: the connection stays open for one device service.
    std::string sel;
    bool tport = false;
    if (request.starts_with("transport:"))
      sel = "serial:" + request.substr(10);
    else if (request == "transport-any")
      sel = "any";
    else if (request == "transport-usb")
      sel = "usb";
    else if (request == "transport-local")
      sel = "local";
    else if (request.starts_with("transport-id:"))
      sel = request;
    else if (request.starts_with("tport:")) {
      sel = request.substr(6);
      tport = true;
    }
    if (!sel.empty()) {
      std::string error;
      Dev* d = Select(sel, &error);
      if (d == nullptr) {
        Closing(SendFail(s, error));
        return false;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        conn->serial = d->device->serial();
      }
      conns_->Tag(conn->pooled, conn->serial);
      std::string reply = "OKAY";
      if (tport) {
        for (int b = 0; b < 8; ++b)
          reply.push_back(static_cast<char>((d->transport_id >> (8 * b)) & 0xff));
      }
      return s.WriteAll(reply).ok();
    }
    if (request == "get-state" || request == "get-serialno" || request == "get-devpath") {
      selector = "any";
    } else {
      Closing(SendFail(s, "unknown host service '" + req + "'"));
      return false;
    }
  }
  // Requests about one device.
  std::string error;
  if (request == "features") {
    std::string sel = selector.find(':') == std::string::npos ? "serial:" + selector : selector;
    if (selector == "any" || selector == "usb" || selector == "local") sel = selector;
    Dev* d = Select(sel, &error);
    if (d == nullptr) {
      Closing(SendFail(s, error));
      return false;
    }
    return answer(kFeatures);
  }
  Dev* d = Select(selector, &error);
  if (request == "get-state" && d == nullptr && error == "device offline") return answer("offline");
  if (d == nullptr) {
    Closing(SendFail(s, error));
    return false;
  }
  if (request.starts_with("forward:") || request.starts_with("killforward")) {
    HandleForward(conn, d->device->serial(), request);
    return false;
  }
  if (request == "get-state") return answer("device");
  if (request == "get-serialno") return answer(d->device->serial());
  if (request == "get-devpath") return answer("usb:roam-sim");
  if (request.starts_with("emu:")) {
    if (!d->device->is_emulator()) {
      Closing(SendFail(s, "not an emulator: " + d->device->serial()));
      return false;
    }
    std::string said = d->device->Console(request.substr(4));
    if (options_.phone_pace)
      SleepUnlessStopped(Pace(device::android::PhoneConsoleMs(request.substr(4))), stopping_);
    return answer(said);
  }
  Closing(SendFail(s, "unknown host service '" + req + "'"));
  return false;
}

void SimAdbServer::TrackDevices(Conn* conn, bool long_form) {
  Socket& s = conn->sock;
  if (!SendOkay(s).ok()) return;
  std::string last;
  while (!stopping_) {
    std::string now = DevicesText(long_form);
    if (now != last) {
      if (!WriteLengthPrefixed(s, now).ok()) return;
      last = now;
    }
    if (s.WaitReadable(kStreamPollMs)) {
      char buf[256];
      auto n = s.ReadSome(buf, sizeof buf);
      if (!n.ok() || *n == 0) return;
    }
  }
}

void SimAdbServer::HandleDeviceService(Conn* conn, Dev* dev, const std::string& service) {
  Socket& s = conn->sock;
  if (service.starts_with("shell")) {
    size_t colon = service.find(':');
    if (colon == std::string::npos) {
      Closing(SendFail(s, "unknown service '" + service + "'"));
      return;
    }
    std::string args = service.substr(5, colon - 5);  // ",v2,raw" or ""
    std::string command = service.substr(colon + 1);
    bool v2 = args.find("v2") != std::string::npos;
    if (command.empty() && !v2) {
      InteractiveShell(conn, dev);
      return;
    }
    RunShellService(conn, dev, command, v2);
    return;
  }
  if (service.starts_with("exec:")) {
    RunShellService(conn, dev, service.substr(5), false);
    return;
  }
  if (service == "sync:") {
    SyncService(conn, dev);
    return;
  }
  if (service.starts_with("emu:")) {
    if (!dev->device->is_emulator()) {
      Closing(SendFail(s, "not an emulator: " + dev->device->serial()));
      return;
    }
    std::string answer = dev->device->Console(service.substr(4));
    if (options_.phone_pace)
      SleepUnlessStopped(Pace(device::android::PhoneConsoleMs(service.substr(4))), stopping_);
    if (SendOkay(s).ok()) Closing(s.WriteAll(answer));
    return;
  }
  if (service.starts_with("tcp:")) {
    int port = 0;
    PortHandler handler = ParsePort(std::string_view(service).substr(4), &port)
                              ? DevicePort(dev->device->serial(), port)
                              : nullptr;
    if (!handler) {
      Closing(SendFail(s, "connection refused: nothing listens on " + service));
      return;
    }
    if (!SendOkay(s).ok()) return;
    (void)s.SetTimeout(0);  // the stream may idle between a client's requests
    handler(conn->pooled, stopping_);
    return;
  }
  if (service.starts_with("root:") || service.starts_with("unroot:")) {
    if (SendOkay(s).ok()) Closing(s.WriteAll("adbd cannot run as root in production builds\n"));
    return;
  }
  Closing(SendFail(s, "unknown service '" + service + "'"));
}

int64_t SimAdbServer::Pace(int64_t ms) {
  paced_ms_ += ms;
  return options_.pace_sleeps ? ms : 0;
}

void SimAdbServer::RunShellService(Conn* conn, Dev* dev, const std::string& command, bool v2) {
  Socket& s = conn->sock;
  if (!SendOkay(s).ok()) return;
  ShellResult r = dev->device->RunShell(command);
  SleepUnlessStopped(Pace(r.pace_ms), stopping_);
  auto write_out = [&](const std::string& text) {
    if (text.empty()) return true;
    return s.WriteAll(v2 ? EncodeShellPacket(ShellPacket::kStdout, text) : text).ok();
  };
  if (v2) {
    if (!write_out(r.out)) return;
    if (!r.err.empty() && !s.WriteAll(EncodeShellPacket(ShellPacket::kStderr, r.err)).ok()) return;
  } else {
    if (!write_out(r.out + r.err)) return;
  }
  if (r.stream_log) {
    uint64_t cursor = r.log_cursor;
    bool first = true;
    while (!stopping_) {
      auto lines = dev->device->LogSince(&cursor, r.log_filter);
      std::string text;
      if (first && !lines.empty())
        text = r.log_filter.events ? "--------- beginning of events\n"
                                   : "--------- beginning of main\n";
      for (const auto& l : lines) text += l + "\n";
      if (!lines.empty()) first = false;
      if (!write_out(text)) return;
      dev->device->WaitForLog(cursor, kStreamPollMs);
      if (s.WaitReadable(0)) {  // the client closed (or sent stdin we ignore)
        char buf[512];
        auto n = s.ReadSome(buf, sizeof buf);
        if (!n.ok() || *n == 0) return;
      }
    }
    return;
  }
  if (r.instrumentation) {
    // `am instrument -w`: open while the server runs; the shell closing ends the instrumentation
    // (Roam keeps it open for the server's life, so the simulator takes the strict reading).
    while (!stopping_ && dev->device->Uia2Running()) {
      dev->device->WaitForLog(UINT64_MAX, kStreamPollMs);
      if (s.WaitReadable(0)) {
        char buf[512];
        auto n = s.ReadSome(buf, sizeof buf);
        if (!n.ok() || *n == 0) {
          dev->device->Uia2Stop();
          return;
        }
      }
    }
    if (!write_out(dev->device->Uia2EndText())) return;
  }
  if (v2) {
    std::string code(1, static_cast<char>(r.exit_code & 0xff));
    Closing(s.WriteAll(EncodeShellPacket(ShellPacket::kExit, code)));
  }
}

void SimAdbServer::InteractiveShell(Conn* conn, Dev* dev) {
  Socket& s = conn->sock;
  if (!SendOkay(s).ok()) return;
  const std::string prompt = "roam_sim:/ $ ";
  if (!s.WriteAll(prompt).ok()) return;
  std::string pending;
  size_t scanned = 0;  // bytes of `pending` known to hold no line end: each byte is looked at once
  char buf[1024];
  while (!stopping_) {
    if (!s.WaitReadable(kStreamPollMs)) continue;  // a person at a prompt may idle
    auto n = s.ReadSome(buf, sizeof buf);
    if (!n.ok() || *n == 0) return;
    pending.append(buf, *n);
    size_t nl;
    while ((nl = pending.find_first_of("\r\n", scanned)) != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      scanned = 0;
      if (line == "exit") return;
      ShellResult r = dev->device->RunShell(line);
      SleepUnlessStopped(Pace(r.pace_ms), stopping_);
      if (!s.WriteAll(r.out + r.err + prompt).ok()) return;
    }
    scanned = pending.size();
    if (pending.size() > options_.max_line_bytes) {
      Closing(s.WriteAll("/system/bin/sh: line too long\n"));
      return;
    }
  }
}

}  // namespace roam::serve
