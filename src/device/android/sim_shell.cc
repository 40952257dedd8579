#include "device/android/sim_shell.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <regex>

#include <fmt/format.h>

#include "gui/uiautomator.h"
#include "sim/interpreter.h"

namespace roam::device::android {

// --- Parsing ----------------------------------------------------------------------------------

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

class Parser {
 public:
  Parser(std::string_view s, size_t i, bool in_subst) : s_(s), i_(i), in_subst_(in_subst) {}
  size_t pos() const { return i_; }

  Result<ShellScript> ParseList() {
    ShellScript script;
    while (true) {
      SkipBlanks();
      if (AtEnd()) break;
      char c = s_[i_];
      if (c == '\n' || c == ';') {
        ++i_;
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      ShellListItem item;
      auto p = ParsePipeline();
      if (!p.ok()) return p.status();
      item.pipeline = std::move(*p);
      SkipBlanks();
      if (Peek("&&")) {
        item.next = ShellListItem::Next::kAnd;
        i_ += 2;
      } else if (Peek("||")) {
        item.next = ShellListItem::Next::kOr;
        i_ += 2;
      } else if (!AtEnd() && (s_[i_] == ';' || s_[i_] == '\n' || s_[i_] == '&')) {
        item.next = ShellListItem::Next::kSeq;
        ++i_;
      } else if (!AtEnd()) {
        return Error(fmt::format("unexpected '{}'", s_[i_]));
      }
      script.push_back(std::move(item));
    }
    if (!script.empty() && (script.back().next == ShellListItem::Next::kAnd ||
                            script.back().next == ShellListItem::Next::kOr)) {
      return Error("unexpected end of file");
    }
    return script;
  }

 private:
  bool AtEnd() const { return i_ >= s_.size() || (in_subst_ && s_[i_] == ')'); }
  bool Peek(std::string_view t) const { return s_.substr(i_, t.size()) == t; }
  void SkipBlanks() {
    while (i_ < s_.size() && IsBlank(s_[i_])) ++i_;
    if (i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == '\n') {
      i_ += 2;
      SkipBlanks();
    }
  }
  Status Error(const std::string& what) const { return Status::InvalidArgument("syntax error: " + what); }

  Result<ShellPipeline> ParsePipeline() {
    ShellPipeline p;
    while (true) {
      auto c = ParseSimple();
      if (!c.ok()) return c.status();
      if (c->words.empty() && c->redirects.empty()) {
        return Error(AtEnd() ? "unexpected end of file" : fmt::format("unexpected '{}'", s_[i_]));
      }
      p.commands.push_back(std::move(*c));
      SkipBlanks();
      if (!AtEnd() && s_[i_] == '|' && !Peek("||")) {
        ++i_;
        continue;
      }
      return p;
    }
  }

  Result<ShellSimpleCommand> ParseSimple() {
    ShellSimpleCommand cmd;
    while (true) {
      SkipBlanks();
      if (AtEnd()) break;
      char c = s_[i_];
      if (c == ';' || c == '&' || c == '|' || c == '\n') break;
      if (c == '#' && cmd.words.empty()) break;
      bool fd_digit = (c == '1' || c == '2') && i_ + 1 < s_.size() && s_[i_ + 1] == '>';
      if (c == '>' || c == '<' || fd_digit) {
        ShellRedirect r;
        if (fd_digit) r.fd = s_[i_++] - '0';
        if (s_[i_] == '<') r.fd = 0;
        ++i_;
        if (r.fd != 0 && i_ < s_.size() && s_[i_] == '>') {
          r.append = true;
          ++i_;
        }
        if (r.fd != 0 && Peek("&1")) {
          r.to_stdout = true;
          i_ += 2;
        } else {
          SkipBlanks();
          auto w = ParseWord();
          if (!w.ok()) return w.status();
          if (w->parts.empty()) return Error("missing redirection target");
          r.target = std::move(*w);
        }
        cmd.redirects.push_back(std::move(r));
        continue;
      }
      auto w = ParseWord();
      if (!w.ok()) return w.status();
      if (w->parts.empty()) return Error(fmt::format("unexpected '{}'", s_[i_]));
      cmd.words.push_back(std::move(*w));
    }
    return cmd;
  }

  static void AddLiteral(ShellWord& w, std::string_view text, bool quoted) {
    if (!w.parts.empty() && w.parts.back().kind == ShellWordPart::Kind::kLiteral) {
      w.parts.back().text.append(text);
      w.parts.back().quoted = w.parts.back().quoted || quoted;
    } else {
      w.parts.push_back({ShellWordPart::Kind::kLiteral, std::string(text), quoted});
    }
  }

  Result<ShellWord> ParseWord() {
    ShellWord w;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (IsBlank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' ||
          c == '(' || c == ')')
        break;
      if (c == '\'') {
        size_t end = s_.find('\'', i_ + 1);
        if (end == std::string_view::npos) return Error("unterminated quoted string");
        AddLiteral(w, s_.substr(i_ + 1, end - i_ - 1), true);
        i_ = end + 1;
      } else if (c == '"') {
        ++i_;
        AddLiteral(w, "", true);  // "" is an empty argument
        while (true) {
          if (i_ >= s_.size()) return Error("unterminated quoted string");
          char d = s_[i_];
          if (d == '"') {
            ++i_;
            break;
          }
          if (d == '\\' && i_ + 1 < s_.size()) {
            char e = s_[i_ + 1];
            if (e == '$' || e == '`' || e == '"' || e == '\\') AddLiteral(w, std::string(1, e), true);
            else if (e != '\n') AddLiteral(w, s_.substr(i_, 2), true);
            i_ += 2;
          } else if (d == '$' || d == '`') {
            ROAM_RETURN_IF_ERROR(ParseExpansion(w, true));
          } else {
            AddLiteral(w, std::string(1, d), true);
            ++i_;
          }
        }
      } else if (c == '\\') {
        if (i_ + 1 >= s_.size()) {
          AddLiteral(w, "\\", true);
          ++i_;
        } else {
          if (s_[i_ + 1] != '\n') AddLiteral(w, s_.substr(i_ + 1, 1), true);
          i_ += 2;
        }
      } else if (c == '$' || c == '`') {
        ROAM_RETURN_IF_ERROR(ParseExpansion(w, false));
      } else {
        AddLiteral(w, s_.substr(i_, 1), false);
        ++i_;
      }
    }
    return w;
  }

