#include "device/android/shell_escape.h"

namespace roam::device::android {

std::string ShellQuote(std::string_view arg) {
  std::string out;
  out.reserve(arg.size() + 2);
  out += '\'';
  for (char c : arg) {
    if (c == '\0') continue;
    if (c == '\'') {
      out += "'\\''";  // close the quote, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

namespace {

constexpr std::string_view kEnterKey = "input keyevent 66";

// Adds `input text 'chunk'` for a non-empty chunk (already restricted to printable ASCII).
void FlushChunk(std::string& chunk, std::vector<std::string>& commands) {
  if (chunk.empty()) return;
  commands.push_back("input text " + ShellQuote(chunk));
  chunk.clear();
}

}  // namespace

InputTextPlan PlanInputText(std::string_view text) {
  InputTextPlan plan;
  std::string chunk;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      // One dropped code point: the lead byte and its continuation bytes.
      ++plan.dropped;
      while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) ++i;
      continue;
    }
    if (c == '\n') {
      FlushChunk(chunk, plan.commands);
      plan.commands.emplace_back(kEnterKey);
      continue;
    }
    if (c == '\r') continue;  // "\r\n" is one newline
    if (chunk.size() >= kMaxInputChunk) FlushChunk(chunk, plan.commands);
    if (c == ' ' || c == '\t') {
      chunk += "%s";
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      ++plan.dropped;
      continue;
    }
    if (c == 's' && !chunk.empty() && chunk.back() == '%') {
      // A literal "%s" would type a space: end the chunk after the '%'. (A "%s" written for a
      // space is emitted whole, so a chunk ending in '%' ends in a literal '%'.)
      FlushChunk(chunk, plan.commands);
    }
    chunk += static_cast<char>(c);
  }
  FlushChunk(chunk, plan.commands);
  for (const auto& c : plan.commands) plan.command += (plan.command.empty() ? "" : ";") + c;
  return plan;
}

}  // namespace roam::device::android
