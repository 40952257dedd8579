// Running another program and collecting what it prints: `roam coverage report` runs java.
// `ProcessRunner` is the seam a test fakes (a java that is too old, one that prints nothing);
// RunProcess is the real one. Stateless; thread-safe (each call waits for its own child).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace roam {

struct ProcessOutput {
  int exit_code = -1;  // -1 when the program did not exit by itself (see `signal`)
  int signal = 0;      // the signal that ended it, or 0
  std::string out;     // what it printed on stdout
  std::string err;     // ... and on stderr
};

// Runs argv[0] (looked up on PATH when it holds no '/') with argv, stdin from /dev/null, the
// environment inherited with `env` ("NAME=value" each) set over it, and waits for it. A program
// that cannot be started is NotFound; one that prints more than `max_bytes` on either stream is
// stopped (SIGKILL) and refused as Io.
Result<ProcessOutput> RunProcess(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& env = {},
                                 size_t max_bytes = size_t{1} << 30);

using ProcessRunner = std::function<Result<ProcessOutput>(const std::vector<std::string>& argv,
                                                          const std::vector<std::string>& env)>;

// Where the shell would find `name` on PATH (an executable regular file); "" when nowhere.
std::filesystem::path FindOnPath(std::string_view name);

}  // namespace roam