  // At '$' or '`'.
  Status ParseExpansion(ShellWord& w, bool quoted) {
    if (s_[i_] == '`') {
      std::string body;
      size_t j = i_ + 1;
      for (; j < s_.size() && s_[j] != '`'; ++j) {
        if (s_[j] == '\\' && j + 1 < s_.size() &&
            (s_[j + 1] == '`' || s_[j + 1] == '\\' || s_[j + 1] == '$')) {
          ++j;
        }
        body.push_back(s_[j]);
      }
      if (j >= s_.size()) return Error("unterminated `...`");
      w.parts.push_back({ShellWordPart::Kind::kCommand, body, quoted});
      i_ = j + 1;
      return Status::Ok();
    }
    char n = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
    if (n == '(') {
      Parser sub(s_, i_ + 2, true);
      auto script = sub.ParseList();
      if (!script.ok()) return script.status();
      if (sub.pos() >= s_.size()) return Error("unterminated $(...)");
      w.parts.push_back(
          {ShellWordPart::Kind::kCommand, std::string(s_.substr(i_ + 2, sub.pos() - i_ - 2)), quoted});
      i_ = sub.pos() + 1;
    } else if (n == '{') {
      size_t end = s_.find('}', i_ + 2);
      if (end == std::string_view::npos) return Error("bad substitution");
      w.parts.push_back(
          {ShellWordPart::Kind::kVariable, std::string(s_.substr(i_ + 2, end - i_ - 2)), quoted});
      i_ = end + 1;
    } else if (IsNameStart(n)) {
      size_t j = i_ + 1;
      while (j < s_.size() && IsNameChar(s_[j])) ++j;
      w.parts.push_back(
          {ShellWordPart::Kind::kVariable, std::string(s_.substr(i_ + 1, j - i_ - 1)), quoted});
      i_ = j;
    } else if (n == '?' || n == '$' || n == '#' || n == '!' || std::isdigit(static_cast<unsigned char>(n))) {
      w.parts.push_back({ShellWordPart::Kind::kVariable, std::string(1, n), quoted});
      i_ += 2;
    } else {
      AddLiteral(w, "$", quoted);
      ++i_;
    }
    return Status::Ok();
  }

  std::string_view s_;
  size_t i_;
  bool in_subst_;
};

}  // namespace

Result<ShellScript> ParseShellScript(std::string_view line) {
  Parser p(line, 0, false);
  auto script = p.ParseList();
  if (script.ok() && p.pos() < line.size()) {
    return Status::InvalidArgument("syntax error: unexpected ')'");
  }
  return script;
}

Result<std::vector<std::vector<std::string>>> SplitShellWords(std::string_view line) {
  auto script = ParseShellScript(line);
  if (!script.ok()) return script.status();
  std::vector<std::vector<std::string>> out;
  for (const auto& item : *script) {
    for (const auto& cmd : item.pipeline.commands) {
      std::vector<std::string> argv;
      for (const auto& w : cmd.words) {
        std::string a;
        for (const auto& p : w.parts) {
          if (p.kind != ShellWordPart::Kind::kLiteral) {
            return Status::InvalidArgument("expansion in \"" + std::string(line) + "\"");
          }
          a += p.text;
        }
        argv.push_back(std::move(a));
      }
      out.push_back(std::move(argv));
    }
  }
  return out;
}

