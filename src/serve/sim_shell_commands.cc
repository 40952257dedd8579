// sim_shell_commands: SimAndroidDevice::Dispatch (argv[0] to a command) and the small commands
// (exec, export, sh -c, echo, id, getprop, date, cat, rm, ls, touch, grep, run-as), plus the log:
// Log writes threadtime lines, logcat reads them. Members run under mu_ (LogSince/WaitForLog take
// it).
#include <chrono>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/regex.h"
#include "device/android/jacoco_coverage.h"
#include "device/android/phone_pace.h"
#include "device/sim_device.h"
#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"

namespace roam::serve {

using internal::kSystemPid;

int SimAndroidDevice::Dispatch(const std::vector<std::string>& argv, const std::string& in,
                               Io& io) {
  const std::string& name = argv[0];
  std::string base = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
  if (base == "exec" || base == "nohup" || base == "command") {
    if (argv.size() == 1) return 0;
    std::vector<std::string> rest(argv.begin() + 1, argv.end());
    int s = Dispatch(rest, in, io);
    if (base == "exec") io.exited = true;
    return s;
  }
  if (phone_pace_) pace_owed_ms_ += device::android::PhoneShellCommandMs(argv);
  if (base == "export") {
    for (size_t k = 1; k < argv.size(); ++k) {
      size_t eq = argv[k].find('=');
      if (eq != std::string::npos) env_[argv[k].substr(0, eq)] = argv[k].substr(eq + 1);
    }
    return 0;
  }
  if (base == "sh" && argv.size() >= 3 && argv[1] == "-c") {
    auto script = ParseShellScript(argv[2]);
    if (!script.ok()) {
      io.err += "sh: " + script.status().message() + "\n";
      return 2;
    }
    return RunScript(*script, io, 1);
  }
  if (base == "true" || base == "cd" || base == "sleep" || base == "mkdir" || base == "sync" ||
      base == "chmod")
    return 0;
  if (base == "false") return 1;
  if (base == "exit") {
    io.exited = true;
    return argv.size() > 1 ? std::atoi(argv[1].c_str()) : 0;
  }
  if (base == "echo") {
    bool newline = true;
    size_t k = 1;
    if (k < argv.size() && argv[k] == "-n") {
      newline = false;
      ++k;
    }
    for (size_t j = k; j < argv.size(); ++j) io.out += (j > k ? " " : "") + argv[j];
    if (newline) io.out += "\n";
    return 0;
  }
  if (base == "id") {
    io.out += "uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n";
    return 0;
  }
  if (base == "whoami") {
    io.out += "shell\n";
    return 0;
  }
  static const std::set<std::string> kProcesses = {
      "uiautomator", "input", "am", "pm", "monkey", "settings", "wm", "dumpsys", "screencap"};
  if (kProcesses.count(base)) ++stats_.process_starts[base];
  if (base == "uiautomator") return CmdUiautomator(argv, io);
  if (base == "dumpsys") return CmdDumpsys(argv, io);
  if (base == "input") return CmdInput(argv, io);
  if (base == "monkey") return CmdMonkey(argv, io);
  if (base == "am") return CmdAm(argv, io);
  if (base == "pm" || base == "settings" || base == "wm") return CmdPm(argv, io);
  if (base == "getprop") return CmdGetprop(argv, io);
  if (base == "logcat") return CmdLogcat(argv, io);
  if (base == "cat" || base == "rm" || base == "ls" || base == "touch" || base == "grep")
    return CmdFiles(argv, in, io);
  if (base == "run-as") return CmdRunAs(argv, in, io);
  if (base == "date") {
    // What a JaCoCo session's times count in: ms since 1970 on the phone's clock.
    if (argv.size() == 2 && argv[1] == "+%s") {
      io.out += fmt::format("{}\n", WallMs() / 1000);
      return 0;
    }
    io.err += "date: the simulated shell prints +%s only\n";
    return 1;
  }
  if (base == "screencap") return CmdScreencap(argv, io);
  io.err += "/system/bin/sh: " + name + ": inaccessible or not found\n";
  return 127;
}

// screencap -p [FILE]: the screen as PNG, to stdout or into FILE. The raw format (no -p) is
// not drawn.
int SimAndroidDevice::CmdScreencap(const std::vector<std::string>& a, Io& io) {
  bool png = false;
  std::string file;
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k] == "-p") {
      png = true;
    } else if (a[k] == "-d" && k + 1 < a.size()) {
      ++k;  // the display id: there is one
    } else if (!a[k].empty() && a[k][0] != '-') {
      file = a[k];
      png = png || file.ends_with(".png");
    } else {
      io.err += "screencap: unknown option " + a[k] + "\n";
      return 1;
    }
  }
  if (!png) {
    io.err += "screencap: the simulated display gives PNG only: use -p\n";
    return 1;
  }
  auto drawn = device::DrawSimApp(app_);
  if (!drawn.ok()) {
    io.err += "screencap: capture failed: " + drawn.status().message() + "\n";
    return 1;
  }
  if (file.empty()) {
    io.out += *drawn;
  } else {
    files_[file] = std::move(*drawn);
  }
  return 0;
}

