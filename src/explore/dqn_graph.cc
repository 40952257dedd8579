#include "explore/dqn_graph.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gui/abstraction.h"
#include "gui/fields.h"

namespace roam::explore {

namespace {

const gui::Widget* WidgetOf(const gui::Screen& screen, const gui::Action& action) {
  if (action.widget < 0 || action.widget >= static_cast<int>(screen.widgets.size())) return nullptr;
  return &screen.widgets[action.widget];
}

// The word TXC puts first for a widget action other than a click.
std::string_view KindWord(gui::ActionKind kind) {
  using gui::ActionKind;
  switch (kind) {
    case ActionKind::kLongClick:
      return "long";
    case ActionKind::kScrollUp:
    case ActionKind::kScrollDown:
    case ActionKind::kScrollLeft:
    case ActionKind::kScrollRight:
      return "scroll";
    case ActionKind::kSwipeUp:
    case ActionKind::kSwipeDown:
    case ActionKind::kSwipeLeft:
    case ActionKind::kSwipeRight:
      return "swipe";
    case ActionKind::kInputText:
      return "edit";
    default:
      return "";
  }
}

}  // namespace

std::string EventLabel(const gui::Screen& screen, const gui::Action& action) {
  const gui::Widget* w = WidgetOf(screen, action);
  if (!w) return std::string(gui::ActionKindName(action.kind));
  if (!w->text.empty()) return w->text;
  if (!w->content_desc.empty()) return w->content_desc;
  if (!w->resource_id.empty()) return std::string(gui::ShortId(w->resource_id));
  return w->cls + "@" + (action.target ? action.target->path : std::string());
}

std::vector<std::string> EventWords(const gui::Screen& screen, const gui::Action& action) {
  const gui::Widget* w = WidgetOf(screen, action);
  if (!w) return gui::LabelWords(gui::ActionKindName(action.kind));  // "swipe_up": swipe, up
  std::vector<std::string> words;
  if (std::string_view k = KindWord(action.kind); !k.empty()) words.emplace_back(k);
  for (auto& word : gui::LabelWords(!w->text.empty() ? w->text : w->content_desc))
    words.push_back(std::move(word));
  for (auto& word : gui::LabelWords(gui::ShortId(w->resource_id))) words.push_back(std::move(word));
  return words;
}

EventGraph::Vertex EventGraph::VertexOf(std::string_view activity, gui::ActionKind kind,
                                        std::string_view label) {
  uint64_t key =
      gui::StableHash().Add(activity).Add(static_cast<uint64_t>(kind)).AddMasked(label, 64).value();
  auto [it, added] = vertex_index_.emplace(key, static_cast<Vertex>(count_.size()));
  if (added) {
    count_.push_back(0);
    children_.emplace_back();
    vertex_mark_.push_back(0);
  }
  return it->second;
}

EventGraph::Page EventGraph::PageOf(std::string_view activity, std::vector<Vertex> vertices) {
  std::sort(vertices.begin(), vertices.end());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  gui::StableHash h;
  h.Add(activity);
  for (Vertex v : vertices) h.Add(static_cast<uint64_t>(v));
  auto [it, added] = page_index_.emplace(h.value(), static_cast<Page>(pages_.size()));
  if (added) {
    pages_.push_back(std::move(vertices));
    page_mark_.push_back(0);
  }
  return it->second;
}

void EventGraph::AddEdge(Vertex v, Page child) {
  auto& c = children_[v];
  if (std::find(c.begin(), c.end(), child) == c.end()) c.push_back(child);
}

void EventGraph::ChildHistograms(Vertex v, int generations, int length, float* out) const {
  std::fill(out, out + generations * length, 0.0f);
  // Each generation counts its distinct events once; a page or event met in an earlier
  // generation is met again in a later one only through the edges (the paper's tree of pages).
  std::vector<Page> frontier = children_[v], next;
  for (int g = 0; g < generations && !frontier.empty(); ++g) {
    if (++mark_ == 0) {  // wrapped: clear the marks once
      std::fill(vertex_mark_.begin(), vertex_mark_.end(), 0);
      std::fill(page_mark_.begin(), page_mark_.end(), 0);
      mark_ = 1;
    }
    float* hist = out + g * length;
    next.clear();
    for (Page p : frontier) {
      for (Vertex u : pages_[p]) {
        if (vertex_mark_[u] == mark_) continue;
        vertex_mark_[u] = mark_;
        hist[std::min(count_[u], length - 1)] += 1;
        if (g + 1 < generations)
          for (Page q : children_[u])
            if (page_mark_[q] != mark_) {
              page_mark_[q] = mark_;
              next.push_back(q);
            }
      }
    }
    frontier.swap(next);
  }
}

std::vector<std::string> FeatureNames(const DqnFeatures& f) {
  std::vector<std::string> names;
  if (f.fcr) names.push_back("fcr");
  if (f.fcd) names.push_back("fcd");
  if (f.txc) names.push_back("txc");
  return names;
}

Result<DqnFeatures> FeaturesNamed(const std::vector<std::string>& names) {
  DqnFeatures f{.fcr = false, .fcd = false, .txc = false};
  for (const auto& name : names) {
    if (name == "fcr") {
      f.fcr = true;
    } else if (name == "fcd") {
      f.fcd = true;
    } else if (name == "txc") {
      f.txc = true;
    } else {
      return Status::InvalidArgument(
          fmt::format("dqn.features: unknown feature \"{}\" (fcr, fcd, txc)", name));
    }
  }
  return f;
}

void EventRow(const EventGraph& graph, EventGraph::Vertex v, const std::vector<std::string>& words,
              const WordVectors& vectors, const DqnShape& shape, float* out,
              const DqnFeatures& features) {
  out[0] = features.fcr ? std::log1p(static_cast<float>(graph.Count(v))) : 0.0f;
  float* fcd = out + 1;
  if (features.fcd) {
    graph.ChildHistograms(v, shape.generations, shape.histogram, fcd);
    for (int i = 0; i < shape.fcd_width(); ++i) fcd[i] = std::log1p(fcd[i]);
  } else {
    std::fill(fcd, fcd + shape.fcd_width(), 0.0f);
  }
  float* txc = fcd + shape.fcd_width();
  std::fill(txc, txc + shape.txc_width(), 0.0f);
  const int n = features.txc ? std::min(static_cast<int>(words.size()), shape.words) : 0;
  for (int i = 0; i < n; ++i) vectors.Lookup(words[i], txc + i * shape.dim);
}

}  // namespace roam::explore
