// Text from outside (device dumps, logcat, harness files, typed strings) is made valid UTF-8
// where it enters our code: each ill-formed sequence becomes U+FFFD, as the Unicode standard
// recommends ("maximal subparts"), so JSON writers and every later step see valid text. Lone
// surrogates (from character references such as &#55357;) are ill-formed UTF-8 and are
// replaced too. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace roam {

// Appends code point `cp` (below 0x110000) as UTF-8: 1 to 4 bytes.
void AppendUtf8(std::string& out, uint32_t cp);
// Whether `text` is well-formed UTF-8 (fast for ASCII).
bool IsValidUtf8(std::string_view text);
// `text` with every ill-formed sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view text);
// In place; leaves `text` untouched (and allocates nothing) when it is already valid.
void MakeValidUtf8(std::string& text);
// `text` with its ASCII letters lowercased; every other byte (those of UTF-8 sequences: Weiter
// -> weiter, Далее stays Далее) as it was.
std::string AsciiLower(std::string_view text);
// `text` without the spaces, tabs, carriage returns and line feeds at either end.
std::string_view TrimSpace(std::string_view text);

}  // namespace roam
