#include "device/android/jacoco_coverage.h"

#include <charconv>

#include <fmt/format.h>

#include "base/json_fields.h"
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
  if (s.every < 1) return Status::InvalidArgument("--coverage-every: at least 1");
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

JacocoCoverage::JacocoCoverage(CoverageSettings settings, Adb adb, std::string adb_host)
    : settings_(std::move(settings)), adb_(std::move(adb)), host_(std::move(adb_host)) {}

JacocoCoverage::~JacocoCoverage() = default;

Result<jacoco::ExecStore> JacocoCoverage::DumpOnce() {
  if (settings_.mode == CoverageSettings::Mode::kJacocoFile) {
    auto ran = adb_.shell(settings_.trigger);
    if (!ran.ok()) return ran.status().Wrap("--coverage-trigger");
    auto bytes = adb_.pull(settings_.file);
    if (!bytes.ok()) return bytes.status().Wrap("pulling " + settings_.file);
    auto data = jacoco::ParseExecStore(*bytes);
    if (!data.ok()) return data.status().Wrap(settings_.file);
    return data;
  }
  if (!dumper_) {
    // The forward is the adb server's: the agent's port on the device, a free one here.
    auto local = adb_.forward(settings_.device_port);
    if (!local.ok()) return local.status().Wrap("forwarding the JaCoCo port");
    dumper_ = std::make_unique<jacoco::TcpDumper>(host_, *local);
  }
  return dumper_->DumpStore(/*reset=*/false);
}

Status JacocoCoverage::Dump() {
  ++dumps_;
  auto data = DumpOnce();
  Status s = data.ok() ? data_.Merge(*data) : data.status();
  if (!s.ok()) {
    ++failures_;
    return s;
  }
  // A session (one app process) answers many dumps: the run keeps its latest info once.
  data_.KeepLatestSessions();
  return Status::Ok();
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
