#include "device/android/http_client.h"

#include <mutex>

#include <curl/curl.h>
#include <fmt/format.h>

namespace roam::device::android {

namespace {

struct Sink {
  std::string body;
  bool too_large = false;
};

size_t Append(char* data, size_t size, size_t count, void* out) {
  auto* sink = static_cast<Sink*>(out);
  if (sink->body.size() + size * count > HttpClient::kMaxReplyBytes) {
    sink->too_large = true;
    return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
  }
  sink->body.append(data, size * count);
  return size * count;
}

}  // namespace

struct HttpClient::Handle {
  CURL* curl = nullptr;
  curl_slist* headers = nullptr;
  ~Handle() {
    if (headers) curl_slist_free_all(headers);
    if (curl) curl_easy_cleanup(curl);
  }
};

HttpClient::HttpClient(std::string base, int timeout_ms)
    : base_(std::move(base)), timeout_ms_(timeout_ms), handle_(std::make_unique<Handle>()) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  handle_->curl = curl_easy_init();
  handle_->headers = curl_slist_append(nullptr, "Content-Type: application/json; charset=utf-8");
  // No "Expect: 100-continue" round trip before a body.
  handle_->headers = curl_slist_append(handle_->headers, "Expect:");
}

HttpClient::~HttpClient() = default;

Result<HttpReply> HttpClient::Send(const char* method, std::string_view path,
                                   std::string_view body) {
  const std::string url = base_ + std::string(path);
  CURL* c = handle_->curl;
  if (c == nullptr) return Status::Unavailable("libcurl could not make a handle");
  Sink sink;
  const std::string payload(body);
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(c, CURLOPT_HTTPGET, 0L);
  if (std::string_view(method) == "POST") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
  } else {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, nullptr);
    curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, handle_->headers);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, Append);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms_));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms_));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http");
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*");  // a forward is on loopback: never through a proxy
  const CURLcode rc = curl_easy_perform(c);
  if (sink.too_large)
    return Status::Corruption(
        fmt::format("{} {}: the answer is larger than {} MiB", method, url, kMaxReplyBytes >> 20));
  if (rc != CURLE_OK)
    return Status::Unavailable(fmt::format("{} {}: {}", method, url, curl_easy_strerror(rc)));
  HttpReply reply;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  reply.body = std::move(sink.body);
  return reply;
}

}  // namespace roam::device::android
