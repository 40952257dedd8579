// sim_http: the HTTP/1.1 side of a served device port (the UiAutomator2 server's API, say): reads
// requests from one connection (request line, headers, a Content-Length body; keep-alive, as
// the real server's Netty pipeline keeps it), hands each to a route function and writes its
// answer. A request it cannot read gets 400 and the connection is closed. Plain functions:
// thread-safe as the route function is.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "device/android/adb_protocol.h"
#include "serve/sim_conns.h"

namespace roam::serve {

struct HttpRequest {
  std::string method;  // "GET", "POST", "DELETE"
  std::string path;    // without the query string
  std::string body;
};

struct HttpResponse {
  int status = 200;  // 0: close the connection without an answer (a server that died)
  std::string body;
  std::string content_type = "application/json; charset=utf-8";
  int delay_ms = 0;  // how long the answer takes to come (a device paced as a phone)
};

using HttpRoutes = std::function<HttpResponse(const HttpRequest&)>;

// The largest request head and body read (a page's worth of typed text is far less).
inline constexpr size_t kMaxHttpRequestBytes = 4u << 20;

// Serves requests on `conn` until the peer closes, `stop` is set, or a request cannot be read;
// the connection is waiting (may be closed to make room) only between requests.
void ServeHttp(PooledConn& conn, const std::atomic<bool>& stop, const HttpRoutes& routes);

// Sleeps `ms` in steps of 50 ms, returning early once `stop` is set: what a paced answer waits.
void SleepUnlessStopped(int64_t ms, const std::atomic<bool>& stop);

// "HTTP/1.1 200 OK\r\nContent-Type: ...\r\nContent-Length: N\r\n\r\nBODY".
std::string HttpResponseText(const HttpResponse& response);

}  // namespace roam::serve
