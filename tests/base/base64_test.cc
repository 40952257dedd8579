#include "base/base64.h"

#include <gtest/gtest.h>

namespace roam {
namespace {

TEST(Base64, EncodesAsRfc4648) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64(std::string("\xff\x00\x80", 3)), "/wCA");
}

TEST(Base64, DecodesWhatItEncodesWithOrWithoutPadding) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (size_t n : {0u, 1u, 2u, 3u, 4u, 255u, 256u}) {
    auto back = DecodeBase64(Base64(bytes.substr(0, n)));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, bytes.substr(0, n));
  }
  EXPECT_EQ(*DecodeBase64("Zm8"), "fo");
  EXPECT_EQ(*DecodeBase64("Zm9v\nYmFy"), "foobar");
}

TEST(Base64, RefusesACharacterOutsideTheAlphabetWithItsOffset) {
  auto bad = DecodeBase64("Zm9v*");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("offset 4"), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace roam