// --- The device: plumbing ---------------------------------------------------------------------

struct SimAndroidDevice::Io {
  std::string out;
  std::string err;
  int status = 0;
  bool exited = false;
  bool stream_log = false;
  uint64_t log_cursor = 0;
};

namespace {
constexpr int kMaxDepth = 8;
constexpr int kSystemPid = 531;
constexpr int kTapSlopPx = 8;
constexpr int kLongPressMs = 500;
constexpr int64_t kMsPerCommand = 9;
constexpr int64_t kMsPerEvent = 180;

std::vector<std::string> SplitFields(const std::string& s) {
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
}  // namespace

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
  ShellResult r{std::move(io.out), std::move(io.err), io.status, io.stream_log, io.log_cursor};
  return r;
}

int SimAndroidDevice::RunScript(const ShellScript& script, Io& io, int depth) {
  bool skip = false;
  for (const auto& item : script) {
    if (io.exited) break;
    if (!skip) io.status = RunPipeline(item.pipeline, io, depth);
    using Next = ShellListItem::Next;
    if (item.next == Next::kAnd) skip = skip || io.status != 0;
    else if (item.next == Next::kOr) skip = skip || io.status == 0;
    else skip = false;
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
      io.exited = sub.exited;
      io.stream_log = sub.stream_log;
      io.log_cursor = sub.log_cursor;
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
      if (append) files_[path] += text;
      else files_[path] = text;
    }
  };
  deliver(sub.out, out_files, io.out);
  deliver(sub.err, err_files, io.err);
  io.exited = sub.exited;
  io.stream_log = sub.stream_log;
  io.log_cursor = sub.log_cursor;
  return status;
}

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
  if (base == "screencap") {
    io.err += "screencap: capture failed: the simulated display cannot be drawn yet\n";
    return 1;
  }
  io.err += "/system/bin/sh: " + name + ": inaccessible or not found\n";
  return 127;
}

// --- The device: app, log, events -------------------------------------------------------------

const gui::Screen& SimAndroidDevice::Screen() { return app_.screen(); }

std::string SimAndroidDevice::FullActivity(const std::string& activity) const {
  const std::string& pkg = app_.package();
  if (!activity.empty() && activity[0] == '.') return pkg + "/" + pkg + activity;
  size_t slash = activity.find('/');
  if (slash != std::string::npos) return FullActivity(activity.substr(slash + 1));
  std::string owner = activity.rfind(pkg + ".", 0) == 0 ? pkg : activity.substr(0, activity.rfind('.'));
  return owner + "/" + activity;
}

std::string SimAndroidDevice::ShortActivity(const std::string& activity) const {
  std::string full = FullActivity(activity);
  size_t slash = full.find('/');
  std::string pkg = full.substr(0, slash), cls = full.substr(slash + 1);
  if (cls.rfind(pkg + ".", 0) == 0) return pkg + "/" + cls.substr(pkg.size());
  return full;
}

void SimAndroidDevice::Log(char level, const std::string& tag, const std::string& message,
                           int pid) {
  if (pid < 0) pid = kSystemPid;
  int64_t t = clock_ms_++;
  int64_t ms = t % 1000, sec = (t / 1000) % 60, min = (t / 60000) % 60, hour = (t / 3600000) % 24;
  int tid = pid == kSystemPid ? pid + 29 : pid;
  log_.push_back(fmt::format("06-15 {:02}:{:02}:{:02}.{:03} {:5} {:5} {} {:<8}: {}", hour, min,
                             sec, ms, pid, tid, level, tag, message));
  log_cv_.notify_all();
}

void SimAndroidDevice::Launch() {
  bool was_running = app_.running();
  const auto& acts = app_.Activities();
  std::string act = acts.empty() ? app_.package() + ".MainActivity" : acts.front();
  Log('I', "ActivityTaskManager",
      fmt::format("START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
                  "flg=0x10200000 cmp={}}} from uid 2000", ShortActivity(act)));
  app_.Launch();
  ++stats_.launches;
  if (!was_running && app_.running()) {
    app_pid_ = next_pid_++;
    Log('I', "ActivityManager",
        fmt::format("Start proc {}:{}/u0a{} for pre-top-activity {{{}}}", app_pid_,
                    app_.package(), 100 + index_, ShortActivity(act)));
    Log('I', "ActivityTaskManager", fmt::format("Displayed {}: +{}ms", ShortActivity(act), 312));
  }
  AfterChange();
}

