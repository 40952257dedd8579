// report/summary_sections: the names of summary.json's sections (a campaign's own top-level keys,
// Summary::sections) in one table that the writer and the reader both use: WriteSummary refuses a
// section not named here, and SummaryFromJson reads a key of no field and no section as an error.
// Constant data; thread-safe.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace roam::report {

struct SummarySection {
  std::string_view name;  // the top-level key
  std::string_view what;  // what it holds, and who writes it
};

// Every section a Roam has written, so every earlier summary.json reads. A new section is a line
// here (and in docs/exploring.md) before a campaign writes it.
inline constexpr SummarySection kSummarySections[] = {
    {"fuzz", "roam fuzz: seeds, mutants and violations (run/fuzz/fuzz.cc, FuzzStatsJson)"},
    {"vision", "roam vision: requests, retries, fallbacks, tokens (run/vision/vision_report.cc)"},
    {"devices", "a run on several devices: each one's figures and end (run/explore/fleet.cc)"},
    {"properties", "--properties: each property's figures (PropertyOracle::Figures, run/oracles)"},
    {"faults", "roam sim serve --faults: the spec, what happened, a log (cli/serve_command.cc)"},
    {"process_starts", "roam sim serve: device-side process starts by command (run/serve_summary)"},
    {"process_starts_per_event", "roam sim serve: process starts per input event (serve_summary)"},
    {"uia2_servers_running", "roam sim serve: UiAutomator2 servers left running (serve_summary)"},
    {"settling", "roam sim serve: answers given, and acted on, mid-settling (serve_summary)"},
    {"dialogs", "roam sim serve --dialogs: system dialogs shown and closed (serve_summary)"},
};

inline bool IsSummarySection(std::string_view name) {
  return std::ranges::any_of(kSummarySections,
                             [&](const SummarySection& s) { return s.name == name; });
}

// The table's names, in its order (for "did you mean").
inline std::vector<std::string> SummarySectionNames() {
  std::vector<std::string> names;
  for (const SummarySection& s : kSummarySections) names.emplace_back(s.name);
  return names;
}

}  // namespace roam::report
