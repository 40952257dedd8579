// `roam vision`: VisionDroid (run/vision/vision.h) on a simulated app or an Android device, with a
// multimodal model behind an OpenAI-compatible API; `roam vision confirm` adds a report to a
// team's example library.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/ci_flags.h"
#include "cli/class_coverage.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/llm_flags.h"
#include "cli/signals.h"
#include "cli/target_flags.h"
#include "run/vision/vision.h"

namespace roam::cli {

namespace {

int VisionConfirmCommand(int argc, char** argv) {
  CLI::App app(
      "Add a report of `roam vision` that a person has confirmed to an example library, so the "
      "Detector is shown it on later runs (pass the library with `roam vision --examples`).",
      "vision confirm");
  std::filesystem::path bug_dir, library;
  app.add_option("BUG_DIR", bug_dir, "the report's folder, e.g. out/RUN/bugs/V1")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option("--examples", library, "the library to append to (created when absent)")
      ->required();
  if (int rc = ParseFlags(app, "roam vision confirm", argc, argv); rc >= 0) return rc;
  auto id = run::ConfirmVisionBug(bug_dir, library);
  if (!id.ok()) return Fail("roam vision confirm", id.status());
  fmt::print("{} added to {} as {}\n", bug_dir.string(), library.string(), *id);
  return kExitOk;
}

// VisionDroid's own settings: its bug examples and how long its agents' histories are.
void AddVisionDroidFlags(CLI::App& app, run::VisionOptions& o) {
  app.add_option("--examples", o.examples,
                 "a library of your own bug examples (JSON, as data/vision/bug_examples.json), "
                 "added to the shipped one; repeatable")
      ->check(CLI::ExistingFile)
      ->group("VisionDroid");
  app.add_option("--examples-k", o.examples_k, "bug examples shown to the Detector")
      ->check(NonNegative())
      ->capture_default_str()
      ->group("VisionDroid");
  app.add_option("--examples-by", o.examples_by,
                 "how activity names are compared to pick them: trigrams (their words' "
                 "character trigrams) or vectors (the word vectors' cosine, as the paper)")
      ->check(CLI::IsMember({"trigrams", "vectors"}))
      ->capture_default_str()
      ->group("VisionDroid");
  app.add_option("--history-steps", o.history_steps, "steps in the Explorer's stitched history")
      ->check(Positive())
      ->capture_default_str()
      ->group("VisionDroid");
  app.add_option("--max-function-steps", o.max_function_steps,
                 "steps of one function before the Detector judges it anyway")
      ->check(Positive())
      ->capture_default_str()
      ->group("VisionDroid");
}

// Where the answers come from: `llm_source` (--llm replay:RUN/llm.jsonl) or the model the LLM
// flags name. False (said why) when neither is given right.
bool ResolveModel(const std::string& llm_source, run::VisionOptions& o) {
  const auto& l = o.llm;
  if (!llm_source.empty()) {
    if (llm_source.rfind("replay:", 0) != 0 || llm_source.size() == 7) {
      fmt::print(stderr, "roam vision: --llm \"{}\": write replay:RUN/llm.jsonl\n", llm_source);
      return false;
    }
    o.llm_replay = llm_source.substr(7);
  } else if (l.url.empty() || l.model.empty()) {
    fmt::print(stderr,
               "roam vision: name the model: --llm-url URL --llm-model NAME (a local Ollama: "
               "--llm-url http://127.0.0.1:11434/v1 --llm-model llava), or answer from a "
               "recorded run with --llm replay:RUN/llm.jsonl\n");
    return false;
  }
  return true;
}

// The run's line of figures, a warning when the model's answers were mostly replaced, and what it
// found.
void PrintVisionResult(const run::VisionResult& result, const std::filesystem::path& out) {
  const auto& s = result.summary;
  const auto& st = result.stats;
  fmt::print(
      "{} events in {:.1f}s ({}): {} ({} explorer, {} monitor, {} detector), {} replaced, {} "
      "judged, {}, {}, {}\n",
      s.events, s.wall_seconds, s.stop_reason,
      Plural(st.explorer_requests + st.monitor_requests + st.detector_requests, "request",
             "requests"),
      st.explorer_requests, st.monitor_requests, st.detector_requests,
      Plural(st.replaced(), "answer", "answers"), Plural(st.functions, "function", "functions"),
      Plural(s.functional->size(), "functional bug report", "functional bug reports"),
      Plural(s.crashes.size(), "unique crash", "unique crashes"),
      Plural(s.anrs.size(), "unique ANR", "unique ANRs"));
  if (st.MostlyReplaced())
    fmt::print(stderr,
               "roam vision: {} of {} answers were replaced (the model failed or answered "
               "nonsense): this run says little about the model; its notes above say why\n",
               st.replaced(), st.questions());
  PrintFindings(s, out, /*with_counts=*/false);
}

}  // namespace

int VisionCommand(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "confirm")
    return VisionConfirmCommand(argc - 1, argv + 1);
  run::VisionOptions o;
  CLI::App app(
      "VisionDroid: a multimodal model explores the app from numbered, coloured screenshots and "
      "judges each function it tested; writes bugs/V<n>/ for each functional bug it reports. "
      "`roam vision confirm BUG_DIR --examples FILE` keeps a confirmed report as an example.",
      "vision");
  TargetFlags target_flags = AddTargetFlags(app, o.target, "test");
  auto& a = o.target.android;
  AddBudgetFlags(app, o.budget, "event budget (0: none)", "wall-time budget in seconds (0: none)");
  auto* seed_opt =
      app.add_option("--seed", o.seed, "random seed (default: from the clock, printed)");
  app.add_option("--out", o.out, "output folder (default: out/<app>-vision-s<seed>)");
  app.add_flag("--force", o.force, "replace an earlier run in the output folder");
  auto& l = o.llm;
  auto* url_opt = AddLlmFlags(app, l);
  std::string llm_source;
  auto* replay_opt = app.add_option("--llm", llm_source,
                                    "replay:RUN/llm.jsonl: answer from a recorded run's log, "
                                    "offline and deterministic, instead of a live model")
                         ->group("Model");
  url_opt->excludes(replay_opt);
  AddVisionDroidFlags(app, o);
  AddOracleFlags(app, o.oracle_files);
  app.add_flag("!--no-score", o.score,
               "simulator: do not look for the planted bug behind each report");
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "no progress output");
  CiFlags ci;
  AddCiFlags(app, ci);
  if (int rc = ParseFlags(app, "roam vision", argc, argv); rc >= 0) return rc;
  run::AfterRunOptions after;
  if (!LoadCiFlags(ci, "roam vision", o.known, after)) return kExitUsage;
  if (!TargetGiven(target_flags, o.target, "roam vision")) return kExitUsage;
  if (!ResolveModel(llm_source, o)) return kExitUsage;
  DefaultSeedAndOut(seed_opt, "vision", o);
  if (!CheckCiOutputs(ci, "roam vision", o.out, o.target.app)) return kExitUsage;
  const std::string target = TargetName(o.target);
  if (!quiet) {
    a.log = [](const std::string& note) { fmt::print(stderr, "roam vision: {}\n", note); };
    fmt::print(stderr, "roam vision: {} {}, seed {}, {}, model {}, out {}\n",
               a.serial.empty() ? "app" : "device " + a.serial + " package", target, o.seed,
               run::DescribeBudget(o.budget),
               o.llm_replay.empty() ? fmt::format("{} at {}", l.model, l.url)
                                    : "replayed from " + o.llm_replay.string(),
               o.out.string());
  }
  auto result = run::Vision(o, CampaignContext(quiet));
  if (!result.ok()) return Fail("roam vision", result.status());
  PrintVisionResult(*result, o.out);
  after.suite_name = fmt::format("roam vision {} (seed {})", target, o.seed);
  after.out = stdout;
  ReportClassCoverage("roam vision", o.out, o.target.android.coverage.classfiles);
  return FinishCi("roam vision", o.out, result->summary, after);
}

}  // namespace roam::cli
