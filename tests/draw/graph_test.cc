#include "draw/graph.h"

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

}  // namespace
}  // namespace roam::draw
