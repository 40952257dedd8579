// SimAdbServer's scheduled faults (sim_faults.h): what each does to the served devices and the
// adb port, applied when the fault clock says, and counted for summary.json.
#include <fmt/format.h>

#include "serve/sim_adb_internal.h"
#include "serve/sim_uia2.h"

namespace roam::serve {

using device::android::Listener;

namespace {
constexpr int kFaultTickMs = 20;
}  // namespace

double SimAdbServer::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void SimAdbServer::CountRequest() {
  ++requests_;
  if (fault_clock_) ApplyDueFaults();
}

void SimAdbServer::FaultLoop() {
  std::unique_lock<std::mutex> lock(fault_mu_);
  while (!stopping_) {
    fault_cv_.wait_for(lock, std::chrono::milliseconds(kFaultTickMs));
    lock.unlock();
    ApplyDueFaults();
    lock.lock();
  }
}

void SimAdbServer::ApplyDueFaults() {
  std::lock_guard<std::mutex> lock(fault_mu_);
  if (stopping_) return;
  const auto elapsed_ms = static_cast<int64_t>(Elapsed() * 1000);
  for (const FaultClock::Event& e : fault_clock_->Take(elapsed_ms, requests_))
    Apply(e.fault, e.begin);
}

void SimAdbServer::SetGone(Dev& dev, bool gone) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    dev.gone = gone;
  }
  if (gone) {
    conns_->Shutdown(dev.device->serial());
    forwards_->DropAll(dev.device->serial());
  }
}

void SimAdbServer::CloseAdbPort() {
  adb_down_ = true;
  if (accept_thread_.joinable()) accept_thread_.join();
  listener_.Close();
  forwards_->DropAll("");
  conns_->Shutdown();
}

void SimAdbServer::OpenAdbPort() {
  auto l = Listener::Listen(options_.host, port_);
  if (!l.ok()) {  // the port was taken meanwhile: the server stays down, as adb would
    fault_log_.push_back(
        {{"fault", "adb-restart"}, {"error", l.status().message()}, {"at_s", Elapsed()}});
    return;
  }
  listener_ = std::move(*l);
  adb_down_ = false;
  try {
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  } catch (const std::system_error& e) {
    fault_log_.push_back({{"fault", "adb-restart"}, {"error", e.what()}, {"at_s", Elapsed()}});
  }
}

// Under fault_mu_. Each begin is logged; an end closes its log entry.
void SimAdbServer::Apply(size_t index, bool begin) {
  const Fault& f = fault_clock_->faults()[index];
  const std::string name(FaultName(f.kind));
  auto log = [&](const std::string& serial, bool happened) {
    if (happened) ++happened_[name];
    nlohmann::json entry = {{"fault", name},
                            {"index", index},
                            {"begin_s", Elapsed()},
                            {"request", requests_.load()},
                            {"happened", happened}};
    if (!serial.empty()) entry["serial"] = serial;
    fault_log_.push_back(std::move(entry));
  };
  auto close_entry = [&](const std::string& serial) {
    for (auto& e : fault_log_)
      if (e.value("index", size_t{0}) == index && e.value("serial", std::string()) == serial &&
          !e.contains("end_s"))
        e["end_s"] = Elapsed();
  };
  switch (f.kind) {
    case FaultKind::kOffline:
      for (auto& d : devs_) {
        SetOffline(d.device->serial(), begin);
        begin ? log(d.device->serial(), true) : close_entry(d.device->serial());
      }
      return;
    case FaultKind::kReboot:
      for (auto& d : devs_) {
        if (begin) {
          SetGone(d, true);
          d.device->Reboot();
          log(d.device->serial(), true);
        } else {
          SetGone(d, false);
          close_entry(d.device->serial());
        }
      }
      return;
    case FaultKind::kAdbRestart:
      if (begin) {
        CloseAdbPort();
        log("", true);
      } else {
        OpenAdbPort();
        close_entry("");
      }
      return;
    case FaultKind::kUia2Kill:
      for (auto& d : devs_) log(d.device->serial(), d.device->Uia2Kill());
      return;
    case FaultKind::kSource500:
      return;  // the servers count their own (SimUia2Server::FailSources)
  }
}

std::map<std::string, int64_t> SimAdbServer::FaultsHappened() const {
  std::map<std::string, int64_t> out;
  {
    std::lock_guard<std::mutex> lock(fault_mu_);
    out = happened_;
  }
  int64_t failures = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [serial, server] : uia2_) failures += server->source_failures();
  }
  if (failures > 0) out["source500"] = failures;
  return out;
}

nlohmann::json SimAdbServer::FaultsReport() const {
  nlohmann::json spec = nlohmann::json::array();
  for (const Fault& f : options_.faults) {
    auto time = [](const FaultTime& t) {
      return t.requests ? fmt::format("{}r", t.value) : fmt::format("{}ms", t.value);
    };
    if (f.kind == FaultKind::kSource500)
      spec.push_back(fmt::format("source500={}/{}", f.fail, f.of));
    else if (f.kind == FaultKind::kUia2Kill)
      spec.push_back(fmt::format("uia2-kill@{}", time(f.at)));
    else
      spec.push_back(fmt::format("{}@{}+{}", FaultName(f.kind), time(f.at), time(f.lasting)));
  }
  nlohmann::json happened = nlohmann::json::object();
  for (const auto& [k, v] : FaultsHappened()) happened[k] = v;
  std::lock_guard<std::mutex> lock(fault_mu_);
  return {{"spec", spec}, {"happened", happened}, {"log", fault_log_}};
}

}  // namespace roam::serve
