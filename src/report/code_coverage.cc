#include "report/code_coverage.h"

#include <fmt/format.h>

#include "base/json_fields.h"

namespace roam::report {

namespace {

struct CounterField {
  const char* key;
  CoverageCounter CoverageCounters::*field;
};
constexpr CounterField kCounterFields[] = {{"instruction", &CoverageCounters::instruction},
                                           {"branch", &CoverageCounters::branch},
                                           {"line", &CoverageCounters::line},
                                           {"method", &CoverageCounters::method},
                                           {"class", &CoverageCounters::klass}};

}  // namespace

nlohmann::json CountersToJson(const CoverageCounters& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const CounterField& f : kCounterFields)
    j[f.key] = {{"missed", (c.*f.field).missed}, {"covered", (c.*f.field).covered}};
  return j;
}

Status CountersFromJson(const nlohmann::json& object, const std::string& where,
                        CoverageCounters& out) {
  if (!object.is_object()) return Status::Corruption(fmt::format("{}: not an object", where));
  for (const CounterField& f : kCounterFields) {
    const std::string at = fmt::format("{}.{}", where, f.key);
    auto it = object.find(f.key);
    if (it == object.end() || !it->is_object())
      return Status::Corruption(fmt::format("{}: missing", at));
    CoverageCounter& c = out.*f.field;
    ROAM_RETURN_IF_ERROR(ReadField(*it, "missed", c.missed, at));
    ROAM_RETURN_IF_ERROR(ReadField(*it, "covered", c.covered, at));
  }
  return Status::Ok();
}

}  // namespace roam::report
