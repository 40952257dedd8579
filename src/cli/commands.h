// The table of subcommands: {name, description, function}. Each function gets argv starting at
// its own name and returns the process exit code. Thread-compatible (called once from main).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace roam::cli {

constexpr int kExitOk = 0;
constexpr int kExitNo = 1;     // the job ran and its answer is no, or the run failed (a device
                               // lost, a disk full)
constexpr int kExitUsage = 2;  // bad flags, bad input files
constexpr int kExitBugs = 3;   // the run found a new bug of a kind --fail-on names
constexpr int kExitInterrupted = 130;  // stopped by Ctrl-C (SIGINT) or SIGTERM, as shells say

struct Command {
  std::string name;
  std::string description;
  std::function<int(int argc, char** argv)> run;
};

const std::vector<Command>& Commands();

int ExploreCommand(int argc, char** argv);
int ReplayCommand(int argc, char** argv);
int MinimizeCommand(int argc, char** argv);  // explore_command.cc
int KnownCommand(int argc, char** argv);     // ci_flags.cc
int ReportCommand(int argc, char** argv);    // report_command.cc
int FuzzCommand(int argc, char** argv);      // fuzz_command.cc
int VisionCommand(int argc, char** argv);    // vision_command.cc
int DevicesCommand(int argc, char** argv);   // devices_command.cc
int BenchCommand(int argc, char** argv);
int TrainCommand(int argc, char** argv);           // train_command.cc
int ModelCommand(int argc, char** argv);           // model_command.cc
int CoverageCommand(int argc, char** argv);        // coverage_command.cc
int CoverageReportCommand(int argc, char** argv);  // coverage_report_command.cc
int SimCommand(int argc, char** argv);             // dispatches to the Sim* functions below
int SimCheckCommand(int argc, char** argv);
int SimShowCommand(int argc, char** argv);
int SimServeCommand(int argc, char** argv);     // serve_command.cc
int SimGenerateCommand(int argc, char** argv);  // generate_command.cc
int SimStatsCommand(int argc, char** argv);     // stats_command.cc
int SimImportCommand(int argc, char** argv);    // import_command.cc
int SimRouteCommand(int argc, char** argv);

}  // namespace roam::cli
