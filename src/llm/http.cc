// The chat-completions client over HTTP with libcurl: POST {url}/chat/completions with a JSON
// body, the key (when its variable is set) as a Bearer token, one timeout for the whole request,
// retries with doubling backoff on 429, 5xx and transport faults (a server's Retry-After
// honoured up to a cap), a cap on the answer's size, the stop flag polled while waiting, and a
// request cap.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include <curl/curl.h>
#include <fmt/format.h>

#include "base/json_fields.h"
#include "llm/chat.h"

namespace roam::llm {

namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Response {
  long status = 0;
  std::string body;
  std::string fault;                  // a transport fault (curl's words); empty when answered
  std::optional<double> retry_after;  // seconds, from a Retry-After header
  bool too_large = false;             // the body passed kMaxAnswerBytes: the transfer was cut
  const std::atomic<bool>* stop = nullptr;
};

size_t Append(char* data, size_t size, size_t count, void* out) {
  auto* r = static_cast<Response*>(out);
  if (r->body.size() + size * count > kMaxAnswerBytes) {
    r->too_large = true;
    return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
  }
  r->body.append(data, size * count);
  return size * count;
}

// "Retry-After: 30" (seconds; the HTTP-date form is rare from these servers and is ignored).
size_t Header(char* data, size_t size, size_t count, void* out) {
  std::string_view line(data, size * count);
  constexpr std::string_view kName = "retry-after:";
  if (line.size() > kName.size() &&
      std::equal(kName.begin(), kName.end(), line.begin(),
                 [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); })) {
    std::string value(line.substr(kName.size()));
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    if (end != value.c_str() && std::isfinite(seconds) && seconds >= 0)
      static_cast<Response*>(out)->retry_after = seconds;
  }
  return size * count;
}

bool Stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

// Ends a transfer when the stop flag is set.
int Progress(void* r, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return Stopped(static_cast<Response*>(r)->stop) ? 1 : 0;
}

// Sleeps `seconds`, waking every 100 ms to see whether the stop flag was set; false if it was.
bool Wait(double seconds, const std::atomic<bool>* stop) {
  using std::chrono::steady_clock;
  const auto until = steady_clock::now() + std::chrono::duration_cast<steady_clock::duration>(
                                               std::chrono::duration<double>(seconds));
  while (!Stopped(stop)) {
    const steady_clock::duration left = until - steady_clock::now();
    if (left <= steady_clock::duration::zero()) return true;
    std::this_thread::sleep_for(
        std::min<steady_clock::duration>(left, std::chrono::milliseconds(100)));
  }
  return false;
}

class Http final : public Client {
 public:
  explicit Http(ClientOptions options) : options_(std::move(options)) {
    while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
    endpoint_ = options_.url + "/chat/completions";
    if (!options_.key_env.empty())
      if (const char* key = std::getenv(options_.key_env.c_str()); key && *key) key_ = key;
  }

  Result<Answer> Complete(const std::vector<Message>& messages) override {
    if (options_.max_requests > 0 && counters_.requests >= options_.max_requests)
      return Status::InvalidArgument(fmt::format(
          "the request cap of {} is reached (--llm-max-requests)", options_.max_requests));
    ++counters_.requests;
    const std::string body = RequestBody(options_, messages).dump();
    double wait = options_.backoff_seconds;
    for (int attempt = 0;; ++attempt) {
      Response r = Post(body);
      if (r.too_large || (!r.fault.empty() && Stopped(options_.stop))) {  // not worth a retry
        ++counters_.failures;
        if (!r.too_large) return Status::Aborted(fmt::format("POST {}: stopped", endpoint_));
        return Finish(r);
      }
      const bool again = !r.fault.empty() || r.status == 429 || r.status >= 500;
      if (!again || attempt >= options_.retries) {
        auto answer = Finish(r);
        if (!answer.ok()) {
          ++counters_.failures;
        } else {
          counters_.usage.prompt_tokens += answer->usage.prompt_tokens;
          counters_.usage.completion_tokens += answer->usage.completion_tokens;
        }
        return answer;
      }
      ++counters_.retries;
      const double pause =
          r.retry_after ? std::min(*r.retry_after, options_.max_retry_after_seconds) : wait;
      if (!Wait(pause, options_.stop)) {
        ++counters_.failures;
        return Status::Aborted(fmt::format("POST {}: stopped while waiting to retry", endpoint_));
      }
      wait *= 2;
    }
  }

