#include "run/triage/minimize.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "base/ddmin.h"
#include "base/files.h"
#include "base/json_fields.h"
#include "fuzz/independent_view.h"
#include "run/fuzz/fuzz_internal.h"
#include "run/oracle_bug.h"
#include "run/replay_spec.h"
#include "run/triage/replay.h"

namespace roam::run {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxLoopFailures = 8;  // loop cuts in a row that fail before ddmin takes over
using nlohmann::json;
using report::TraceStep;

// The characters of UTF-8 `text` (a lead byte and its continuation bytes each), so that a
// shortened text never splits one.
std::vector<std::string> Characters(const std::string& text) {
  std::vector<std::string> out;
  for (char c : text) {
    if (out.empty() || (static_cast<unsigned char>(c) & 0xC0) != 0x80) out.emplace_back();
    out.back() += c;
  }
  return out;
}

size_t TypedChars(const std::vector<TraceStep>& steps) {
  size_t n = 0;
  for (const auto& s : steps)
    if (s.op == "act" && s.action.kind == gui::ActionKind::kInputText)
      n += Characters(s.action.text).size();
  return n;
}

size_t TypedChars(const std::vector<fuzz::Event>& events) {
  size_t n = 0;
  for (const auto& e : events)
    if (e.kind == gui::ActionKind::kInputText) n += Characters(e.text).size();
  return n;
}

// The search's share of the budget: the final check's `repeats` replays are kept out of it, so
// a bug costs at most max(max_replays, 2 * repeats) replays in all.
MinimizeOptions SearchOptions(MinimizeOptions options) {
  options.max_replays = std::max(options.max_replays - options.repeats, options.repeats);
  return options;
}

// Tells whether a candidate reproduces `repeats` times out of `repeats`, each time on a freshly
// opened device, and counts what it spent. Once the budget is spent every candidate is "no".
class Checker {
 public:
  Checker(const MinimizeOptions& options, std::function<Result<bool>()> replay_once)
      : options_(options), replay_once_(std::move(replay_once)) {}

  bool Reproduces() {
    for (int i = 0; i < options_.repeats; ++i) {
      if (exhausted()) return false;
      ++spent_;
      auto r = replay_once_();
      if (!r.ok()) {
        last_error_ = r.status();
        return false;
      }
      if (!*r) return false;
    }
    return true;
  }
  // Replays `repeats` times regardless of the budget; how many reproduced.
  int Verify() {
    int ok = 0;
    for (int i = 0; i < options_.repeats; ++i) {
      ++spent_;
      auto r = replay_once_();
      ok += r.ok() && *r;
    }
    return ok;
  }
  int spent() const { return spent_; }
  bool exhausted() const { return spent_ >= options_.max_replays || stopped(); }
  bool stopped() const { return options_.stop && options_.stop->load(); }
  // After the search: an Aborted error when it was stopped from outside.
  Status Interrupted(const fs::path& dir) const {
    return stopped() ? Status::Aborted(dir.string() +
                                       ": minimising interrupted; the bug keeps "
                                       "its trace")
                     : Status::Ok();
  }
  const Status& last_error() const { return last_error_; }

