// sim_shell: SimAndroidDevice's plumbing: construction, RunShell running a parsed script
// (lists, pipelines, word expansion, NAME=value, redirections) and the locked accessors.
// Thread-safe: every public member takes mu_.
#include "serve/sim_shell.h"

#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "serve/sim_shell_internal.h"
#include "sim/interpreter.h"

namespace roam::serve {

// What the last command of a pipeline or a redirection leaves for the caller: its exit and the
// stream it asks the connection to carry on with.
void SimAndroidDevice::TakeStreams(Io& to, Io& from) {
  to.exited = from.exited;
  to.stream_log = from.stream_log;
  to.log_cursor = from.log_cursor;
  to.log_filter = std::move(from.log_filter);
  to.instrumentation = from.instrumentation;
}

using internal::IsNameStart;
using internal::kMaxDepth;
using internal::kMsPerCommand;
using internal::kSystemPid;
using internal::SplitFields;

// --- The device: plumbing ---------------------------------------------------------------------

std::vector<std::string> internal::SplitFields(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

SimAndroidDevice::SimAndroidDevice(std::string serial, std::shared_ptr<const sim::AppSpec> spec,
                                   sim::SimOptions options, int index)
    : serial_(std::move(serial)), index_(index), app_(std::move(spec), std::move(options)) {
  clock_ms_ = (int64_t{10} * 3600 + index * 60) * 1000;  // 10:00:00 + a minute per device
  next_pid_ = 4100 + index * 1000;
  Log('I', "init", "Service 'adbd' (pid 301) started");
  Log('I', "ActivityManager", "System now ready", kSystemPid);
}

SimAndroidDevice::~SimAndroidDevice() = default;

std::string SimAndroidDevice::package() const { return app_.package(); }

ShellResult SimAndroidDevice::RunShell(std::string_view command_line) {
  std::lock_guard<std::mutex> lock(mu_);
  Io io;
  auto script = ParseShellScript(command_line);
  if (!script.ok()) {
    io.err = "/system/bin/sh: " + script.status().message() + "\n";
    io.status = 2;
  } else {
    RunScript(*script, io, 0);
  }
  const int64_t pace = pace_owed_ms_;
  pace_owed_ms_ = 0;
  return ShellResult{.out = std::move(io.out),
                     .err = std::move(io.err),
                     .exit_code = io.status,
                     .stream_log = io.stream_log,
                     .log_cursor = io.log_cursor,
                     .log_filter = std::move(io.log_filter),
                     .instrumentation = io.instrumentation,
                     .pace_ms = pace};
}

int SimAndroidDevice::RunScript(const ShellScript& script, Io& io, int depth) {
  bool skip = false;
  for (const auto& item : script) {
    if (io.exited) break;
    if (!skip) io.status = RunPipeline(item.pipeline, io, depth);
    using Next = ShellListItem::Next;
    if (item.next == Next::kAnd)
      skip = skip || io.status != 0;
    else if (item.next == Next::kOr)
      skip = skip || io.status == 0;
    else
      skip = false;
  }
  return io.status;
}

int SimAndroidDevice::RunPipeline(const ShellPipeline& p, Io& io, int depth) {
  std::string in;
  int status = 0;
  for (size_t k = 0; k < p.commands.size(); ++k) {
    bool last = k + 1 == p.commands.size();
    Io sub;
    sub.status = io.status;
    status = RunSimple(p.commands[k], in, sub, depth);
    io.err += sub.err;
    if (last) {
      io.out += sub.out;
      TakeStreams(io, sub);
    } else {
      in = std::move(sub.out);
    }
  }
  return status;
}

Result<std::vector<std::string>> SimAndroidDevice::Expand(const ShellWord& w, int depth,
                                                          bool split) {
  std::vector<std::string> fields;
  std::string cur;
  bool have = false;
  for (const auto& part : w.parts) {
    std::string value;
    switch (part.kind) {
      case ShellWordPart::Kind::kLiteral:
        cur += part.text;
        have = true;
        continue;
      case ShellWordPart::Kind::kVariable: {
        auto it = env_.find(part.text);
        if (it != env_.end()) value = it->second;
        break;
      }
      case ShellWordPart::Kind::kCommand: {
        if (depth >= kMaxDepth) return Status::InvalidArgument("substitution nested too deep");
        auto script = ParseShellScript(part.text);
        if (!script.ok()) return script.status();
        Io sub;
        RunScript(*script, sub, depth + 1);
        value = std::move(sub.out);
        while (!value.empty() && value.back() == '\n') value.pop_back();
        env_["?"] = std::to_string(sub.status);
        break;
      }
    }
    if (part.quoted || !split) {
      cur += value;
      have = true;
      continue;
    }
    auto pieces = SplitFields(value);
    if (pieces.empty()) continue;
    if (std::isspace(static_cast<unsigned char>(value.front())) && have) {
      fields.push_back(std::move(cur));
      cur.clear();
    }
    for (size_t k = 0; k < pieces.size(); ++k) {
      if (k > 0) fields.push_back(std::move(cur));
      cur = k == 0 ? cur + pieces[k] : pieces[k];
    }
    have = true;
    if (std::isspace(static_cast<unsigned char>(value.back()))) {
      fields.push_back(std::move(cur));
      cur.clear();
      have = false;
    }
  }
  if (have) fields.push_back(std::move(cur));
  return fields;
}

int SimAndroidDevice::RunSimple(const ShellSimpleCommand& c, const std::string& in, Io& io,
                                int depth) {
  env_["?"] = std::to_string(io.status);
  std::vector<std::string> argv;
  for (const auto& w : c.words) {
    auto fields = Expand(w, depth, true);
    if (!fields.ok()) {
      io.err += "/system/bin/sh: " + fields.status().message() + "\n";
      return 2;
    }
    argv.insert(argv.end(), fields->begin(), fields->end());
  }
  // NAME=value prefixes.
  size_t first = 0;
  while (first < argv.size()) {
    size_t eq = argv[first].find('=');
    if (eq == std::string::npos || eq == 0 || !IsNameStart(argv[first][0])) break;
    env_[argv[first].substr(0, eq)] = argv[first].substr(eq + 1);
    ++first;
  }
  argv.erase(argv.begin(), argv.begin() + static_cast<long>(first));
  std::string input = in;
  std::vector<std::pair<std::string, bool>> out_files, err_files;  // (path, append)
  bool err_to_out = false;
  for (const auto& r : c.redirects) {
    if (r.to_stdout) {
      if (r.fd == 2) err_to_out = true;
      continue;
    }
    auto t = Expand(r.target, depth, false);
    std::string path = t.ok() && !t->empty() ? (*t)[0] : "";
    if (!MayAccessLocked(path)) {  // an app's private folder (run-as applies to its command only)
      io.err += fmt::format("/system/bin/sh: can't {} '{}': Permission denied\n",
                            r.fd == 0 ? "open" : "create", path);
      return 1;
    }
    if (r.fd == 0) {
      auto it = files_.find(path);
      if (it == files_.end()) {
        io.err += "/system/bin/sh: can't open '" + path + "': No such file or directory\n";
        return 1;
      }
      input = it->second;
    } else {
      (r.fd == 1 ? out_files : err_files).push_back({path, r.append});
    }
  }
  if (argv.empty()) return 0;
  history_.push_back(argv);
  clock_ms_ += kMsPerCommand;
  Io sub;
  int status = Dispatch(argv, input, sub);
  if (err_to_out) {
    sub.out += sub.err;
    sub.err.clear();
  }
  auto deliver = [&](std::string& text, const std::vector<std::pair<std::string, bool>>& to,
                     std::string& fallback) {
    if (to.empty()) {
      fallback += text;
      return;
    }
    for (const auto& [path, append] : to) {
      if (path == "/dev/null") continue;
      if (path == "/dev/tty" || path == "/dev/stdout") {
        io.out += text;
        continue;
      }
      if (append)
        files_[path] += text;
      else
        files_[path] = text;
    }
  };
  deliver(sub.out, out_files, io.out);
  deliver(sub.err, err_files, io.err);
  TakeStreams(io, sub);
  return status;
}

Result<std::string> SimAndroidDevice::ReadFile(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound(path + ": No such file or directory");
  return it->second;
}

void SimAndroidDevice::WriteFile(const std::string& path, std::string data) {
  std::lock_guard<std::mutex> lock(mu_);
  files_[path] = std::move(data);
}

std::vector<std::vector<std::string>> SimAndroidDevice::History() const {
  std::lock_guard<std::mutex> lock(mu_);
  return history_;
}

SimDeviceStats SimAndroidDevice::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  SimDeviceStats s = stats_;
  s.covered_units = app_.CoveredUnits();
  s.units_total = app_.units_total();
  s.activities_total = app_.Activities().size();
  return s;
}

}  // namespace roam::serve
