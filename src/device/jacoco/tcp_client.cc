#include "device/jacoco/tcp_client.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace roam::device::jacoco {

namespace {

constexpr size_t kQuotedBytes = 24;  // of a foreign answer, in the error
constexpr size_t kReadChunk = 64 * 1024;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int LeftMs(int64_t deadline_ms) {
  return static_cast<int>(std::clamp<int64_t>(deadline_ms - NowMs(), 0, INT32_MAX));
}

// `bytes` as a quoted C-like string: "HTTP/1.1 400 Bad\r\n".
std::string Quote(std::string_view bytes) {
  std::string out = "\"";
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u >= 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

TcpDumper::TcpDumper(std::string host, int port, int timeout_ms, size_t max_answer_bytes)
    : host_(std::move(host)),
      port_(port),
      where_(fmt::format("{}:{}", host_, port)),
      timeout_ms_(timeout_ms),
      max_answer_bytes_(max_answer_bytes) {}

void TcpDumper::Close() {
  socket_.Close();
  reader_.reset();
  first_bytes_.clear();
}

Status TcpDumper::Connect(int timeout_ms) {
  Close();
  Result<android::Socket> s = android::Socket::Connect(host_, port_, std::max(timeout_ms, 1));
  if (!s.ok()) {
    // Socket says "connect host:port: <reason>"; the prefix already names host:port.
    std::string reason = s.status().message();
    const std::string own = "connect " + where_ + ": ";
    if (reason.starts_with(own)) reason = reason.substr(own.size());
    return Status::Unavailable(
        fmt::format("{}cannot connect: {} (is the app running under the agent with "
                    "output=tcpserver, and the port forwarded?)",
                    Prefix(), reason));
  }
  socket_ = std::move(*s);
  reader_.emplace(/*stop_at_cmd_ok=*/true);
  ++connects_;
  return Status::Ok();
}

Status TcpDumper::Take(std::string_view bytes, size_t& received) {
  received += bytes.size();
  if (first_bytes_.size() < kQuotedBytes) {
    first_bytes_.append(bytes.substr(0, kQuotedBytes - first_bytes_.size()));
  }
  if (received > max_answer_bytes_) {
    return Status::Corruption(
        fmt::format("{}more than {} bytes without the end of the answer (the command-ok block)",
                    Prefix(), max_answer_bytes_));
  }
  Status s = reader_->Feed(bytes);
  if (s.code() == Status::Code::kInvalidArgument) {
    return s.Wrap(fmt::format("{}the answer is not JaCoCo exec data (it starts {})", Prefix(),
                              Quote(first_bytes_)));
  }
  return s.Wrap(Prefix() + "the answer");
}

Status TcpDumper::KeepUnasked() {
  ROAM_RETURN_IF_ERROR(
      unasked_.Merge(reader_->TakeStore()).Wrap(Prefix() + "an answer sent unasked"));
  return reader_->Feed({}).Wrap(Prefix() + "the answer");
}

Status TcpDumper::ReadUnasked(int64_t greeting_deadline_ms, bool* closed) {
  *closed = false;
  size_t received = 0;
  std::string buf(kReadChunk, '\0');
  std::string_view bytes;  // first none: the reader reads what came after the last answer
  while (true) {
    ROAM_RETURN_IF_ERROR(Take(bytes, received));
    while (reader_->answered()) ROAM_RETURN_IF_ERROR(KeepUnasked());
    const int wait = first_bytes_.empty() ? LeftMs(greeting_deadline_ms) : 0;
    if (!socket_.WaitReadable(wait)) return Status::Ok();
    Result<size_t> n = socket_.ReadSome(buf.data(), buf.size());
    if (!n.ok() || *n == 0) {
      *closed = true;
      return Status::Ok();
    }
    bytes = std::string_view(buf.data(), *n);
  }
}

Result<ExecStore> TcpDumper::Exchange(bool reset, int64_t deadline_ms, bool* nothing_came) {
  *nothing_came = false;
  bool closed = false;
  ROAM_RETURN_IF_ERROR(ReadUnasked(std::min(deadline_ms, NowMs() + kGreetingWaitMs), &closed));
  // An unasked answer under way ends first: its command ok is not the dump's.
  int skip = reader_->mid_answer() ? 1 : 0;
  Status sent =
      closed ? Status::Io("the connection was closed") : socket_.WriteAll(DumpCommand(true, reset));
  if (!sent.ok()) {
    *nothing_came = true;
    return Status::Unavailable(
        fmt::format("{}{} before the dump command (the app stopped, or nothing listens behind "
                    "an adb forward)",
                    Prefix(), sent.message()));
  }
  size_t received = 0;
  std::string buf(kReadChunk, '\0');
  while (!reader_->answered() || skip > 0) {
    if (reader_->answered()) {
      ROAM_RETURN_IF_ERROR(KeepUnasked());
      --skip;
      continue;
    }
    const int left = LeftMs(deadline_ms);
    if (left == 0 || !socket_.WaitReadable(left)) {
      return Status::Unavailable(fmt::format(
          "{}no answer within {} ms ({} bytes of it came; a JaCoCo agent answers at once: is "
          "this the agent's port?)",
          Prefix(), timeout_ms_, received));
    }
    Result<size_t> n = socket_.ReadSome(buf.data(), buf.size());
    if (!n.ok() || *n == 0) {
      const std::string why = n.ok() ? "the connection was closed" : n.status().message();
      if (received == 0) {
        *nothing_came = true;
        return Status::Unavailable(
            fmt::format("{}{} before any answer (the app stopped, or nothing listens behind "
                        "an adb forward)",
                        Prefix(), why));
      }
      return Status::Io(
          fmt::format("{}{} mid-answer, after {} bytes of it", Prefix(), why, received));
    }
    ROAM_RETURN_IF_ERROR(Take(std::string_view(buf.data(), *n), received));
  }
  ExecStore answer = reader_->TakeStore();
  if (unasked_.size() > 0 || !unasked_.sessions().empty()) {
    ExecStore earlier = std::move(unasked_);
    unasked_.Clear();
    ROAM_RETURN_IF_ERROR(earlier.Merge(answer).Wrap(Prefix() + "the answer"));
    answer = std::move(earlier);
  }
  return answer;
}

Result<ExecStore> TcpDumper::DumpStore(bool reset) {
  const int64_t deadline_ms = NowMs() + timeout_ms_;
  const bool fresh = !connected();
  if (fresh) ROAM_RETURN_IF_ERROR(Connect(timeout_ms_));
  bool nothing_came = false;
  Result<ExecStore> answer = Exchange(reset, deadline_ms, &nothing_came);
  if (!answer.ok() && !fresh && nothing_came) {
    // The agent this connection reached is gone (an app restart): once more, to the new one.
    std::string first = answer.status().message();
    if (first.starts_with(Prefix())) first = first.substr(Prefix().size());
    if (Status s = Connect(LeftMs(deadline_ms)); !s.ok()) {
      Close();
      return Status::Unavailable(
          fmt::format("{} (connecting again after: {})", s.message(), first));
    }
    answer = Exchange(reset, deadline_ms, &nothing_came);
  }
  if (!answer.ok()) Close();
  return answer;
}

Result<ExecData> TcpDumper::Dump(bool reset) {
  Result<ExecStore> answer = DumpStore(reset);
  if (!answer.ok()) return answer.status();
  return answer->ToExecData();
}

Result<ExecData> DumpOverTcp(const std::string& host, int port, bool reset, int timeout_ms) {
  TcpDumper dumper(host, port, timeout_ms);
  return dumper.Dump(reset);
}

}  // namespace roam::device::jacoco
