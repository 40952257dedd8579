#include "report/trace.h"

#include <fstream>

#include <gtest/gtest.h>

#include "report/summary.h"
#include "test_paths.h"

namespace roam::report {
namespace {

TraceStep ClickStep() {
  TraceStep s;
  s.step = 4;
  s.action.kind = gui::ActionKind::kClick;
  s.action.target = gui::WidgetRef{"0/1/2", {10, 20, 110, 220}};
  s.action.widget = 7;
  s.activity = "org.app.Main";
  s.state = 0xabcdef0123456789ull;
  s.widget_text = "Save \"now\" ✓";
  s.events = {"crash E@org.app.A.a"};
  return s;
}

TEST(Trace, StepsRoundTripThroughJson) {
  TraceStep s = ClickStep();
  auto back = StepFromJson(StepToJson(s));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->step, 4);
  EXPECT_EQ(back->action.kind, gui::ActionKind::kClick);
  EXPECT_EQ(back->action.target, s.action.target);
  EXPECT_EQ(back->action.widget, 7);
  EXPECT_EQ(back->state, s.state);
  EXPECT_EQ(back->widget_text, s.widget_text);
  EXPECT_EQ(back->events, s.events);
}

TEST(Trace, InputTextKeepsEmptyAndAwkwardText) {
  gui::Action a;
  a.kind = gui::ActionKind::kInputText;
  a.text = "";
  auto back = ActionFromJson(ActionToJson(a));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->text, "");
  a.text = "'; rm -rf / $(x) `y`\n日本";
  EXPECT_EQ(ActionFromJson(ActionToJson(a))->text, a.text);
}

TEST(Trace, WriterStreamsAndReaderReadsBack) {
  auto dir = testing::TempDir("trace");
  TraceWriter w;
  ASSERT_TRUE(w.Open(dir / "trace.jsonl").ok());
  ASSERT_TRUE(w.Append({.step = 0, .op = "clear"}).ok());
  ASSERT_TRUE(w.Append(ClickStep()).ok());
  ASSERT_TRUE(w.Close().ok());
  auto steps = ReadTrace(dir / "trace.jsonl");
  ASSERT_TRUE(steps.ok()) << steps.status().message();
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_EQ((*steps)[0].op, "clear");
  EXPECT_EQ((*steps)[1].action.target->path, "0/1/2");
}

TEST(Trace, BadLinesAreReportedWithFileAndLine) {
  auto dir = testing::TempDir("trace_bad");
  std::ofstream(dir / "t.jsonl")
      << "{\"op\":\"clear\"}\n{\"op\":\"act\",\"action\":{\"kind\":\"fly\"}}\n";
  auto steps = ReadTrace(dir / "t.jsonl");
  ASSERT_FALSE(steps.ok());
  EXPECT_NE(steps.status().message().find("t.jsonl:2"), std::string::npos)
      << steps.status().message();
  EXPECT_NE(steps.status().message().find("fly"), std::string::npos);
}

TEST(Summary, BugFolderRoundTrips) {
  auto dir = testing::TempDir("bug");
  BugRecord bug;
  bug.id = "B1";
  bug.failure = {.kind = "crash",
                 .signature = "E@org.app.A.a",
                 .exception = "E",
                 .count = 2,
                 .bug_id = "b-1",
                 .first_step = 9,
                 .bug_dir = "bugs/B1"};
  bug.frames = {"org.app.A.a(A.java:1)"};
  bug.replay = {{"device", "sim"}, {"seed", 5}};
  bug.reproduced = true;
  ASSERT_TRUE(WriteBug(dir / "B1", bug, {ClickStep()}).ok());
  auto back = ReadBug(dir / "B1");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->failure.signature, "E@org.app.A.a");
  EXPECT_EQ(back->failure.bug_id, "b-1");
  EXPECT_EQ(back->replay["seed"], 5);
  EXPECT_EQ(back->reproduced, std::optional<bool>(true));
  EXPECT_EQ(ReadTrace(dir / "B1" / "trace.jsonl")->size(), 1u);
}

TEST(Summary, JsonHasTheDocumentedFields) {
  Summary s;
  s.events = 10;
  s.activities_total = 3;
  s.activities_covered = {"a", "b"};
  s.crashes.push_back({.kind = "crash", .signature = "x", .count = 1, .bug_dir = "bugs/B1"});
  auto written = SummaryToJson(s);
  ASSERT_TRUE(written.ok()) << written.status().message();
  const nlohmann::json& j = *written;
  for (const char* key :
       {"events", "wall_seconds", "strategy", "seed", "app", "activities_total",
        "activities_covered", "units_total", "units_covered", "states", "crashes", "anrs", "bugs"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["bugs"].size(), 1u);
  EXPECT_EQ(j["activities_covered"].size(), 2u);
}

}  // namespace
}  // namespace roam::report
