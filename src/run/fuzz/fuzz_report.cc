// bugs/F<n>/: writing a functional bug folder, explaining it in words, and replaying it; and
// what a fuzzing run keeps of itself (summary.json's "fuzz" section, config.json's keys).
#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "draw/draw.h"
#include "gui/uiautomator.h"
#include "oracle/crash.h"
#include "run/budget.h"
#include "run/executor.h"
#include "run/fuzz/fuzz.h"
#include "run/fuzz/fuzz_internal.h"

namespace roam::run {

using nlohmann::json;

std::vector<fuzz::Event> MutantPlan(const std::vector<fuzz::Event>& seed, int pivot,
                                    const std::vector<fuzz::Event>& tau) {
  std::vector<fuzz::Event> plan(seed.begin(), seed.begin() + pivot);
  plan.insert(plan.end(), tau.begin(), tau.end());
  plan.insert(plan.end(), seed.begin() + pivot, seed.end());
  for (size_t t = 0; t < plan.size(); ++t)
    plan[t].exact = t < static_cast<size_t>(pivot) || t >= static_cast<size_t>(pivot) + tau.size();
  return plan;
}

NextEvent MutantEvents(const std::vector<fuzz::Event>& seed, int pivot,
                       const std::vector<fuzz::Event>& tau, const fuzz::MutantSettings& settings) {
  const int end = pivot + static_cast<int>(tau.size());
  return [plan = MutantPlan(seed, pivot, tau), pivot, end, settings, at_pivot = fuzz::Layout()](
             int t, const fuzz::Layout& layout) mutable -> std::optional<fuzz::Event> {
    if (t == pivot) at_pivot = layout;
    if (t == end && !fuzz::ReturnedToPivot(at_pivot, layout, settings)) return std::nullopt;
    if (t >= static_cast<int>(plan.size())) return std::nullopt;
    return plan[t];
  };
}

std::vector<fuzz::Event> Exact(std::vector<fuzz::Event> events) {
  for (auto& e : events) e.exact = true;
  return events;
}

Result<std::optional<fuzz::Violation>> CheckCase(device::Device& device, const FuzzCase& c,
                                                 const fuzz::IndependentViewSettings& settings,
                                                 int signature_frames) {
  UnboundedRunner executor(device, signature_frames);
  auto first = executor.Run(Exact(c.seed_events));
  if (!first.ok()) return first.status();
  auto second = executor.Run(Exact(c.seed_events));
  if (!second.ok()) return second.status();
  std::vector<fuzz::Event> plan = c.mutant_events;
  for (int t = 0; t < static_cast<int>(plan.size()); ++t)
    plan[t].exact = t < c.pivot || t >= c.pivot + c.tau_length;
  auto mutant = executor.Run(plan);
  if (!mutant.ok()) return mutant.status();
  if (first->unresolved >= 0 || mutant->unresolved >= 0) return std::optional<fuzz::Violation>();
  auto third = executor.Run(Exact(c.seed_events));
  if (!third.ok()) return third.status();
  std::set<std::string> ignored = fuzz::UnstableViews(first->layouts, second->layouts);
  for (const auto& k : fuzz::UnstableViews(first->layouts, third->layouts)) ignored.insert(k);
  const std::span<const fuzz::Layout> prefix(mutant->layouts.data(),
                                             std::min<size_t>(mutant->layouts.size(), c.pivot + 1));
  for (const auto& k : fuzz::UnstableViews(first->layouts, prefix)) ignored.insert(k);
  return fuzz::CheckMutant(first->layouts, first->events, mutant->layouts, mutant->events, c.pivot,
                           c.tau_length, ignored, settings);
}

json EventToJson(const fuzz::Event& e) {
  json j = {{"kind", gui::ActionKindName(e.kind)}};
  if (e.widget()) j["type"] = e.type, j["signature"] = e.signature;
  if (!e.text.empty()) j["text"] = e.text;
  if (!e.row.empty()) j["row"] = e.row;
  return j;  // `exact` is how a plan uses the event, not part of it
}

Result<fuzz::Event> EventFromJson(const json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    return Status::Corruption("an event needs a \"kind\" string: " + JsonExcerpt(j));
  auto kind = gui::ActionKindFromName(j["kind"].get<std::string>());
  if (!kind) return Status::Corruption("unknown event kind " + JsonExcerpt(j["kind"]));
  fuzz::Event e;
  e.kind = *kind;
  for (auto [key, field] : {std::pair{"type", &e.type},
                            {"signature", &e.signature},
                            {"text", &e.text},
                            {"row", &e.row}})
    ROAM_RETURN_IF_ERROR(ReadField(j, key, *field, "event"));
  return e;
}

namespace {

std::string ShortActivity(const std::string& activity) {
  size_t dot = activity.rfind('.');
  return dot == std::string::npos ? activity : activity.substr(dot + 1);
}

// A view string in words, with its real (unmasked) text when `layout` shows it.
std::string DescribeView(const std::string& view, const fuzz::Layout* layout) {
  if (layout) {
    fuzz::Groups groups = fuzz::FindGroups(layout->screen);
    for (int i = 0; i < static_cast<int>(layout->screen.widgets.size()); ++i)
      if (fuzz::ViewString(layout->screen, groups, i) == view) {
        const gui::Widget& w = layout->screen.widgets[i];
        std::string name = !w.text.empty()           ? w.text
                           : !w.content_desc.empty() ? w.content_desc
                                                     : w.resource_id;
        std::string d = fmt::format("'{}'", name);
        if (!w.enabled) d += " (disabled)";
        if (w.checkable || w.checked) d += w.checked ? " (checked)" : " (unchecked)";
        return d;
      }
  }
  return fmt::format("'{}'", view.find('\t') == std::string::npos
                                 ? std::string_view(view)
                                 : fuzz::ContentOfViewString(view));
}

std::string DescribeBag(const fuzz::ViewBag& bag, const fuzz::Layout* layout) {
  if (bag.empty()) return "nothing";
  std::vector<std::string> parts;
  for (const auto& [v, n] : bag)
    parts.push_back(n > 1 ? fmt::format("{} x{}", DescribeView(v, layout), n)
                          : DescribeView(v, layout));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string DescribeEvents(const std::vector<fuzz::Event>& events, size_t from, size_t to) {
  std::vector<std::string> parts;
  for (size_t t = from; t < to && t < events.size(); ++t) parts.push_back(events[t].Describe());
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

json BagToJson(const fuzz::ViewBag& bag) {
  json a = json::array();
  for (const auto& [v, n] : bag) {
    a.push_back({{"view", fuzz::KeyOfViewString(v)},
                 {"content", fuzz::ContentOfViewString(v)},
                 {"count", n}});
  }
  return a;
}

json EffectToJson(const fuzz::Effect& e) {
  return {{"removed", BagToJson(e.removed)},
          {"added", BagToJson(e.added)},
          {"changed", BagToJson(e.changed)}};
}

}  // namespace

json EventsToJson(const std::vector<fuzz::Event>& events) {
  json a = json::array();
  for (const auto& e : events) a.push_back(EventToJson(e));
  return a;
}

Result<std::vector<fuzz::Event>> EventsFromJson(const json& a, const std::string& where) {
  if (!a.is_array()) return Status::Corruption(where + ": not an array of events");
  std::vector<fuzz::Event> out;
  for (const auto& j : a) {
    auto e = EventFromJson(j);
    if (!e.ok()) return e.status().Wrap(where);
    out.push_back(std::move(*e));
  }
  return out;
}

std::string Explain(const FuzzCase& c, const fuzz::Violation& v, const Execution& seed,
                    const Execution& mutant) {
  const int p = c.pivot, len = c.tau_length;
  std::vector<fuzz::Event> tau(mutant.events.begin() + p, mutant.events.begin() + p + len);
  const fuzz::Layout* seed_i = &seed.layouts[v.seed_i];
  const fuzz::Layout* seed_j = &seed.layouts[v.seed_j];
  const fuzz::Layout* mut_i = &mutant.layouts[v.mutant_i];
  const fuzz::Layout* mut_j = &mutant.layouts[v.mutant_j];
  std::string where = ShortActivity(v.activity);
  const bool one_step = v.seed_j - v.seed_i == 1;
  std::string steps = one_step ? fmt::format("step {}", v.seed_j)
                               : fmt::format("steps {}-{}", v.seed_i + 1, v.seed_j);
  const char* has = one_step ? "has" : "have";
  const char* they = one_step ? "it" : "they";
  // Numbers that changed, as "'Like count: 0' to 'Like count: 1'"; "" when none.
  auto changed = [](const fuzz::ViewBag& bag, const fuzz::Layout* from, const fuzz::Layout* to) {
    if (bag.empty()) return std::string();
    std::vector<std::string> parts;
    for (const auto& [view, n] : bag)
      parts.push_back(fmt::format("{} to {}", DescribeView(view, from), DescribeView(view, to)));
    return fmt::format(" and changed {}", fmt::join(parts, ", "));
  };
  std::string missing_changed;
  if (!v.missing.changed.empty()) {
    std::vector<std::string> parts;
    for (const auto& [view, n] : v.missing.changed)
      parts.push_back(
          fmt::format("{} (stayed {})", DescribeView(view, seed_j), DescribeView(view, mut_j)));
    missing_changed = fmt::format(", changed {}", fmt::join(parts, ", "));
  }
  return fmt::format(
      "After inserting {} at step {} of the seed (on {}, before its {}), the seed's {} {} no "
      "longer {} the same effect on {}: in the seed {} removed {} and added {}{}; in the "
      "mutant {} removed {} and added {}{}. Missing from the mutant: removed {}, added {}{}.",
      DescribeEvents(tau, 0, tau.size()), p + 1, ShortActivity(seed.layouts[p].screen.activity),
      p < static_cast<int>(seed.events.size()) ? seed.events[p].Describe() : std::string("end"),
      steps, DescribeEvents(seed.events, v.seed_i, v.seed_j), has, where, they,
      DescribeBag(v.seed_effect.removed, seed_i), DescribeBag(v.seed_effect.added, seed_j),
      changed(v.seed_effect.changed, seed_i, seed_j), they,
      DescribeBag(v.mutant_effect.removed, mut_i), DescribeBag(v.mutant_effect.added, mut_j),
      changed(v.mutant_effect.changed, mut_i, mut_j), DescribeBag(v.missing.removed, seed_i),
      DescribeBag(v.missing.added, seed_j), missing_changed);
}

Status WriteFunctionalBug(const std::filesystem::path& dir, const FunctionalReport& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  const report::FunctionalFinding& f = r.finding;
  const fuzz::Violation& v = r.violation;
  const FuzzCase& c = r.fuzz_case;
  std::vector<std::string> tau;
  for (int t = c.pivot; t < c.pivot + c.tau_length; ++t)
    tau.push_back(c.mutant_events[t].Describe());
  json bug = {{"id", f.id},
              {"kind", "functional"},
              {"violation", f.key},
              {"activity", f.activity},
              {"explanation", f.explanation},
              {"pivot", c.pivot},
              {"tau_length", c.tau_length},
              {"tau", tau},
              {"seed_pair", {v.seed_i, v.seed_j}},
              {"mutant_pair", {v.mutant_i, v.mutant_j}},
              {"seed_events", EventsToJson(c.seed_events)},
              {"mutant_events", EventsToJson(c.mutant_events)},
              {"replay", ReplaySpecToJson(r.replay)}};
  bug["bug_id"] = f.scored && !f.bug_id.empty() ? json(f.bug_id) : json(nullptr);
  ROAM_RETURN_IF_ERROR(WriteJsonFile(dir / "bug.json", bug));
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "seed.jsonl", r.seed->trace));
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "mutant.jsonl", r.mutant->trace));
  // Each compared layout as its dump and as a picture (a picture that cannot be drawn is left
  // out; the dump is the record).
  auto dump = [&](const std::string& name, const fuzz::Layout& l) {
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / (name + ".xml"), gui::WriteDump(l.screen) + "\n"));
    auto png = draw::DrawPng(l.screen);
    return png.ok() ? WriteFileAtomic(dir / (name + ".png"), *png) : Status::Ok();
  };
  ROAM_RETURN_IF_ERROR(dump("seed_before", r.seed->layouts[v.seed_i]));
  ROAM_RETURN_IF_ERROR(dump("seed_after", r.seed->layouts[v.seed_j]));
  ROAM_RETURN_IF_ERROR(dump("mutant_before", r.mutant->layouts[v.mutant_i]));
  ROAM_RETURN_IF_ERROR(dump("mutant_after", r.mutant->layouts[v.mutant_j]));
  json diff = {{"seed_effect", EffectToJson(v.seed_effect)},
               {"mutant_effect", EffectToJson(v.mutant_effect)},
               {"missing", EffectToJson(v.missing)},
               {"excused", v.excused}};
  ROAM_RETURN_IF_ERROR(WriteJsonFile(dir / "diff.json", diff));
  // The views the check's excuses took out of the missing effect before it judged the rest.
  std::string text = f.explanation + "\n";
  if (!v.excused.empty()) {
    text += "\nExcused before judging (excuse (setting): why: views):\n";
    for (const auto& line : v.excused) text += "- " + line + "\n";
  }
  return WriteFileAtomic(dir / "explanation.txt", text);
}