void SimAndroidDevice::Perform(const gui::Action& action) {
  ++stats_.input_events;
  clock_ms_ += kMsPerEvent;
  app_.Perform(action);
  AfterChange();
}

void SimAndroidDevice::AfterChange() {
  int pid = app_pid_;
  for (sim::Fault& f : app_.DrainFaults()) {
    Event e;
    e.kind = f.kind == sim::Fault::Kind::kCrash ? Event::Kind::kCrash : Event::Kind::kAnr;
    e.package = app_.package();
    e.exception = f.exception;
    e.message = f.message;
    e.frames = f.frames;
    e.bug_id = f.bug_id;
    std::string activity = ShortActivity(Screen().package == app_.package()
                                             ? Screen().activity
                                             : (app_.Activities().empty() ? ".MainActivity"
                                                                          : app_.Activities()[0]));
    size_t first_line = log_.size();
    if (e.kind == Event::Kind::kCrash) {
      Log('D', "AndroidRuntime", "Shutting down VM", pid);
      Log('E', "AndroidRuntime", "FATAL EXCEPTION: main", pid);
      Log('E', "AndroidRuntime", fmt::format("Process: {}, PID: {}", e.package, pid), pid);
      Log('E', "AndroidRuntime", e.message.empty() ? e.exception : e.exception + ": " + e.message,
          pid);
      for (const auto& frame : e.frames) Log('E', "AndroidRuntime", "\tat " + frame, pid);
      Log('I', "Process", fmt::format("Sending signal. PID: {} SIG: 9", pid), pid);
      Log('W', "ActivityTaskManager", "  Force finishing activity " + activity);
    } else {
      Log('E', "ActivityManager", fmt::format("ANR in {} ({})", e.package, activity));
      Log('E', "ActivityManager", fmt::format("PID: {}", pid));
      Log('E', "ActivityManager",
          "Reason: " + (e.message.empty() ? std::string("Input dispatching timed out") : e.message));
      Log('E', "ActivityManager", "Load: 0.0 / 0.0 / 0.0");
    }
    for (size_t k = first_line; k < log_.size(); ++k) e.raw += log_[k] + "\n";
    stats_.faults.emplace_back(stats_.input_events, std::move(e));
  }
  if (!app_.running()) app_pid_ = 0;
  else if (app_pid_ == 0) app_pid_ = next_pid_++;
  const gui::Screen& screen = Screen();
  if (screen.package == app_.package() && activities_seen_.insert(screen.activity).second) {
    stats_.activities.push_back(screen.activity);
  }
  if (!focused_path_.empty()) {
    int w = screen.FindPath(focused_path_);
    if (w < 0 || !screen.widgets[w].editable) focused_path_.clear();
  }
}

std::string SimAndroidDevice::Console(std::string_view command) {
  std::lock_guard<std::mutex> lock(mu_);
  auto words = SplitFields(std::string(command));
  if (words.size() >= 3 && words[0] == "avd" && words[1] == "snapshot") {
    const std::string& op = words[2];
    if (op == "list") {
      std::string out = "List of snapshots present on all disks:\r\n";
      for (const auto& [name, st] : snapshots_) out += name + "\r\n";
      return out + "OK\r\n";
    }
    if (words.size() < 4) return "KO: missing snapshot name\r\n";
    const std::string& name = words[3];
    if (op == "save") {
      snapshots_[name] = app_.Save();
      return "OK\r\n";
    }
    auto it = snapshots_.find(name);
    if (it == snapshots_.end()) return "KO: snapshot '" + name + "' does not exist\r\n";
    if (op == "load") {
      app_.Load(*it->second);
      app_pid_ = 0;
      AfterChange();
      return "OK\r\n";
    }
    if (op == "delete") {
      snapshots_.erase(it);
      return "OK\r\n";
    }
  }
  if (!words.empty() && words[0] == "ping") return "I am alive!\r\nOK\r\n";
  return "KO: unknown command, try 'help'\r\n";
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

std::vector<std::string> SimAndroidDevice::LogSince(uint64_t* cursor) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (*cursor < log_base_) *cursor = log_base_;
  std::vector<std::string> out(log_.begin() + static_cast<long>(*cursor - log_base_), log_.end());
  *cursor = log_base_ + log_.size();
  return out;
}

bool SimAndroidDevice::WaitForLog(uint64_t cursor, int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mu_);
  return log_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                          [&] { return log_base_ + log_.size() > cursor; });
}

void SimAndroidDevice::NotifyAll() const { log_cv_.notify_all(); }

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

// --- Commands ---------------------------------------------------------------------------------

