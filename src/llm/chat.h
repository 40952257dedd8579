// llm/: the model behind an API users already run. An OpenAI-compatible chat-completions client
// (text and PNG images as base64 data URLs), so one set of flags serves Ollama, llama.cpp's
// server, vLLM and hosted services; a recorder that writes every request and answer to the run
// folder's llm.jsonl (images by hash, each stored once beside it, the key never); and a replayer
// that answers from such a log, deterministic, so a run can be audited and re-run offline and a
// test can use a recorded session. The HTTP transport (libcurl) is in http.cc, the only
// translation unit that includes curl. Clients are single-threaded.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam::llm {

struct Message {
  std::string role;  // "system", "user", "assistant"
  std::string text;
  std::vector<std::string> images;  // PNG files' bytes, sent after the text
};

struct Usage {
  int64_t prompt_tokens = 0, completion_tokens = 0;
};

struct Answer {
  std::string content;
  Usage usage;
};

struct ClientOptions {
  std::string url;    // the API's base, e.g. http://127.0.0.1:11434/v1 (Ollama)
  std::string model;  // e.g. "llava"
  std::string key_env = "OPENAI_API_KEY";  // the variable holding the key; unset: no key sent
  double timeout_seconds = 120;            // one request, connection included; 1 ms to a day
  int retries = 3;                         // after a 429, a 5xx or a transport fault
  double backoff_seconds = 1;              // before the first retry; doubled each time
  // A server's Retry-After (seconds) is waited instead of the backoff, up to this long.
  double max_retry_after_seconds = 60;
  // Set (by SIGINT or SIGTERM): a request or a wait before a retry ends within 100 ms with an
  // Aborted error. Borrowed; null: never.
  const std::atomic<bool>* stop = nullptr;
  int64_t max_requests = 0;  // 0: no cap
  double temperature = 0;
};

// What a client has done so far.
struct Counters {
  int64_t requests = 0;  // answered or failed, retries not counted
  int64_t retries = 0;
  int64_t failures = 0;
  Usage usage;
};

class Client {
 public:
  virtual ~Client() = default;
  // The model's answer to `messages`; an error after the retries are spent, when the request cap
  // is reached, or when the answer is not a chat completion.
  virtual Result<Answer> Complete(const std::vector<Message>& messages) = 0;
  // Whether the model can be reached at all, asked once before a run starts (HTTP: a connection
  // to the server; a log: always). The error names the URL and the fault.
  virtual Status Check() { return Status::Ok(); }
  const Counters& counters() const { return counters_; }

 protected:
  Counters counters_;
};

// An answer (an HTTP body) longer than this is refused: a model's reply is text a few kilobytes
// long, and the log keeps each one.
constexpr size_t kMaxAnswerBytes = 4 << 20;
// The timeout's bounds: below a millisecond libcurl reads it as "none", above a day it is a typo.
constexpr double kMinTimeoutSeconds = 0.001, kMaxTimeoutSeconds = 86400;

// A stable 64-bit hash of bytes as 16 hex digits (FNV-1a): images are named by it in the log.
std::string ContentHash(std::string_view bytes);

// The body of POST {url}/chat/completions.
nlohmann::json RequestBody(const ClientOptions& options, const std::vector<Message>& messages);
// The content and usage of a chat-completions response body; errors name what is missing, or
// carry the server's own error message.
Result<Answer> ParseResponse(std::string_view body);

// The HTTP client (http.cc). Options are checked here: a missing URL or model is an error.
Result<std::unique_ptr<Client>> HttpClient(const ClientOptions& options);

// Passes requests to `inner` and appends each request and its answer (or error) as one line of
// `log` (llm.jsonl), flushed as written; images go once to images/<hash>.png beside the log.
// Neither the key nor its variable's value is written. `inner` must outlive the recorder.
class Recorder final : public Client {
 public:
  static Result<std::unique_ptr<Recorder>> Open(Client& inner, const std::filesystem::path& log,
                                                std::string model);
  Result<Answer> Complete(const std::vector<Message>& messages) override;
  Status Check() override { return inner_.Check(); }

 private:
  Recorder(Client& inner, std::filesystem::path log, std::string model)
      : inner_(inner), log_(std::move(log)), model_(std::move(model)) {}
  Client& inner_;
  std::filesystem::path log_;
  std::string model_;
  int64_t line_ = 0;
};

// Answers from a recorded llm.jsonl, in order. A request that differs from the recorded one (by
// its hash: the same texts and images) is an error naming the line, as is running past the end.
Result<std::unique_ptr<Client>> ReplayClient(const std::filesystem::path& log);

// Answers from a recorded llm.jsonl by the request's hash, in any order: a request recorded
// anywhere in the log gets its answer; one never recorded is an error (NotFound) saying so.
// `roam replay` asks a bug's Detector again this way.
Result<std::unique_ptr<Client>> LookupClient(const std::filesystem::path& log);

}  // namespace roam::llm
