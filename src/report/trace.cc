#include "report/trace.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "base/files.h"
#include "gui/intent.h"

namespace roam::report {

using nlohmann::json;

std::string HexKey(uint64_t key) { return fmt::format("{:016x}", key); }

std::string StepSentence(const TraceStep& step) {
  if (step.op == "clear") return "clear the app's data (a fresh install)";
  if (step.op == "launch") return "launch the app";
  if (step.op == "stop") return "stop the app";
  if (step.op == "snapshot") return fmt::format("save the device state as \"{}\"", step.snapshot);
  if (step.op == "restore") return fmt::format("restore the device state \"{}\"", step.snapshot);
  using gui::ActionKind;
  const gui::Action& a = step.action;
  std::string widget;
  if (a.target) {
    std::string id = step.resource_id;
    if (auto at = id.rfind(":id/"); at != std::string::npos) id = id.substr(at + 4);
    if (!step.widget_text.empty()) {
      widget = fmt::format("\"{}\"", step.widget_text);
      if (!id.empty()) widget += fmt::format(" ({})", id);
    } else if (!id.empty()) {
      widget = id;
    } else {
      const gui::Rect& b = a.target->bounds;
      widget = fmt::format("the widget at ({}, {})", b.center_x(), b.center_y());
    }
  }
  std::string what;
  switch (a.kind) {
    case ActionKind::kClick:
      what = "tap " + widget;
      break;
    case ActionKind::kLongClick:
      what = "long-press " + widget;
      break;
    case ActionKind::kInputText:
      what = a.text.empty() ? "clear the text of " + widget
                            : fmt::format("type \"{}\" into {}", a.text, widget);
      break;
    case ActionKind::kScrollUp:
    case ActionKind::kScrollDown:
    case ActionKind::kScrollLeft:
    case ActionKind::kScrollRight:
      what = fmt::format("scroll {} {}", ActionKindName(a.kind).substr(7), widget);
      break;
    case ActionKind::kSwipeUp:
    case ActionKind::kSwipeDown:
    case ActionKind::kSwipeLeft:
    case ActionKind::kSwipeRight:
      what = fmt::format("swipe {} across the screen", ActionKindName(a.kind).substr(6));
      break;
    case ActionKind::kBack:
      what = "press back";
      break;
    case ActionKind::kMenu:
      what = "press the menu key";
      break;
    case ActionKind::kRotate:
      what = "rotate the device";
      break;
    case ActionKind::kRestart:
      what = "restart the app";
      break;
    case ActionKind::kKey:
      what = fmt::format("press the {} key", a.text);
      break;
    case ActionKind::kBroadcast:
      what = fmt::format("send the system broadcast {}", a.text);
      break;
    case ActionKind::kIntent: {
      auto intent = gui::ParseIntentText(a.text);
      what = intent.ok() ? intent->Describe() : "send the intent " + a.text;
      break;
    }
  }
  if (!step.activity.empty()) {
    std::string activity = step.activity;
    if (auto dot = activity.rfind('.'); dot != std::string::npos)
      activity = activity.substr(dot + 1);
    what += (a.kind == ActionKind::kIntent ? " from " : " on ") + activity;
  }
  return what;
}

namespace {

uint64_t ParseHexKey(const json& j) {
  if (!j.is_string()) return 0;
  return std::strtoull(j.get<std::string>().c_str(), nullptr, 16);
}

}  // namespace

json ActionToJson(const gui::Action& a) {
  json j = {{"kind", gui::ActionKindName(a.kind)}};
  if (a.target) {
    const gui::Rect& b = a.target->bounds;
    j["path"] = a.target->path;
    j["bounds"] = {b.left, b.top, b.right, b.bottom};
  }
  if (a.widget >= 0) j["widget"] = a.widget;
  if (!a.text.empty() || a.kind == gui::ActionKind::kInputText) j["text"] = a.text;
  return j;
}

Result<gui::Action> ActionFromJson(const json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    return Status::Corruption("action needs a string \"kind\"");
  auto kind = gui::ActionKindFromName(j["kind"].get<std::string>());
  if (!kind)
    return Status::Corruption("unknown action kind \"" + j["kind"].get<std::string>() + "\"");
  gui::Action a;
  a.kind = *kind;
  if (j.contains("path")) {
    if (!j["path"].is_string()) return Status::Corruption("action \"path\" must be a string");
    gui::WidgetRef ref;
    ref.path = j["path"].get<std::string>();
    if (j.contains("bounds")) {
      const json& b = j["bounds"];
      if (!b.is_array() || b.size() != 4)
        return Status::Corruption("action \"bounds\" must be [left, top, right, bottom]");
      for (const auto& v : b)
        if (!v.is_number_integer()) return Status::Corruption("action \"bounds\" must be integers");
      ref.bounds = {b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()};
    }
    a.target = std::move(ref);
  }
  if (j.contains("widget") && j["widget"].is_number_integer()) a.widget = j["widget"].get<int>();
  if (j.contains("text")) {
    if (!j["text"].is_string()) return Status::Corruption("action \"text\" must be a string");
    a.text = j["text"].get<std::string>();
  }
  return a;
}

json StepToJson(const TraceStep& s) {
  json j = {{"step", s.step}, {"op", s.op}};
  if (s.op == "act") j["action"] = ActionToJson(s.action);
  if (!s.activity.empty()) j["activity"] = s.activity;
  j["state"] = HexKey(s.state);
  if (!s.widget_text.empty()) j["widget_text"] = s.widget_text;
  if (!s.resource_id.empty()) j["resource_id"] = s.resource_id;
  if (!s.events.empty()) j["events"] = s.events;
  if (s.new_units > 0) j["new_units"] = s.new_units;
  if (!s.snapshot.empty()) j["snapshot"] = s.snapshot;
  return j;
}

Result<TraceStep> StepFromJson(const json& j) {
  if (!j.is_object()) return Status::Corruption("a step must be a JSON object");
  TraceStep s;
  if (j.contains("step") && j["step"].is_number_integer()) s.step = j["step"].get<int64_t>();
  if (j.contains("op")) {
    if (!j["op"].is_string()) return Status::Corruption("\"op\" must be a string");
    s.op = j["op"].get<std::string>();
  }
  if (s.op != "act" && s.op != "launch" && s.op != "clear" && s.op != "stop" &&
      s.op != "snapshot" && s.op != "restore")
    return Status::Corruption("unknown op \"" + s.op +
                              "\" (expected act, launch, clear, stop, snapshot or restore)");
  if (j.contains("snapshot") && j["snapshot"].is_string()) s.snapshot = j["snapshot"];
  if ((s.op == "snapshot" || s.op == "restore") && s.snapshot.empty())
    return Status::Corruption("a \"" + s.op + "\" step needs a \"snapshot\" name");
  if (s.op == "act") {
    if (!j.contains("action")) return Status::Corruption("an \"act\" step needs an \"action\"");
    auto a = ActionFromJson(j["action"]);
    if (!a.ok()) return a.status();
    s.action = std::move(*a);
  }
  if (j.contains("activity") && j["activity"].is_string()) s.activity = j["activity"];
  if (j.contains("state")) s.state = ParseHexKey(j["state"]);
  if (j.contains("widget_text") && j["widget_text"].is_string()) s.widget_text = j["widget_text"];
  if (j.contains("resource_id") && j["resource_id"].is_string()) s.resource_id = j["resource_id"];
  if (j.contains("events") && j["events"].is_array())
    for (const auto& e : j["events"])
      if (e.is_string()) s.events.push_back(e.get<std::string>());
  if (j.contains("new_units") && j["new_units"].is_number_integer()) s.new_units = j["new_units"];
  return s;
}

Result<std::vector<TraceStep>> ReadTrace(const std::filesystem::path& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  std::vector<TraceStep> steps;
  size_t line_no = 0, pos = 0;
  while (pos < text->size()) {
    size_t end = text->find('\n', pos);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = ParseJson(line, fmt::format("{}:{}", path.string(), line_no));
    if (!j.ok()) return j.status();
    auto step = StepFromJson(*j);
    if (!step.ok()) return step.status().Wrap(fmt::format("{}:{}", path.string(), line_no));
    steps.push_back(std::move(*step));
  }
  return steps;
}

Status WriteTrace(const std::filesystem::path& path, const std::vector<TraceStep>& steps) {
  std::string out;
  for (const auto& s : steps) out += JsonLine(StepToJson(s)) + "\n";
  return WriteFileAtomic(path, out);
}

TraceWriter::~TraceWriter() { (void)Close(); }

Status TraceWriter::Open(const std::filesystem::path& path, TraceWriterOptions options) {
  ROAM_RETURN_IF_ERROR(Close());
  ROAM_RETURN_IF_ERROR(CheckOutputPath(path));
  file_ = std::fopen(path.c_str(), "w");
  if (!file_)
    return Status::Io(path.string() + ": cannot open for writing: " + std::strerror(errno));
  path_ = path;
  options_ = options;
  last_flush_ = std::chrono::steady_clock::now();
  return Status::Ok();
}

Status TraceWriter::Append(const TraceStep& step) {
  if (!file_) return Status::Io("trace is not open");
  std::string line = JsonLine(StepToJson(step));
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size())
    return Status::Io(path_.string() + ": write failed: " + std::strerror(errno));
  auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_flush_).count() >= options_.flush_seconds)
    return Flush();
  return Status::Ok();
}

Status TraceWriter::Flush() {
  if (!file_) return Status::Ok();
  last_flush_ = std::chrono::steady_clock::now();
  if (std::fflush(file_) != 0)
    return Status::Io(path_.string() + ": write failed: " + std::strerror(errno));
  return Status::Ok();
}

Status TraceWriter::Close() {
  if (!file_) return Status::Ok();
  int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) return Status::Io(path_.string() + ": write failed: " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace roam::report
