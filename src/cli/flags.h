// Flag parsing shared by the subcommands: CLI11's parse with our exit codes and messages.
// Stateless; thread-compatible.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace roam::cli {

// Parses argv into `app`. Returns -1 to go on, or the exit code to return at once: 0 after
// --help, kExitUsage after printing "`who`: what is wrong" for a bad flag.
int ParseFlags(CLI::App& app, const std::string& who, int argc, char** argv);

}  // namespace roam::cli
