#include "run/budget.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace roam::run {

std::string DescribeBudget(const BudgetOptions& o, std::string_view clock_name) {
  const std::string seconds =
      fmt::format("{:g} s{}{}", o.seconds, clock_name.empty() ? "" : " of ", clock_name);
  const std::string events = fmt::format("{} events", o.events);
  if (o.seconds > 0 && o.events > 0)
    return fmt::format("{} or {}, whichever comes first", seconds, events);
  return o.seconds > 0 ? seconds : events;
}

Status CheckBudget(const BudgetOptions& o) {
  if (o.events < 0) return Status::InvalidArgument("the event budget must not be negative");
  if (!std::isfinite(o.seconds) || o.seconds < 0)
    return Status::InvalidArgument(
        "the time budget must be a finite number of seconds, at least 0");
  if (o.events == 0 && o.seconds == 0)
    return Status::InvalidArgument("no budget: give --events N and/or --time SECONDS");
  return Status::Ok();
}

Budget::Budget(BudgetOptions options, const Clock& clock)
    : options_(options),
      clock_(clock),
      start_(clock.Now()),
      budget_clock_(options.clock ? *options.clock : clock),
      budget_start_(budget_clock_.Now()) {}

bool Budget::Left() const {
  if (EventsSpent()) return false;
  if (options_.seconds > 0 && Spent() >= options_.seconds) return false;
  return true;
}

double Budget::Used() const {
  double used = 0;
  if (options_.events > 0) used = static_cast<double>(events_) / options_.events;
  if (options_.seconds > 0) used = std::max(used, Spent() / options_.seconds);
  return std::min(used, 1.0);
}

std::string_view Budget::SpentOn() const { return EventsSpent() ? "events" : "time"; }

}  // namespace roam::run
