// report.html's state graph: the kept screens as the nodes of a graph laid out by Graphviz
// (draw/graph's LayOutBoxes), drawn here as inline SVG with each screen's picture in its node.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "draw/draw.h"
#include "draw/graph.h"
#include "report/html.h"
#include "report/run_report_parts.h"

namespace roam::report::page {

namespace {

namespace fs = std::filesystem;

// States drawn: dot's layout time grows fast with pictures and labelled arrows, and a graph of
// hundreds of screens is not read anyway (the screen view lists every kept one).
constexpr size_t kMaxStates = 60;
// Arrows drawn at most: a way into each state, and half as many others.
constexpr size_t kMaxArrows = 120;
// A node: the screen fitted into this box (points, a px on the page), its activity under it.
constexpr double kPictureWidth = 80, kPictureHeight = 128, kCaption = 16;
// Characters of an arrow's label and of a node's activity.
constexpr size_t kMaxLabel = 20, kMaxActivity = 13;
constexpr size_t kMaxActionsInTitle = 8;

// The picture's size fitted into kPictureWidth x kPictureHeight (a phone's portrait when the
// PNG cannot be read).
draw::BoxSize PictureSize(const fs::path& png) {
  std::ifstream in(png, std::ios::binary);
  std::string head(64, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  auto size = draw::ReadPngSize(head);
  if (!size || size->width <= 0 || size->height <= 0) return {72, kPictureHeight};
  const double scale = std::min(kPictureWidth / size->width, kPictureHeight / size->height);
  return {size->width * scale, size->height * scale};
}

struct Arrow {
  size_t from = 0, to = 0;
  int64_t count = 0;
  std::vector<std::pair<std::string, int64_t>> actions;  // the most taken first
};

// The label an arrow carries: its most taken action, and how many others took it.
std::string ArrowLabel(const Arrow& a) {
  if (a.actions.empty()) return "";
  std::string label = Cut(a.actions[0].first, kMaxLabel);
  if (a.actions.size() > 1) label += fmt::format(" +{}", a.actions.size() - 1);
  return label;
}

// The SVG of one arrow: its curve, its head and its label, with every action in its tooltip.
std::string ArrowSvg(const Arrow& a, const draw::PlacedEdge& placed, const std::string& names) {
  const std::vector<draw::Point>& c = placed.curve;
  if (c.empty()) return "";
  std::string d = fmt::format("M{:.1f},{:.1f}", c[0].x, c[0].y);
  for (size_t i = 1; i + 2 < c.size(); i += 3)
    d += fmt::format(" C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}", c[i].x, c[i].y, c[i + 1].x,
                     c[i + 1].y, c[i + 2].x, c[i + 2].y);
  std::string title = names + ": ";
  for (size_t i = 0; i < a.actions.size() && i < kMaxActionsInTitle; ++i)
    title += fmt::format("{}{} ×{}", i ? ", " : "", a.actions[i].first, a.actions[i].second);
  if (a.actions.size() > kMaxActionsInTitle)
    title += fmt::format(" and {} more", a.actions.size() - kMaxActionsInTitle);
  std::string svg = fmt::format(
      "<g class=\"arrow\"><title>{}</title><path d=\"{}\" fill=\"none\" stroke=\"#5b6b7f\" "
      "stroke-width=\"{:.2f}\"/>",
      HtmlEscape(title), d, 0.8 + std::log10(1.0 + static_cast<double>(a.count)));
  if (placed.tip) {  // a head from the curve's end to the tip
    const draw::Point base = c.back(), tip = *placed.tip;
    const double dx = tip.x - base.x, dy = tip.y - base.y, length = std::hypot(dx, dy);
    if (length > 0) {
      const double px = -dy / length * 3.5, py = dx / length * 3.5;
      svg += fmt::format(
          "<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"#5b6b7f\"/>", tip.x,
          tip.y, base.x + px, base.y + py, base.x - px, base.y - py);
    }
  }
  if (placed.label)
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"9\" text-anchor=\"middle\" "
        "fill=\"#3d4a5c\">{}</text>",
        placed.label->x, placed.label->y + 3, HtmlEscape(ArrowLabel(a)));
  return svg + "</g>\n";
}

// Actions taken on `state`, 0 for a state the traces never left.
int64_t Visits(const StateSteps& steps, const std::string& state) {
  auto it = steps.visits.find(state);
  return it == steps.visits.end() ? int64_t{0} : it->second;
}

// The short name of `state`'s activity.
std::string ActivityOf(const StateSteps& steps, const std::string& state) {
  auto it = steps.activities.find(state);
  return it == steps.activities.end() ? std::string("(no activity)") : ShortName(it->second);
}

// The states drawn: the most visited kept ones, up to kMaxStates.
std::vector<std::string> MostVisited(const StateSteps& steps) {
  std::vector<std::string> shown(steps.kept.begin(), steps.kept.end());
  std::stable_sort(shown.begin(), shown.end(), [&](const std::string& a, const std::string& b) {
    return Visits(steps, a) > Visits(steps, b);
  });
  if (shown.size() > kMaxStates) shown.resize(kMaxStates);
  return shown;
}

// The arrows between drawn states (an action that stayed on its screen draws none), the most
// taken first.
std::vector<Arrow> ArrowsBetween(const StateSteps& steps, const std::vector<std::string>& shown) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < shown.size(); ++i) index[shown[i]] = i;
  std::vector<Arrow> arrows;
  for (const auto& [from_to, by_words] : steps.edges) {
    auto from = index.find(from_to.first), to = index.find(from_to.second);
    if (from == index.end() || to == index.end() || from == to) continue;
    Arrow a{from->second, to->second, 0, {by_words.begin(), by_words.end()}};
    for (const auto& [words, count] : by_words) a.count += count;
    std::stable_sort(a.actions.begin(), a.actions.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    arrows.push_back(std::move(a));
  }
  std::stable_sort(arrows.begin(), arrows.end(),
                   [](const Arrow& a, const Arrow& b) { return a.count > b.count; });
  return arrows;
}

// The arrows drawn, the tree's first.
struct DrawnArrows {
  std::vector<Arrow> arrows;
  size_t tree = 0;  // the first `tree` rank the graph
};

// The graph is ranked by a tree of the ways the states were reached: from the state a launch
// led to most often (else the most visited), the most taken arrow out of the states placed so far
// to one not yet placed, and so on (a state no arrow reaches from there hangs by its most taken
// way in). Then the most taken of the other arrows, up to one for every two states and kMaxArrows
// in all, drawn without ranking. `arrows`: the most taken first.
DrawnArrows ArrowsToDraw(const StateSteps& steps, const std::vector<std::string>& shown,
                         const std::vector<Arrow>& arrows) {
  std::vector<Arrow> drawn;
  std::vector<bool> placed(shown.size(), false), taken(arrows.size(), false);
  auto hang = [&](bool from_placed) {
    for (size_t i = 0; i < arrows.size(); ++i)
      if (!taken[i] && !placed[arrows[i].to] && (!from_placed || placed[arrows[i].from])) {
        placed[arrows[i].to] = taken[i] = true;
        drawn.push_back(arrows[i]);
        return true;
      }
    return false;
  };
  size_t root = 0;
  for (size_t i = 0; i < shown.size(); ++i) {
    auto it = steps.starts.find(shown[i]), best = steps.starts.find(shown[root]);
    if (it != steps.starts.end() && (best == steps.starts.end() || it->second > best->second))
      root = i;
  }
  placed[root] = true;
  while (hang(true) || hang(false)) {
  }
  const size_t tree = drawn.size();
  const size_t most = std::min(kMaxArrows, tree + shown.size() / 2);
  for (size_t i = 0; i < arrows.size() && drawn.size() < most; ++i)
    if (!taken[i]) drawn.push_back(arrows[i]);
  return {std::move(drawn), tree};
}

// The section's heading and the paragraph that says what is drawn and what is left out.
std::string StateGraphIntro(size_t shown, size_t kept, size_t states, size_t drawn, size_t arrows) {
  std::string html = "<section id=\"states\">\n<h2>States and actions</h2>\n";
  html += fmt::format(
      "<p class=\"sub\">Each screen is a state the run reached, an arrow an action that led from "
      "one to another, labelled with the action taken most often (hover for all of them). Open a "
      "screen for its widgets.{}{}</p>\n",
      std::max(states, kept) > shown
          ? fmt::format(
                " The {} most visited of the {} states reached are drawn; {} more are "
                "not{}.",
                Count(shown), Count(std::max(states, kept)), Count(std::max(states, kept) - shown),
                kept < states ? fmt::format(" (the run kept the screens of {})", Count(kept)) : "")
          : "",
      drawn < arrows
          ? fmt::format(" The {} most taken of {} arrows are drawn (each state keeps the one it "
                        "was reached by most often), the states ranked by those ways in.",
                        Count(drawn), Count(arrows))
          : "");
  return html;
}

// The SVG of one state: its box, linked to its screen, with its picture and its activity.
std::string StateSvg(const StateSteps& steps, const std::string& state, draw::Point c,
                     const draw::BoxSize& box, const draw::BoxSize& picture) {
  const double left = c.x - box.width / 2, top = c.y - box.height / 2;
  const std::string activity = ActivityOf(steps, state);
  const int64_t visits = Visits(steps, state);
  return fmt::format(
      "<a class=\"state\" href=\"#screen-{0}\"><title>state {0} on {1}: {2} action{3} taken "
      "here</title><rect x=\"{4:.1f}\" y=\"{5:.1f}\" width=\"{6:.1f}\" height=\"{7:.1f}\" "
      "rx=\"3\" "
      "fill=\"#fff\" stroke=\"#9aa3ad\"/><image href=\"screens/{0}.png\" x=\"{8:.1f}\" "
      "y=\"{5:.1f}\" width=\"{9:.1f}\" height=\"{10:.1f}\"/><text x=\"{11:.1f}\" y=\"{12:.1f}\" "
      "font-size=\"10\" text-anchor=\"middle\" fill=\"#1d2733\">{13}</text></a>\n",
      HtmlEscape(state), HtmlEscape(activity), Count(visits), visits == 1 ? "" : "s", left, top,
      box.width, box.height, c.x - picture.width / 2, picture.width, picture.height, c.x,
      top + picture.height + 12, HtmlEscape(Cut(activity, kMaxActivity)));
}

}  // namespace