int SimAndroidDevice::CmdUiautomator(const std::vector<std::string>& a, Io& io) {
  if (a.size() < 2 || a[1] != "dump") {
    io.out += "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
              "help: displays help message\n\n"
              "dump: creates an XML dump of current UI hierarchy\n";
    return a.size() < 2 ? 0 : 1;
  }
  std::string file = "/sdcard/window_dump.xml";
  for (size_t k = 2; k < a.size(); ++k) {
    if (a[k] == "--compressed" || a[k] == "--verbose") continue;
    file = a[k];
  }
  gui::Screen screen = Screen();
  if (!focused_path_.empty()) {
    int w = screen.FindPath(focused_path_);
    if (w >= 0) screen.widgets[w].focused = true;
  }
  std::string xml = gui::WriteDump(screen);
  if (file == "/dev/tty" || file == "/dev/stdout") {
    io.out += xml;
  } else {
    files_[file] = xml;
  }
  io.out += "UI hierchary dumped to: " + file + "\n";
  return 0;
}

int SimAndroidDevice::CmdDumpsys(const std::vector<std::string>& a, Io& io) {
  const gui::Screen& screen = Screen();
  std::string full = FullActivity(screen.activity);
  if (screen.package != app_.package()) full = screen.package + "/" + screen.activity;
  std::string brief = screen.package == app_.package() ? ShortActivity(screen.activity) : full;
  size_t hash = std::hash<std::string>()(full);
  std::string window = fmt::format("Window{{{:x} u0 {}}}", hash & 0xffffff, full);
  int task = 10 + static_cast<int>(stats_.launches);
  std::string record =
      fmt::format("ActivityRecord{{{:x} u0 {} t{}}}", (hash >> 24) & 0xffffff, brief, task);
  std::string service = a.size() > 1 ? a[1] : "";
  if (service == "window") {
    std::string what = a.size() > 2 ? a[2] : "";
    if (what == "displays") {
      io.out += fmt::format("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
                            "  Display: mDisplayId=0\n    init={}x{} 420dpi cur={}x{} app={}x{} "
                            "rng=1080x1017-1920x1857\n",
                            screen.width, screen.height, screen.width, screen.height, screen.width,
                            screen.height);
      return 0;
    }
    io.out += "WINDOW MANAGER WINDOWS (dumpsys window windows)\n";
    io.out += fmt::format("  Window #0 {}:\n    mDisplayId=0 rootTaskId={} mSession=Session{{"
                          "7f1c2d0 {}:u0a{}}} mClient=android.os.BinderProxy@3b5e2a1\n",
                          window, task, app_pid_, 100 + index_);
    io.out += "    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false\n\n";
    io.out += "  mCurrentFocus=" + window + "\n";
    io.out += "  mFocusedApp=" + record + "\n";
    return 0;
  }
  if (service == "activity") {
    io.out += "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
              "Display #0 (activities from top to bottom):\n";
    io.out += fmt::format("  * Task{{2c9e1f0 #{} type=standard A=10{}:{} U=0 visible=true "
                          "mode=fullscreen translucent=false sz=1}}\n",
                          task, 100 + index_, screen.package);
    io.out += "    mResumedActivity: " + record + "\n";
    io.out += "  ResumedActivity: " + record + "\n";
    return 0;
  }
  if (service == "package") {
    std::string pkg = a.size() > 2 ? a[2] : "";
    if (pkg != app_.package()) {
      io.out += "Unable to find package: " + pkg + "\n";
      return 0;
    }
    io.out += "Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n";
    for (const auto& act : app_.Activities()) {
      io.out += fmt::format("        {:x} {}\n", std::hash<std::string>()(act) & 0xffffff,
                            ShortActivity(act));
    }
    io.out += fmt::format("\nPackages:\n  Package [{}] ({:x}):\n    userId=10{}\n"
                          "    versionName=1.0\n",
                          pkg, std::hash<std::string>()(pkg) & 0xffffff, 100 + index_);
    return 0;
  }
  io.out += "Can't find service: " + service + "\n";
  return 0;
}

namespace {
struct KeyName {
  const char* name;
  int code;
};
constexpr KeyName kKeys[] = {
    {"HOME", 3},        {"BACK", 4},          {"CALL", 5},        {"ENDCALL", 6},
    {"DPAD_UP", 19},    {"DPAD_DOWN", 20},    {"DPAD_LEFT", 21},  {"DPAD_RIGHT", 22},
    {"DPAD_CENTER", 23}, {"VOLUME_UP", 24},   {"VOLUME_DOWN", 25}, {"POWER", 26},
    {"CAMERA", 27},     {"TAB", 61},          {"SPACE", 62},      {"ENTER", 66},
    {"DEL", 67},        {"MENU", 82},         {"SEARCH", 84},     {"MEDIA_PLAY_PAUSE", 85},
    {"ESCAPE", 111},    {"VOLUME_MUTE", 164}, {"APP_SWITCH", 187},
};

std::optional<std::string> KeyNameOf(std::string key) {
  if (key.rfind("KEYCODE_", 0) == 0) key = key.substr(8);
  bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit);
  for (const auto& k : kKeys) {
    if ((numeric && std::atoi(key.c_str()) == k.code) || key == k.name) return std::string(k.name);
  }
  return std::nullopt;
}

