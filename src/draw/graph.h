// draw/graph: directed graphs laid out by Graphviz's dot (libgvc and libcgraph from Debian): drawn
// as SVG by Graphviz (report.html's activity transition graph), or only laid out, for a caller
// that draws the nodes itself (its state graph, whose nodes are screens). The only translation
// unit that includes Graphviz. Thread-safe: Graphviz keeps global state, so calls are serialised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace roam::draw {

struct GraphNode {
  std::string label;
  std::string tooltip;   // shown on hover (the full name)
  bool visited = false;  // drawn filled; otherwise dashed and grey
};

struct GraphEdge {
  size_t from = 0, to = 0;  // node indexes
  int64_t count = 0;        // times taken: the label, and the line's weight
};

struct Graph {
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
};

// The graph in Graphviz's DOT language (what GraphSvg lays out).
std::string GraphDot(const Graph& graph);

// The graph laid out left to right as an <svg> element (no XML prolog, so it can be put inline
// in an HTML page). An error when an edge names a missing node or Graphviz fails.
Result<std::string> GraphSvg(const Graph& graph);

// A graph whose nodes the caller draws: each node a box of a fixed size, the edges labelled.
// Sizes and places are in points (a CSS pixel when drawn as SVG at its size).
struct BoxSize {
  double width = 0, height = 0;
};
struct BoxEdge {
  size_t from = 0, to = 0;  // node indexes
  std::string label;        // "" for none
  // Whether it ranks its nodes (`to` below `from`); the others are drawn where the ranked ones
  // put the nodes (a graph of screens ranks them by a tree of the ways they were reached).
  bool ranks = true;
};
struct BoxGraph {
  std::vector<BoxSize> nodes;
  std::vector<BoxEdge> edges;
};

struct Point {
  double x = 0, y = 0;
};
struct PlacedEdge {
  std::vector<Point> curve;    // a cubic Bézier spline: its start, then three points a segment
  std::optional<Point> tip;    // where its arrowhead points (the curve ends short of it)
  std::optional<Point> label;  // the centre of its label
};
// Where dot put everything, in SVG's coordinates: the origin at the top left, y down.
struct BoxLayout {
  double width = 0, height = 0;
  std::vector<Point> centres;     // each node's centre, by index
  std::vector<PlacedEdge> edges;  // by index of BoxGraph::edges
};

// The graph laid out top to bottom by dot. An error when an edge names a missing node or
// Graphviz fails.
Result<BoxLayout> LayOutBoxes(const BoxGraph& graph);

}  // namespace roam::draw
