// `roam coverage report`: JaCoCo's line, branch, method, class and instruction coverage of an
// exec file (or a run's coverage.exec) against the app's class files, computed by JaCoCo's own
// analyzer (cli/jacoco_report.h), printed as a table or JSON, and JaCoCo's HTML report.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/process.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/jacoco_report.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/exec_store.h"

namespace roam::cli {

namespace {

namespace fs = std::filesystem;
namespace jacoco = device::jacoco;

constexpr size_t kNamesShown = 3;  // names quoted in a message

// "a/B, c/D, e/F and 4 more".
std::string SomeNames(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < kNamesShown; ++i) {
    out += (i == 0 ? "" : ", ") + jacoco::ShownName(names[i]);
  }
  if (names.size() > kNamesShown) out += fmt::format(" and {} more", names.size() - kNamesShown);
  return out;
}

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string Percent(const CoverageCounter& c) {
  return c.total() == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * c.covered / c.total());
}

// A path's last name, also when given with a trailing slash ("out/run1/").
fs::path Named(const fs::path& p) { return p.has_filename() ? p : p.parent_path(); }

// RUN_OR_EXEC: an exec file, or a run folder's coverage.exec.
Result<fs::path> ExecOf(const fs::path& input) {
  std::error_code ec;
  if (!fs::is_directory(input, ec)) return input;
  const fs::path exec = input / "coverage.exec";
  if (!fs::exists(exec, ec)) {
    return Status::NotFound(fmt::format(
        "{} has no coverage.exec: the run recorded no JaCoCo coverage (a run on a device with "
        "--coverage jacoco-tcp or jacoco-file:PATH writes one)",
        input.string()));
  }
  return exec;
}

Status CheckPaths(const std::vector<fs::path>& paths, const char* flag, bool folders_only) {
  for (const fs::path& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (!fs::exists(st)) {
      return Status::NotFound(fmt::format("{} {}: no such {}", flag, p.string(),
                                          folders_only ? "folder" : "folder or file"));
    }
    if (folders_only ? !fs::is_directory(st) : !fs::is_directory(st) && !fs::is_regular_file(st)) {
      return Status::InvalidArgument(fmt::format("{} {}: not a {}", flag, p.string(),
                                                 folders_only ? "folder" : "folder or file"));
    }
  }
  return Status::Ok();
}

// --html OUT may be new, an empty folder or a JaCoCo report (index.html and jacoco-resources/),
// which is replaced; anything else is refused, so no other work is written over.
Status CheckHtmlOut(const fs::path& out) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(out, ec);
  if (!fs::exists(st)) return Status::Ok();
  if (!fs::is_directory(st)) {
    return Status::InvalidArgument(
        fmt::format("--html {}: not a folder (give a new or empty folder)", out.string()));
  }
  const bool empty = fs::is_empty(out, ec);
  const bool report =
      fs::is_regular_file(out / "index.html", ec) && fs::is_directory(out / "jacoco-resources", ec);
  if (!empty && !report) {
    return Status::InvalidArgument(fmt::format(
        "--html {}: the folder holds files that are not a JaCoCo report; give a new or empty "
        "folder (one with an earlier report is replaced)",
        out.string()));
  }
  return Status::Ok();
}

// The report JaCoCo wrote into `temp` becomes `out`, replacing an earlier one: a reader finds
// the old report or the new (or, between two renames, none), never half of one.
Status PutInPlace(const fs::path& temp, const fs::path& out) {
  std::error_code ec;
  const fs::path old = out.string() + fmt::format(".old-{}", ::getpid());
  const bool had = fs::exists(out, ec);
  if (had) fs::rename(out, old, ec);
  if (!ec) {
    fs::rename(temp, out, ec);
    std::error_code back;
    if (ec && had) fs::rename(old, out, back);  // the earlier report stays where it was
  }
  if (ec) {
    return Status::Io(fmt::format("--html {}: cannot move the report into place: {}", out.string(),
                                  ec.message()));
  }
  if (had) fs::remove_all(old, ec);
  return Status::Ok();
}

