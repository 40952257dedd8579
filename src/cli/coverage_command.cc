// `roam coverage`: JaCoCo execution data (exec/.ec files, and the agent's TCP server): merge
// files, show what one holds, dump from a running agent; `report` (coverage_report_command.cc)
// has JaCoCo compute line coverage from the class files. docs/coverage.md says how to build an
// app whose coverage JaCoCo records.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/exec_store.h"
#include "device/jacoco/tcp_client.h"

namespace roam::cli {

namespace {

namespace fs = std::filesystem;
namespace android = device::android;
namespace jacoco = device::jacoco;

Result<jacoco::ExecStore> LoadExec(const fs::path& path) {
  jacoco::ExecStore data;
  ROAM_RETURN_IF_ERROR(jacoco::ReadExecFile(path, data));
  return data;
}

std::string WriteStore(const jacoco::ExecStore& data) {
  std::string out = jacoco::ExecHeader();
  data.AppendBlocks(out);
  return out;
}

// A JSON string, as JsonLine writes one.
std::string JsonString(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// "2024-05-01 12:00:00 UTC"; a time gmtime cannot convert stays a number.
std::string Utc(int64_t ms_since_1970) {
  const std::time_t t = static_cast<std::time_t>(ms_since_1970 / 1000);
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) return fmt::format("{} ms since 1970", ms_since_1970);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string Classes(size_t n) { return fmt::format("{} class{}", n, n == 1 ? "" : "es"); }

std::string Percent(size_t part, size_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * part / whole);
}

int CoverageMerge(int argc, char** argv) {
  CLI::App app(
      "Merge JaCoCo exec files (as `jacococli merge`): the probes of a class are ORed, sessions "
      "kept; files of another build of the app (same class, other probes) are refused.",
      "merge");
  std::vector<fs::path> inputs;
  fs::path out;
  app.add_option("FILES", inputs, "exec or .ec files")->required();
  app.add_option("--out", out, "the merged exec file (not one of the inputs)")->required();
  const std::string who = "roam coverage merge";
  if (int rc = ParseFlags(app, who, argc, argv); rc >= 0) return rc;
  if (Status s = CheckNotAnInput(out, inputs); !s.ok()) return Fail(who, s);
  jacoco::ExecStore merged;  // each file read straight into it: a refusal ends the command
  for (const fs::path& in : inputs) {
    if (Status s = jacoco::ReadExecFile(in, merged); !s.ok()) return Fail(who, s);
  }
  if (Status s = WriteFileAtomic(out, WriteStore(merged)); !s.ok()) return Fail(who, s);
  fmt::print("{} files merged into {}: {}, {} of {} probes covered ({})\n", inputs.size(),
             out.string(), Classes(merged.size()), merged.CoveredCount(), merged.ProbeCount(),
             Percent(merged.CoveredCount(), merged.ProbeCount()));
  return kExitOk;
}

int CoverageShow(int argc, char** argv) {
  CLI::App app(
      "What a JaCoCo exec file holds: its sessions, then each class (by name) with its probes "
      "covered of its probes. JaCoCo writes only classes with at least one probe hit, so the "
      "probes known are those of the classes that ran.",
      "show");
  fs::path path;
  bool json = false;
  app.add_option("FILE", path, "an exec or .ec file")->required();
  app.add_flag("--json", json,
               "one JSON object: classes, probes, covered, sessions and per_class (name, id, "
               "probes, covered)");
  const std::string who = "roam coverage show";
  if (int rc = ParseFlags(app, who, argc, argv); rc >= 0) return rc;
  Result<jacoco::ExecStore> data = LoadExec(path);
  if (!data.ok()) return Fail(who, data.status());
  std::vector<uint32_t> classes(data->size());  // by name (its bytes as written), then as read
  for (uint32_t i = 0; i < classes.size(); ++i) classes[i] = i;
  std::stable_sort(classes.begin(), classes.end(),
                   [&](uint32_t a, uint32_t b) { return data->at(a).name < data->at(b).name; });
  const size_t probes = data->ProbeCount(), covered = data->CoveredCount();
  std::string out;  // printed a piece at a time: the whole could be as big as the file
  const auto flush = [&](bool last) {
    if (out.size() < (size_t{1} << 20) && !last) return;
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  if (json) {  // as JsonLine writes the object: keys in order, names exact (JSON escapes them)
    out += fmt::format("{{\"classes\":{},\"covered\":{},\"per_class\":[", classes.size(), covered);
    for (size_t k = 0; k < classes.size(); ++k) {
      const jacoco::ClassView c = data->at(classes[k]);
      out += fmt::format("{}{{\"covered\":{},\"id\":\"{:016x}\",\"name\":{},\"probes\":{}}}",
                         k == 0 ? "" : ",", c.CoveredCount(), c.id, JsonString(c.Name()),
                         c.probe_count);
      flush(false);
    }
    out += fmt::format("],\"probes\":{},\"sessions\":[", probes);
    for (size_t k = 0; k < data->sessions().size(); ++k) {
      const jacoco::SessionInfo& s = data->sessions()[k];
      out += fmt::format("{}{{\"dump_ms\":{},\"id\":{},\"start_ms\":{}}}", k == 0 ? "" : ",",
                         s.dump_ms, JsonString(s.id), s.start_ms);
      flush(false);
    }
    out += "]}\n";
    flush(true);
    return kExitOk;
  }
  const size_t sessions = data->sessions().size();
  out += fmt::format("{}: {} session{}, {}, {} of {} probes covered ({})\n", path.string(),
                     sessions, sessions == 1 ? "" : "s", Classes(classes.size()), covered, probes,
                     Percent(covered, probes));
  for (const auto& s : data->sessions()) {  // names from the file, shown escaped (ShownName)
    out += fmt::format("  session {}: dumped {}, {:.1f} s after the agent started or was reset\n",
                       jacoco::ShownName(s.id), Utc(s.dump_ms),
                       (static_cast<double>(s.dump_ms) - s.start_ms) / 1000);
  }
  for (uint32_t i : classes) {
    const jacoco::ClassView c = data->at(i);
    const size_t hit = c.CoveredCount();
    out += fmt::format("  {:>5}/{:<5} {:>6}  {}\n", hit, c.probe_count, Percent(hit, c.probe_count),
                       jacoco::ShownName(c.Name()));
    flush(false);
  }
  flush(true);
  return kExitOk;
}

// "host:port", "[v6]:port".
Result<std::pair<std::string, int>> ParseAddress(const std::string& text) {
  const size_t colon = text.rfind(':');
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(
        fmt::format("--address {}: {}; expected HOST:PORT, e.g. 127.0.0.1:6300", text, why));
  };
  if (colon == std::string::npos) return bad("no port");
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) return bad("no host");
  const std::string port_text = text.substr(colon + 1);
  int port = 0;
  for (char c : port_text) {
    if (c < '0' || c > '9' || port > 65535) return bad("the port is not a number from 1 to 65535");
    port = port * 10 + (c - '0');
  }
  if (port_text.empty() || port < 1 || port > 65535) {
    return bad("the port is not a number from 1 to 65535");
  }
  return std::make_pair(host, port);
}

int CoverageDump(int argc, char** argv) {
  CLI::App app(
      "Dump execution data from a JaCoCo agent running with output=tcpserver (as `jacococli "
      "dump`), into an exec file.",
      "dump");
  std::string address, serial;
  int port = jacoco::kDefaultAgentPort;
  int timeout_ms = jacoco::kDefaultDumpTimeoutMs;
  fs::path out;
  bool reset = false;
  auto* by_address = app.add_option(
      "--address", address,
      "HOST:PORT of the agent's server, e.g. 127.0.0.1:6300 after `adb forward tcp:6300 "
      "tcp:6300`");
  std::string adb_host = std::string(android::kLoopback);
  int adb_port = android::kDefaultAdbServerPort;
  auto* by_serial = app.add_option(
      "--serial", serial, "a device whose app runs the agent, reached through an adb forward");
  app.add_option("--adb-host", adb_host, "with --serial: the adb server's host")
      ->needs(by_serial)
      ->capture_default_str();
  app.add_option("--adb-port", adb_port, "with --serial: the adb server's port")
      ->check(CLI::Range(1, 65535))
      ->needs(by_serial)
      ->capture_default_str();
  app.add_option("--port", port, "with --serial: the agent's port on the device")
      ->check(CLI::Range(1, 65535))
      ->needs(by_serial)
      ->capture_default_str();
  app.add_option("--out", out, "the exec file to write")->required();
  app.add_flag("--reset", reset, "the agent zeroes its probes after this dump");
  app.add_option("--timeout-ms", timeout_ms, "connecting and the whole answer")
      ->check(Positive())
      ->capture_default_str();
  by_address->excludes(by_serial);
  const std::string who = "roam coverage dump";
  if (int rc = ParseFlags(app, who, argc, argv); rc >= 0) return rc;
  if (address.empty() && serial.empty()) {
    fmt::print(stderr, "{}: give --address HOST:PORT (the agent's server) or --serial S\n", who);
    return kExitUsage;
  }
  Result<std::pair<std::string, int>> where = std::make_pair(adb_host, 0);
  if (!serial.empty()) {  // the adb server forwards a free local port to the agent's
    auto local = android::Forward(adb_host, adb_port, serial, 0, port);
    if (!local.ok()) return Fail(who, local.status().Wrap("forwarding the agent's port"));
    where->second = *local;
    address = fmt::format("{} port {}", serial, port);
  } else {
    where = ParseAddress(address);
  }
  if (!where.ok()) return Fail(who, where.status());
  if (Status s = CheckOutputPath(out); !s.ok()) return Fail(who, s);
  jacoco::TcpDumper dumper(where->first, where->second, timeout_ms);
  Result<jacoco::ExecStore> data = dumper.DumpStore(reset);
  dumper.Close();
  if (!serial.empty())  // the forward was this command's: it goes with it
    (void)android::KillForward(adb_host, adb_port, serial, where->second);
  if (!data.ok()) return Fail(who, data.status());
  if (Status s = WriteFileAtomic(out, WriteStore(*data)); !s.ok()) return Fail(who, s);
  fmt::print("dumped {} into {}: {}, {} of {} probes covered{}\n", address, out.string(),
             Classes(data->size()), data->CoveredCount(), data->ProbeCount(),
             reset ? "; the agent's probes are reset" : "");
  return kExitOk;
}

const std::vector<Command>& CoverageCommands() {
  static const std::vector<Command> kTable = {
      {"merge", "merge exec files into one (--out)", CoverageMerge},
      {"show", "the classes of an exec file and their probes covered (--json)", CoverageShow},
      {"dump", "one dump from a JaCoCo agent's TCP server (--address HOST:PORT --out F.exec)",
       CoverageDump},
      {"report",
       "JaCoCo's line, branch, method and class coverage from the class files (--classfiles "
       "DIR, --html OUT)",
       CoverageReportCommand},
  };
  return kTable;
}

}  // namespace

int CoverageCommand(int argc, char** argv) {
  std::vector<std::string> names;
  if (argc >= 2) {
    const std::string name = argv[1];
    for (const auto& c : CoverageCommands()) {
      if (c.name == name) return c.run(argc - 1, argv + 1);
      names.push_back(c.name);
    }
    if (name != "--help" && name != "-h") {
      fmt::print(stderr, "roam coverage: unknown subcommand \"{}\"{}\n", name,
                 DidYouMean(name, names));
      return kExitUsage;
    }
  }
  fmt::print(
      "Usage: roam coverage <subcommand> ...   (JaCoCo execution data; docs/coverage.md)\n\n");
  for (const auto& c : CoverageCommands()) fmt::print("  {:<8} {}\n", c.name, c.description);
  return argc >= 2 ? kExitOk : kExitUsage;
}

}  // namespace roam::cli
