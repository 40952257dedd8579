#include "draw/graph.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace roam::draw {

namespace {

// A DOT string literal.
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

std::mutex& GraphvizMutex() {
  static std::mutex m;
  return m;
}

// One context for the process, made on first use (loading Graphviz's plugins and fonts costs
// about 10 ms, which a benchmark of many short runs would pay per run). Call with the mutex held.
GVC_t* Context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

}  // namespace

std::string GraphDot(const Graph& graph) {
  std::string dot =
      "digraph activities {\n"
      "  rankdir=LR; bgcolor=\"transparent\"; nodesep=0.25; ranksep=0.5;\n"
      "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans\", fontsize=11, "
      "margin=\"0.12,0.06\"];\n"
      "  edge [fontname=\"DejaVu Sans\", fontsize=9, color=\"#5b6b7f\", fontcolor=\"#3d4a5c\", "
      "arrowsize=0.6];\n";
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& n = graph.nodes[i];
    dot +=
        fmt::format("  n{} [label={}, tooltip={}, {}];\n", i, Quoted(n.label), Quoted(n.tooltip),
                    n.visited ? "fillcolor=\"#d7e8fb\", color=\"#2f6db3\", fontcolor=\"#10243e\""
                              : "style=\"rounded,dashed\", fillcolor=\"white\", color=\"#9aa3ad\", "
                                "fontcolor=\"#7b838c\"");
  }
  for (const GraphEdge& e : graph.edges) {
    double width = 0.8 + std::log10(1.0 + static_cast<double>(e.count));
    dot += fmt::format(
        "  n{} -> n{} [label=\"{}\", penwidth={:.2f}, tooltip={}];\n", e.from, e.to, e.count, width,
        Quoted(fmt::format("{} → {}: taken {} time{}", graph.nodes[e.from].label,
                           graph.nodes[e.to].label, e.count, e.count == 1 ? "" : "s")));
  }
  return dot + "}\n";
}

namespace {

// Lays `dot` out with dot and renders it as `format` into `rendered`; `read` looks at the laid-out
// graph before it is freed (rendering as "dot" writes each place into its attributes: "pos",
// "lp", "bb"). Call with the mutex held.
template <typename Read>
Status LayOut(const std::string& dot, const char* format, std::string& rendered, Read read) {
  agseterr(AGMAX);  // errors come back as statuses, not lines on stderr
  GVC_t* gvc = Context();
  if (!gvc) return Status::Io("Graphviz: cannot create a context");
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) {
    return Status::InvalidArgument("Graphviz could not read the graph: " + dot.substr(0, 200));
  }
  Status status = Status::Ok();
  if (gvLayout(gvc, g, "dot") != 0) {
    status = Status::Io(
        "Graphviz could not lay out the graph with dot (is Debian's libgvc6 installed with its "
        "plugins? `dot -c` registers them)");
  } else {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, g, format, &data, &length) != 0 || !data) {
      status = Status::Io(fmt::format("Graphviz could not render the graph as {}", format));
    } else {
      rendered.assign(data, length);
      gvFreeRenderData(data);
      status = read(g);
    }
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  return status;
}

// "x,y" (of "pos", "lp"); nullopt when it is not two numbers.
std::optional<Point> ParsePoint(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != ',') return std::nullopt;
  const char* y_at = end + 1;
  const double y = std::strtod(y_at, &end);
  if (end == y_at) return std::nullopt;
  return Point{x, y};
}

// An attribute of a laid-out object; "" when it has none.
std::string Attribute(void* object, const char* name) {
  char* value = agget(object, const_cast<char*>(name));
  return value ? value : "";
}

}  // namespace

