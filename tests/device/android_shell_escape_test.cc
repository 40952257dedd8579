// Shell escaping of untrusted text: whatever the app under test shows, the device shell sees it
// as literal text. Checked against a reference sh-like unquoter here, and against the real
// /bin/sh of this machine (it exists on every Debian host).
#include <cstdio>

#include <gtest/gtest.h>

#include "device/android/shell_escape.h"

namespace roam::device::android {
namespace {

const char* kNasty[] = {
    "plain",     "it's", "\"double\"", "a;reboot",  "$(reboot)", "`reboot`", "$HOME", "a\\b",
    "new\nline", "*",    "a && b",     "x | y > z", "'",         "''",       "'\\''", "é ü 日本",
    "%s",        "",     "tab\there",  "!history",  "${IFS}",    "#comment", "~root", "a\rb",
};

// The result of sh parsing `quoted` as one word made only of '...' and \' pieces.
std::string Unquote(const std::string& quoted) {
  std::string out;
  bool in = false;
  for (size_t i = 0; i < quoted.size(); ++i) {
    char c = quoted[i];
    if (in) {
      if (c == '\'')
        in = false;
      else
        out += c;
    } else if (c == '\'') {
      in = true;
    } else if (c == '\\' && i + 1 < quoted.size()) {
      out += quoted[++i];
    } else {
      ADD_FAILURE() << "unquoted character " << c << " in " << quoted;
    }
  }
  EXPECT_FALSE(in) << quoted;
  return out;
}

TEST(ShellQuote, RoundTripsEveryNastyString) {
  for (const char* s : kNasty) EXPECT_EQ(Unquote(ShellQuote(s)), s) << s;
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote(std::string("a\0b", 3)), "'ab'");
}

// The real sh of the host: `printf %s QUOTED` must print the literal text.
TEST(ShellQuote, HostShellSeesTheLiteralText) {
  for (const char* s : kNasty) {
    std::string cmd = "printf %s " + ShellQuote(s);
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string got;
    char buf[256];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) got.append(buf, n);
    EXPECT_EQ(::pclose(p), 0) << cmd;
    EXPECT_EQ(got, s) << cmd;
  }
}

TEST(InputText, SpacesNewlinesPercentAndNonAscii) {
  EXPECT_EQ(PlanInputText("hello world").command, "input text 'hello%sworld'");
  EXPECT_EQ(PlanInputText("").command, "");
  EXPECT_EQ(PlanInputText("a;b$(c)`d`").command, "input text 'a;b$(c)`d`'");
  EXPECT_EQ(PlanInputText("it's").command, "input text 'it'\\''s'");
  EXPECT_EQ(PlanInputText("l1\nl2").command, "input text 'l1';input keyevent 66;input text 'l2'");
  // A literal %s would type a space: split so that input text never sees "%s".
  EXPECT_EQ(PlanInputText("100%sure").command, "input text '100%';input text 'sure'");
  EXPECT_EQ(PlanInputText("50% off").command, "input text '50%%soff'");
  auto p = PlanInputText("caf\xc3\xa9 \xe6\x97\xa5!");
  EXPECT_EQ(p.command, "input text 'caf%s!'");
  EXPECT_EQ(p.dropped, 2u);
  p = PlanInputText("\xe6\x97\xa5");
  EXPECT_EQ(p.command, "");
  EXPECT_EQ(p.dropped, 1u);
  p = PlanInputText(std::string("a\0\x01z", 4));
  EXPECT_EQ(p.command, "input text 'az'");
  EXPECT_EQ(p.dropped, 2u);
}

// Each `input text` argument, unquoted by sh and decoded by input's %s rule, is the text.
TEST(InputText, DecodesBackToTheAsciiText) {
  for (const char* s : kNasty) {
    auto plan = PlanInputText(s);
    std::string typed;
    size_t pos = 0;
    while (pos < plan.command.size()) {
      size_t end = plan.command.find(";input ", pos);
      // ';' inside quotes is data: find the command boundary by walking quotes.
      bool in = false;
      end = pos;
      for (; end < plan.command.size(); ++end) {
        char c = plan.command[end];
        if (c == '\'') in = !in;
        if (c == ';' && !in) break;
      }
      std::string one = plan.command.substr(pos, end - pos);
      pos = end + 1;
      if (one == "input keyevent 66") {
        typed += '\n';
        continue;
      }
      ASSERT_EQ(one.rfind("input text ", 0), 0u) << one;
      std::string arg = Unquote(one.substr(11));
      // input text's own rule: %s is a space (java: replace as it scans).
      std::string decoded;
      for (size_t i = 0; i < arg.size(); ++i) {
        if (arg[i] == '%' && i + 1 < arg.size() && arg[i + 1] == 's') {
          decoded += ' ';
          ++i;
        } else {
          decoded += arg[i];
        }
      }
      typed += decoded;
    }
    std::string want;
    for (unsigned char c : std::string(s)) {
      if (c == '\t')
        want += ' ';
      else if (c == '\n' || (c >= 0x20 && c < 0x7f))
        want += static_cast<char>(c);
    }
    EXPECT_EQ(typed, want) << s;
  }
}

}  // namespace
}  // namespace roam::device::android