Result<FuzzCase> FunctionalCaseFromJson(const json& j, const std::string& where) {
  FuzzCase c;
  c.pivot = -1;
  c.tau_length = -1;
  ROAM_RETURN_IF_ERROR(ReadField(j, "pivot", c.pivot, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "tau_length", c.tau_length, where));
  auto seed = EventsFromJson(j.value("seed_events", json()), where + ": seed_events");
  if (!seed.ok()) return seed.status();
  auto mutant = EventsFromJson(j.value("mutant_events", json()), where + ": mutant_events");
  if (!mutant.ok()) return mutant.status();
  c.seed_events = std::move(*seed);
  c.mutant_events = std::move(*mutant);
  if (c.pivot < 0 || c.tau_length < 0 ||
      c.mutant_events.size() != c.seed_events.size() + static_cast<size_t>(c.tau_length) ||
      static_cast<size_t>(c.pivot) > c.seed_events.size())
    return Status::Corruption(where + ": pivot, tau_length and the event lists disagree");
  return c;
}

json FunctionalCaseToJson(const FuzzCase& c) {
  return {{"pivot", c.pivot},
          {"tau_length", c.tau_length},
          {"seed_events", EventsToJson(c.seed_events)},
          {"mutant_events", EventsToJson(c.mutant_events)}};
}