 private:
  MinimizeOptions options_;
  std::function<Result<bool>()> replay_once_;
  int spent_ = 0;
  Status last_error_;
};

// ddmin over `n` items: `build(keep)` makes the candidate the checker replays from the items
// kept; the smallest one found is built last. True when it is 1-minimal.
bool ShrinkItems(size_t n, const std::function<void(const std::vector<size_t>&)>& build,
                 Checker& checker, int max_tests) {
  auto r = Ddmin(
      n,
      [&](const std::vector<size_t>& keep) {
        build(keep);
        return checker.Reproduces();
      },
      max_tests);
  build(r.kept);
  return r.complete;
}

// Shrinks each text `texts` points at (inside the candidate the checker replays), character by
// character: first to nothing, then by ddmin.
void ShrinkTexts(const std::vector<std::string*>& texts, Checker& checker, int max_tests,
                 bool& complete) {
  for (std::string* text : texts) {
    if (text->empty()) continue;
    const std::vector<std::string> original = Characters(*text);
    text->clear();
    if (checker.Reproduces()) continue;
    auto keep_only = [&](const std::vector<size_t>& keep) {
      text->clear();
      for (size_t k : keep) *text += original[k];
    };
    const bool minimal = ShrinkItems(original.size(), keep_only, checker, max_tests);
    complete = complete && minimal;
  }
}

// Cuts loops out of `items`: a stretch from a screen back to the very same screen (`content`: a
// hash of what the screen before each step showed, by step number) often does nothing the
// failure needs, and random exploration makes many.
// Longest cut first, each checked by `reproduces`; the pass ends after `max_failures` cuts in a
// row that do not reproduce, or when none is left to try. Much cheaper than ddmin on a long
// trace, whose replays each run the whole candidate.
void CutLoops(std::vector<TraceStep>& items, const std::unordered_map<int64_t, uint64_t>& content,
              const std::function<bool(const std::vector<TraceStep>&)>& reproduces,
              int max_failures) {
  // Cuts that failed, by the steps' numbers in the recorded trace: [from, to). A cut that lies
  // mostly inside one of them most likely holds the same needed step, so it is not tried.
  std::vector<std::pair<int64_t, int64_t>> failed;
  auto promising = [&](int64_t from, int64_t to) {
    for (const auto& [f, t] : failed)
      if (2 * (std::min(to, t) - std::max(from, f)) > to - from) return false;
    return true;
  };
  for (int failures = 0; failures < max_failures;) {
    std::unordered_map<uint64_t, size_t> first;
    size_t best_from = 0, best_to = 0;
    for (size_t j = 0; j < items.size(); ++j) {
      auto hash = content.find(items[j].step);
      if (hash == content.end() || hash->second == 0) continue;
      auto [it, fresh] = first.emplace(hash->second, j);
      if (fresh) continue;
      const size_t i = it->second;
      if (j - i > best_to - best_from && promising(items[i].step, items[j].step)) {
        best_from = i;
        best_to = j;
      }
    }
    if (best_to == best_from) return;
    std::vector<TraceStep> cut(items.begin(), items.begin() + best_from);
    cut.insert(cut.end(), items.begin() + best_to, items.end());
    if (reproduces(cut)) {
      items = std::move(cut);
      failures = 0;
    } else {
      failed.push_back({items[best_from].step, items[best_to].step});
      ++failures;
    }
  }
}

// Merges `fields` into bug.json (written whole, atomically).
Status UpdateBugJson(const fs::path& dir, const json& fields) {
  auto j = ReadJsonFile(dir / "bug.json");
  if (!j.ok()) return j.status();
  j->update(fields);
  return WriteJsonFile(dir / "bug.json", *j);
}

std::string Provenance(const MinimizeReport& r, int repeats) {
  return fmt::format("{} steps, minimised from {}; the minimised trace reproduced {} of {} times",
                     r.steps_after, r.steps_before, r.verified, repeats);
}

json ReportJson(const MinimizeReport& r, int repeats) {
  return {{"steps_before", r.steps_before}, {"steps_after", r.steps_after},
          {"text_before", r.text_before},   {"text_after", r.text_after},
          {"replays", r.replays},           {"complete", r.complete},
          {"verified", r.verified},         {"repeats", repeats}};
}

// Writes a minimised trace's files into `dir`: trace.min.jsonl, steps.txt (`title`, how it was
// got, each step in words with what it raised, a line before the step numbered `interaction`)
// and bug.json's "minimized" record, with `more` merged in.
Status WriteMinimized(const fs::path& dir, const std::string& title,
                      const std::vector<TraceStep>& steps, const MinimizeReport& report,
                      int repeats, json more, std::optional<int64_t> interaction = std::nullopt) {
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / kMinimizedTrace, steps));
  std::string text =
      fmt::format("{}\n\nTo reproduce by hand ({}):\n", title, Provenance(report, repeats));
  for (size_t i = 0; i < steps.size(); ++i) {
    if (interaction && steps[i].step == *interaction)
      text += "     (the property's interaction:)\n";
    text += fmt::format("{:>3}. {}", i + 1, report::StepSentence(steps[i]));
    if (!steps[i].events.empty()) text += fmt::format("  -> {}", fmt::join(steps[i].events, "; "));
    text += "\n";
  }
  text += fmt::format("\nReplay: roam replay {}\n", dir.string());
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / "steps.txt", text));
  more["minimized"] = ReportJson(report, repeats);
  more["minimized"]["trace"] = kMinimizedTrace;
  more["minimized"]["steps"] = "steps.txt";
  return UpdateBugJson(dir, more);
}

