#include "oracle/kinds.h"

#include "oracle/property.h"

namespace roam::oracle {

namespace {

constexpr OracleKind kOracleKinds[] = {
    {.name = "properties",
     .help = "JSON properties of the app checked as the run goes: a precondition, an "
             "interaction, what must hold after (docs/properties.md)",
     .bug_kind = "property",
     .folder = "P",
     .read = ReadPropertiesOracle,
     .recheck = RecheckProperty,
     .merge = MergePropertyFigures},
};

}  // namespace

std::span<const OracleKind> OracleKinds() { return kOracleKinds; }

const OracleKind* OracleKindOfBug(std::string_view bug_kind) {
  for (const auto& k : kOracleKinds)
    if (k.bug_kind == bug_kind) return &k;
  return nullptr;
}

}  // namespace roam::oracle