Result<std::string> GraphSvg(const Graph& graph) {
  for (const GraphEdge& e : graph.edges)
    if (e.from >= graph.nodes.size() || e.to >= graph.nodes.size())
      return Status::InvalidArgument(fmt::format("graph edge {} -> {} names a missing node of {}",
                                                 e.from, e.to, graph.nodes.size()));
  const std::string dot = GraphDot(graph);
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  std::string svg;
  ROAM_RETURN_IF_ERROR(LayOut(dot, "svg", svg, [](Agraph_t*) { return Status::Ok(); }));
  size_t start = svg.find("<svg");
  if (start == std::string::npos) return Status::Io("Graphviz wrote no <svg> element");
  return svg.substr(start);
}

Result<BoxLayout> LayOutBoxes(const BoxGraph& graph) {
  for (const BoxEdge& e : graph.edges)
    if (e.from >= graph.nodes.size() || e.to >= graph.nodes.size())
      return Status::InvalidArgument(fmt::format("graph edge {} -> {} names a missing node of {}",
                                                 e.from, e.to, graph.nodes.size()));
  // Sizes in inches, as dot takes them; each edge carries its index through the layout.
  std::string dot =
      "digraph boxes {\n"
      "  rankdir=TB; nodesep=0.3; ranksep=0.5;\n"
      "  node [shape=box, fixedsize=true, label=\"\"];\n"
      "  edge [fontname=\"DejaVu Sans\", fontsize=9, arrowsize=0.7];\n";
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    dot += fmt::format("  n{} [width={:.3f}, height={:.3f}];\n", i, graph.nodes[i].width / 72,
                       graph.nodes[i].height / 72);
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const BoxEdge& e = graph.edges[i];
    // xlabel, not label: dot lays a label out as a node of its own, and on an edge between two
    // boxes of one rank (a flat edge) Graphviz 2.42 frees that node's storage twice
    // (flat_edges, then gvFreeLayout: a crash on a run's state graph). An xlabel is placed after
    // the layout, beside the edge.
    dot += fmt::format("  n{} -> n{} [xlabel={}, roam_edge=\"{}\"{}];\n", e.from, e.to,
                       Quoted(e.label), i, e.ranks ? "" : ", constraint=false");
  }
  dot += "}\n";

  BoxLayout layout;
  layout.centres.resize(graph.nodes.size());
  layout.edges.resize(graph.edges.size());
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  std::string rendered;
  ROAM_RETURN_IF_ERROR(LayOut(dot, "dot", rendered, [&](Agraph_t* g) {
    // The bounding box "llx,lly,urx,ury", y up: turned so that y runs down from its top.
    double box[4] = {0, 0, 0, 0};
    if (std::sscanf(Attribute(g, "bb").c_str(), "%lf,%lf,%lf,%lf", &box[0], &box[1], &box[2],
                    &box[3]) != 4)
      return Status::Io("Graphviz laid the graph out without a bounding box");
    auto place = [&](Point p) { return Point{p.x - box[0], box[3] - p.y}; };
    layout.width = box[2] - box[0];
    layout.height = box[3] - box[1];
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      Agnode_t* n = agnode(g, const_cast<char*>(fmt::format("n{}", i).c_str()), 0);
      auto at = n ? ParsePoint(Attribute(n, "pos")) : std::nullopt;
      if (!at) return Status::Io(fmt::format("Graphviz did not place node {}", i));
      layout.centres[i] = place(*at);
      for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
        const size_t index = std::strtoul(Attribute(e, "roam_edge").c_str(), nullptr, 10);
        if (index >= layout.edges.size()) continue;
        PlacedEdge& placed = layout.edges[index];
        // "pos": "e,x,y" (the arrow's tip) and "s,x,y" (a tail's) before the spline's points.
        std::istringstream points(Attribute(e, "pos"));
        std::string token;
        while (points >> token) {
          if (token.starts_with("e,")) {
            if (auto p = ParsePoint(std::string_view(token).substr(2))) placed.tip = place(*p);
          } else if (!token.starts_with("s,")) {
            if (auto p = ParsePoint(token)) placed.curve.push_back(place(*p));
          }
        }
        if (auto p = ParsePoint(Attribute(e, "xlp"))) placed.label = place(*p);
      }
    }
    return Status::Ok();
  }));
  return layout;
}

}  // namespace roam::draw
