#include "explore/dqn_graph.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gui/actions.h"

namespace roam::explore {
namespace {

using gui::ActionKind;

std::vector<float> Histograms(const EventGraph& g, EventGraph::Vertex v) {
  std::vector<float> out(30);
  g.ChildHistograms(v, 3, 10, out.data());
  return out;
}

std::vector<float> Gen(const std::vector<float>& all, int g) {
  return {all.begin() + g * 10, all.begin() + (g + 1) * 10};
}

// The paper's example (3.2.1): a generation of 20 events, 12 never executed and 8 executed
// twice, is [12, 0, 8, 0, 0, 0, 0, 0, 0, 0].
TEST(DqnGraph, FcdOfThePapersExample) {
  EventGraph g;
  auto v = g.VertexOf(".Main", ActionKind::kClick, "OK");
  std::vector<EventGraph::Vertex> child;
  for (int i = 0; i < 20; ++i)
    child.push_back(g.VertexOf(".Next", ActionKind::kClick, "item " + std::string(1, 'a' + i)));
  auto page = g.PageOf(".Next", child);
  g.AddEdge(v, page);
  for (int i = 0; i < 8; ++i) {
    g.Executed(child[i]);
    g.Executed(child[i]);
  }
  auto h = Histograms(g, v);
  EXPECT_EQ(Gen(h, 0), (std::vector<float>{12, 0, 8, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(Gen(h, 1), std::vector<float>(10, 0));  // no grandchildren yet

  // Generation 2: the pages generation 1's events led to. One of three events executed once;
  // an event executed 12 times lands in the last entry.
  std::vector<EventGraph::Vertex> grand = {g.VertexOf(".Far", ActionKind::kClick, "x"),
                                           g.VertexOf(".Far", ActionKind::kClick, "y"),
                                           g.VertexOf(".Far", ActionKind::kClick, "z")};
  g.AddEdge(child[0], g.PageOf(".Far", grand));
  g.Executed(grand[0]);
  for (int i = 0; i < 12; ++i) g.Executed(grand[1]);
  h = Histograms(g, v);
  EXPECT_EQ(Gen(h, 1), (std::vector<float>{1, 1, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(Gen(h, 2), std::vector<float>(10, 0));
  EXPECT_EQ(g.Count(v), 0);
  g.Executed(v);
  EXPECT_EQ(g.Count(v), 1);
}

// A generation counts each event once, though two of its pages show it.
TEST(DqnGraph, AnEventOnTwoChildPagesCountsOnce) {
  EventGraph g;
  auto v = g.VertexOf(".A", ActionKind::kClick, "go");
  auto shared = g.VertexOf(".B", ActionKind::kClick, "Save");
  auto p1 = g.PageOf(".B", {shared, g.VertexOf(".B", ActionKind::kClick, "one")});
  auto p2 = g.PageOf(".B", {shared, g.VertexOf(".B", ActionKind::kClick, "two")});
  g.AddEdge(v, p1);
  g.AddEdge(v, p2);
  g.AddEdge(v, p2);  // an edge twice is one edge
  EXPECT_EQ(Gen(Histograms(g, v), 0)[0], 3);
}

// Compaction: events of one activity with the same text are one vertex, whatever screen shows
// them; the same text in another activity, or another action on it, is another vertex.
TEST(DqnGraph, EventsOfOneActivityWithOneTextAreOneVertex) {
  EventGraph g;
  auto a = g.VertexOf(".List", ActionKind::kClick, "Delete");
  EXPECT_EQ(g.VertexOf(".List", ActionKind::kClick, "Delete"), a);
  EXPECT_NE(g.VertexOf(".Other", ActionKind::kClick, "Delete"), a);
  EXPECT_NE(g.VertexOf(".List", ActionKind::kLongClick, "Delete"), a);
  // Numbers are masked: "3 items" and "4 items" are one event.
  EXPECT_EQ(g.VertexOf(".List", ActionKind::kClick, "3 items"),
            g.VertexOf(".List", ActionKind::kClick, "4 items"));
  // A page is its set of vertices: order and repeats do not matter.
  auto b = g.VertexOf(".List", ActionKind::kClick, "Add");
  EXPECT_EQ(g.PageOf(".List", {a, b}), g.PageOf(".List", {b, a, b}));
  EXPECT_NE(g.PageOf(".List", {a, b}), g.PageOf(".List", {a}));
  EXPECT_EQ(g.page_count(), 2u);
}

gui::Screen OneButton(const std::string& text, const std::string& rid) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = ".Main";
  gui::Widget w;
  w.cls = "android.widget.Button";
  w.text = text;
  w.resource_id = rid;
  w.clickable = true;
  w.long_clickable = true;
  w.package = "org.app";
  w.bounds = {0, 0, 100, 100};
  s.widgets.push_back(w);
  s.Link();
  return s;
}

TEST(DqnGraph, EventWordsReadTextThenResourceId) {
  auto screen = OneButton("Save note", "org.app:id/btnSaveNote");
  auto click = gui::MakeWidgetAction(ActionKind::kClick, screen, 0);
  EXPECT_EQ(EventWords(screen, click),
            (std::vector<std::string>{"save", "note", "btn", "save", "note"}));
  EXPECT_EQ(EventWords(screen, gui::MakeWidgetAction(ActionKind::kLongClick, screen, 0)).front(),
            "long");
  EXPECT_EQ(EventWords(screen, gui::MakeGlobalAction(ActionKind::kBack)),
            std::vector<std::string>{"back"});
  EXPECT_EQ(EventLabel(screen, click), "Save note");
  auto icon = OneButton("", "org.app:id/fab");
  EXPECT_EQ(EventLabel(icon, gui::MakeWidgetAction(ActionKind::kClick, icon, 0)), "fab");
}

TEST(DqnGraph, RowsHoldLogCountsAndWordVectorsPaddedWithZeros) {
  auto vectors = WordVectors::Parse("2 3\nsave 1 2 3\nnote 0.5 0 -1\n", "test.vec");
  ASSERT_TRUE(vectors.ok()) << vectors.status().message();
  DqnShape shape{.words = 4, .dim = 3, .generations = 3, .histogram = 10};
  EventGraph g;
  auto v = g.VertexOf(".Main", ActionKind::kClick, "Save note");
  g.Executed(v);
  g.Executed(v);
  g.Executed(v);
  std::vector<float> row(shape.width(), -7.0f);
  EventRow(g, v, {"save", "note", "qwzx"}, *vectors, shape, row.data());
  EXPECT_FLOAT_EQ(row[0], std::log1p(3.0f));
  for (int i = 1; i <= shape.fcd_width(); ++i) EXPECT_EQ(row[i], 0.0f) << i;  // no children
  const float* txc = row.data() + 1 + shape.fcd_width();
  EXPECT_EQ(std::vector<float>(txc, txc + 3), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(std::vector<float>(txc + 3, txc + 6), (std::vector<float>{0.5f, 0, -1}));
  // An unknown word: a vector of its own, not zeros; the fourth word is padding.
  std::vector<float> unknown(txc + 6, txc + 9);
  EXPECT_NE(unknown, std::vector<float>(3, 0.0f));
  EXPECT_EQ(std::vector<float>(txc + 9, txc + 12), std::vector<float>(3, 0.0f));
}

// --dqn-features: a feature switched off is zeros in every row (the paper's ablations); the
// others are as with all three on.
TEST(DqnGraph, AFeatureSwitchedOffIsZerosInTheRow) {
  auto vectors = WordVectors::Parse("1 3\nsave 1 2 3\n", "test.vec");
  ASSERT_TRUE(vectors.ok()) << vectors.status().message();
  DqnShape shape{.words = 2, .dim = 3, .generations = 2, .histogram = 2};
  EventGraph g;
  auto v = g.VertexOf(".Main", ActionKind::kClick, "Save");
  auto child = g.VertexOf(".Other", ActionKind::kClick, "Save");
  g.Executed(v);
  g.AddEdge(v, g.PageOf(".Other", {child}));
  auto row = [&](DqnFeatures f) {
    std::vector<float> r(shape.width(), -7.0f);
    EventRow(g, v, {"save"}, *vectors, shape, r.data(), f);
    return r;
  };
  const std::vector<float> all = row({});
  const float* fcd = all.data() + 1;
  ASSERT_GT(all[0], 0.0f);
  ASSERT_TRUE(std::any_of(fcd, fcd + shape.fcd_width(), [](float x) { return x != 0; }));
  auto zeros = [](const std::vector<float>& r, int from, int count) {
    return std::all_of(r.begin() + from, r.begin() + from + count, [](float x) { return x == 0; });
  };
  auto same = [&](const std::vector<float>& r, int from, int count) {
    return std::equal(r.begin() + from, r.begin() + from + count, all.begin() + from);
  };
  const int txc = 1 + shape.fcd_width();
  auto no_fcr = row({.fcr = false});
  EXPECT_TRUE(zeros(no_fcr, 0, 1));
  EXPECT_TRUE(same(no_fcr, 1, shape.width() - 1));
  auto no_fcd = row({.fcd = false});
  EXPECT_TRUE(zeros(no_fcd, 1, shape.fcd_width()));
  EXPECT_TRUE(same(no_fcd, 0, 1) && same(no_fcd, txc, shape.txc_width()));
  auto no_txc = row({.txc = false});
  EXPECT_TRUE(zeros(no_txc, txc, shape.txc_width()));
  EXPECT_TRUE(same(no_txc, 0, txc));

  EXPECT_EQ(FeatureNames({.fcd = false}), (std::vector<std::string>{"fcr", "txc"}));
  auto named = FeaturesNamed({"txc", "fcr"});
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(*named, (DqnFeatures{.fcd = false}));
  auto bad = FeaturesNamed({"fcx"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("\"fcx\""), std::string::npos);
}

}  // namespace
}  // namespace roam::explore
