// run/explore/train: the job behind `roam train`, DinoDroid's training phase (Algorithm 1 over a
// set of apps): one exploration with the dqn strategy per app, in order, each starting from the
// model the last one saved; the event-flow graph and the replay memory start empty on every app,
// the network's weights are kept. The model is saved as each run goes (temp file and rename), so a
// stopped training loses at most the events since the last save. Single-threaded.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "explore/dqn.h"
#include "run/context.h"

namespace roam::run {

struct TrainOptions {
  std::vector<std::filesystem::path> apps;  // app specs, in training order
  int64_t events = 2000;                    // per app and pass
  int passes = 1;                           // times over the whole list
  std::filesystem::path model;              // read if present, else a fresh network; written
  uint64_t seed = 1;                        // app i of pass p runs with seed + p * apps + i
  std::filesystem::path out = "out/train";  // one run folder per app and pass
  int64_t save_every = 500;                 // events between model saves within a run
  explore::DqnOptions dqn;
};

struct TrainedApp {
  std::string app;
  int64_t events = 0;
  size_t activities = 0;
  std::optional<size_t> activities_total;
  double loss = 0;  // mean loss of the run's last 100 updates
  double wall_seconds = 0;
};

// Trains; `line` (may be null) gets one line per finished app.
Result<std::vector<TrainedApp>> Train(const TrainOptions& options, const RunContext& context,
                                      std::FILE* line);

}  // namespace roam::run