int SimAndroidDevice::CmdGetprop(const std::vector<std::string>& a, Io& io) {
  const std::vector<std::pair<std::string, std::string>> props = {
      {"ro.build.version.release", "11"},
      {"ro.build.version.sdk", "30"},
      {"ro.kernel.qemu", is_emulator() ? "1" : "0"},
      {"ro.product.cpu.abi", "x86_64"},
      {"ro.product.device", "roam"},
      {"ro.product.manufacturer", "Roam"},
      {"ro.product.model", "Roam_Sim"},
      {"ro.product.name", "roam_sim"},
      {"ro.serialno", serial_},
      {"sys.boot_completed", "1"},
  };
  if (a.size() < 2) {
    for (const auto& [k, v] : props) io.out += "[" + k + "]: [" + v + "]\n";
    return 0;
  }
  std::string value = a.size() > 2 ? a[2] : "";
  for (const auto& [k, v] : props)
    if (k == a[1]) value = v;
  io.out += value + "\n";
  return 0;
}

bool SimAndroidDevice::MayAccessLocked(const std::string& path) const {
  const std::string owner = device::android::AppDataOwner(path);
  return owner.empty() || root_ || owner == run_as_;
}

bool SimAndroidDevice::ShellMayAccess(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  return MayAccessLocked(path);
}

// run-as PKG [--user N] COMMAND [ARGS]: the command as the app's user, which may open the app's
// private folder. Android's run-as takes a debuggable package only: the served app is one (a
// build with JaCoCo in it is a debug build); any other package is unknown to this phone.
int SimAndroidDevice::CmdRunAs(const std::vector<std::string>& a, const std::string& in, Io& io) {
  size_t k = 2;
  if (k + 1 < a.size() && a[k] == "--user") k += 2;
  if (a.size() <= k) {
    io.err += "usage: run-as <package-name> [--user <uid>] <command> [<args>]\n";
    return 1;
  }
  if (a[1] != app_.package()) {
    io.err += "run-as: unknown package: " + a[1] + "\n";
    return 1;
  }
  const std::string before = run_as_;
  run_as_ = a[1];
  const int status =
      Dispatch(std::vector<std::string>(a.begin() + static_cast<long>(k), a.end()), in, io);
  run_as_ = before;
  return status;
}

int SimAndroidDevice::CmdFiles(const std::vector<std::string>& a, const std::string& in, Io& io) {
  const std::string& cmd =
      a[0].substr(a[0].rfind('/') == std::string::npos ? 0 : a[0].rfind('/') + 1);
  int status = 0;
  // An app's private folder is shut to the shell: "Permission denied", as toybox says it.
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k].empty() || a[k][0] == '-' || MayAccessLocked(a[k])) continue;
    io.err += cmd + ": " + a[k] + ": Permission denied\n";
    return 1;
  }
  if (cmd == "cat") {
    if (a.size() == 1) io.out += in;
    for (size_t k = 1; k < a.size(); ++k) {
      auto it = files_.find(a[k]);
      if (it == files_.end()) {
        io.err += "cat: " + a[k] + ": No such file or directory\n";
        status = 1;
      } else {
        io.out += it->second;
      }
    }
  } else if (cmd == "rm") {
    bool force = false;
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k][0] == '-') {
        force = force || a[k].find('f') != std::string::npos;
        continue;
      }
      if (files_.erase(a[k]) == 0 && !force) {
        io.err += "rm: " + a[k] + ": No such file or directory\n";
        status = 1;
      }
    }
  } else if (cmd == "touch") {
    for (size_t k = 1; k < a.size(); ++k) files_[a[k]];
  } else if (cmd == "ls") {
    std::string dir = a.size() > 1 ? a.back() : "/sdcard";
    if (dir.empty()) {
      io.err += "ls: : No such file or directory\n";
      return 1;
    }
    if (dir.back() != '/') dir += "/";
    for (const auto& [path, data] : files_)
      if (path.rfind(dir, 0) == 0) io.out += path.substr(dir.size()) + "\n";
  } else if (cmd == "grep") {
    bool invert = false, icase = false;
    size_t k = 1;
    for (; k < a.size() && a[k].size() > 1 && a[k][0] == '-'; ++k) {
      invert = invert || a[k].find('v') != std::string::npos;
      icase = icase || a[k].find('i') != std::string::npos;
    }
    if (k >= a.size()) {
      io.err += "usage: grep [-viE] PATTERN [FILE...]\n";
      return 2;
    }
    std::string text = in;
    if (k + 1 < a.size()) {
      auto it = files_.find(a[k + 1]);
      text = it == files_.end() ? "" : it->second;
    }
    auto re =
        MakeRegex(a[k], icase ? std::regex::extended | std::regex::icase : std::regex::extended);
    if (!re.ok()) {
      io.err += "grep: bad regex '" + a[k] + "': " + re.status().message() + "\n";
      return 2;
    }
    status = 1;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      if (std::regex_search(line, *re) != invert) {
        io.out += line + "\n";
        status = 0;
      }
    }
  }
  return status;
}