Result<ReplayOutcome> ReplayFunctional(const std::filesystem::path& dir, const ReplaySpec& spec,
                                       bool original) {
  const std::string where = (dir / "bug.json").string();
  auto bug = ReadJsonFile(dir / "bug.json");
  if (!bug.ok()) return bug.status();
  ReplayOutcome out;
  ROAM_RETURN_IF_ERROR(ReadField(*bug, "violation", out.expected, where));
  out.words = fuzz::ViolationInWords(out.expected);
  // The minimised case when `roam minimize` left one.
  const bool minimized = !original && bug->contains("minimized") && (*bug)["minimized"].is_object();
  auto c = minimized ? FunctionalCaseFromJson((*bug)["minimized"], where + ": minimized")
                     : FunctionalCaseFromJson(*bug, where);
  if (!c.ok()) return c.status();
  out.trace = minimized ? where + " (minimized)" : where;
  auto device = OpenReplayDevice(spec, dir);
  if (!device.ok()) return device.status();
  auto v = CheckCase(**device, *c, fuzz::IndependentViewSettings{}, spec.signature_frames);
  if (!v.ok()) return v.status();
  out.result.steps_run = static_cast<int64_t>(2 * c->seed_events.size() + c->mutant_events.size());
  if (v->has_value()) out.result.signatures.push_back((*v)->Key());
  out.reproduced = v->has_value() && (*v)->Key() == out.expected;
  out.result.reproduced = out.reproduced;
  return out;
}