// None of the exec data's classes matched a class file: the report would say 0% of everything.
Status NothingMatched(const fs::path& exec, const JacocoReport& r) {
  std::string why;
  if (!r.mismatched.empty()) {
    why += fmt::format(
        "; {} class files of another build ({}): JaCoCo knows a class by a checksum of its "
        "class file, so give the class folders of the build that ran",
        Plural(r.mismatched.size(), "has", "have"), SomeNames(r.mismatched));
  }
  if (!r.not_found.empty()) {
    why += fmt::format("; {} in no --classfiles folder ({}): are these the app's class folders?",
                       Plural(r.not_found.size(), "is", "are"), SomeNames(r.not_found));
  }
  const std::string which =
      r.exec_classes == 1
          ? fmt::format("the one class in {} does not", exec.string())
          : fmt::format("none of the {} classes in {}", r.exec_classes, exec.string());
  return Status::InvalidArgument(fmt::format("{} match the class files{}", which, why));
}

void PrintTable(const fs::path& exec, size_t folders, const JacocoReport& r, const fs::path& html) {
  fmt::print("{} against {}: {} of {} that ran matched {}", exec.string(),
             Plural(folders, "class folder", "class folders"), r.matched,
             Plural(static_cast<size_t>(r.exec_classes), "class", "classes"),
             r.exec_classes == 1 ? "its class file" : "their class files");
  if (!r.not_found.empty()) fmt::print("; {} in no class folder", r.not_found.size());
  fmt::print("\n\n  {:<14}{:>9}{:>9}{:>9}{:>10}\n", "", "covered", "missed", "total", "coverage");
  const std::pair<const char*, const CoverageCounter*> rows[] = {
      {"lines", &r.total.line},
      {"branches", &r.total.branch},
      {"methods", &r.total.method},
      {"classes", &r.total.klass},
      {"instructions", &r.total.instruction}};
  for (const auto& [name, c] : rows) {
    fmt::print("  {:<14}{:>9}{:>9}{:>9}{:>10}\n", name, c->covered, c->missed, c->total(),
               Percent(*c));
  }
  std::vector<std::string> names;  // as JaCoCo's HTML report names packages
  size_t width = std::string_view("package").size();
  for (const NodeCoverage& p : r.packages) {
    std::string name = p.name.empty() ? "(default package)" : jacoco::ShownName(p.name);
    std::replace(name.begin(), name.end(), '/', '.');
    width = std::max(width, name.size());
    names.push_back(std::move(name));
  }
  const auto cell = [](const CoverageCounter& c) {
    return fmt::format("{:>11} {:>6}", fmt::format("{}/{}", c.covered, c.total()), Percent(c));
  };
  fmt::print("\n  {:<{}} {:>18} {:>18} {:>18}\n", "package", width, "lines", "branches", "methods");
  for (size_t i = 0; i < r.packages.size(); ++i) {
    const CoverageCounters& c = r.packages[i].counters;
    fmt::print("  {:<{}} {} {} {}\n", names[i], width, cell(c.line), cell(c.branch),
               cell(c.method));
  }
  if (!html.empty()) fmt::print("\nHTML report: {}\n", (html / "index.html").string());
}

struct ReportFlags {
  fs::path input;  // RUN_OR_EXEC
  std::vector<fs::path> classfiles, sourcefiles;
  fs::path html;  // "": no HTML report
  bool json = false;
};

// The inputs checked before Java is looked for, so a wrong path says so either way: what JaCoCo
// is to be asked (its HTML written beside OUT, then renamed to it).
Result<JacocoReportRequest> CheckInputs(ReportFlags& flags) {
  Result<fs::path> exec = ExecOf(flags.input);
  if (!exec.ok()) return exec.status();
  jacoco::ExecStore data;  // Roam's reader: a file that is not exec data is refused, located
  ROAM_RETURN_IF_ERROR(jacoco::ReadExecFile(*exec, data));
  ROAM_RETURN_IF_ERROR(CheckPaths(flags.classfiles, "--classfiles", false));
  ROAM_RETURN_IF_ERROR(CheckPaths(flags.sourcefiles, "--sourcefiles", true));
  JacocoReportRequest request{.exec = *exec,
                              .classfiles = flags.classfiles,
                              .sourcefiles = flags.sourcefiles,
                              .title = Named(flags.input).filename().string()};
  if (!flags.html.empty()) {
    flags.html = Named(flags.html);
    ROAM_RETURN_IF_ERROR(CheckHtmlOut(flags.html));
    request.html = flags.html.string() + fmt::format(".tmp-{}", ::getpid());
  }
  return request;
}

