#include "base/utf8.h"

#include <gtest/gtest.h>

namespace roam {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(AsciiLower, LowercasesAsciiLettersAndKeepsEveryOtherByte) {
  EXPECT_EQ(AsciiLower("Weiter SAVE btnNext 42"), "weiter save btnnext 42");
  EXPECT_EQ(AsciiLower("Terminé"), "terminé");
  EXPECT_EQ(AsciiLower("Далее 确定"), "Далее 确定");
  EXPECT_EQ(AsciiLower(""), "");
}

TEST(TrimSpace, DropsSpacesTabsAndLineEndsAtEitherEndOnly) {
  EXPECT_EQ(TrimSpace(" \t确定 OK\r\n"), "确定 OK");
  EXPECT_EQ(TrimSpace("a b"), "a b");
  EXPECT_EQ(TrimSpace(" \r\n\t "), "");
  EXPECT_EQ(TrimSpace(""), "");
}

TEST(Utf8, ValidTextIsKept) {
  for (std::string s : {"", "plain ascii, long enough for the 8-byte path", "caf\xC3\xA9",
                        "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80 emoji", "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(IsValidUtf8(s)) << s;
    EXPECT_EQ(ToValidUtf8(s), s);
    std::string t = s;
    MakeValidUtf8(t);
    EXPECT_EQ(t, s);
  }
}

TEST(Utf8, IllFormedSequencesBecomeReplacementCharacters) {
  // A Latin-1 no-break space, as one of the real droidmate dumps holds.
  EXPECT_EQ(ToValidUtf8("a\xA0"
                        "b"),
            "a" + kFffd + "b");
  EXPECT_EQ(ToValidUtf8("ok\n\xFF\n"), "ok\n" + kFffd + "\n");
  // A lone high surrogate (what &#55357; decodes to) is three bytes of one maximal subpart each.
  EXPECT_EQ(ToValidUtf8("\xED\xA0\xBD"), kFffd + kFffd + kFffd);
  // Overlong forms and code points above U+10FFFF.
  EXPECT_EQ(ToValidUtf8("\xC0\xAF"), kFffd + kFffd);
  EXPECT_EQ(ToValidUtf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);
  // A truncated sequence is one maximal subpart.
  EXPECT_EQ(ToValidUtf8("x\xE2\x82"), "x" + kFffd);
  EXPECT_EQ(ToValidUtf8("\xE2\x82x"), kFffd + "x");
  for (std::string s : {"a\xA0", "\xED\xA0\xBD", "\xC0\xAF", "x\xE2\x82", "12345678\xFF"}) {
    EXPECT_FALSE(IsValidUtf8(s)) << s;
    EXPECT_TRUE(IsValidUtf8(ToValidUtf8(s))) << s;
  }
}

}  // namespace
}  // namespace roam