std::string StateGraphSection(const fs::path& run_dir, const StateSteps& steps, size_t states) {
  if (steps.kept.empty()) return "";
  const std::vector<std::string> shown = MostVisited(steps);
  const size_t kept = steps.kept.size();
  const std::vector<Arrow> arrows = ArrowsBetween(steps, shown);
  const DrawnArrows drawn = ArrowsToDraw(steps, shown, arrows);
  std::string html =
      StateGraphIntro(shown.size(), kept, states, drawn.arrows.size(), arrows.size());

  draw::BoxGraph graph;
  std::vector<draw::BoxSize> pictures;
  for (const std::string& state : shown) {
    pictures.push_back(PictureSize(run_dir / "screens" / (state + ".png")));
    graph.nodes.push_back({kPictureWidth, pictures.back().height + kCaption});
  }
  for (size_t i = 0; i < drawn.arrows.size(); ++i) {
    const Arrow& a = drawn.arrows[i];
    graph.edges.push_back({a.from, a.to, ArrowLabel(a), i < drawn.tree});
  }
  auto layout = draw::LayOutBoxes(graph);
  if (!layout.ok())
    return html +
           fmt::format("<p class=\"notice\">The state graph could not be laid out: {}</p>\n",
                       HtmlEscape(layout.status().message())) +
           "</section>\n";

  const double margin = 4, width = layout->width + 2 * margin, height = layout->height + 2 * margin;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"{2:.0f} {2:.0f} {0:.0f} {1:.0f}\" role=\"img\" aria-label=\"{3} states and the "
      "actions between them\" font-family=\"DejaVu Sans, sans-serif\">\n",
      width, height, -margin, shown.size());
  for (size_t i = 0; i < shown.size(); ++i)
    svg += StateSvg(steps, shown[i], layout->centres[i], graph.nodes[i], pictures[i]);
  for (size_t i = 0; i < drawn.arrows.size(); ++i) {
    const Arrow& a = drawn.arrows[i];
    svg += ArrowSvg(a, layout->edges[i],
                    ActivityOf(steps, shown[a.from]) + " → " + ActivityOf(steps, shown[a.to]));
  }
  return html + "<div class=\"states\">\n" + svg + "</svg>\n</div>\n</section>\n";
}

}  // namespace roam::report::page
