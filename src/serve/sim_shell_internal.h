// sim_shell_internal: what the sim_shell*.cc files share and nobody else should use: the Io
// of a running command, the device's constants and two small text helpers. Not thread-safe on
// its own; every SimAndroidDevice member that uses it runs under the device's mutex.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "serve/sim_shell.h"

namespace roam::serve {

struct SimAndroidDevice::Io {
  std::string out;
  std::string err;
  int status = 0;
  bool exited = false;
  bool stream_log = false;
  uint64_t log_cursor = 0;
  LogFilter log_filter;
  bool instrumentation = false;
};

namespace internal {

inline constexpr int kMaxDepth = 8;
inline constexpr int kSystemPid = 531;
inline constexpr int kTapSlopPx = 8;
inline constexpr int kLongPressMs = 500;
inline constexpr int64_t kMsPerCommand = 9;
inline constexpr int64_t kMsPerEvent = 180;

inline bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
// Splits at runs of whitespace (sh field splitting with the default IFS).
std::vector<std::string> SplitFields(const std::string& s);

}  // namespace internal

}  // namespace roam::serve