Result<MinimizeReport> MinimizeCrash(const fs::path& dir, const json& bug, const ReplaySpec& spec,
                                     const MinimizeOptions& options) {
  const std::string where = (dir / "bug.json").string();
  std::string signature, kind;
  ROAM_RETURN_IF_ERROR(ReadField(bug, "signature", signature, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "kind", kind, where));
  auto trace = report::ReadTrace(dir / "trace.jsonl");
  if (!trace.ok()) return trace.status();

  std::vector<TraceStep> candidate;
  std::vector<TraceStep>* annotated = nullptr;
  std::vector<uint64_t>* content = nullptr;
  std::vector<std::pair<size_t, std::string>>* shots = nullptr;
  std::string shots_error;
  int64_t steps_run = 0;
  Checker checker(SearchOptions(options), [&]() -> Result<bool> {
    auto device = OpenReplayDevice(spec, dir);
    if (!device.ok()) return device.status();
    if (annotated) annotated->clear();
    if (content) content->clear();
    if (shots) shots->clear();
    auto r = ReplayBugTrace(**device, spec, signature, candidate,
                            {.annotated = annotated,
                             .content = content,
                             .screenshots = shots,
                             .screenshot_error = &shots_error});
    if (!r.ok()) return r.status();
    steps_run = r->steps_run;
    return r->reproduced;
  });

  MinimizeReport report{
      .kind = kind, .steps_before = trace->size(), .text_before = TypedChars(*trace)};
  // The recorded trace first, cut where the failure shows; what each screen showed is noted.
  candidate = *trace;
  std::vector<uint64_t> hashes;
  content = &hashes;
  const bool reproduces = checker.Reproduces();
  content = nullptr;
  if (!reproduces) {
    ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
    if (!checker.last_error().ok()) return checker.last_error().Wrap("replaying " + where);
    return Status::NotFound(fmt::format(
        "{}: the recorded trace does not reproduce {} {} times out of {} on a fresh device; "
        "nothing to minimise",
        dir.string(), kind, options.repeats, options.repeats));
  }
  std::vector<TraceStep> steps(trace->begin(), trace->begin() + steps_run);
  std::unordered_map<int64_t, uint64_t> content_of;  // by step number
  for (size_t i = 0; i < hashes.size() && i < steps.size(); ++i)
    content_of[steps[i].step] = hashes[i];
  // The clean start stays; ddmin works on the rest.
  size_t head = 0;
  while (head < steps.size() && steps[head].op == "clear") ++head;
  const std::vector<TraceStep> fixed(steps.begin(), steps.begin() + head);
  std::vector<TraceStep> items(steps.begin() + head, steps.end());
  // Loops first (up to half the budget), then ddmin on what is left.
  CutLoops(
      items, content_of,
      [&](const std::vector<TraceStep>& cut) {
        candidate = fixed;
        candidate.insert(candidate.end(), cut.begin(), cut.end());
        return checker.spent() < SearchOptions(options).max_replays / 2 && checker.Reproduces();
      },
      kMaxLoopFailures);
  auto build = [&](const std::vector<size_t>& keep) {
    candidate = fixed;
    for (size_t k : keep) candidate.push_back(items[k]);
  };
  report.complete = ShrinkItems(items.size(), build, checker, options.max_replays);
  std::vector<std::string*> texts;
  for (auto& s : candidate)
    if (s.op == "act" && s.action.kind == gui::ActionKind::kInputText)
      texts.push_back(&s.action.text);
  ShrinkTexts(texts, checker, options.max_replays, report.complete);
  report.complete = report.complete && !checker.exhausted();

  // The result, replayed `repeats` more times; the replay's own view of each step is what a
  // person reads (activity, widget text).
  std::vector<TraceStep> seen;
  annotated = &seen;
  std::vector<std::pair<size_t, std::string>> pictures;
  shots = &pictures;
  ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
  report.verified = checker.Verify();
  report.replays = checker.spent();
  report.steps_after = seen.size();
  report.text_after = TypedChars(seen);
  json shots_fields;
  auto files = WriteStepScreenshots(dir, pictures);
  if (!files.ok()) return files.status();
  shots_fields["screenshots"] = *files;  // now of the minimised trace's steps
  if (!shots_error.empty()) shots_fields["screenshots_unavailable"] = shots_error;
  ROAM_RETURN_IF_ERROR(WriteMinimized(
      dir,
      fmt::format("{} {}: {}\n{}", bug.value("id", ""), kind, signature, bug.value("message", "")),
      seen, report, options.repeats, shots_fields));
  return report;
}

