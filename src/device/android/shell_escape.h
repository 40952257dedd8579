// shell_escape: builds device shell command lines from untrusted text (labels and input text come
// from the app under test). Every argument is single-quoted so that the device's sh never
// interprets any of it: no expansion, no command substitution, no separators, no globbing.
// `input text` adds a rule of its own ("%s" types a space) and cannot type everything; the
// plan below says what it does with such characters. Plain functions: thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roam::device::android {

// 'text' for sh, with each ' written as '\'' : "it's" -> 'it'\''s'. NUL bytes are dropped (a
// command line cannot hold them); everything else, newlines and non-ASCII included, is kept.
std::string ShellQuote(std::string_view arg);

// The command line that types `text` with `input text`, and what could not be typed.
//   * spaces become %s (input text's own escape for a space);
//   * a literal "%s" in the text cannot be escaped for `input text`, so the text is split there
//     into two `input text` commands ("...%" then "s...");
//   * a newline becomes `input keyevent 66` (ENTER) between chunks; a tab becomes a space;
//   * other control characters and every non-ASCII character are left out: `input text` on a
//     real device cannot type them (KeyCharacterMap has no key for them; typing them needs an
//     IME such as ADBKeyBoard). `dropped` counts them so the caller can log it.
//   * a long text is typed by several `input text` commands of at most kMaxInputChunk
//     characters each, so no command line outgrows what adb and the device shell take.
// Commands are joined with ';'; every text chunk is single-quoted (ShellQuote).
inline constexpr size_t kMaxInputChunk = 500;
struct InputTextPlan {
  std::vector<std::string> commands;  // in order; empty when nothing is left to type
  std::string command;                // the commands joined with ';'
  size_t dropped = 0;                 // characters (code points) left out
};
InputTextPlan PlanInputText(std::string_view text);

}  // namespace roam::device::android