// The widget of the top window under (x, y) that `want` accepts, deepest first; -1 if none.
int HitTest(const gui::Screen& s, int x, int y, const std::function<bool(const gui::Widget&)>& want) {
  int top_root = -1;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (s.widgets[i].parent == -1) top_root = i;
  if (top_root < 0 || !s.widgets[top_root].bounds.Contains(x, y)) return -1;
  int best = -1;
  for (int i = top_root; i < s.widgets[top_root].subtree_end; ++i) {
    const gui::Widget& w = s.widgets[i];
    if (!w.enabled || !w.bounds.Contains(x, y) || !want(w)) continue;
    if (best < 0 || w.depth >= s.widgets[best].depth) best = i;
  }
  return best;
}

bool Tappable(const gui::Widget& w) {
  return w.clickable || w.checkable || w.long_clickable || w.editable;
}
}  // namespace

int SimAndroidDevice::CmdInput(const std::vector<std::string>& a0, Io& io) {
  std::vector<std::string> a(a0.begin() + 1, a0.end());
  static const char* kSources[] = {"touchscreen", "keyboard", "mouse", "touchpad", "dpad",
                                   "gamepad", "trackball", "stylus", "joystick", "keyboard"};
  if (!a.empty() && std::find(std::begin(kSources), std::end(kSources), a[0]) != std::end(kSources))
    a.erase(a.begin());
  auto usage = [&]() {
    io.err += "Usage: input [<source>] <command> [<arg>...]\n\nThe commands and default sources are:\n"
              "      text <string> (Default: touchscreen)\n"
              "      keyevent [--longpress] <key code number or name> ... (Default: keyboard)\n"
              "      tap <x> <y> (Default: touchscreen)\n"
              "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n";
    return 1;
  };
  if (a.empty()) return usage();
  auto num = [](const std::string& t, int* out) {
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end != '\0') return false;
    *out = static_cast<int>(v);
    return true;
  };
  const std::string& cmd = a[0];
  if (cmd == "tap" || cmd == "swipe" || cmd == "draganddrop") {
    size_t need = cmd == "tap" ? 3 : 5;
    int v[5] = {0, 0, 0, 0, 0};
    if (a.size() < need) return usage();
    for (size_t k = 1; k < need; ++k) {
      if (!num(a[k], &v[k - 1])) {
        io.err += "Error: NumberFormatException: For input string: \"" + a[k] + "\"\n";
        return 1;
      }
    }
    int duration = 0;
    if (cmd != "tap" && a.size() > 5 && !num(a[5], &duration)) return usage();
    int x = v[0], y = v[1];
    const gui::Screen& s = Screen();
    bool still = cmd == "tap" ||
                 (std::abs(v[2] - x) <= kTapSlopPx && std::abs(v[3] - y) <= kTapSlopPx);
    if (still) {
      bool long_press = cmd != "tap" && duration >= kLongPressMs;
      int w = HitTest(s, x, y, Tappable);
      if (w < 0) {
        ++stats_.input_events;  // a tap on nothing
        return 0;
      }
      if (s.widgets[w].editable) focused_path_ = s.PathOf(w);
      Perform(gui::MakeWidgetAction(long_press ? gui::ActionKind::kLongClick : gui::ActionKind::kClick,
                                    s, w));
      return 0;
    }
    int dx = v[2] - x, dy = v[3] - y;
    bool vertical = std::abs(dy) >= std::abs(dx);
    int w = HitTest(s, x, y, [](const gui::Widget& w) { return w.scrollable; });
    using K = gui::ActionKind;
    if (w >= 0) {
      K kind = vertical ? (dy < 0 ? K::kScrollDown : K::kScrollUp)
                        : (dx < 0 ? K::kScrollRight : K::kScrollLeft);
      Perform(gui::MakeWidgetAction(kind, s, w));
    } else {
      K kind = vertical ? (dy < 0 ? K::kSwipeUp : K::kSwipeDown)
                        : (dx < 0 ? K::kSwipeLeft : K::kSwipeRight);
      Perform(gui::MakeGlobalAction(kind));
    }
    return 0;
  }
  if (cmd == "text") {
    if (a.size() < 2) return usage();
    std::string text = a[1];
    for (size_t p = text.find("%s"); p != std::string::npos; p = text.find("%s", p + 1))
      text.replace(p, 2, " ");
    const gui::Screen& s = Screen();
    int w = focused_path_.empty() ? -1 : s.FindPath(focused_path_);
    if (w < 0) {
      for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
        if (s.widgets[i].focused && s.widgets[i].editable) w = i;
    }
    if (w < 0) {
      ++stats_.input_events;  // typed into nothing, as on a device without a focused field
      return 0;
    }
    gui::Action act = gui::MakeWidgetAction(gui::ActionKind::kInputText, s, w);
    act.text = text;
    Perform(act);
    return 0;
  }
  if (cmd == "keyevent") {
    size_t k = 1;
    if (k < a.size() && (a[k] == "--longpress" || a[k] == "--doubletap")) ++k;
    if (k >= a.size()) return usage();
    for (; k < a.size(); ++k) {
      auto key = KeyNameOf(a[k]);
      if (!key) {
        io.err += "Unknown keycode: " + a[k] + "\n";
        continue;
      }
      if (*key == "BACK") Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
      else if (*key == "MENU") Perform(gui::MakeGlobalAction(gui::ActionKind::kMenu));
      else Perform(gui::MakeGlobalAction(gui::ActionKind::kKey, *key));
    }
    return 0;
  }
  io.err += "Error: Unknown command: " + cmd + "\n";
  return usage();
}

