#include "report/junit.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "base/files.h"
#include "base/utf8.h"

namespace roam::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
// steps.txt beyond this is cut (a minimised trace is a few dozen lines; an unminimised one can
// run to thousands, and a CI page shows the whole text).
constexpr size_t kMaxStepsBytes = 64 * 1024;

// `text` as XML 1.0 allows it: valid UTF-8 (base/utf8.h) without the C0 controls other than tab,
// newline and carriage return, and without U+FFFE and U+FFFF; each becomes U+FFFD. pugixml
// escapes markup (<, &, ") but passes the rest through.
std::string XmlText(std::string_view text) {
  const std::string valid = ToValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<uint8_t>(valid[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
    } else if (c == 0xEF && i + 2 < valid.size() && static_cast<uint8_t>(valid[i + 1]) == 0xBF &&
               static_cast<uint8_t>(valid[i + 2]) >= 0xBE) {  // U+FFFE, U+FFFF
      out += kReplacement;
      i += 2;
    } else {
      out += valid[i];
    }
  }
  return out;
}

void SetAttr(pugi::xml_node node, const char* name, std::string_view value) {
  node.append_attribute(name).set_value(XmlText(value).c_str());
}

void SetText(pugi::xml_node node, std::string_view text) { node.text().set(XmlText(text).c_str()); }