// A user's oracle's bug (bugs/P<n>: oracle/kinds.h): ddmin over the steps before the finding's
// first step (a property's interaction); the clean start and the steps from there stay, and each
// candidate must fail the same way again.
Result<MinimizeReport> MinimizeOracleBug(const fs::path& dir, const json& bug,
                                         const ReplaySpec& spec, const MinimizeOptions& options) {
  const std::string where = (dir / "bug.json").string();
  auto record = ReadOracleBug(bug, where);
  if (!record.ok()) return record.status();
  const oracle::Finding& finding = record->finding;
  const int64_t first_step = finding.first_step;
  auto trace = report::ReadTrace(dir / "trace.jsonl");
  if (!trace.ok()) return trace.status();

  std::vector<TraceStep> candidate;
  Checker checker(SearchOptions(options), [&]() -> Result<bool> {
    auto device = OpenReplayDevice(spec, dir);
    if (!device.ok()) return device.status();
    auto check = RecheckOracleTrace(**device, candidate, *record->kind, finding, spec);
    if (!check.ok()) return check.status();
    return check->Reproduces(finding);
  });
  MinimizeReport report{
      .kind = finding.kind, .steps_before = trace->size(), .text_before = TypedChars(*trace)};
  candidate = *trace;
  if (!checker.Reproduces()) {
    ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
    if (!checker.last_error().ok()) return checker.last_error().Wrap("replaying " + where);
    return Status::NotFound(fmt::format(
        "{}: the recorded trace does not fail the {} again {} times out of {} on a fresh "
        "device; nothing to minimise",
        dir.string(), finding.kind, options.repeats, options.repeats));
  }
  size_t head = 0;
  while (head < trace->size() && (*trace)[head].op == "clear") ++head;
  size_t tail = head;  // the interaction's first step (none for an invariant: the end)
  while (tail < trace->size() && (*trace)[tail].step != first_step) ++tail;
  const std::vector<TraceStep> items(trace->begin() + head, trace->begin() + tail);
  auto build = [&](const std::vector<size_t>& keep) {
    candidate.assign(trace->begin(), trace->begin() + head);
    for (size_t k : keep) candidate.push_back(items[k]);
    candidate.insert(candidate.end(), trace->begin() + tail, trace->end());
  };
  report.complete = ShrinkItems(items.size(), build, checker, options.max_replays);
  report.complete = report.complete && !checker.exhausted();
  ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
  report.verified = checker.Verify();
  report.replays = checker.spent();
  report.steps_after = candidate.size();
  report.text_after = TypedChars(candidate);
  ROAM_RETURN_IF_ERROR(WriteMinimized(
      dir,
      fmt::format("{} {}: {}\n{}", bug.value("id", ""), finding.kind, finding.name, finding.words),
      candidate, report, options.repeats, json::object(), first_step));
  return report;
}

