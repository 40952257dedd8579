// MakeRegex: text from users and specs compiled, refused where libstdc++ would misbehave.
#include "base/regex.h"

#include <gtest/gtest.h>

namespace roam {
namespace {

TEST(MakeRegex, CompilesOrdinaryPatterns) {
  auto re = MakeRegex("^[a-z]{2,8}$", std::regex::ECMAScript);
  ASSERT_TRUE(re.ok()) << re.status().message();
  EXPECT_TRUE(std::regex_match("roam", *re));
  EXPECT_TRUE(MakeRegex("x\\{99999\\}", std::regex::ECMAScript).ok());  // escaped: literal braces
}

// The input tests/fuzzers/shell_fuzzer found: a count past int's range is undefined behaviour in
// libstdc++'s regex compiler (UBSan: regex_compiler.tcc:589).
TEST(MakeRegex, RefusesRepetitionCountsThatOverflowTheCompiler) {
  auto re = MakeRegex("a{8888888000000000000000}", std::regex::extended);
  ASSERT_FALSE(re.ok());
  EXPECT_NE(re.status().message().find("repetition count 8888888000000000000000"),
            std::string::npos);
  EXPECT_FALSE(MakeRegex("a{2,1001}", std::regex::ECMAScript).ok());
  EXPECT_TRUE(MakeRegex("a{2,1000}", std::regex::ECMAScript).ok());
}

TEST(MakeRegex, RefusesLongPatternsAndSaysWhatIsMalformed) {
  EXPECT_FALSE(MakeRegex(std::string(kMaxRegexLength + 1, 'a'), std::regex::ECMAScript).ok());
  auto bad = MakeRegex("(", std::regex::ECMAScript);
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(bad.status().message().empty());
}

}  // namespace
}  // namespace roam
