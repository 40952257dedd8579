#include "serve/sim_ports.h"

#include <system_error>

#include <fmt/format.h>

namespace roam::serve {

using device::android::Listener;
using device::android::Socket;

namespace {
constexpr int kAcceptPollMs = 100;
constexpr int kSocketTimeoutMs = 0;  // a forwarded stream may idle (a dump every few seconds)
}  // namespace

struct Forwards::Entry {
  std::string serial;
  int local = 0, remote = 0;
  Listener listener;
  // Shared with its connections' threads, which end after the entry is gone (Close waits only
  // for their handlers).
  std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
  std::thread accept;
  std::string tag() const { return fmt::format("tcp:{}", local); }
};

Forwards::Forwards(Lookup lookup, int max_connections)
    : lookup_(std::move(lookup)), pool_(max_connections) {}
Forwards::~Forwards() { RemoveAll(""); }

Result<int> Forwards::Add(const std::string& serial, int local_port, int device_port,
                          bool no_rebind) {
  std::unique_ptr<Entry> old;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.count(local_port)) {
      if (no_rebind)
        return Status::InvalidArgument(
            fmt::format("cannot rebind existing socket tcp:{}", local_port));
      old = Take(local_port);
    }
  }
  Close(std::move(old));
  auto listener = Listener::Listen(std::string(device::android::kLoopback), local_port);
  if (!listener.ok())
    return Status::Unavailable(
        fmt::format("cannot bind listener: {}", listener.status().message()));
  auto entry = std::make_unique<Entry>();
  entry->serial = serial;
  entry->local = listener->port();
  entry->remote = device_port;
  entry->listener = std::move(*listener);
  // The thread starts before the entry is published: a Remove from another connection then
  // always finds it joinable (set after, a Remove in between freed the entry under it).
  Entry* raw = entry.get();
  try {
    raw->accept = std::thread([this, raw] { AcceptLoop(raw); });
  } catch (const std::system_error&) {
    return Status::Unavailable("cannot bind listener: no thread to serve it");
  }
  const int bound = raw->local;
  std::lock_guard<std::mutex> lock(mu_);
  entries_[bound] = std::move(entry);
  return bound;
}

void Forwards::AcceptLoop(Entry* e) {
  while (!*e->stop) {
    auto s = e->listener.Accept(kAcceptPollMs, kSocketTimeoutMs);
    if (!s.ok()) {
      if (s.status().code() == Status::Code::kAborted) return;
      continue;
    }
    PortHandler handler = lookup_(e->serial, e->remote);
    if (!handler) continue;  // nothing listens on the device port: the connection closes
    // Refused (the pool is full of busy connections, or no thread): closed unanswered, as a
    // forward whose device port refuses.
    pool_.Add(
        std::move(*s),
        [stop = e->stop, handler = std::move(handler)](PooledConn& c) { handler(c, *stop); }, {},
        e->tag());
  }
}

std::unique_ptr<Forwards::Entry> Forwards::Take(int local_port) {
  auto it = entries_.find(local_port);
  if (it == entries_.end()) return nullptr;
  auto entry = std::move(it->second);
  entries_.erase(it);
  return entry;
}

void Forwards::Close(std::unique_ptr<Entry> e, bool wait) {
  if (!e) return;
  *e->stop = true;
  e->listener.Close();
  if (e->accept.joinable()) e->accept.join();
  if (wait)
    pool_.Close(e->tag());
  else
    pool_.Shutdown(e->tag());
}

Status Forwards::Remove(int local_port) {
  std::unique_ptr<Entry> e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    e = Take(local_port);
  }
  if (!e) return Status::NotFound(fmt::format("listener 'tcp:{}' not found", local_port));
  Close(std::move(e));
  return Status::Ok();
}

std::vector<std::unique_ptr<Forwards::Entry>> Forwards::TakeAll(const std::string& serial) {
  std::vector<std::unique_ptr<Entry>> gone;
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (serial.empty() || it->second->serial == serial) {
      gone.push_back(std::move(it->second));
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  return gone;
}

void Forwards::RemoveAll(const std::string& serial) {
  for (auto& e : TakeAll(serial)) Close(std::move(e));
}

void Forwards::DropAll(const std::string& serial) {
  for (auto& e : TakeAll(serial)) Close(std::move(e), false);
}

std::string Forwards::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& [local, e] : entries_)
    out += fmt::format("{} tcp:{} tcp:{}\n", e->serial, local, e->remote);
  return out;
}

}  // namespace roam::serve