// --- The log ----------------------------------------------------------------------------------

// "06-15 hh:mm:ss.mmm" of the log's fake clock, which moves a millisecond a line.
std::string SimAndroidDevice::LogStamp() {
  int64_t t = clock_ms_++;
  int64_t ms = t % 1000, sec = (t / 1000) % 60, min = (t / 60000) % 60, hour = (t / 3600000) % 24;
  return fmt::format("06-15 {:02}:{:02}:{:02}.{:03}", hour, min, sec, ms);
}

void SimAndroidDevice::Log(char level, const std::string& tag, const std::string& message,
                           int pid) {
  if (pid < 0) pid = kSystemPid;
  int tid = pid == kSystemPid ? pid + 29 : pid;
  log_.push_back(
      {fmt::format("{} {:5} {:5} {} {:<8}: {}", LogStamp(), pid, tid, level, tag, message)});
  log_cv_.notify_all();
}

// An events-buffer line: its tag unpadded, its values as the event's list, logged by the app's
// process (ActivityThread writes wm_on_resume_called there).
void SimAndroidDevice::LogEvent(const std::string& tag, const std::string& values, int pid) {
  log_.push_back({fmt::format("{} {:5} {:5} I {}: {}", LogStamp(), pid, pid, tag, values), true});
  log_cv_.notify_all();
}

bool LogFilter::Accepts(bool events_line, std::string_view line) const {
  if (events_line != events) return false;
  if (tags.empty()) return true;
  // threadtime: "MM-DD hh:mm:ss.mmm  PID  TID L TAG: message"; the tag follows the level.
  size_t level = line.find_first_of("VDIWEF", 18);
  if (level == std::string_view::npos) return false;
  size_t colon = line.find(':', level);
  if (colon == std::string_view::npos) return false;
  std::string_view tag = line.substr(level + 2, colon - level - 2);
  while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::vector<std::string> SimAndroidDevice::LogSince(uint64_t* cursor,
                                                    const LogFilter& filter) const {
  std::lock_guard<std::mutex> lock(mu_);
  return LogSinceLocked(cursor, filter);
}

std::vector<std::string> SimAndroidDevice::LogSinceLocked(uint64_t* cursor,
                                                          const LogFilter& filter) const {
  if (*cursor < log_base_) *cursor = log_base_;
  std::vector<std::string> out;
  for (size_t k = *cursor - log_base_; k < log_.size(); ++k)
    if (filter.Accepts(log_[k].events, log_[k].text)) out.push_back(log_[k].text);
  *cursor = log_base_ + log_.size();
  return out;
}

bool SimAndroidDevice::WaitForLog(uint64_t cursor, int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mu_);
  return log_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                          [&] { return log_base_ + log_.size() > cursor; });
}

void SimAndroidDevice::NotifyAll() const { log_cv_.notify_all(); }

int SimAndroidDevice::CmdLogcat(const std::vector<std::string>& a, Io& io) {
  bool dump = false;
  long tail = -1;
  LogFilter filter;
  bool silence_others = false;
  std::vector<std::string> specs;  // TAG:PRIORITY
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& o = a[k];
    if (o == "-b" && k + 1 < a.size()) {
      filter.events = a[++k] == "events";
    } else if (o == "-s") {
      silence_others = true;
    } else if (!o.empty() && o[0] != '-' && o.find(':') != std::string::npos) {
      if (o == "*:S" || o == "*:s")
        silence_others = true;
      else if (!o.ends_with(":S") && !o.ends_with(":s"))
        specs.push_back(o.substr(0, o.rfind(':')));
    } else if (o == "-d")
      dump = true;
    else if (o == "-c") {
      log_base_ += log_.size();
      log_.clear();
      return 0;
    } else if ((o == "-t" || o == "-T") && k + 1 < a.size()) {
      tail = std::atol(a[++k].c_str());
      if (o == "-t") dump = true;
    } else if ((o == "-v" || o == "-b" || o == "-s" || o == "-f" || o == "-r" || o == "-n" ||
                o == "-e" || o == "--pid") &&
               k + 1 < a.size() && o != "-s") {
      ++k;  // formats other than threadtime, buffers and filters are accepted and ignored
    } else if (o == "-g") {
      io.out +=
          "main: ring buffer is 256 KiB (0 B consumed), max entry is 5120 B, max payload "
          "is 4068 B\n";
      return 0;
    }
  }
  if (silence_others) filter.tags = specs;
  uint64_t start = log_base_;
  if (tail >= 0 && static_cast<uint64_t>(tail) < log_.size())
    start = log_base_ + log_.size() - tail;
  if (dump) {
    uint64_t cursor = start;
    std::vector<std::string> lines = LogSinceLocked(&cursor, filter);
    if (!lines.empty())
      io.out += filter.events ? "--------- beginning of events\n" : "--------- beginning of main\n";
    for (const auto& line : lines) io.out += line + "\n";
    return 0;
  }
  io.stream_log = true;
  io.log_cursor = start;
  io.log_filter = std::move(filter);
  return 0;
}

}  // namespace roam::serve