std::string FirstLine(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

// What a bug case says, whatever its kind.
struct BugCase {
  std::string classname;  // "roam.crash"
  std::string name;       // the signature or violation
  std::string type;       // the failure's type: the exception, or the kind
  std::string message;    // one line
  std::string facts;      // lines: where it was found, how often, the planted bug
  std::string bug_dir;    // "bugs/B1", "" when none was written
  bool known = false;
};

// The steps to reproduce, the stack and the replay command, from run_dir/bug_dir.
std::string BugFolderText(const fs::path& run_dir, const std::string& bug_dir) {
  if (bug_dir.empty()) return "\nNo bug folder was written: nothing to replay.\n";
  const fs::path dir = run_dir / bug_dir;
  std::string text;
  std::error_code ec;
  Result<std::string> steps = Status::NotFound("");
  if (fs::is_regular_file(dir / "steps.txt", ec)) steps = ReadFile(dir / "steps.txt");
  if (steps.ok()) {
    std::string s = std::move(*steps);
    // The steps only: steps.txt's own heading (the message) and replay line are said below.
    if (auto from = s.find("To reproduce"); from != std::string::npos) s = s.substr(from);
    if (auto to = s.find("\nReplay:"); to != std::string::npos) s.resize(to + 1);
    if (s.size() > kMaxStepsBytes) {
      s.resize(kMaxStepsBytes);
      s.append("\n... (cut)");
    }
    if (!s.empty() && s.back() != '\n') s += '\n';
    text += "\n" + s;
  } else {
    text += "\ntrace: " + bug_dir + "/trace.jsonl\n";
  }
  if (fs::is_regular_file(dir / "bug.json", ec)) {
    auto bug = ReadJsonFile(dir / "bug.json");
    if (!bug.ok()) {
      text += "\n(" + bug.status().message() + ")\n";
    } else if (bug->is_object() && bug->contains("frames") && (*bug)["frames"].is_array() &&
               !(*bug)["frames"].empty()) {
      text += "\nStack:\n";
      for (const json& frame : (*bug)["frames"])
        if (frame.is_string()) text += "\tat " + frame.get<std::string>() + "\n";
    }
  }
  text += "\nReplay: roam replay " + dir.string() + "\n";
  return text;
}

void AddBugCase(pugi::xml_node suite, const BugCase& bug, const fs::path& run_dir, Counts& counts) {
  pugi::xml_node tc = suite.append_child("testcase");
  SetAttr(tc, "name", bug.name.empty() ? "(no signature)" : bug.name);
  SetAttr(tc, "classname", bug.classname);
  ++counts.tests;
  if (bug.known) {
    SetAttr(tc.append_child("skipped"), "message", "known bug: " + FirstLine(bug.name));
    ++counts.skipped;
    return;
  }
  pugi::xml_node failure = tc.append_child("failure");
  SetAttr(failure, "message", bug.message);
  SetAttr(failure, "type", bug.type);
  SetText(failure, bug.message + "\n" + bug.facts + BugFolderText(run_dir, bug.bug_dir));
  ++counts.failures;
}

BugCase FromFailure(const FailureSummary& f, const char* default_kind) {
  const std::string kind = f.kind.empty() ? default_kind : f.kind;
  BugCase b{.classname = "roam." + kind,
            .name = f.signature,
            .type = f.exception.empty() ? kind : f.exception,
            .bug_dir = f.bug_dir,
            .known = f.known};
  b.message = FirstLine(f.exception.empty() ? f.message
                        : f.message.empty() ? f.exception
                                            : f.exception + ": " + f.message);
  if (b.message.empty()) b.message = kind + ": " + FirstLine(f.signature);
  b.facts = fmt::format("found at step {}, seen {} time{}\n", f.first_step, f.count,
                        f.count == 1 ? "" : "s");
  if (!f.bug_id.empty()) b.facts += "planted bug: " + f.bug_id + "\n";
  return b;
}

BugCase FromFunctional(const FunctionalFinding& f) {
  BugCase b{.classname = "roam.functional",
            .name = f.key,
            .type = "functional",
            .message = FirstLine(f.explanation.empty() ? f.key : f.explanation),
            .bug_dir = f.bug_dir,
            .known = f.known};
  if (!f.activity.empty()) b.facts += "activity: " + f.activity + "\n";
  b.facts += fmt::format("found on seed {}, shown by {} mutant{}\n", f.first_seed, f.count,
                         f.count == 1 ? "" : "s");
  if (f.scored && !f.bug_id.empty()) b.facts += "planted bug: " + f.bug_id + "\n";
  return b;
}

// The stop reasons that mean the run itself failed, not the app.
bool IsRunError(const std::string& stop_reason) {
  for (std::string_view prefix : {"device error", "write error", "model error"})
    if (stop_reason.starts_with(prefix)) return true;
  return false;
}

void AddProperties(pugi::xml_node suite, const Summary& s) {
  pugi::xml_node props = suite.append_child("properties");
  auto add = [&](const char* name, const std::string& value) {
    pugi::xml_node p = props.append_child("property");
    SetAttr(p, "name", name);
    SetAttr(p, "value", value);
  };
  add("app", s.app);
  add("package", s.package);
  add("device", s.device);
  add("strategy", s.strategy);
  add("seed", std::to_string(s.seed));
  add("events", std::to_string(s.events));
  add("stop_reason", s.stop_reason);
  add("activities_covered", std::to_string(s.activities_covered.size()));
  if (s.activities_total) add("activities_total", std::to_string(*s.activities_total));
  if (s.units_covered) add("units_covered", std::to_string(*s.units_covered));
  if (s.units_total) add("units_total", std::to_string(*s.units_total));
}

std::string JunitXml(const Summary& s, const fs::path& run_dir, const std::string& suite_name) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  SetAttr(suite, "name", suite_name.empty() ? "roam" : suite_name);
  // Filled in once the cases are counted; made first so they lead the element.
  pugi::xml_attribute tests = suite.append_attribute("tests");
  pugi::xml_attribute failures = suite.append_attribute("failures");
  pugi::xml_attribute errors = suite.append_attribute("errors");
  pugi::xml_attribute skipped = suite.append_attribute("skipped");
  const double seconds = std::isfinite(s.wall_seconds) && s.wall_seconds > 0 ? s.wall_seconds : 0;
  SetAttr(suite, "time", fmt::format("{:.3f}", seconds));
  AddProperties(suite, s);

  Counts counts;
  if (IsRunError(s.stop_reason)) {
    pugi::xml_node tc = suite.append_child("testcase");
    SetAttr(tc, "name", "run");
    SetAttr(tc, "classname", "roam.run");
    pugi::xml_node error = tc.append_child("error");
    SetAttr(error, "message", FirstLine(s.stop_reason));
    SetAttr(error, "type", s.stop_reason.substr(0, s.stop_reason.find(':')));
    SetText(error, s.stop_reason);
    ++counts.tests;
    ++counts.errors;
  }
  for (const auto& f : s.crashes) AddBugCase(suite, FromFailure(f, "crash"), run_dir, counts);
  for (const auto& f : s.anrs) AddBugCase(suite, FromFailure(f, "anr"), run_dir, counts);
  if (s.functional)
    for (const auto& f : *s.functional) AddBugCase(suite, FromFunctional(f), run_dir, counts);
  for (const auto& activity : s.activities_covered) {
    pugi::xml_node tc = suite.append_child("testcase");
    SetAttr(tc, "name", activity);
    SetAttr(tc, "classname", "roam.activity");
    ++counts.tests;
  }
  tests.set_value(counts.tests);
  failures.set_value(counts.failures);
  errors.set_value(counts.errors);
  skipped.set_value(counts.skipped);

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

}  // namespace

Status WriteJunit(const fs::path& file, const Summary& summary, const fs::path& run_dir,
                  const std::string& suite_name) {
  return WriteFileAtomic(file, JunitXml(summary, run_dir, suite_name));
}

}  // namespace roam::report