int SimAndroidDevice::CmdMonkey(const std::vector<std::string>& a, Io& io) {
  std::string pkg;
  std::string count = "1";
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k] == "-p" && k + 1 < a.size()) pkg = a[++k];
    else if ((a[k] == "-c" || a[k] == "-s" || a[k] == "--throttle" || a[k] == "--pct-touch") &&
             k + 1 < a.size())
      ++k;
    else if (a[k][0] != '-') count = a[k];
  }
  for (size_t k = 1; k < a.size(); ++k) io.out += "  bash arg: " + a[k] + "\n";
  if (pkg != app_.package()) {
    io.out += "** No activities found to run, monkey aborted.\n";
    return 252;
  }
  Launch();
  if (std::atoi(count.c_str()) > 1) {
    io.err += "** roam sim: monkey's random events are not simulated; only the launch was sent\n";
  }
  io.out += "Events injected: 1\n## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, "
            "14ms not connected)\n";
  return 0;
}

int SimAndroidDevice::CmdAm(const std::vector<std::string>& a, Io& io) {
  std::string sub = a.size() > 1 ? a[1] : "";
  if (sub == "force-stop" || sub == "kill") {
    if (a.size() > 2 && a.back() == app_.package()) {
      if (app_.running()) {
        Log('I', "ActivityManager",
            fmt::format("Force stopping {} appid=10{} user=0: from pid {}", app_.package(),
                        100 + index_, 4000 + index_));
      }
      app_.Stop();
      AfterChange();
    }
    return 0;
  }
  if (sub == "start" || sub == "start-activity") {
    bool wait = false, stop_first = false;
    std::string component;
    for (size_t k = 2; k < a.size(); ++k) {
      if (a[k] == "-W") wait = true;
      else if (a[k] == "-S") stop_first = true;
      else if (a[k] == "-n" && k + 1 < a.size()) component = a[++k];
      else if ((a[k] == "-a" || a[k] == "-c" || a[k] == "-d" || a[k] == "-t" || a[k] == "-f" ||
                a[k] == "--user") && k + 1 < a.size())
        ++k;
      else if (a[k].find('/') != std::string::npos && a[k][0] != '-') component = a[k];
    }
    std::string pkg = component.substr(0, component.find('/'));
    io.out += "Starting: Intent { cmp=" + component + " }\n";
    if (component.empty() || pkg != app_.package()) {
      io.err += "Error: Activity not started, unable to resolve Intent { cmp=" + component +
                " flg=0x10000000 }\n";
      return 1;
    }
    if (stop_first) app_.Stop();
    Launch();
    if (wait) {
      io.out += "Status: ok\nLaunchState: COLD\nActivity: " + FullActivity(Screen().activity) +
                "\nTotalTime: 312\nWaitTime: 315\nComplete\n";
    }
    return 0;
  }
  io.err += "Unknown command: " + sub + "\n";
  return 255;
}

