#include "base/regex.h"

#include <cctype>

namespace roam {

Result<std::regex> MakeRegex(const std::string& pattern, std::regex::flag_type flags) {
  if (pattern.size() > kMaxRegexLength)
    return Status::InvalidArgument("pattern of " + std::to_string(pattern.size()) +
                                   " characters is longer than " + std::to_string(kMaxRegexLength));
  // Every run of digits after an unescaped '{' or ',' inside braces is a repetition count (or
  // literal text, which the check then refuses too: a harmless overreach).
  bool escaped = false, in_braces = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c == '\\') {
      escaped = true;
    } else if (c == '{') {
      in_braces = true;
    } else if (c == '}') {
      in_braces = false;
    } else if (in_braces && std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[end]))) ++end;
      const std::string digits = pattern.substr(i, end - i);
      if (digits.size() > 4 || std::stoi(digits) > kMaxRegexRepeat)
        return Status::InvalidArgument("repetition count " + digits + " is more than " +
                                       std::to_string(kMaxRegexRepeat));
      i = end - 1;
    }
  }
  try {
    return std::regex(pattern, flags);
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument(e.what());
  }
}

}  // namespace roam
