// draw/graph: directed graphs laid out by Graphviz's dot (libgvc and libcgraph from Debian) and
// rendered as SVG, for report.html's activity transition graph. The only translation unit that
// includes Graphviz. Thread-safe: Graphviz keeps global state, so calls are serialised.
#pragma once

#include <cstdint>
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

}  // namespace roam::draw
