// Internal to run/fuzz*.cc: one seed/mutant case as it is re-checked (scoring, replay), the
// bugs/F<n>/ folder and the explanation in words, and the run's summary section and config.json
// keys. Single-threaded.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/device.h"
#include "fuzz/independent_view.h"
#include "fuzz/mutants.h"
#include "run/fuzz/fuzz.h"
#include "run/fuzz/fuzz_exec.h"
#include "run/replay_spec.h"

namespace roam::run {

// A seed and one of its mutants, as events.
struct FuzzCase {
  std::vector<fuzz::Event> seed_events;
  std::vector<fuzz::Event> mutant_events;
  int pivot = 0;
  int tau_length = 0;
};

// The plan of a mutant: the seed with τ inserted before event `pivot`; the seed's events are
// marked exact (they must find their own targets).
std::vector<fuzz::Event> MutantPlan(const std::vector<fuzz::Event>& seed, int pivot,
                                    const std::vector<fuzz::Event>& tau);

// The events of a mutant's run (MutantPlan), ending where τ ended away from the pivot (its last
// layout less like the pivot's than settings.min_pivot_similarity: fuzz::ReturnedToPivot): the
// rest of the seed does not apply there, and the mutant is dropped.
NextEvent MutantEvents(const std::vector<fuzz::Event>& seed, int pivot,
                       const std::vector<fuzz::Event>& tau, const fuzz::MutantSettings& settings);

// `events` with every event marked exact.
std::vector<fuzz::Event> Exact(std::vector<fuzz::Event> events);

// Runs the seed three times (views that differ between the runs, or in the mutant's copy of the
// seed's prefix, are ignored) and the mutant on `device` from cleared data, and applies the
// independent-view check, as `roam fuzz` does before it reports. Unbounded budget.
Result<std::optional<fuzz::Violation>> CheckCase(device::Device& device, const FuzzCase& c,
                                                 const fuzz::IndependentViewSettings& settings,
                                                 int signature_frames);

nlohmann::json EventToJson(const fuzz::Event& e);
Result<fuzz::Event> EventFromJson(const nlohmann::json& j);
nlohmann::json EventsToJson(const std::vector<fuzz::Event>& events);
// Reads an array of events; errors start with `where`.
Result<std::vector<fuzz::Event>> EventsFromJson(const nlohmann::json& a, const std::string& where);

// A functional report's case (pivot, tau_length, seed_events, mutant_events) in bug.json, read
// with its consistency checked; errors start with `where`.
Result<FuzzCase> FunctionalCaseFromJson(const nlohmann::json& j, const std::string& where);
nlohmann::json FunctionalCaseToJson(const FuzzCase& c);

// What bugs/F<n>/ holds.
struct FunctionalReport {
  report::FunctionalFinding finding;
  FuzzCase fuzz_case;
  fuzz::Violation violation;
  const Execution* seed = nullptr;  // the seed's first run
  const Execution* mutant = nullptr;
  ReplaySpec replay;  // how to re-run it (device, app, bugs_off, seed)
};

// summary.json's "fuzz" section.
nlohmann::json FuzzStatsJson(const FuzzStats& stats);
// config.json's keys of a fuzzing campaign (the run folder adds the shared ones).
nlohmann::json FuzzConfig(const FuzzOptions& options);

// The one-paragraph explanation of a violation.
std::string Explain(const FuzzCase& c, const fuzz::Violation& v, const Execution& seed,
                    const Execution& mutant);
// Writes dir/: bug.json, seed.jsonl, mutant.jsonl, seed_before.xml, seed_after.xml,
// mutant_before.xml, mutant_after.xml, diff.json, explanation.txt (each atomically).
Status WriteFunctionalBug(const std::filesystem::path& dir, const FunctionalReport& report);

}  // namespace roam::run
