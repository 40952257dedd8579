// `roam sim generate`: writes a random app spec with planted bugs (sim/generator.h) to a file
// or stdout. The options are GeneratorOptions field for field.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/files.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "sim/generator.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::cli {

namespace {
constexpr int kJsonIndent = 1;  // one space an indent level: readable, not bloated
}  // namespace

int SimGenerateCommand(int argc, char** argv) {
  sim::GeneratorOptions o;
  std::string out = "-";
  std::string shape = "real";
  CLI::App app("Generate a random app spec with planted bugs (docs/app-spec.md).", "generate");
  app.add_option("--seed", o.seed, "random seed: one seed always gives the same app")
      ->capture_default_str();
  app.add_option("--activities", o.activities,
                 fmt::format("distinct activities, 1..{}", sim::kGeneratorMaxActivities))
      ->capture_default_str();
  app.add_option("--bugs", o.bugs,
                 fmt::format("planted bugs on screens, 0..{} (--broadcast-bugs and "
                             "--intent-bugs plant more)",
                             sim::kGeneratorMaxBugs))
      ->capture_default_str();
  app.add_option("--out", out, "output file; - for stdout")->capture_default_str();
  app.add_option("--screens-per-activity", o.screens_per_activity,
                 "most screens (tabs) one activity shows")
      ->capture_default_str();
  app.add_option("--max-depth", o.max_depth, "depth of the deepest screen")->capture_default_str();
  app.add_option("--tab-ratio", o.tab_ratio, "share of activities with tabs")
      ->capture_default_str();
  app.add_option("--form-ratio", o.form_ratio, "share of screens with a form")
      ->capture_default_str();
  app.add_option("--list-ratio", o.list_ratio, "share of screens with a list")
      ->capture_default_str();
  app.add_option("--dialog-ratio", o.dialog_ratio, "share of screens with a confirm dialog")
      ->capture_default_str();
  app.add_option("--menu-ratio", o.menu_ratio, "share of screens with a menu")
      ->capture_default_str();
  app.add_option("--toggle-ratio", o.toggle_ratio, "share of screens with a checkbox")
      ->capture_default_str();
  app.add_option("--dynamic-ratio", o.dynamic_ratio, "share of screens with a clock or an ad")
      ->capture_default_str();
  app.add_option("--cross-link-ratio", o.cross_link_ratio, "chance of each further cross link")
      ->capture_default_str();
  app.add_option("--shape", shape,
                 "real: as the recordings of real apps (docs/realism.md); classic: the shape "
                 "before them")
      ->capture_default_str();
  app.add_option("--filler-min", o.filler_min,
                 "real: widgets a screen whose tap does nothing, at least")
      ->capture_default_str();
  app.add_option("--filler-max", o.filler_max, "real: ... and at most")->capture_default_str();
  app.add_option("--leave-ratio", o.leave_ratio,
                 "real: share of screens with a button that leaves the app")
      ->capture_default_str();
  app.add_option("--list-min-items", o.list_min_items, "real: items a list starts with, at least")
      ->capture_default_str();
  app.add_option("--list-max-items", o.list_max_items, "real: ... and at most")
      ->capture_default_str();
  app.add_option("--gate-ratio", o.gate_ratio,
                 "real: share of screens whose way to a child shows only after a checkbox")
      ->capture_default_str();
  app.add_option("--deep-bias", o.deep_bias, "real: preference for deeper screens as parents")
      ->capture_default_str();
  app.add_option("--receiver-ratio", o.receiver_ratio,
                 "real: share of screens that take a system broadcast while in front")
      ->capture_default_str();
  app.add_option("--broadcast-bugs", o.broadcast_bugs,
                 "real: receivers of those that crash when their broadcast comes")
      ->capture_default_str();
  app.add_option("--outside-ratio", o.outside_ratio,
                 fmt::format("real: share of all activities only outside the GUI reaches "
                             "(exported; a deep link, extras), 0..{}; the default is an estimate "
                             "from the \"30% curse\" study (Akinotcho, Wei, Rubin), which names "
                             "such \"alternate entry\" activities among those people and tools "
                             "leave unreached (docs/app-spec.md)",
                             sim::kGeneratorMaxOutsideRatio))
      ->capture_default_str();
  app.add_option("--intent-bugs", o.intent_bugs,
                 "real: extras of those screens that crash when an intent sends them missing or "
                 "of another type (gen-intent-crash-<i>)")
      ->capture_default_str();
  if (int rc = ParseFlags(app, "roam sim generate", argc, argv); rc >= 0) return rc;
  auto parsed = sim::ParseGeneratorShape(shape);
  if (!parsed) {
    fmt::print(stderr, "roam sim generate: --shape must be real or classic (got \"{}\")\n", shape);
    return kExitUsage;
  }
  o.shape = *parsed;
  if (Status s = sim::ValidateGeneratorOptions(o); !s.ok()) {
    fmt::print(stderr, "roam sim generate: {}\n", s.message());
    return kExitUsage;
  }
  const nlohmann::json doc = sim::GenerateApp(o);
  std::string text = doc.dump(kJsonIndent) + "\n";
  if (out == "-") {
    fmt::print("{}", text);
    return kExitOk;
  }
  if (Status s = WriteFileAtomic(out, text); !s.ok()) return Fail("roam sim generate", s);
  auto spec = sim::LoadSpecJson(doc, out);
  if (!spec.ok()) return Fail("roam sim generate", spec.status());  // a generator bug
  // --broadcast-bugs and --intent-bugs plant their own beside --bugs: say which count is whose.
  size_t by_broadcast = 0, by_intent = 0;
  for (const auto& bug : (*spec)->bugs()) {
    by_broadcast += bug.id.starts_with("gen-broadcast-crash-");
    by_intent += bug.id.starts_with("gen-intent-crash-");
  }
  std::string whose;
  if (by_broadcast > 0) whose += fmt::format(", {} by --broadcast-bugs", by_broadcast);
  if (by_intent > 0) whose += fmt::format(", {} by --intent-bugs", by_intent);
  if (!whose.empty()) whose = fmt::format(" ({} by --bugs{})", o.bugs, whose);
  fmt::print("{}: {}{}\n", out, sim::DescribeSpec(**spec), whose);
  return kExitOk;
}

}  // namespace roam::cli
