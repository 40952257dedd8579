#include "device/android/jacoco_coverage.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "base/json_fields.h"
#include "base/utf8.h"
#include "device/android/shell_escape.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/tcp_client.h"

namespace roam::device::android {

Result<CoverageSettings> ParseCoverage(std::string_view flag) {
  CoverageSettings s;
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(fmt::format("--coverage {}: {}", Excerpt(flag), why));
  };
  if (flag == "jacoco-tcp" || flag.starts_with("jacoco-tcp:")) {
    s.mode = CoverageSettings::Mode::kJacocoTcp;
    if (flag.size() > 10) {
      std::string_view digits = flag.substr(11);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), s.device_port);
      if (ec != std::errc() || end != digits.data() + digits.size() || s.device_port < 1 ||
          s.device_port > 65535)
        return bad("the port after jacoco-tcp: is a number from 1 to 65535");
    }
    return s;
  }
  if (flag.starts_with("jacoco-file:")) {
    s.mode = CoverageSettings::Mode::kJacocoFile;
    s.file = std::string(flag.substr(12));
    if (s.file.empty() || s.file[0] != '/')
      return bad(
          "give the file's absolute path on the device, e.g. jacoco-file:/sdcard/coverage.ec");
    return s;
  }
  return bad("expected jacoco-tcp[:PORT] or jacoco-file:PATH (docs/coverage.md)");
}

Status CheckCoverage(const CoverageSettings& s) {
  using Mode = CoverageSettings::Mode;
  if (s.mode == Mode::kJacocoFile && s.trigger.empty())
    return Status::InvalidArgument(
        "--coverage jacoco-file:PATH: give --coverage-trigger, the shell command that makes the "
        "app write the file (e.g. \"am broadcast -a org.example.DUMP_COVERAGE\")");
  if (s.mode != Mode::kJacocoFile && !s.trigger.empty())
    return Status::InvalidArgument("--coverage-trigger goes with --coverage jacoco-file:PATH");
  if (s.every < 0) return Status::InvalidArgument("--coverage-every: at least 1");
  return Status::Ok();
}

std::string CoverageName(const CoverageSettings& s) {
  switch (s.mode) {
    case CoverageSettings::Mode::kNone:
      return "none";
    case CoverageSettings::Mode::kJacocoTcp:
      return fmt::format("jacoco-tcp:{}", s.device_port);
    case CoverageSettings::Mode::kJacocoFile:
      return "jacoco-file:" + s.file;
  }
  return "none";
}

int DumpEvery(const CoverageSettings& s) {
  if (s.every > 0) return s.every;
  return s.mode == CoverageSettings::Mode::kJacocoFile ? kFileDumpEvery : 1;
}

std::string AppDataOwner(std::string_view path) {
  if (path.starts_with("/data/data/")) {
    path.remove_prefix(11);
  } else if (path.starts_with("/data/user/")) {  // /data/user/USER/PKG/...
    path.remove_prefix(11);
    const size_t slash = path.find('/');
    if (slash == std::string_view::npos) return "";
    path.remove_prefix(slash + 1);
  } else {
    return "";
  }
  const size_t slash = path.find('/');
  return slash == std::string_view::npos ? "" : std::string(path.substr(0, slash));
}

JacocoCoverage::JacocoCoverage(CoverageSettings settings, std::string package, Adb adb,
                               std::string adb_host)
    : settings_(std::move(settings)),
      package_(std::move(package)),
      adb_(std::move(adb)),
      host_(std::move(adb_host)) {}

JacocoCoverage::~JacocoCoverage() { Release(); }

void JacocoCoverage::Release() {
  dumper_.reset();
  if (local_port_ != 0 && adb_.remove_forward) (void)adb_.remove_forward(local_port_);
  local_port_ = 0;
}

Status JacocoCoverage::Start() {
  // The file mode's alone: a TCP dump comes from the live process, which the run started.
  if (settings_.mode != CoverageSettings::Mode::kJacocoFile) return Status::Ok();
  auto now = adb_.shell("date +%s");
  int64_t seconds = 0;
  if (!now.ok()) return now.status().Wrap("reading the phone's time");
  const std::string digits(TrimSpace(*now));
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return Status::Corruption("`date +%s` on the phone answered \"" + Excerpt(digits) + "\"");
  run_start_ms_ = seconds * 1000;
  const std::string& path = settings_.file;
  std::string paths = ShellQuote(path);
  if (path.ends_with('/')) {
    auto names = ListFolder();
    if (!names.ok()) return names.status().Wrap("listing " + path);
    if (names->empty()) return Status::Ok();
    paths.clear();
    for (const std::string& name : *names) paths += " " + ShellQuote(path + name);
  }
  return RemoveDeviceFiles(paths).Wrap("removing what a run before left at " + path);
}

Result<std::string> JacocoCoverage::RunAs(const std::string& command) {
  // exec: keeps the bytes as they are (shell: would turn \n into \r\n on older phones); its
  // one stream carries run-as's complaints too, so an answer that is no exec file is read as one.
  return adb_.exec("run-as " + ShellQuote(package_) + " " + command);
}

Result<std::string> JacocoCoverage::AsFileOwner(const std::string& command) {
  return Private(settings_.file) ? RunAs(command) : adb_.shell(command);
}

Status JacocoCoverage::RemoveDeviceFiles(const std::string& paths) {
  auto out = AsFileOwner("rm -f " + paths);
  if (!out.ok()) return out.status();
  if (const std::string_view said = TrimSpace(*out); !said.empty())
    return Status::Unavailable(std::string(said));
  return Status::Ok();
}

