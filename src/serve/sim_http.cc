#include "serve/sim_http.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <thread>

#include <fmt/format.h>

namespace roam::serve {

namespace {

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Parses the head ("GET /path HTTP/1.1\r\nName: value\r\n..."): the request and its
// Content-Length; false when it is not HTTP/1.x.
bool ParseHead(std::string_view head, HttpRequest& req, size_t& length, bool& close) {
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return false;
  if (!line.substr(sp2 + 1).starts_with("HTTP/1.")) return false;
  req.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  req.path = std::string(target.substr(0, target.find('?')));
  if (req.method.empty() || req.path.empty() || req.path[0] != '/') return false;
  length = 0;
  close = line.substr(sp2 + 1) == "HTTP/1.0";
  while (eol != std::string_view::npos && eol + 2 < head.size()) {
    size_t next = head.find("\r\n", eol + 2);
    std::string_view h = head.substr(eol + 2, next - eol - 2);
    eol = next;
    size_t colon = h.find(':');
    if (colon == std::string_view::npos) return false;
    std::string name = Lower(h.substr(0, colon));
    std::string_view value = h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (name == "content-length") {
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || length > kMaxHttpRequestBytes) return false;
    } else if (name == "transfer-encoding") {
      return false;  // chunked requests: no client of this server sends them
    } else if (name == "connection") {
      close = Lower(value) == "close";
    }
  }
  return true;
}

}  // namespace

std::string HttpResponseText(const HttpResponse& r) {
  return fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\r\n{}", r.status,
                     Reason(r.status), r.content_type, r.body.size(), r.body);
}

void SleepUnlessStopped(int64_t ms, const std::atomic<bool>& stop) {
  for (int64_t left = ms; left > 0 && !stop; left -= 50)
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<int64_t>(left, 50)));
}

void ServeHttp(PooledConn& conn, const std::atomic<bool>& stop, const HttpRoutes& routes) {
  device::android::Socket& socket = conn.socket();
  std::string buf;
  char chunk[16 * 1024];
  while (!stop) {
    size_t end = buf.find("\r\n\r\n");
    conn.SetWaiting(buf.empty());
    while (end == std::string::npos) {
      if (buf.size() > kMaxHttpRequestBytes) return;
      if (!socket.WaitReadable(200)) {
        if (stop) return;
        continue;
      }
      auto n = socket.ReadSome(chunk, sizeof chunk);
      if (!n.ok() || *n == 0) return;
      buf.append(chunk, *n);
      end = buf.find("\r\n\r\n");
    }
    conn.SetWaiting(false);
    HttpRequest req;
    size_t length = 0;
    bool close = false;
    if (!ParseHead(std::string_view(buf).substr(0, end + 2), req, length, close)) {
      socket.WriteAll(HttpResponseText({.status = 400, .body = "{}"})).ok();
      return;
    }
    buf.erase(0, end + 4);
    while (buf.size() < length) {
      auto n = socket.ReadSome(chunk, sizeof chunk);
      if (!n.ok() || *n == 0) return;
      buf.append(chunk, *n);
    }
    req.body = buf.substr(0, length);
    buf.erase(0, length);
    HttpResponse response = routes(req);
    if (response.status == 0) return;  // the route says: drop the connection unanswered
    SleepUnlessStopped(response.delay_ms, stop);
    if (!socket.WriteAll(HttpResponseText(response)).ok() || close) return;
  }
}

}  // namespace roam::serve
