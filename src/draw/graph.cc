#include "draw/graph.h"

#include <cmath>
#include <cstdlib>
#include <mutex>

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

Result<std::string> GraphSvg(const Graph& graph) {
  for (const GraphEdge& e : graph.edges)
    if (e.from >= graph.nodes.size() || e.to >= graph.nodes.size())
      return Status::InvalidArgument(fmt::format("graph edge {} -> {} names a missing node of {}",
                                                 e.from, e.to, graph.nodes.size()));
  const std::string dot = GraphDot(graph);
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  agseterr(AGMAX);  // errors come back as statuses, not lines on stderr
  GVC_t* gvc = Context();
  if (!gvc) return Status::Io("Graphviz: cannot create a context");
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) {
    return Status::InvalidArgument("Graphviz could not read the graph: " + dot.substr(0, 200));
  }
  Status status = Status::Ok();
  std::string svg;
  if (gvLayout(gvc, g, "dot") != 0) {
    status = Status::Io(
        "Graphviz could not lay out the graph with dot (is Debian's libgvc6 installed with its "
        "plugins? `dot -c` registers them)");
  } else {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, g, "svg", &data, &length) != 0 || !data) {
      status = Status::Io("Graphviz could not render the graph as SVG");
    } else {
      svg.assign(data, length);
      gvFreeRenderData(data);
    }
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  if (!status.ok()) return status;
  size_t start = svg.find("<svg");
  if (start == std::string::npos) return Status::Io("Graphviz wrote no <svg> element");
  return svg.substr(start);
}

}  // namespace roam::draw
