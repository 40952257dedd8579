// HttpClient: a small HTTP/1.1 client (libcurl, http_client.cc the one TU of this layer that
// includes it) for a server on the other end of an adb forward: Appium's UiAutomator2 server.
// One connection is kept alive between requests, so a step costs no new connection through the
// adb server. Each request has one timeout for the whole exchange; an answer larger than
// kMaxReplyBytes is cut and refused. Not thread-safe: one thread uses a client.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace roam::device::android {

struct HttpReply {
  long status = 0;  // the HTTP status code
  std::string body;
};

class HttpClient {
 public:
  static constexpr size_t kMaxReplyBytes = 64u << 20;  // a page source or a screenshot fits

  // base: "http://127.0.0.1:PORT" (no trailing slash); paths are appended to it.
  HttpClient(std::string base, int timeout_ms);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Unavailable("GET http://...: <curl's words>") when no answer came (refused, reset,
  // timed out); any answer, whatever its status, is a reply.
  Result<HttpReply> Get(std::string_view path) { return Send("GET", path, {}); }
  Result<HttpReply> Post(std::string_view path, std::string_view json) {
    return Send("POST", path, json);
  }
  Result<HttpReply> Delete(std::string_view path) { return Send("DELETE", path, {}); }
  void set_timeout_ms(int timeout_ms) { timeout_ms_ = timeout_ms; }
  const std::string& base() const { return base_; }

 private:
  Result<HttpReply> Send(const char* method, std::string_view path, std::string_view body);

  std::string base_;
  int timeout_ms_;
  struct Handle;
  std::unique_ptr<Handle> handle_;
};

}  // namespace roam::device::android