  Status Check() override {
    GlobalInit();
    CURL* curl = curl_easy_init();
    if (!curl) return Status::Io("libcurl could not start a request");
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, endpoint_.c_str());
    curl_easy_setopt(curl, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(
        curl, CURLOPT_CONNECTTIMEOUT_MS,
        std::max(1L, static_cast<long>(std::min(options_.timeout_seconds, 10.0) * 1000)));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    CURLcode code = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    if (code == CURLE_OK) return Status::Ok();
    return Status::Unavailable(fmt::format("the model at {} cannot be reached: {}", options_.url,
                                           error[0] ? error : curl_easy_strerror(code)));
  }

 private:
  Response Post(const std::string& body) {
    GlobalInit();
    Response r;
    r.stop = options_.stop;
    CURL* curl = curl_easy_init();
    if (!curl) {
      r.fault = "libcurl could not start a request";
      return r;
    }
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    // No "Expect: 100-continue" for large bodies (images): not every server answers it, and
    // curl would wait a second for each request.
    headers = curl_slist_append(headers, "Expect:");
    std::string auth;
    if (!key_.empty()) {
      auth = "Authorization: Bearer " + key_;
      headers = curl_slist_append(headers, auth.c_str());
    }
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, endpoint_.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, Header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, Progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &r);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                     std::max(1L, std::lround(options_.timeout_seconds * 1000)));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    CURLcode code = curl_easy_perform(curl);
    if (r.too_large) {
      r.fault =
          fmt::format("the answer passed {} bytes, more than an answer may hold", kMaxAnswerBytes);
    } else if (code == CURLE_ABORTED_BY_CALLBACK) {
      r.fault = "stopped";
    } else if (code != CURLE_OK) {
      r.fault = error[0] ? error : curl_easy_strerror(code);
    } else {
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return r;
  }

  Result<Answer> Finish(const Response& r) const {
    if (!r.fault.empty()) return Status::Io(fmt::format("POST {}: {}", endpoint_, r.fault));
    if (r.status != 200) {
      auto parsed = ParseResponse(r.body);  // servers explain errors in the body
      std::string what =
          fmt::format("POST {}: HTTP {}: {}", endpoint_, r.status,
                      parsed.ok() ? Excerpt(r.body, 160) : parsed.status().message());
      // A server that refuses every request alike (a wrong key, URL or model, no such method):
      // Unavailable, which ends a run; any other status may be this request's alone.
      if (r.status == 401 || r.status == 403 || r.status == 404 || r.status == 405 ||
          r.status == 501)
        return Status::Unavailable(std::move(what));
      return Status::Io(std::move(what));
    }
    auto answer = ParseResponse(r.body);
    if (!answer.ok()) return answer.status().Wrap(fmt::format("POST {}", endpoint_));
    return answer;
  }

  ClientOptions options_;
  std::string endpoint_;
  std::string key_;  // from options_.key_env; never logged
};

}  // namespace

Result<std::unique_ptr<Client>> HttpClient(const ClientOptions& options) {
  if (options.url.rfind("http://", 0) != 0 && options.url.rfind("https://", 0) != 0)
    return Status::InvalidArgument(fmt::format(
        "--llm-url \"{}\": give the API's base URL, e.g. http://127.0.0.1:11434/v1", options.url));
  if (options.model.empty())
    return Status::InvalidArgument("--llm-model: name the model the server runs");
  // Checked as "not inside" so a NaN is refused too.
  if (!(options.timeout_seconds >= kMinTimeoutSeconds &&
        options.timeout_seconds <= kMaxTimeoutSeconds))
    return Status::InvalidArgument(
        fmt::format("--llm-timeout {}: give seconds from {} (a millisecond) to {} (a day)",
                    options.timeout_seconds, kMinTimeoutSeconds, kMaxTimeoutSeconds));
  if (options.retries < 0 || !(options.backoff_seconds >= 0 && options.backoff_seconds <= 3600) ||
      !(options.max_retry_after_seconds >= 0 && options.max_retry_after_seconds <= 3600))
    return Status::InvalidArgument(
        "retries, backoff and the Retry-After cap must not be negative (backoff and cap at most "
        "an hour)");
  return std::unique_ptr<Client>(new Http(options));
}

}  // namespace roam::llm
