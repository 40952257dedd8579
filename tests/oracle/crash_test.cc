#include "oracle/crash.h"

#include <gtest/gtest.h>

namespace roam::oracle {
namespace {

device::Event Crash(std::string exception, std::vector<std::string> frames) {
  device::Event e;
  e.exception = std::move(exception);
  e.frames = std::move(frames);
  return e;
}

TEST(NormaliseFrame, DropsLineNumbersLambdasAndAnonymousClasses) {
  EXPECT_EQ(NormaliseFrame("org.app.Edit.save(Edit.java:42)"), "org.app.Edit.save");
  EXPECT_EQ(NormaliseFrame("at org.app.Edit$1.onClick(Edit.java:12)"), "org.app.Edit.onClick");
  EXPECT_EQ(NormaliseFrame("org.app.Edit.lambda$onCreate$0(Edit.java:7)"), "org.app.Edit.onCreate");
  EXPECT_EQ(NormaliseFrame("org.app.Edit$Holder.bind(Edit.java:3)"), "org.app.Edit$Holder.bind");
  EXPECT_EQ(NormaliseFrame("org.app.Edit$$ExternalSyntheticLambda0.run(Unknown Source:2)"),
            "org.app.Edit.run");
}

TEST(CrashSignature, UsesExceptionAndTopAppFrames) {
  auto e = Crash("java.lang.NullPointerException",
                 {"android.widget.TextView.setText(TextView.java:1)", "org.app.A.a(A.java:1)",
                  "org.app.B.b(B.java:2)", "org.app.C.c(C.java:3)", "org.app.D.d(D.java:4)"});
  EXPECT_EQ(CrashSignature(e, "org.app", 3),
            "java.lang.NullPointerException@org.app.A.a<org.app.B.b<org.app.C.c");
}

TEST(CrashSignature, FallsBackToFrameworkFramesWhenNoAppFrame) {
  auto e = Crash("java.lang.IllegalStateException", {"android.os.Looper.loop(Looper.java:1)"});
  EXPECT_EQ(CrashSignature(e, "org.app", 3),
            "java.lang.IllegalStateException@android.os.Looper.loop");
}

TEST(CrashSignature, PackagePrefixMustEndAtADot) {
  auto e = Crash("E", {"org.apple.X.x(X.java:1)", "org.app.Y.y(Y.java:1)"});
  EXPECT_EQ(CrashSignature(e, "org.app", 3), "E@org.app.Y.y");
}

TEST(CrashOracle, DeduplicatesAcrossLineNumbersAndCounts) {
  CrashOracle oracle("org.app");
  auto first = oracle.Observe(Crash("E", {"org.app.A.a(A.java:1)"}), 10);
  auto again = oracle.Observe(Crash("E", {"org.app.A.a(A.java:99)"}), 20);
  auto other = oracle.Observe(Crash("F", {"org.app.A.a(A.java:1)"}), 30);
  EXPECT_TRUE(first.is_new);
  EXPECT_FALSE(again.is_new);
  EXPECT_TRUE(other.is_new);
  ASSERT_EQ(oracle.findings().size(), 2u);
  EXPECT_EQ(oracle.findings()[0].count, 2);
  EXPECT_EQ(oracle.findings()[0].first_step, 10);
  EXPECT_EQ(oracle.findings()[1].signature, "F@org.app.A.a");
}

// The step executor hands each action's reports to the oracle through Oracle::Hear: every report
// is named for the trace, and a signature first met is a finding carrying the report.
TEST(CrashOracle, HearsReportsAsTheExecutorHandsThem) {
  CrashOracle crashes("org.app");
  Oracle& oracle = crashes;
  const std::vector<device::Event> reports = {Crash("E", {"org.app.A.a(A.java:1)"}),
                                              Crash("E", {"org.app.A.a(A.java:7)"})};
  Verdict verdict;
  oracle.Hear({.events = 42, .reports = &reports}, verdict);
  EXPECT_EQ(verdict.failures,
            (std::vector<std::string>{"crash E@org.app.A.a", "crash E@org.app.A.a"}));
  EXPECT_EQ(verdict.signatures, (std::vector<std::string>{"E@org.app.A.a", "E@org.app.A.a"}));
  ASSERT_EQ(verdict.found.size(), 1u);
  EXPECT_EQ(verdict.found[0].kind, "crash");
  EXPECT_EQ(verdict.found[0].first_step, 42);
  ASSERT_TRUE(verdict.found[0].report.has_value());
  EXPECT_EQ(verdict.found[0].report->frames, reports[0].frames);
  EXPECT_EQ(crashes.findings()[0].count, 2);

  Verdict later;
  oracle.Hear({.events = 50, .reports = &reports}, later);
  EXPECT_EQ(later.failures.size(), 2u);
  EXPECT_TRUE(later.found.empty());  // known already
}

TEST(CrashOracle, AnrsWithoutStackAreToldApartByReasonAndCountedSeparately) {
  CrashOracle oracle("org.app");
  device::Event anr;
  anr.kind = device::Event::Kind::kAnr;
  anr.message = "Input dispatching timed out (5001 ms)";
  oracle.Observe(anr, 1);
  anr.message = "Input dispatching timed out (5003 ms)";
  EXPECT_FALSE(oracle.Observe(anr, 2).is_new);
  oracle.Observe(Crash("E", {"org.app.A.a(A.java:1)"}), 3);
  EXPECT_EQ(oracle.CountOf(device::Event::Kind::kAnr), 1u);
  EXPECT_EQ(oracle.CountOf(device::Event::Kind::kCrash), 1u);
}

}  // namespace
}  // namespace roam::oracle
