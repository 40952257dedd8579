#include "gui/intent.h"

#include <gtest/gtest.h>

namespace roam::gui {
namespace {

TEST(Intent, TextRoundTripsWithSpacesPercentsAndEmptyValues) {
  const Intent intent{.component = "org.app.DetailActivity",
                      .extras = {{"title", ExtraType::kString, "50% off now"},
                                 {"id", ExtraType::kInt, "3"},
                                 {"note", ExtraType::kString, ""},
                                 {"pinned", ExtraType::kBool, "true"}}};
  const std::string text = intent.ToText();
  EXPECT_EQ(text,
            "-n org.app.DetailActivity --es title 50%25%20off%20now --ei id 3 --es note %00 "
            "--ez pinned true");
  auto back = ParseIntentText(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, intent);
}

TEST(Intent, DeepLinkRoundTrips) {
  const Intent link{.action = "android.intent.action.VIEW", .data = "shop://item/42?ref=x y"};
  auto back = ParseIntentText(link.ToText());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, link);
  EXPECT_EQ(link.Describe(), "open the deep link shop://item/42?ref=x y");
}

TEST(Intent, DescribeNamesTheActivityAndItsExtras) {
  EXPECT_EQ((Intent{.component = "org.app.ui.DetailActivity"}).Describe(),
            "start DetailActivity with no extras");
  EXPECT_EQ(
      (Intent{.component = "org.app.DetailActivity", .extras = {{"id", ExtraType::kInt, "3"}}})
          .Describe(),
      "start DetailActivity with extras id=3 (int)");
}

TEST(Intent, BadTextSaysWhichToken) {
  auto unknown = ParseIntentText("-n org.app.A --eu x 1");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown flag \"--eu\""), std::string::npos);
  auto dangling = ParseIntentText("-n org.app.A --es key");
  ASSERT_FALSE(dangling.ok());
  EXPECT_NE(dangling.status().message().find("--es without a value"), std::string::npos);
  auto nothing = ParseIntentText("--ei id 3");
  ASSERT_FALSE(nothing.ok());
  EXPECT_NE(nothing.status().message().find("neither a component"), std::string::npos);
  EXPECT_FALSE(ParseIntentText("-d app://x%2").ok());
  EXPECT_FALSE(ParseIntentText("-d app://x%zz").ok());
}

TEST(Intent, FiltersTakeWhatAndroidResolves) {
  const IntentFilter view{
      .actions = {"android.intent.action.VIEW"},
      .categories = {"android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"},
      .schemes = {"https", "shop"},
      .hosts = {"example.com"},
      .paths = {"/item"}};
  auto link = [](std::string uri) {
    return Intent{.action = "android.intent.action.VIEW", .data = std::move(uri)};
  };
  EXPECT_TRUE(FilterTakes(view, link("https://example.com/item/42")));
  EXPECT_TRUE(FilterTakes(view, link("shop://example.com/items?x=1")));
  EXPECT_FALSE(FilterTakes(view, link("https://example.org/item/42")));
  EXPECT_FALSE(FilterTakes(view, link("https://example.com/cart")));
  EXPECT_FALSE(FilterTakes(view, link("ftp://example.com/item")));
  EXPECT_FALSE(FilterTakes(
      view, Intent{.action = "android.intent.action.SEND", .data = "https://example.com/item"}));
  EXPECT_FALSE(FilterTakes(view, Intent{.action = "android.intent.action.VIEW"}));
  const IntentFilter main{.actions = {"android.intent.action.MAIN"}};
  EXPECT_TRUE(FilterTakes(main, Intent{.action = "android.intent.action.MAIN"}));
  EXPECT_FALSE(FilterTakes(main, link("https://example.com/item")));
}

TEST(Intent, CandidatesAreTheExtrasNoneWrongTypesAndDeepLinks) {
  DeclaredActivity detail{
      .name = "org.app.DetailActivity",
      .exported = true,
      .filters = {{.actions = {"android.intent.action.VIEW"},
                   .schemes = {"app"},
                   .hosts = {"detail"},
                   .paths = {"/show"}}},
      .extras = {{"id", ExtraType::kInt, "3"}, {"title", ExtraType::kString, "Cinema"}}};
  std::vector<std::string> texts;
  for (const auto& intent : CandidateIntents(detail)) texts.push_back(intent.ToText());
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "-n org.app.DetailActivity --ei id 3 --es title Cinema",
                       "-n org.app.DetailActivity",
                       "-n org.app.DetailActivity --es id x --es title Cinema",
                       "-n org.app.DetailActivity --ei id 3 --ei title 1",
                       "-a android.intent.action.VIEW -d app://detail/show",
                   }));
  detail.exported = false;
  EXPECT_TRUE(CandidateIntents(detail).empty());
  EXPECT_EQ(CandidateIntents({.name = "org.app.A", .exported = true}).size(), 1u);
}

}  // namespace
}  // namespace roam::gui
