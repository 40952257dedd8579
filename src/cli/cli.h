// cli/: the roam command line. Thin: each subcommand parses its flags (CLI11) into the options
// of a run/ job, calls it, prints the outcome and returns the exit code. Subcommands live in
// one table (commands.cc) so `roam help` lists them and a typo gets a suggestion.
#pragma once

namespace roam::cli {

// Exit codes: 0 success (replay: reproduced), 1 the job's negative answer (replay: did not
// reproduce; sim check: errors found), 2 bad usage or input.
int Main(int argc, char** argv);

}  // namespace roam::cli