// summary.json's "fuzz" section.
json FuzzStatsJson(const FuzzStats& s) {
  return {
      {"seeds", s.seeds},
      {"unstable_seeds", s.unstable_seeds},
      {"ways", s.ways},
      {"ways_failed", s.ways_failed},
      {"seed_scrolls", s.seed_scrolls},
      {"mutants_generated", s.mutants_generated},
      {"mutants_executed", s.mutants_executed},
      {"mutants_dropped", s.mutants_dropped},
      {"restored_mutants", s.restored_mutants},
      {"violations", s.violations},
      {"mutant_seconds", s.mutant_seconds},
      {"mutants_per_second", s.mutant_seconds > 0 ? s.mutants_executed / s.mutant_seconds : 0.0}};
}

// config.json's keys of a fuzzing campaign (the run folder adds the shared ones).
json FuzzConfig(const FuzzOptions& o) {
  return {{"strategy", "genie"},
          {"max_seeds", o.max_seeds},
          {"seeds",
           {{"length", o.seeds.length},
            {"pct_click", o.seeds.pct_click},
            {"pct_long_click", o.seeds.pct_long_click},
            {"pct_navigation", o.seeds.pct_navigation},
            {"pct_scroll", o.seeds.pct_scroll},
            {"pct_dialog_positive", o.seeds.pct_dialog_positive},
            {"pct_app_text", o.seeds.pct_app_text},
            {"pct_fill_forms", o.seeds.pct_fill_forms},
            {"pct_from_reached", o.seeds.pct_from_reached},
            {"max_prefix", o.seeds.max_prefix},
            {"pct_explore", o.seeds.pct_explore},
            {"pct_untested_effect", o.seeds.pct_untested_effect},
            {"pct_stay", o.seeds.pct_stay}}},
          {"mutants",
           {{"max_length", o.mutants.max_length},
            {"max_typed_fields", o.mutants.max_typed_fields},
            {"names_ahead", o.mutants.names_ahead},
            {"max_views_per_group", o.mutants.max_views_per_group},
            {"max_loop_uses", o.mutants.max_loop_uses},
            {"max_per_pivot", o.mutants.max_per_pivot},
            {"max_per_seed", o.mutants.max_per_seed},
            {"candidate_factor", o.mutants.candidate_factor},
            {"try_unseen_clicks", o.mutants.try_unseen_clicks},
            {"min_pivot_similarity", o.mutants.min_pivot_similarity}}},
          {"model", {{"initial_weight", o.model.initial_weight}}},
          {"independent_view",
           {{"excuse_tau_effects", o.independent_view.excuse_tau_effects},
            {"overlay_similarity", o.independent_view.overlay_similarity},
            {"min_pair_similarity", o.independent_view.min_pair_similarity},
            {"attribute_to_rows", o.independent_view.attribute_to_rows},
            {"skip_destructive_tau", o.independent_view.skip_destructive_tau},
            {"skip_tau_left_input", o.independent_view.skip_tau_left_input},
            {"excuse_tau_data", o.independent_view.excuse_tau_data},
            {"count_window_rows", o.independent_view.count_window_rows},
            {"count_tau_effect", o.independent_view.count_tau_effect},
            {"read_windows", o.independent_view.read_windows}}}};
}

}  // namespace roam::run