// pm, settings, wm.
int SimAndroidDevice::CmdPm(const std::vector<std::string>& a, Io& io) {
  std::string sub = a.size() > 1 ? a[1] : "";
  const std::string& pkg = app_.package();
  if (a[0] == "wm") {
    const gui::Screen& s = Screen();
    if (sub == "size") io.out += fmt::format("Physical size: {}x{}\n", s.width, s.height);
    else if (sub == "density") io.out += "Physical density: 420\n";
    else return io.err += "Error: unknown command '" + sub + "'\n", 255;
    return 0;
  }
  if (a[0] == "settings") {
    // settings put system user_rotation N rotates the simulated screen.
    if (sub == "put" && a.size() >= 5 && a[3] == "user_rotation") {
      int want = std::atoi(a[4].c_str()) % 4;
      for (int k = 0; k < 4 && Screen().rotation != want; ++k)
        Perform(gui::MakeGlobalAction(gui::ActionKind::kRotate));
      env_["settings." + a[3]] = a[4];
    } else if (sub == "put" && a.size() >= 5) {
      env_["settings." + a[3]] = a[4];
    } else if (sub == "get" && a.size() >= 4) {
      auto it = env_.find("settings." + a[3]);
      io.out += (it == env_.end() ? "null" : it->second) + "\n";
    }
    return 0;
  }
  std::string target = a.size() > 2 ? a.back() : "";
  if (sub == "clear") {
    if (target != pkg) {
      io.out += "Failed\n";
      return 1;
    }
    app_.ClearData();
    AfterChange();
    io.out += "Success\n";
    return 0;
  }
  if (sub == "list" && a.size() > 2 && a[2] == "packages") {
    static const char* kSystem[] = {"android", "com.android.systemui", "com.android.settings",
                                    "com.android.launcher3", "com.android.shell"};
    std::string filter = a.size() > 3 && a.back()[0] != '-' ? a.back() : "";
    bool third_party = std::find(a.begin(), a.end(), "-3") != a.end();
    std::vector<std::string> names;
    if (!third_party) names.assign(std::begin(kSystem), std::end(kSystem));
    names.push_back(pkg);
    for (const auto& n : names)
      if (n.find(filter) != std::string::npos) io.out += "package:" + n + "\n";
    return 0;
  }
  if (sub == "path") {
    if (target != pkg) return 1;
    io.out += "package:/data/app/" + pkg + "-1/base.apk\n";
    return 0;
  }
  if (sub == "grant" || sub == "revoke") {
    std::string who = a.size() > 2 ? a[2] : "";
    if (who != pkg) {
      io.err += "Exception occurred while executing '" + sub +
                "':\njava.lang.IllegalArgumentException: Unknown package: " + who + "\n";
      return 255;
    }
    return 0;
  }
  if (sub == "install") {
    io.err += "Failure [roam sim: the simulated device cannot install packages; its app is " +
              pkg + "]\n";
    return 1;
  }
  io.err += "Unknown command: " + sub + "\n";
  return 255;
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

int SimAndroidDevice::CmdLogcat(const std::vector<std::string>& a, Io& io) {
  bool dump = false;
  long tail = -1;
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& o = a[k];
    if (o == "-d") dump = true;
    else if (o == "-c") {
      log_base_ += log_.size();
      log_.clear();
      return 0;
    } else if ((o == "-t" || o == "-T") && k + 1 < a.size()) {
      tail = std::atol(a[++k].c_str());
      if (o == "-t") dump = true;
    } else if ((o == "-v" || o == "-b" || o == "-s" || o == "-f" || o == "-r" || o == "-n" ||
                o == "-e" || o == "--pid") && k + 1 < a.size() && o != "-s") {
      ++k;  // formats other than threadtime, buffers and filters are accepted and ignored
    } else if (o == "-g") {
      io.out += "main: ring buffer is 256 KiB (0 B consumed), max entry is 5120 B, max payload "
                "is 4068 B\n";
      return 0;
    }
  }
  uint64_t start = log_base_;
  if (tail >= 0 && static_cast<uint64_t>(tail) < log_.size()) start = log_base_ + log_.size() - tail;
  if (dump) {
    if (start < log_base_ + log_.size()) io.out += "--------- beginning of main\n";
    for (size_t k = start - log_base_; k < log_.size(); ++k) io.out += log_[k] + "\n";
    return 0;
  }
  io.stream_log = true;
  io.log_cursor = start;
  return 0;
}

int SimAndroidDevice::CmdFiles(const std::vector<std::string>& a, const std::string& in, Io& io) {
  const std::string& cmd = a[0].substr(a[0].rfind('/') == std::string::npos ? 0 : a[0].rfind('/') + 1);
  int status = 0;
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
    std::regex re;
    try {
      re = std::regex(a[k], icase ? std::regex::extended | std::regex::icase : std::regex::extended);
    } catch (const std::regex_error&) {
      io.err += "grep: bad regex '" + a[k] + "'\n";
      return 2;
    }
    status = 1;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      if (std::regex_search(line, re) != invert) {
        io.out += line + "\n";
        status = 0;
      }
    }
  }
  return status;
}

}  // namespace roam::device::android
