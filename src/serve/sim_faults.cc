#include "serve/sim_faults.h"

#include <charconv>

#include <fmt/format.h>

namespace roam::serve {

namespace {

constexpr int64_t kMaxFaultValue = int64_t{1} << 40;  // ms (34 years) or requests

Status Bad(std::string_view item, std::string_view why) {
  return Status::InvalidArgument(fmt::format("--faults: '{}': {}", item, why));
}

// "30s", "1500ms", "2m", "40r".
Result<FaultTime> ParseTime(std::string_view item, std::string_view text) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  const std::string_view unit = text.substr(end - text.data());
  if (ec != std::errc() || end == text.data() || n < 0 || n > kMaxFaultValue)
    return Bad(item, fmt::format("'{}' is no time: a whole number and a unit (ms, s, m, r)", text));
  if (unit == "ms") return FaultTime{n, false};
  if (unit == "s") return FaultTime{n * 1000, false};
  if (unit == "m") return FaultTime{n * 60000, false};
  if (unit == "r") return FaultTime{n, true};
  return Bad(item,
             fmt::format("'{}' has no unit: ms, s, m (time from start) or r (requests)", text));
}

Result<Fault> ParseOne(std::string_view item) {
  Fault f;
  if (item.starts_with("source500=")) {
    f.kind = FaultKind::kSource500;
    std::string_view ratio = item.substr(10);
    const size_t slash = ratio.find('/');
    auto num = [](std::string_view s, int& out) {
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      return ec == std::errc() && end == s.data() + s.size() && !s.empty();
    };
    if (slash == std::string_view::npos || !num(ratio.substr(0, slash), f.fail) ||
        !num(ratio.substr(slash + 1), f.of) || f.of < 1 || f.fail < 1 || f.fail > f.of)
      return Bad(item, "source500=N/M: N of every M GET /source fail, 1 <= N <= M");
    return f;
  }
  const size_t at = item.find('@');
  if (at == std::string_view::npos)
    return Bad(item,
               "expected KIND@TIME (offline, reboot, adb-restart, uia2-kill) or "
               "source500=N/M");
  const std::string_view kind = item.substr(0, at);
  bool needs_span = false, may_span = false;
  if (kind == "offline") {
    f.kind = FaultKind::kOffline;
    needs_span = true;
  } else if (kind == "reboot") {
    f.kind = FaultKind::kReboot;
    needs_span = true;
  } else if (kind == "adb-restart") {
    f.kind = FaultKind::kAdbRestart;
    may_span = true;
    f.lasting = {kAdbRestartRefusalMs, false};
  } else if (kind == "uia2-kill") {
    f.kind = FaultKind::kUia2Kill;
  } else {
    return Bad(item, fmt::format("no fault '{}': offline, reboot, adb-restart, uia2-kill, "
                                 "source500",
                                 kind));
  }
  std::string_view when = item.substr(at + 1);
  const size_t plus = when.find('+');
  auto begin = ParseTime(item, when.substr(0, plus));
  if (!begin.ok()) return begin.status();
  f.at = *begin;
  if (plus == std::string_view::npos) {
    if (needs_span) return Bad(item, fmt::format("{}@TIME+DURATION: how long is missing", kind));
    return f;
  }
  if (!needs_span && !may_span) return Bad(item, fmt::format("{} has no duration", kind));
  auto span = ParseTime(item, when.substr(plus + 1));
  if (!span.ok()) return span.status();
  f.lasting = *span;
  return f;
}

}  // namespace

std::string_view FaultName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kOffline:
      return "offline";
    case FaultKind::kReboot:
      return "reboot";
    case FaultKind::kAdbRestart:
      return "adb-restart";
    case FaultKind::kUia2Kill:
      return "uia2-kill";
    case FaultKind::kSource500:
      return "source500";
  }
  return "?";
}

Result<std::vector<Fault>> ParseFaults(std::string_view spec) {
  std::vector<Fault> out;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string_view item =
        spec.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) {
      auto f = ParseOne(item);
      if (!f.ok()) return f.status();
      out.push_back(*f);
    }
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (out.empty())
    return Status::InvalidArgument("--faults: no fault in '" + std::string(spec) + "'");
  return out;
}

FaultClock::FaultClock(std::vector<Fault> faults)
    : faults_(std::move(faults)), states_(faults_.size()) {}

bool FaultClock::Reached(const FaultTime& t, int64_t from_ms, int64_t from_requests, int64_t ms,
                         int64_t requests) {
  return t.requests ? requests - from_requests >= t.value : ms - from_ms >= t.value;
}

std::vector<FaultClock::Event> FaultClock::Take(int64_t elapsed_ms, int64_t requests) {
  std::vector<Event> due;
  for (size_t k = 0; k < faults_.size(); ++k) {
    const Fault& f = faults_[k];
    State& s = states_[k];
    if (f.kind == FaultKind::kSource500 || s.ended) continue;
    if (!s.begun) {
      if (!Reached(f.at, 0, 0, elapsed_ms, requests)) continue;
      s.begun = true;
      s.begun_ms = elapsed_ms;
      s.begun_requests = requests;
      due.push_back({k, true});
      if (f.kind == FaultKind::kUia2Kill) {
        s.ended = true;  // a moment, not a span
        continue;
      }
    }
    if (Reached(f.lasting, s.begun_ms, s.begun_requests, elapsed_ms, requests)) {
      s.ended = true;
      due.push_back({k, false});
    }
  }
  return due;
}

}  // namespace roam::serve
