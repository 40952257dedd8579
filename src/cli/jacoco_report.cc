#include "cli/jacoco_report.h"

#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::string_view kToolFile = "RoamJacocoReport.java";
constexpr std::string_view kAnswer = "RoamJacocoReport's answer";

Status ReadNodes(const json& doc, const char* key, std::vector<NodeCoverage>& out) {
  auto it = doc.find(key);
  if (it == doc.end() || !it->is_array()) {
    return Status::Corruption(fmt::format("{}: {}: missing", kAnswer, key));
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string where = fmt::format("{}: {}[{}]", kAnswer, key, i);
    const json& node = (*it)[i];
    if (!node.is_object()) return Status::Corruption(where + ": not an object");
    NodeCoverage n;
    ROAM_RETURN_IF_ERROR(ReadField(node, "name", n.name, where));
    if (auto s = node.find("source"); s != node.end() && !s->is_null()) {
      ROAM_RETURN_IF_ERROR(ReadField(node, "source", n.source, where));
    }
    ROAM_RETURN_IF_ERROR(
        report::CountersFromJson(node.value("counters", json()), where + ".counters", n.counters));
    out.push_back(std::move(n));
  }
  return Status::Ok();
}

// A file named NAME.jar, else the last (highest version, as names sort) NAME-<digit>....jar.
fs::path FindJar(const fs::path& dir, std::string_view name) {
  std::error_code ec;
  const fs::path plain = dir / (std::string(name) + ".jar");
  if (fs::is_regular_file(plain, ec)) return plain;
  fs::path best;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (file.size() > name.size() + 5 && file.compare(0, name.size(), name) == 0 &&
        file[name.size()] == '-' &&
        std::isdigit(static_cast<unsigned char>(file[name.size() + 1])) && file.ends_with(".jar") &&
        it->is_regular_file(ec) && (best.empty() || file > best.filename())) {
      best = it->path();
    }
  }
  return best;
}

// What java printed on stderr, trimmed, its last 2,000 characters at most: enough to say what
// went wrong (the tool prints one line; a VM that cannot start, a few).
std::string Tail(const std::string& err) {
  constexpr size_t kMax = 2000;
  std::string text = err;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text.size() <= kMax ? text : "..." + text.substr(text.size() - kMax);
}

// The first line holding `needle`; "" when none does.
std::string LineWith(const std::string& text, std::string_view needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const size_t nl = text.rfind('\n', at);
  const size_t start = nl == std::string::npos ? 0 : nl + 1;
  const size_t end = std::min(text.find('\n', at), text.size());
  return text.substr(start, end - start);
}

