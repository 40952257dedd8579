#include "cli/commands.h"

namespace roam::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> kTable = {
      {"explore", "explore an app with a strategy; writes a run folder (trace, bugs, summary)",
       ExploreCommand},
      {"fuzz", "functional fuzzing (Genie): independent-view mutants and the GUI-effect check",
       FuzzCommand},
      {"vision",
       "VisionDroid: a multimodal model tests from annotated screenshots (--llm-url, --llm-model)",
       VisionCommand},
      {"replay", "re-run a bug's trace on a fresh app: exit 0 if it reproduces, 1 if not",
       ReplayCommand},
      {"minimize", "shrink bugs' traces (delta debugging, each step checked by replay)",
       MinimizeCommand},
      {"known", "known bugs for CI: `known add BUG_DIR... --file FILE` lists their signatures",
       KnownCommand},
      {"report", "write a run folder's report.html again (a page with charts, graph, bug screens)",
       ReportCommand},
      {"bench",
       "run strategies x apps x seeds on the simulator and print one table (`bench merge`: "
       "shards)",
       BenchCommand},
      {"train",
       "DinoDroid: train the dqn strategy's network across simulated apps (--apps, --model)",
       TrainCommand},
      {"model", "Fastbot2 models: `model merge A B --out C` joins models learned apart",
       ModelCommand},
      {"coverage",
       "JaCoCo coverage of real apps: `coverage merge|show|dump` exec files and agents' servers",
       CoverageCommand},
      {"devices", "list the devices of an adb server (a phone, an emulator, `roam sim serve`)",
       DevicesCommand},
      {"sim", "simulated apps: `sim check SPEC` validates, `sim show SPEC` prints the start screen",
       SimCommand},
  };
  return kTable;
}

}  // namespace roam::cli