// bugs/F<n>: ddmin over the seed's events before the pivot and τ together; the seed's events from
// the pivot on stay (the check compares what they do).
Result<MinimizeReport> MinimizeFunctional(const fs::path& dir, const json& bug,
                                          const ReplaySpec& spec, const MinimizeOptions& options) {
  const std::string where = (dir / "bug.json").string();
  std::string violation;
  ROAM_RETURN_IF_ERROR(ReadField(bug, "violation", violation, where));
  auto original = FunctionalCaseFromJson(bug, where);
  if (!original.ok()) return original.status();
  const FuzzCase& c0 = *original;
  FuzzCase candidate = c0;
  Checker checker(SearchOptions(options), [&]() -> Result<bool> {
    auto device = OpenReplayDevice(spec, dir);
    if (!device.ok()) return device.status();
    auto v = CheckCase(**device, candidate, fuzz::IndependentViewSettings{}, spec.signature_frames);
    if (!v.ok()) return v.status();
    return v->has_value() && (*v)->Key() == violation;
  });
  MinimizeReport report{.kind = "functional",
                        .steps_before = c0.mutant_events.size(),
                        .text_before = TypedChars(c0.mutant_events)};
  if (!checker.Reproduces()) {
    ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
    if (!checker.last_error().ok()) return checker.last_error().Wrap("replaying " + where);
    return Status::NotFound(fmt::format(
        "{}: the check no longer reports {} on this case {} times out of {}; nothing to minimise",
        dir.string(), Excerpt(violation), options.repeats, options.repeats));
  }
  // Items: the seed's events before the pivot (the same in seed and mutant), then τ, then the
  // seed's events from the pivot on (again in both).
  const size_t prefix = static_cast<size_t>(c0.pivot), tau = static_cast<size_t>(c0.tau_length);
  const size_t suffix = c0.seed_events.size() - prefix;
  auto build = [&](const std::vector<size_t>& keep) {
    candidate = FuzzCase{};
    for (size_t k : keep)
      if (k < prefix) {
        candidate.seed_events.push_back(c0.seed_events[k]);
        candidate.mutant_events.push_back(c0.mutant_events[k]);
        ++candidate.pivot;
      }
    for (size_t k : keep)
      if (k >= prefix && k < prefix + tau) {
        candidate.mutant_events.push_back(c0.mutant_events[k]);
        ++candidate.tau_length;
      }
    for (size_t k : keep)
      if (k >= prefix + tau) {
        candidate.seed_events.push_back(c0.seed_events[k - tau]);
        candidate.mutant_events.push_back(c0.mutant_events[k]);
      }
  };
  report.complete = ShrinkItems(prefix + tau + suffix, build, checker, options.max_replays);
  // Typed text in τ (the prefix's events are the seed's and must stay equal to them).
  std::vector<std::string*> texts;
  for (int t = candidate.pivot; t < candidate.pivot + candidate.tau_length; ++t)
    if (candidate.mutant_events[t].kind == gui::ActionKind::kInputText)
      texts.push_back(&candidate.mutant_events[t].text);
  ShrinkTexts(texts, checker, options.max_replays, report.complete);
  report.complete = report.complete && !checker.exhausted();
  ROAM_RETURN_IF_ERROR(checker.Interrupted(dir));
  report.verified = checker.Verify();
  report.replays = checker.spent();
  report.steps_after = candidate.mutant_events.size();
  report.text_after = TypedChars(candidate.mutant_events);

  std::string text = fmt::format(
      "{} functional: {}\n({})\nAs found, before minimising: {}\n\nTo reproduce by hand ({} "
      "events, minimised from {}; the check reported it {} of {} times):\n",
      bug.value("id", ""), fuzz::ViolationInWords(violation), violation,
      bug.value("explanation", ""), report.steps_after, report.steps_before, report.verified,
      options.repeats);
  text += "  clear the app's data and launch the app, then\n";
  for (size_t i = 0; i < candidate.mutant_events.size(); ++i) {
    const int at = static_cast<int>(i);
    const bool in_tau = at >= candidate.pivot && at < candidate.pivot + candidate.tau_length;
    text += fmt::format("{:>3}. {}{}\n", i + 1, candidate.mutant_events[i].Describe(),
                        in_tau ? "   (inserted: not in the seed)" : "");
  }
  text += fmt::format(
      "The seed is the same list without the inserted events; the two runs should agree on what "
      "the events after the inserted ones do.\n\nReplay: roam replay {}\n",
      dir.string());
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / "steps.txt", text));
  json m = FunctionalCaseToJson(candidate);
  m.update(ReportJson(report, options.repeats));
  m["steps"] = "steps.txt";
  ROAM_RETURN_IF_ERROR(UpdateBugJson(dir, {{"minimized", m}}));
  return report;
}

}  // namespace

Result<MinimizeReport> MinimizeBug(const fs::path& bug_dir, const MinimizeOptions& options) {
  if (options.repeats < 1 || options.max_replays < 1)
    return Status::InvalidArgument("minimize: repeats and the replay budget must be at least 1");
  auto f = ReadBugFolder(bug_dir);
  if (!f.ok()) return f.status();
  if (f->kind == "functional") return MinimizeFunctional(bug_dir, f->bug, f->spec, options);
  if (f->kind == "crash" || f->kind == "anr" || f->kind == "native_crash")
    return MinimizeCrash(bug_dir, f->bug, f->spec, options);
  if (oracle::OracleKindOfBug(f->kind)) return MinimizeOracleBug(bug_dir, f->bug, f->spec, options);
  return Status::Corruption(fmt::format("{}: unknown bug kind \"{}\"", f->where, Excerpt(f->kind)));
}

}  // namespace roam::run
