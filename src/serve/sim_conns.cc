#include "serve/sim_conns.h"

#include <chrono>
#include <exception>
#include <system_error>
#include <vector>

namespace roam::serve {

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

constexpr int kRoomPollMs = 5;

}  // namespace

void PooledConn::SetWaiting(bool waiting) {
  if (waiting) waiting_since_ms_ = NowMs();
  waiting_ = waiting;
}

bool ConnPool::Add(device::android::Socket socket, Serve serve, const Refuse& refuse,
                   std::string tag) {
  std::unique_lock<std::mutex> lock(mu_);
  ReapLocked();
  auto refused = [&](const std::string& why) {
    if (refuse) refuse(socket, why);
    return false;  // `socket` closes on the way out
  };
  if (!MakeRoom(lock)) return refused("too many connections");
  auto conn = std::make_shared<PooledConn>();
  conn->sock_ = std::move(socket);
  conn->waiting_since_ms_ = NowMs();
  conn->tag_ = std::move(tag);
  PooledConn* raw = conn.get();
  try {
    raw->thread_ = std::thread([this, raw, serve = std::move(serve)] {
      try {
        serve(*raw);
      } catch (const std::exception&) {  // out of memory, say: this client is dropped, not all
      }
      std::lock_guard<std::mutex> l(mu_);
      raw->sock_.Close();  // under mu_: Shutdown never touches a descriptor number reused since
      raw->done_ = true;
    });
  } catch (const std::system_error&) {  // no thread to be had (memory, a process limit)
    socket = std::move(conn->sock_);
    return refused("cannot serve another connection now");
  }
  conns_.push_back(std::move(conn));
  return true;
}

bool ConnPool::MakeRoom(std::unique_lock<std::mutex>& lock) {
  // A connection closed to make room keeps its place until the one who closed it takes it:
  // another accept thread must not take the place it freed.
  auto open = [this] {
    size_t n = 0;
    for (const auto& c : conns_) n += c->done_ && !c->closing_ ? 0 : 1;
    return n;
  };
  if (open() < static_cast<size_t>(max_)) return true;
  std::shared_ptr<PooledConn> idlest;
  for (const auto& c : conns_)
    if (!c->done_ && !c->closing_ && c->waiting_ &&
        (!idlest || c->waiting_since_ms_ < idlest->waiting_since_ms_))
      idlest = c;
  if (!idlest) return false;  // every connection is busy: a stream or a command
  idlest->closing_ = true;
  idlest->sock_.Shutdown();  // its read fails, its thread ends
  lock.unlock();
  for (int waited = 0; !idlest->done_ && waited < kMakeRoomWaitMs; waited += kRoomPollMs)
    std::this_thread::sleep_for(std::chrono::milliseconds(kRoomPollMs));
  lock.lock();
  idlest->closing_ = false;  // its place is ours now
  ReapLocked();
  return open() < static_cast<size_t>(max_);
}

void ConnPool::ReapLocked() {
  for (auto it = conns_.begin(); it != conns_.end();) {
    if ((*it)->done_ && !(*it)->closing_) {
      if ((*it)->thread_.joinable()) (*it)->thread_.join();
      it = conns_.erase(it);
    } else {
      ++it;
    }
  }
}

void ConnPool::Tag(PooledConn& conn, std::string tag) {
  std::lock_guard<std::mutex> lock(mu_);
  conn.tag_ = std::move(tag);
}

void ConnPool::Shutdown(const std::string& tag) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& c : conns_)
    if (!c->done_ && (tag.empty() || c->tag_ == tag)) c->sock_.Shutdown();
}

void ConnPool::Close(const std::string& tag) {
  std::vector<std::shared_ptr<PooledConn>> closing;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& c : conns_)
      if (!c->done_ && c->tag_ == tag) {
        c->sock_.Shutdown();
        closing.push_back(c);
      }
  }
  // Another thread may be reaping (joining) them: wait for the flag, not the thread.
  for (auto& c : closing)
    while (!c->done_) std::this_thread::sleep_for(std::chrono::milliseconds(kRoomPollMs));
}

void ConnPool::CloseAll() {
  std::list<std::shared_ptr<PooledConn>> conns;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& c : conns_)
      if (!c->done_) c->sock_.Shutdown();
    conns.swap(conns_);
  }
  for (auto& c : conns)
    if (c->thread_.joinable()) c->thread_.join();
}

size_t ConnPool::Open() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& c : conns_) n += c->done_ ? 0 : 1;
  return n;
}

}  // namespace roam::serve