Result<std::string> JacocoCoverage::TakeDeviceFile(const std::string& path) {
  const std::string quoted = ShellQuote(path);
  if (!Private(path)) {
    auto pulled = adb_.pull(path);
    if (pulled.ok()) (void)RemoveDeviceFiles(quoted);
    if (pulled.ok() || pulled.status().message().find("Permission denied") == std::string::npos)
      return pulled;
  }
  // One process on the phone: the app's user reads the file and removes it.
  auto bytes = RunAs("sh -c " + ShellQuote("cat " + quoted + " && rm -f " + quoted));
  if (!bytes.ok()) return bytes.status();
  if (!bytes->starts_with(jacoco::ExecHeader().substr(0, 3))) {
    const std::string said(TrimSpace(std::string_view(*bytes).substr(0, bytes->find('\n'))));
    if (said.find("not debuggable") != std::string::npos ||
        said.find("unknown package") != std::string::npos)
      return Status::Unavailable(said +
                                 " (run-as reads an app's private files on a debuggable build "
                                 "only: install the build with coverage in it)");
    return Status::NotFound(said.empty() ? path + ": empty" : said);
  }
  return bytes;
}

Result<std::vector<std::string>> JacocoCoverage::ListFolder() {
  auto listing = AsFileOwner("ls " + ShellQuote(settings_.file));
  if (!listing.ok()) return listing.status();
  std::vector<std::string> names;
  for (std::string_view rest = *listing; !rest.empty();) {
    const size_t nl = rest.find('\n');
    std::string name(TrimSpace(rest.substr(0, nl)));
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (name.find(": ") != std::string::npos) return Status::NotFound(name);  // ls complains
    if (!name.empty()) names.push_back(std::move(name));
  }
  return names;
}

Result<std::string> JacocoCoverage::NewestInFolder() {
  auto names = ListFolder();
  if (!names.ok()) return names.status();
  if (names->empty())
    return Status::NotFound("no file in " + settings_.file +
                            " after --coverage-trigger: the broadcast reached no receiver, or "
                            "the receiver writes elsewhere");
  // Receivers name their files for the time they wrote them: the greatest name is the newest.
  return settings_.file + *std::max_element(names->begin(), names->end());
}

Result<jacoco::ExecStore> JacocoCoverage::DumpFile() {
  auto ran = adb_.shell(settings_.trigger);
  if (!ran.ok()) return ran.status().Wrap("--coverage-trigger");
  const bool folder = settings_.file.ends_with('/');
  std::string path = settings_.file;
  if (folder) {
    auto newest = NewestInFolder();
    if (!newest.ok()) return newest.status();
    path = *newest;
  }
  // Removed once read: a file there at the next dump is one its trigger wrote.
  auto bytes = TakeDeviceFile(path);
  if (!bytes.ok()) {
    if (bytes.status().IsNotFound() && !folder)
      return bytes.status().Wrap(
          "no file at " + path +
          " after --coverage-trigger (`am broadcast` says \"completed\" whether or not a "
          "receiver took it): the broadcast reached no receiver, or the receiver writes elsewhere");
    return bytes.status().Wrap("reading " + path);
  }
  auto data = jacoco::ParseExecStore(*bytes);
  if (!data.ok()) return data.status().Wrap(path);
  for (const jacoco::SessionInfo& session : data->sessions())
    if (session.start_ms + 1000 < run_start_ms_)  // the phone's clock, to the second
      return Status::Unavailable(fmt::format(
          "{} holds the session \"{}\", which started {} s before this run: the file is not "
          "this run's (remove it, or have the receiver overwrite it)",
          path, Excerpt(session.id), (run_start_ms_ - session.start_ms) / 1000));
  return data;
}

Result<jacoco::ExecStore> JacocoCoverage::DumpOnce() {
  if (settings_.mode == CoverageSettings::Mode::kJacocoFile) return DumpFile();
  if (!dumper_) {
    // The forward is the adb server's: the agent's port on the device, a free one here.
    auto local = adb_.forward(settings_.device_port);
    if (!local.ok()) return local.status().Wrap("forwarding the JaCoCo port");
    local_port_ = *local;
    dumper_ = std::make_unique<jacoco::TcpDumper>(host_, *local);
  }
  auto data = dumper_->DumpStore(/*reset=*/false);
  if (!data.ok()) {
    Release();  // made again next time: the adb server may have restarted and forgotten it
    if (data.status().message().find("nothing listens behind") != std::string::npos)
      return data.status().Wrap(fmt::format(
          "nothing answers on the phone's port {}: the app is not running, or its JaCoCo "
          "runtime has no output=tcpserver (AGP puts a jacoco-agent.properties with "
          "output=none into the APK: docs/coverage.md)",
          settings_.device_port));
  }
  return data;
}

Status JacocoCoverage::Dump() {
  ++dumps_;
  auto data = DumpOnce();
  Status s = data.ok() ? data_.Merge(*data) : data.status();
  if (!s.ok()) {
    ++failures_;
    last_error_ = s.message();
    return s;
  }
  // A session (one app process) answers many dumps: the run keeps its latest info once.
  data_.KeepLatestSessions();
  return Status::Ok();
}

CoverageLink JacocoCoverage::Link() const {
  return {.source = CoverageName(settings_),
          .dumps = dumps_,
          .failed = failures_,
          .last_error = last_error_,
          .classes = data_.size(),
          .probes = data_.ProbeCount()};
}

std::vector<std::string> JacocoCoverage::CoveredUnits() const {
  std::vector<std::string> units;
  for (uint32_t i : data_.ByIdOrder()) {  // as ExecData's map listed them
    const jacoco::ClassView c = data_.at(i);
    const std::string name = c.Name();
    for (uint32_t p = 0; p < c.probe_count; ++p)
      if (c.probe(p)) units.push_back(fmt::format("{}#{}", name, p));
  }
  return units;
}

}  // namespace roam::device::android