// A temporary folder removed with it.
class TempFolder {
 public:
  static Result<TempFolder> Make() {
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "roam-jacoco-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return Status::Io(
          fmt::format("cannot make a temporary folder {}: {}", pattern, std::strerror(errno)));
    }
    return TempFolder(pattern);
  }
  TempFolder(TempFolder&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempFolder& operator=(TempFolder&&) = delete;
  ~TempFolder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit TempFolder(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

// What a failed java run means, in the user's terms.
Status JavaFailed(const JacocoTools& tools, const ProcessOutput& r) {
  const std::string tail = Tail(r.err);
  if (r.signal != 0) {
    return Status::Aborted(
        fmt::format("{} was stopped by signal {}", tools.java.string(), r.signal));
  }
  if (r.err.find("Could not find or load main class") != std::string::npos) {
    return Status::Unavailable(fmt::format(
        "{} is older than Java 11, which runs a .java file directly: {} (set JAVA_HOME to a newer "
        "one, or {})",
        tools.java.string(), tail, kJacocoInstall));
  }
  if (r.err.find("error: compilation failed") != std::string::npos) {
    std::string first = LineWith(r.err, ": error: ");
    return Status::Unavailable(fmt::format(
        "{} does not compile against the jars in {}, which are not a JaCoCo 0.8 it knows: {}",
        kToolFile, tools.jars.empty() ? "" : tools.jars.front().parent_path().string(),
        first.empty() ? tail : first));
  }
  if (r.exit_code == 2) return Status::InvalidArgument(tail);  // the inputs, in JaCoCo's words
  return Status::Io(
      fmt::format("JaCoCo's analysis failed (java exited with {}): {}", r.exit_code, tail));
}

}  // namespace

Result<JacocoReport> ParseJacocoReport(std::string_view text) {
  Result<json> doc = ParseJson(std::string(text), std::string(kAnswer));
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return Status::Corruption(fmt::format("{}: not an object", kAnswer));
  JacocoReport r;
  ROAM_RETURN_IF_ERROR(report::CountersFromJson(doc->value("total", json()),
                                                fmt::format("{}: total", kAnswer), r.total));
  ROAM_RETURN_IF_ERROR(ReadNodes(*doc, "packages", r.packages));
  ROAM_RETURN_IF_ERROR(ReadNodes(*doc, "classes", r.classes));
  const std::string where(kAnswer);
  ROAM_RETURN_IF_ERROR(ReadField(*doc, "exec_classes", r.exec_classes, where));
  ROAM_RETURN_IF_ERROR(ReadField(*doc, "matched", r.matched, where));
  ROAM_RETURN_IF_ERROR(ReadField(*doc, "mismatched", r.mismatched, where));
  ROAM_RETURN_IF_ERROR(ReadField(*doc, "not_found", r.not_found, where));
  return r;
}

json ToJson(const JacocoReport& report) {
  const auto nodes = [](const std::vector<NodeCoverage>& list, bool with_source) {
    json out = json::array();
    for (const NodeCoverage& n : list) {
      json j = {{"name", n.name}};
      if (with_source) j["source"] = n.source.empty() ? json(nullptr) : json(n.source);
      j["counters"] = report::CountersToJson(n.counters);
      out.push_back(std::move(j));
    }
    return out;
  };
  return {{"total", report::CountersToJson(report.total)},
          {"packages", nodes(report.packages, false)},
          {"classes", nodes(report.classes, true)},
          {"exec_classes", report.exec_classes},
          {"matched", report.matched},
          {"mismatched", report.mismatched},
          {"not_found", report.not_found}};
}

Result<JacocoTools> FindJacocoTools(const fs::path& java_home, const fs::path& jar_dir,
                                    std::string_view jar_dir_origin) {
  JacocoTools tools;
  if (!java_home.empty()) {
    tools.java = FindOnPath((java_home / "bin" / "java").string());
    if (tools.java.empty()) {
      return Status::Unavailable(fmt::format(
          "no java at {} (JAVA_HOME): set JAVA_HOME to a JDK, unset it to use java on PATH, or {}",
          (java_home / "bin" / "java").string(), kJacocoInstall));
    }
  } else {
    tools.java = FindOnPath("java");
    if (tools.java.empty()) {
      return Status::Unavailable(fmt::format(
          "no java on PATH: JaCoCo's analyzer runs on Java 11 or later ({})", kJacocoInstall));
    }
  }
  std::vector<std::string> missing;
  for (std::string_view name : kJacocoJars) {
    fs::path jar = FindJar(jar_dir, name);
    if (jar.empty()) missing.push_back(std::string(name) + ".jar");
    tools.jars.push_back(std::move(jar));
  }
  if (!missing.empty()) {
    return Status::Unavailable(fmt::format(
        "JaCoCo's jars are not in {} ({}): {} missing ({}, or set ROAM_JACOCO_JARS to a folder "
        "with org.jacoco.core, org.jacoco.report, asm, asm-commons and asm-tree jars)",
        jar_dir.string(), jar_dir_origin, fmt::join(missing, ", "), kJacocoInstall));
  }
  return tools;
}

Result<JacocoTools> JacocoToolsFromEnvironment() {
  const char* jars = std::getenv("ROAM_JACOCO_JARS");
  const char* java_home = std::getenv("JAVA_HOME");
  const bool jars_from_env = jars != nullptr && *jars != '\0';
  return FindJacocoTools(java_home != nullptr ? java_home : "",
                         jars_from_env ? jars : fs::path("/usr/share/java"),
                         jars_from_env ? "ROAM_JACOCO_JARS" : "Debian's libjacoco-java");
}

Result<JacocoReport> RunJacocoReport(const JacocoTools& tools, const JacocoReportRequest& request,
                                     const ProcessRunner& run) {
  Result<TempFolder> temp = TempFolder::Make();
  if (!temp.ok()) return temp.status();
  const fs::path tool = temp->path() / kToolFile;
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(tool, std::string(JacocoReportJava())));
  std::string classpath;
  for (const fs::path& jar : tools.jars) classpath += (classpath.empty() ? "" : ":") + jar.string();
  // The client compiler only: most of a run is compiling the tool, where C2 does not pay off
  // (a third to two fifths less time, on a tiny program and on guava's 2,073 classes alike).
  std::vector<std::string> argv = {tools.java.string(),
                                   "-XX:TieredStopAtLevel=1",
                                   "-cp",
                                   classpath,
                                   tool.string(),
                                   "--exec",
                                   request.exec.string(),
                                   "--name",
                                   request.title};
  for (const fs::path& p : request.classfiles)
    argv.insert(argv.end(), {"--classfiles", p.string()});
  for (const fs::path& p : request.sourcefiles) {
    argv.insert(argv.end(), {"--sourcefiles", p.string()});
  }
  if (!request.html.empty()) argv.insert(argv.end(), {"--html", request.html.string()});
  // Java opens files by names in the locale's encoding: under LANG=C a path or class file name
  // that is not ASCII cannot be opened at all. Its messages, which JavaFailed reads, stay English.
  Result<ProcessOutput> r = run(argv, {"LC_ALL=C.UTF-8"});
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) return JavaFailed(tools, *r);
  return ParseJacocoReport(r->out);
}

}  // namespace roam::cli
