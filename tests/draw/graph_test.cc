#include "draw/graph.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pugixml.hpp>

namespace roam::draw {
namespace {

Graph ThreeActivities() {
  Graph g;
  g.nodes = {{.label = "Main", .tooltip = "org.app.Main", .visited = true},
             {.label = "Edit \"quoted\" <x>", .tooltip = "org.app.Edit", .visited = true},
             {.label = "Never", .tooltip = "org.app.Never", .visited = false}};
  g.edges = {{0, 1, 12}, {1, 0, 3}};
  return g;
}

TEST(Graph, LaysOutAsWellFormedSvgWithEveryNodeAndEdge) {
  auto svg = GraphSvg(ThreeActivities());
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_EQ(svg->rfind("<svg", 0), 0u) << "no XML prolog before the element";
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg->c_str())) << "not well-formed";
  size_t nodes = 0, edges = 0;
  for (auto g : doc.select_nodes("//*[local-name()='g']")) {
    std::string cls = g.node().attribute("class").value();
    nodes += cls == "node";
    edges += cls == "edge";
  }
  EXPECT_EQ(nodes, 3u);
  EXPECT_EQ(edges, 2u);
  EXPECT_NE(svg->find("Edit &quot;quoted&quot; &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg->find(">12<"), std::string::npos) << "edges are labelled with their counts";
}

TEST(Graph, UnvisitedNodesAreDashedAndVisitedOnesFilled) {
  std::string dot = GraphDot(ThreeActivities());
  EXPECT_NE(dot.find("n2 [label=\"Never\", tooltip=\"org.app.Never\", style=\"rounded,dashed\""),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("n0 [label=\"Main\", tooltip=\"org.app.Main\", fillcolor=\"#d7e8fb\""),
            std::string::npos)
      << dot;
  auto svg = GraphSvg(ThreeActivities());
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("stroke-dasharray"), std::string::npos);
}

TEST(Graph, AnEdgeToAMissingNodeIsAnError) {
  Graph g = ThreeActivities();
  g.edges.push_back({0, 7, 1});
  auto svg = GraphSvg(g);
  ASSERT_FALSE(svg.ok());
  EXPECT_NE(svg.status().message().find("0 -> 7"), std::string::npos);
}

TEST(Graph, TheSameGraphGivesTheSameSvg) {
  auto a = GraphSvg(ThreeActivities()), b = GraphSvg(ThreeActivities());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

// Three pictures in a chain: dot puts them top to bottom, in the box it reports, and each arrow
// runs from the bottom of one to the top of the next, its label beside it.
TEST(Graph, BoxesAreLaidOutTopToBottomWithTheirArrows) {
  BoxGraph g;
  g.nodes = {{80, 144}, {80, 60}, {40, 100}};
  g.edges = {{0, 1, "click \"Add\""}, {1, 2, "back"}};
  auto layout = LayOutBoxes(g);
  ASSERT_TRUE(layout.ok()) << layout.status().message();
  ASSERT_EQ(layout->centres.size(), 3u);
  ASSERT_EQ(layout->edges.size(), 2u);
  for (size_t i = 0; i < 3; ++i) {
    const Point c = layout->centres[i];
    EXPECT_GE(c.x - g.nodes[i].width / 2, -0.5) << i;
    EXPECT_LE(c.x + g.nodes[i].width / 2, layout->width + 0.5) << i;
    EXPECT_GE(c.y - g.nodes[i].height / 2, -0.5) << i;
    EXPECT_LE(c.y + g.nodes[i].height / 2, layout->height + 0.5) << i;
  }
  EXPECT_LT(layout->centres[0].y, layout->centres[1].y);
  EXPECT_LT(layout->centres[1].y, layout->centres[2].y);
  for (size_t i = 0; i < 2; ++i) {
    const PlacedEdge& e = layout->edges[i];
    ASSERT_GE(e.curve.size(), 4u) << i;
    EXPECT_EQ(e.curve.size() % 3, 1u) << "a start and three points a segment";
    ASSERT_TRUE(e.tip.has_value()) << i;
    ASSERT_TRUE(e.label.has_value()) << i;
    const BoxSize from = g.nodes[g.edges[i].from], to = g.nodes[g.edges[i].to];
    EXPECT_NEAR(e.curve.front().y, layout->centres[g.edges[i].from].y + from.height / 2, 2) << i;
    EXPECT_NEAR(e.tip->y, layout->centres[g.edges[i].to].y - to.height / 2, 2) << i;
  }
}

// Labelled arrows between boxes of one rank (a screen's actions that lead to its siblings): dot
// laid such a label out as a node of its own and Graphviz 2.42 freed it twice, which crashed the
// report of a fastbot run on apps/bench/news.json. Each arrow is placed, its label beside it.
TEST(Graph, LabelledArrowsBetweenBoxesOfOneRankArePlaced) {
  BoxGraph g;
  for (int i = 0; i < 7; ++i) g.nodes.push_back({60, 100});
  for (size_t i = 1; i < 7; ++i) g.edges.push_back({0, i, "tap"});
  for (size_t i = 1; i < 7; ++i)
    for (size_t j = 1; j < 7; ++j)
      if (i != j) g.edges.push_back({i, j, fmt::format("swipe {}", j), false});
  for (int round = 0; round < 3; ++round) {
    auto layout = LayOutBoxes(g);
    ASSERT_TRUE(layout.ok()) << layout.status().message();
    for (size_t e = 0; e < g.edges.size(); ++e) {
      EXPECT_TRUE(layout->edges[e].tip.has_value()) << e;
      EXPECT_TRUE(layout->edges[e].label.has_value()) << e;
    }
  }
}

TEST(Graph, ABoxEdgeToAMissingNodeIsAnError) {
  BoxGraph g;
  g.nodes = {{10, 10}};
  g.edges = {{0, 3, ""}};
  auto layout = LayOutBoxes(g);
  ASSERT_FALSE(layout.ok());
  EXPECT_NE(layout.status().message().find("0 -> 3"), std::string::npos);
}

}  // namespace
}  // namespace roam::draw
