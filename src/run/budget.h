// run/budget: how much a campaign may do, in events sent and in wall time; one type for every
// campaign (explore, fuzz) and for the replays they make. The step executor spends it, the
// campaign loops ask it. Single-threaded; the clock is borrowed and must outlive the budget.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/status.h"

namespace roam::run {

struct BudgetOptions {
  int64_t events = 1000;  // events sent at most; 0: no event budget
  double seconds = 0;     // time at most, in seconds of `clock`; 0: none
  // What `seconds` counts: a phone's clock over the simulator (device/phone_clock.h, --clock
  // phone); null: the run's own clock, the wall's. Borrowed: it must outlive the budget.
  const Clock* clock = nullptr;
};

// A campaign needs at least one budget, both finite and not negative.
Status CheckBudget(const BudgetOptions& options);
// What stops the run, for its first line: "2000 events", "60 s", "60 s or 2000 events,
// whichever comes first" (`clock_name` after the seconds when not "": "60 s of a phone").
std::string DescribeBudget(const BudgetOptions& options, std::string_view clock_name = "");

class Budget {
 public:
  // Starts counting time now. {0, 0} is an unbounded budget (replays, checks).
  explicit Budget(BudgetOptions options, const Clock& clock = SteadyClock::Get());

  static Budget Unbounded() { return Budget({.events = 0, .seconds = 0}); }

  bool Left() const;
  // Which budget ran out: "events" or "time" (meaningful once Left() is false).
  std::string_view SpentOn() const;
  void Spend(int64_t events = 1) { events_ += events; }

  int64_t events() const { return events_; }
  // The share of the budget used so far, 0 to 1: the larger of the events' and the time's (0 for
  // an unbounded budget).
  double Used() const;
  // Seconds of the run's own clock (wall time) since the budget began: what timings measure.
  double Elapsed() const { return clock_.Now() - start_; }
  // Seconds of the clock the time budget counts (options().clock, else the run's own).
  double Spent() const { return budget_clock_.Now() - budget_start_; }
  const BudgetOptions& options() const { return options_; }
  const Clock& clock() const { return clock_; }

 private:
  bool EventsSpent() const { return options_.events > 0 && events_ >= options_.events; }

  BudgetOptions options_;
  const Clock& clock_;
  double start_;
  const Clock& budget_clock_;
  double budget_start_;
  int64_t events_ = 0;
};

}  // namespace roam::run
