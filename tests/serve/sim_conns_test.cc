// The connections a served port holds (serve/sim_conns.h) and the forwards that share them
// (serve/sim_ports.h): issue 60, row 3. Every forwarded connection had a thread of its own with
// no cap (595 idle connections left 409 threads; at a memory limit the server aborted on
// std::system_error), and the adb port's cap of 64 did not hold under a fast flood.
#include "serve/sim_conns.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "serve/sim_adb_server.h"
#include "serve/sim_ports.h"
#include "sim/sim_app.h"
#include "test_paths.h"

namespace roam::serve {
namespace {

using device::android::Listener;
using device::android::Socket;

// A handler that holds its connection until the peer closes, counting how many run at once.
struct Holder {
  std::atomic<int> now{0}, most{0}, served{0};
  PortHandler Handler() {
    return [this](PooledConn& conn, const std::atomic<bool>& stop) {
      ++served;
      int n = ++now;
      for (int m = most; n > m && !most.compare_exchange_weak(m, n);) {
      }
      char c;
      while (!stop) {
        if (!conn.socket().WaitReadable(50)) continue;
        auto n = conn.socket().ReadSome(&c, 1);
        if (!n.ok() || *n == 0) break;  // the peer closed, or the pool shut the socket
      }
      --now;
    };
  }
};

bool Eventually(const std::function<bool()>& done) {
  for (int k = 0; k < 500; ++k) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(Forwards, EveryForwardSharesOneBoundedPool) {
  Holder holder;
  Forwards forwards([&](const std::string&, int) { return holder.Handler(); }, 4);
  auto a = forwards.Add("emulator-5554", 0, 6790, false);
  auto b = forwards.Add("emulator-5554", 0, 6300, false);
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<Socket> clients;
  for (int i = 0; i < 40; ++i) {
    auto s = Socket::Connect("127.0.0.1", i % 2 ? *a : *b, 2000);
    ASSERT_TRUE(s.ok()) << s.status().message();
    clients.push_back(std::move(*s));
  }
  // Each newcomer closes the connection idle longest: all 40 are served, 4 at a time at most.
  ASSERT_TRUE(Eventually([&] { return holder.served == 40; })) << holder.served;
  EXPECT_LE(holder.most, 4);
  EXPECT_LE(forwards.OpenConnections(), 4u);
  clients.clear();
  ASSERT_TRUE(Eventually([&] { return forwards.OpenConnections() == 0; }));
}

TEST(ConnPool, BusyConnectionsAreNotClosedAndANewcomerIsRefused) {
  ConnPool pool(2);
  std::atomic<bool> release{false};
  std::vector<Socket> clients;
  auto listener = Listener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(listener.ok());
  auto busy = [&](PooledConn& conn) {
    conn.SetWaiting(false);  // in the middle of a command
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  };
  std::string refused_why;
  for (int i = 0; i < 3; ++i) {
    auto c = Socket::Connect("127.0.0.1", listener->port(), 2000);
    ASSERT_TRUE(c.ok());
    clients.push_back(std::move(*c));
    auto s = listener->Accept(2000);
    ASSERT_TRUE(s.ok());
    // Marked busy from its first instruction, but the pool may look before: wait for it.
    if (i < 2) {
      EXPECT_TRUE(pool.Add(std::move(*s), busy));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } else {
      EXPECT_FALSE(pool.Add(std::move(*s), busy,
                            [&](Socket&, const std::string& why) { refused_why = why; }));
    }
  }
  EXPECT_EQ(refused_why, "too many connections");
  EXPECT_EQ(pool.Open(), 2u);
  release = true;
  pool.CloseAll();
  EXPECT_EQ(pool.Open(), 0u);
}

// The adb port under a flood: connections arrive faster than closed ones end; never more than
// the cap at once.
TEST(SimAdbServerFlood, TheCapHoldsUnderAFastFlood) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  SimAdbServer server(*spec, {.port = 0, .max_connections = 4});
  ASSERT_TRUE(server.Start().ok());
  std::atomic<bool> flooding{true};
  size_t most = 0;
  std::thread watch([&] {
    while (flooding) {
      most = std::max(most, server.OpenConnections());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<Socket> clients;
  for (int i = 0; i < 200; ++i) {
    auto s = Socket::Connect("127.0.0.1", server.port(), 2000);
    if (s.ok()) {
      (void)s->WriteAll("00");  // half a request: idle
      clients.push_back(std::move(*s));
    }
  }
  flooding = false;
  watch.join();
  EXPECT_LE(most, 4u);
  clients.clear();
  server.Stop();
}

// Out of file descriptors, accept() fails while the connection stays pending: the accept loop
// spun at 100% CPU. The pending connection is taken on a spare descriptor and closed.
TEST(ListenerOutOfDescriptors, APendingConnectionIsRefusedNotSpunOn) {
  auto listener = Listener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(listener.ok());
  auto client = Socket::Connect("127.0.0.1", listener->port(), 2000);
  ASSERT_TRUE(client.ok());
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
  rlimit low = old;
  low.rlim_cur = 256;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<int> fillers;
  for (int fd; fillers.size() < 256 && (fd = dup(0)) >= 0;) fillers.push_back(fd);
  auto first = listener->Accept(1000);
  auto second = listener->Accept(300);
  for (int fd : fillers) close(fd);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &old), 0);
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.status().message().find("too many open files"), std::string::npos)
      << first.status().message();
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("timed out"), std::string::npos)
      << second.status().message();
  char c;
  auto n = client->ReadSome(&c, 1);  // the refused client sees its connection closed
  EXPECT_TRUE(!n.ok() || *n == 0);
}

}  // namespace
}  // namespace roam::serve
