// explore/dqn_graph: DinoDroid's compacted event-flow graph and the three features it gives an
// event (Zhao et al., "DinoDroid: Testing Android Apps Using Deep Q-Networks", TOSEM 2024, 3.2).
//
// A vertex is an event. The graph is compacted as the paper does: events of one activity that
// carry the same text (and action kind) are one vertex, so a scrolled list or a page met again
// with one widget more does not make fresh, never-executed events. A page is the set of
// vertices a screen offers; an edge runs from an executed vertex to the page it led to.
//   FCR  how often the event (its vertex) was executed;
//   FCD  for generations g = 1..k of the event's children pages (1: the pages it led to; g+1: the
//        pages that the events of generation g led to), a histogram of length L whose entry i
//        counts the generation's distinct events executed i times (the last entry: L-1 or more);
//        the paper's example, 20 events of which 12 never and 8 twice executed, is
//        [12, 0, 8, 0, 0, 0, 0, 0, 0, 0];
//   TXC  the first N words of the event's text and resource-id, each as a word vector, padded
//        with zero vectors.
// The network's input row of an event is [log(1+FCR), log(1+FCD) (k*L), TXC (N*dim)]: the log
// keeps counts in the hundreds from swamping the other inputs. Pure logic; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "explore/word_vectors.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::explore {

struct DqnShape {
  int words = 6;        // N: words of TXC (the paper: 6)
  int dim = 100;        // word-vector length (the vectors' own)
  int generations = 3;  // k of FCD (the paper: 3)
  int histogram = 10;   // L of FCD (the paper: 10)
  int fcd_width() const { return generations * histogram; }
  int txc_width() const { return words * dim; }
  int width() const { return 1 + fcd_width() + txc_width(); }
  bool operator==(const DqnShape&) const = default;

  // The bounds every shape keeps (settings, flags and model files are checked against them).
  static constexpr int kMaxWords = 64, kMaxDim = 4096, kMaxGenerations = 8;
  static constexpr int kMinHistogram = 2, kMaxHistogram = 100;
  bool InBounds() const {
    return words >= 1 && words <= kMaxWords && dim >= 1 && dim <= kMaxDim && generations >= 1 &&
           generations <= kMaxGenerations && histogram >= kMinHistogram &&
           histogram <= kMaxHistogram;
  }
};

// The label an event is known by: its text, else content-desc, else the short resource-id,
// else class and path; global actions by their kind's name.
std::string EventLabel(const gui::Screen& screen, const gui::Action& action);
// The words TXC reads: a kind word for widget actions other than click ("long", "scroll",
// "edit", ...), then the words of the widget's text (or content-desc), then of its resource-id
// after ":id/"; global actions: their kind's words ("back", "menu", "rotate", "restart").
std::vector<std::string> EventWords(const gui::Screen& screen, const gui::Action& action);

class EventGraph {
 public:
  using Vertex = uint32_t;
  using Page = uint32_t;

  // The vertex of an event (made on first sight).
  Vertex VertexOf(std::string_view activity, gui::ActionKind kind, std::string_view label);
  // The page of these vertices in `activity`; order and repeats do not matter.
  Page PageOf(std::string_view activity, std::vector<Vertex> vertices);
  void Executed(Vertex v) { ++count_[v]; }
  // Executing `v` led to `child`.
  void AddEdge(Vertex v, Page child);

  int Count(Vertex v) const { return count_[v]; }
  size_t vertex_count() const { return count_.size(); }
  size_t page_count() const { return pages_.size(); }
  const std::vector<Vertex>& page_vertices(Page p) const { return pages_[p]; }

  // FCD of `v`: generations x length counts, generation-major, into `out`.
  void ChildHistograms(Vertex v, int generations, int length, float* out) const;

 private:
  std::unordered_map<uint64_t, Vertex> vertex_index_;
  std::unordered_map<uint64_t, Page> page_index_;
  std::vector<int> count_;                   // per vertex: FCR
  std::vector<std::vector<Page>> children_;  // per vertex: pages it led to, distinct
  std::vector<std::vector<Vertex>> pages_;   // per page: its distinct vertices, sorted
  // Scratch of ChildHistograms: per vertex and page, the query that last marked it.
  mutable std::vector<uint32_t> vertex_mark_, page_mark_;
  mutable uint32_t mark_ = 0;
};

// The features a row carries (the paper's ablations switch one off): a feature switched off is
// all zeros in every row, so its branch of the network gives a constant and the network's shape
// (and a model file) stays the same.
struct DqnFeatures {
  bool fcr = true;  // the event's own execution count
  bool fcd = true;  // the histograms of its children's generations
  bool txc = true;  // the word vectors of its text
  bool operator==(const DqnFeatures&) const = default;
};

// The names of the features on ("fcr", "fcd", "txc"), as settings and --dqn-features read them.
std::vector<std::string> FeatureNames(const DqnFeatures& features);
// The features named on; an unknown name is an error naming it.
Result<DqnFeatures> FeaturesNamed(const std::vector<std::string>& names);

// Writes the network's input row of vertex `v` (shape.width() floats) into `out`.
void EventRow(const EventGraph& graph, EventGraph::Vertex v, const std::vector<std::string>& words,
              const WordVectors& vectors, const DqnShape& shape, float* out,
              const DqnFeatures& features = {});

}  // namespace roam::explore
