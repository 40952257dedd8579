// base/regex: std::regex from text a user or an app wrote (a spec's field pattern, a served
// shell's grep), refused when libstdc++ would misbehave on it rather than only when it is
// malformed: a repetition count past kMaxRegexRepeat overflows the compiler's int (undefined
// behaviour, found by tests/fuzzers/shell_fuzzer), and a pattern past kMaxRegexLength can
// exhaust the stack of its recursive compiler and matcher. Stateless.
#pragma once

#include <regex>
#include <string>

#include "base/status.h"

namespace roam {

inline constexpr int kMaxRegexRepeat = 1000;
inline constexpr size_t kMaxRegexLength = 1000;

// The compiled `pattern`, or InvalidArgument saying why not ("repetition count 88888880000 is
// more than 1000", or the library's own message).
Result<std::regex> MakeRegex(const std::string& pattern, std::regex::flag_type flags);

}  // namespace roam
