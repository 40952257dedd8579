#include "report/html.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>

namespace roam::report {
namespace {

TEST(Html, EscapesMarkupAndRepairsBytes) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("bad \xff"), "bad \xEF\xBF\xBD");
}

TEST(Html, CardsEscapeTheirText) {
  std::string html = CardsHtml({{"Crashes <new>", "3", "unique & fresh"}});
  EXPECT_NE(html.find("Crashes &lt;new&gt;"), std::string::npos);
  EXPECT_NE(html.find("unique &amp; fresh"), std::string::npos);
  EXPECT_EQ(html.find("<new>"), std::string::npos);
}

pugi::xml_document ParseSvg(const std::string& svg) {
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(svg.c_str())) << svg;
  return doc;
}

TEST(Html, AChartHasOneLinePerSeriesAndALegendWhenThereAreSeveral) {
  ChartSeries a{"random", {{0, 1}, {100, 3}, {200, 4}}};
  ChartSeries b{"fastbot", {{0, 1}, {100, 5}}};
  auto doc = ParseSvg(LineChartSvg({a, b}, {.title = "Activities (of 6)", .y_max = 6}));
  EXPECT_EQ(doc.select_nodes("//path").size(), 2u);
  std::string text;
  for (auto t : doc.select_nodes("//text")) text += std::string(t.node().child_value()) + "|";
  EXPECT_NE(text.find("random|"), std::string::npos) << text;
  EXPECT_NE(text.find("fastbot|"), std::string::npos) << text;
  EXPECT_NE(text.find("|6|"), std::string::npos) << "the y axis reaches y_max: " << text;
  // One series: no legend.
  auto one = ParseSvg(LineChartSvg({a}, {.title = "t"}));
  EXPECT_EQ(one.select_nodes("//rect").size(), 0u);
}

TEST(Html, CountsGetWholeNumberTicks) {
  auto doc = ParseSvg(LineChartSvg({{"crashes", {{0, 0}, {500, 1}}}}, {.title = "bugs"}));
  for (auto t : doc.select_nodes("//text"))
    EXPECT_EQ(std::string(t.node().child_value()).find('.'), std::string::npos)
        << t.node().child_value();
}

TEST(Html, ManyPointsAreThinnedKeepingTheLast) {
  ChartSeries s{"units", {}};
  for (int i = 0; i <= 10000; ++i) s.points.emplace_back(i * 10.0, i);
  std::string svg = LineChartSvg({s}, {.title = "units", .max_points = 50});
  auto doc = ParseSvg(svg);
  std::string d = doc.select_node("//path").node().attribute("d").value();
  EXPECT_EQ(std::count(d.begin(), d.end(), 'H'), 49);
  EXPECT_NE(svg.find("units: 10000 at 100000 events"), std::string::npos);
  EXPECT_LT(svg.size(), 8000u);
}

TEST(Html, AChartWithoutPointsSaysSo) {
  std::string svg = LineChartSvg({{"units", {}}}, {.title = "Code units"});
  EXPECT_NE(svg.find("no samples recorded"), std::string::npos);
  ParseSvg(svg);
}

TEST(Html, APageIsSelfContained) {
  std::string page = HtmlPage("t <1>", "<p>body</p>");
  EXPECT_EQ(page.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(page.find("<title>t &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(page.find("data-ready"), std::string::npos);
  for (const char* remote : {"http://", "https://", "//cdn"})
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
}

}  // namespace
}  // namespace roam::report
