// report/code_coverage: JaCoCo's counters of an app's code as its reports give them (covered
// and missed, never a ratio alone), computed from the class files by `roam coverage report` and
// kept in a run's summary.json when the run was given --classfiles. Plain values.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam::report {

struct CoverageCounter {
  int64_t missed = 0;
  int64_t covered = 0;
  int64_t total() const { return missed + covered; }
};

// The counters of one node: the whole, a package or a class.
struct CoverageCounters {
  CoverageCounter instruction, branch, line, method, klass;  // klass: JaCoCo's CLASS counter
};

// {"instruction": {"missed": M, "covered": C}, "branch": ..., "line", "method", "class"}.
nlohmann::json CountersToJson(const CoverageCounters& counters);
// The same shape; errors name `where` and the field ("total.line: missing").
Status CountersFromJson(const nlohmann::json& object, const std::string& where,
                        CoverageCounters& out);

}  // namespace roam::report