// JaCoCo's analysis; a report none of whose classes matched is refused, and the HTML report is
// put in place only when all went well.
Result<JacocoReport> Analyze(const JacocoTools& tools, const JacocoReportRequest& request,
                             const fs::path& html) {
  std::error_code ec;
  if (!html.empty()) {
    if (html.has_parent_path()) fs::create_directories(html.parent_path(), ec);
    fs::remove_all(request.html, ec);
  }
  Result<JacocoReport> report =
      RunJacocoReport(tools, request,
                      [](const std::vector<std::string>& argv,
                         const std::vector<std::string>& env) { return RunProcess(argv, env); });
  Status done = report.status();
  if (done.ok() && report->matched == 0 && report->exec_classes > 0) {
    done = NothingMatched(request.exec, *report);
  }
  if (done.ok() && !html.empty()) done = PutInPlace(request.html, html);
  if (!request.html.empty()) fs::remove_all(request.html, ec);
  if (!done.ok()) return done;
  return report;
}

void WarnOfOtherBuilds(const std::string& who, const JacocoReport& r) {
  const size_t n = r.mismatched.size();
  if (n == 0) return;
  fmt::print(stderr,
             "{}: warning: {} that ran {} class files of another build, so JaCoCo counts {} as "
             "not covered: {} (JaCoCo knows a class by a checksum of its class file: give the "
             "class folders of the build that ran)\n",
             who, Plural(n, "class", "classes"), n == 1 ? "has" : "have", n == 1 ? "it" : "them",
             SomeNames(r.mismatched));
}

void PrintJson(const fs::path& exec, const JacocoReport& r, const fs::path& html) {
  nlohmann::json j = ToJson(r);
  j["exec"] = exec.string();
  j["html"] =
      html.empty() ? nlohmann::json(nullptr) : nlohmann::json((html / "index.html").string());
  fmt::print("{}\n", JsonLine(j));
}

}  // namespace

int CoverageReportCommand(int argc, char** argv) {
  CLI::App app(
      "JaCoCo's line, branch, method, class and instruction coverage of an app's class files, "
      "computed by JaCoCo's own analyzer from an exec file or a run's coverage.exec, as a table, "
      "JSON or JaCoCo's HTML report. The class files must be those of the build that ran (JaCoCo "
      "knows a class by a checksum of its class file). Needs Java 11 or later and JaCoCo's jars: "
      "apt-get install default-jdk-headless libjacoco-java; JAVA_HOME picks a java, "
      "ROAM_JACOCO_JARS a folder of JaCoCo's jars other than /usr/share/java.",
      "report");
  ReportFlags flags;
  app.add_option("RUN_OR_EXEC", flags.input,
                 "an exec or .ec file, or a run folder (its coverage.exec)")
      ->required();
  app.add_option("--classfiles", flags.classfiles,
                 "the app's compiled classes: folders, jars or class files (one or more; repeat "
                 "the flag or list them)")
      ->required();
  auto* html_flag = app.add_option(
      "--html", flags.html,
      "write JaCoCo's HTML report into this folder (new, empty, or an earlier report it replaces)");
  app.add_option("--sourcefiles", flags.sourcefiles,
                 "with --html: source folders (as src/main/java), so the report shows the lines")
      ->needs(html_flag);
  app.add_flag("--json", flags.json,
               "one JSON object: total, packages and classes with JaCoCo's counters (instruction, "
               "branch, line, method, class: each missed and covered), exec_classes, matched, "
               "mismatched, not_found, exec, html");
  const std::string who = "roam coverage report";
  if (int rc = ParseFlags(app, who, argc, argv); rc >= 0) return rc;

  Result<JacocoReportRequest> request = CheckInputs(flags);
  if (!request.ok()) return Fail(who, request.status());
  Result<JacocoTools> tools = JacocoToolsFromEnvironment();
  if (!tools.ok()) return Fail(who, tools.status());
  Result<JacocoReport> report = Analyze(*tools, *request, flags.html);
  if (!report.ok()) return Fail(who, report.status());
  WarnOfOtherBuilds(who, *report);
  if (flags.json) {
    PrintJson(request->exec, *report, flags.html);
  } else {
    PrintTable(request->exec, flags.classfiles.size(), *report, flags.html);
  }
  return kExitOk;
}

}  // namespace roam::cli
