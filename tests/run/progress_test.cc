// The progress line (issue 62 item 2): within the terminal's width however large the figures,
// the least telling parts dropped first; the share of the budget and the time left of whichever
// budget runs out first; how long since something new was seen. A line that is not for a
// terminal keeps every part.
#include "run/progress.h"

#include <gtest/gtest.h>

namespace roam::run {
namespace {

ProgressFigures Large() {
  ProgressFigures f;
  f.events = 123456;
  f.max_events = 300000;
  f.elapsed = 61.5;
  f.states = 4321;
  f.activities = 17;
  f.activities_total = 42;
  f.units_covered = 12345;
  f.units_total = 67890;
  f.crashes = 12;
  f.anrs = 3;
  f.relaunches = 9876;
  f.extra = {"reports 7", "violations 1234", "mutants 98765/123456 (1234.5/s, 12 dropped)",
             "seeds 321"};
  return f;
}

TEST(ProgressLine, FitsTheWidthDroppingTheLeastTellingFirst) {
  const ProgressFigures f = Large();
  const std::string whole = ProgressLine(f, 12, 0);
  ASSERT_GT(whole.size(), 150u) << whole;  // the case the width is for
  for (const std::string part : {"seeds 321", "ev/s", "relaunches 9876", "mutants 98765"})
    EXPECT_NE(whole.find(part), std::string::npos) << whole;
  const std::string fitted = ProgressLine(f, 12, 99);
  EXPECT_LE(fitted.size(), 99u) << fitted;
  for (const std::string kept :
       {"[   61.5s]", "41%", "1m28s left", "events 123456/300000", "crashes 12", "anrs 3"})
    EXPECT_NE(fitted.find(kept), std::string::npos) << fitted;
  const std::string wider = ProgressLine(f, 12, 150);
  EXPECT_LE(wider.size(), 150u) << wider;
  for (const std::string kept : {"states 4321", "activities 17/42", "reports 7", "new 12s ago"})
    EXPECT_NE(wider.find(kept), std::string::npos) << wider;
  for (const std::string dropped : {"seeds 321", "ev/s", "relaunches"})
    EXPECT_EQ(wider.find(dropped), std::string::npos) << wider;
  EXPECT_LE(ProgressLine(f, 12, 40).size(), 40u);
}

TEST(ProgressLine, SaysTheShareAndTimeLeftOfTheBudgetThatRunsOutFirst) {
  ProgressFigures f;
  f.events = 1000;
  f.max_events = 0;
  f.max_seconds = 4;
  f.elapsed = 1;
  EXPECT_NE(ProgressLine(f, -1, 0).find("25%  3s left"), std::string::npos)
      << ProgressLine(f, -1, 0);
  f.max_events = 2000;  // half the events in a quarter of the time: the events run out first
  EXPECT_NE(ProgressLine(f, -1, 0).find("50%  1s left"), std::string::npos)
      << ProgressLine(f, -1, 0);
  f.phone_seconds = 3;  // a time budget on a phone's clock counts the phone's seconds
  f.max_events = 0;
  EXPECT_NE(ProgressLine(f, -1, 0).find("75%  1s left"), std::string::npos)
      << ProgressLine(f, -1, 0);
  EXPECT_NE(ProgressLine(f, 125, 0).find("new 2m05s ago"), std::string::npos);
  EXPECT_EQ(ProgressLine(f, -1, 0).find("new "), std::string::npos);
}

}  // namespace
}  // namespace roam::run
