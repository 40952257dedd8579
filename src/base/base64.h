// RFC 4648 base64, both ways: PNGs in data URLs for a vision model, screenshots from the
// UiAutomator2 server. Plain functions: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace roam {

std::string Base64(std::string_view bytes);
// Padding optional; whitespace is skipped. InvalidArgument naming the offset of a character
// outside the alphabet.
Result<std::string> DecodeBase64(std::string_view text);

}  // namespace roam
