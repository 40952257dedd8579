// `roam sim serve`: simulated apps as Android devices behind an adb server (SimAdbServer), so
// any adb-based tool can test them; --out DIR keeps DIR/summary.json (the same fields as
// `roam explore`, and "faults": the --faults that happened) up to date on SIGUSR1 and at the end.
// Signals are taken synchronously with
// sigtimedwait on the main thread (blocked in every thread), so no handler touches state.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "report/summary.h"
#include "run/serve_summary.h"
#include "serve/sim_adb_server.h"
#include "sim/sim_app.h"

namespace roam::cli {

int SimServeCommand(int argc, char** argv) {
  std::filesystem::path spec_path, out_dir;
  serve::SimAdbServerOptions options;
  std::vector<std::string> bugs_off;
  uint64_t seed = 1;
  bool quiet = false;
  CLI::App app("Serve a simulated app as Android devices over the adb server protocol.", "serve");
  app.add_option("--app", spec_path, "app spec (JSON)")->required();
  app.add_option("--port", options.port,
                 fmt::format("TCP port (default {}; 0: any free port)",
                             device::android::kDefaultSimServePort));
  app.add_option("--host", options.host, "address to bind (default 127.0.0.1)");
  app.add_option("--serial", options.serial,
                 "serial of the first device (default emulator-5554; emulator-* answer "
                 "snapshot commands)");
  app.add_option("--devices", options.devices, "number of independent devices (default 1)")
      ->check(CLI::Range(1, 64));
  app.add_option("--bugs-off", bugs_off, "planted bug ids to switch off")->delimiter(',');
  app.add_option("--seed", seed, "simulator seed (default 1)");
  app.add_option("--out", out_dir, "write DIR/summary.json on SIGUSR1 and at the end");
  std::string pace = "none";
  app.add_option("--pace", pace,
                 "none (answer at the simulator's speed) or phone (each command, UiAutomator2 "
                 "request and snapshot takes what it takes on a phone: docs/android.md)")
      ->check(CLI::IsMember({"none", "phone"}))
      ->capture_default_str();
  app.add_flag("--dialogs", options.system_dialogs,
               "show Android's dialogs: \"isn't responding\" after an ANR, \"keeps stopping\" "
               "after a crash, a permission request at each cold launch until allowed");
  app.add_flag("--root", options.root,
               "the shell runs as root, as an emulator's after `adb root`: it may send "
               "Android's protected broadcasts (am broadcast -a android.intent.action....)");
  std::string jacoco_output = "tcpserver";
  app.add_option("--jacoco-output", jacoco_output,
                 "the app's JaCoCo runtime: tcpserver (port 6300 answers dumps) or none (an APK "
                 "whose jacoco-agent.properties says output=none: docs/coverage.md)")
      ->check(CLI::IsMember({"tcpserver", "none"}))
      ->capture_default_str();
  app.add_flag("--stale-coverage", options.stale_coverage,
               "the app's files/coverage.ec holds a session from the day before, as a run before "
               "this one leaves it");
  std::string faults;
  app.add_option("--faults", faults,
                 "faults to meet, comma-separated (docs/android.md): offline@T+D, reboot@T+D, "
                 "adb-restart@T[+D], uia2-kill@T, source500=N/M; T and D in ms, s, m (from start) "
                 "or r (requests served), e.g. offline@30s+40s,reboot@90s+20s,source500=1/200");
  app.add_flag("-q,--quiet", quiet, "print nothing but errors");
  if (int rc = ParseFlags(app, "roam sim serve", argc, argv); rc >= 0) return rc;
  auto spec = sim::LoadSpec(spec_path);
  if (!spec.ok()) {
    fmt::print(stderr, "{}\n", spec.status().message());
    return kExitUsage;
  }
  if (!faults.empty()) {
    auto parsed = serve::ParseFaults(faults);
    if (!parsed.ok()) {
      fmt::print(stderr, "roam sim serve: {}\n", parsed.status().message());
      return kExitUsage;
    }
    options.faults = std::move(*parsed);
  }
  options.sim.seed = seed;
  options.phone_pace = pace == "phone";
  options.jacoco_tcpserver = jacoco_output == "tcpserver";
  options.sim.bugs_off.insert(bugs_off.begin(), bugs_off.end());
  std::string package;
  {
    sim::SimApp probe(*spec, options.sim);
    package = probe.package();
  }

  // Block the signals before any thread starts, so that only sigtimedwait below sees them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGUSR1);
  sigaddset(&signals, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  serve::SimAdbServer server(*spec, options);
  if (Status st = server.Start(); !st.ok()) {
    fmt::print(stderr, "{}\n", st.message());
    return kExitNo;
  }
  auto started = std::chrono::steady_clock::now();
  if (!quiet) {
    std::string serials;
    for (const auto& s : server.Serials()) serials += " " + s;
    fmt::print("roam sim serve: {} on {}:{} as{}\n", package, options.host, server.port(), serials);
    const std::string first = server.Serials().empty() ? "" : server.Serials().front();
    fmt::print("  explore it: roam explore --serial {} --package {}{}\n", first, package,
               server.port() == 5037 ? ""
                                     : fmt::format(" --adb-port {}   (or export "
                                                   "ANDROID_ADB_SERVER_PORT={}, as for adb)",
                                                   server.port(), server.port()));
    fmt::print("  or look:    adb -P {} devices\n", server.port());
  } else if (options.port == 0) {  // a port chosen for it: said even when quiet
    fmt::print("roam sim serve: port {}\n", server.port());
  }
  std::fflush(stdout);
  auto write_summary = [&](const std::string& reason) {
    if (out_dir.empty()) return true;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    auto summary =
        run::SummariseServedDevices(server, spec_path.string(), package, seed, wall, reason);
    if (!options.faults.empty()) summary.sections["faults"] = server.FaultsReport();
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    Status st = report::WriteSummary(out_dir / "summary.json", summary);
    if (!st.ok()) fmt::print(stderr, "roam sim serve: {}\n", st.message());
    return st.ok();
  };

  std::string reason = "interrupted";
  while (true) {
    timespec tick{0, 200 * 1000 * 1000};
    int sig = sigtimedwait(&signals, nullptr, &tick);
    if (sig == SIGUSR1) {
      write_summary("running");
      continue;
    }
    if (sig == SIGINT || sig == SIGTERM) break;
    if (server.kill_requested()) {
      reason = "killed";  // a client sent host:kill (`adb kill-server`)
      break;
    }
  }
  server.Stop();
  bool ok = write_summary(reason);
  if (!quiet) fmt::print("roam sim serve: stopped ({})\n", reason);
  return ok ? kExitOk : kExitNo;
}

}  // namespace roam::cli
