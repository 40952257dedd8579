#include "explore/harness_config.h"

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "base/utf8.h"

namespace roam::explore {
namespace {

using nlohmann::json;

Status ParseWidgetList(const json& j, const std::string& where,
                       std::vector<gui::WidgetMatcher>& out) {
  if (!j.is_array())
    return Status::InvalidArgument(fmt::format("{}: expected an array of widget matchers", where));
  for (size_t i = 0; i < j.size(); ++i) {
    auto m = gui::ParseWidgetMatcher(j[i], fmt::format("{}[{}]", where, i));
    if (!m.ok()) return m.status();
    out.push_back(std::move(*m));
  }
  return Status::Ok();
}

Status ParseActivityList(const json& j, const std::string& where, std::vector<std::string>& out) {
  if (!j.is_array())
    return Status::InvalidArgument(fmt::format("{}: expected an array of activity names", where));
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string() || j[i].get<std::string>().empty())
      return Status::InvalidArgument(
          fmt::format("{}[{}]: expected an activity name such as \"LoginActivity\", got {}", where,
                      i, JsonExcerpt(j[i])));
    out.push_back(j[i].get<std::string>());
  }
  return Status::Ok();
}

Result<Script> ParseScript(const json& j, const std::string& where) {
  ROAM_RETURN_IF_ERROR(
      gui::CheckJsonKeys(j, where, {"name", "activity", "probability", "max_runs", "steps"}));
  Script s;
  if (j.contains("name") && !j["name"].is_string())
    return Status::InvalidArgument(fmt::format("{}.name: expected a string", where));
  s.name = j.contains("name") ? j["name"].get<std::string>() : where;
  if (j.contains("activity")) {
    if (!j["activity"].is_string())
      return Status::InvalidArgument(fmt::format("{}.activity: expected an activity name", where));
    s.activity = j["activity"].get<std::string>();
  }
  if (j.contains("probability")) {
    const json& p = j["probability"];
    if (!p.is_number() || p.get<double>() < 0 || p.get<double>() > 1)
      return Status::InvalidArgument(
          fmt::format("{}.probability: expected a number in 0..1, got {}", where, JsonExcerpt(p)));
    s.probability = p.get<double>();
  }
  if (j.contains("max_runs")) {
    const json& m = j["max_runs"];
    if (!m.is_number_integer() || m.get<int64_t>() < 0)
      return Status::InvalidArgument(fmt::format(
          "{}.max_runs: expected a count >= 0 (0: no limit), got {}", where, JsonExcerpt(m)));
    s.max_runs = m.get<int>();
  }
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    return Status::InvalidArgument(fmt::format("{}: needs \"steps\": a non-empty array", where));
  for (size_t i = 0; i < j["steps"].size(); ++i) {
    auto step = gui::ParseWidgetStep(j["steps"][i], fmt::format("{}.steps[{}]", where, i));
    if (!step.ok()) return step.status();
    s.steps.push_back(std::move(*step));
  }
  return s;
}

}  // namespace

bool ActivityLists::Allowed(std::string_view activity) const {
  for (const auto& a : black)
    if (gui::ActivityMatches(activity, a)) return false;
  if (white.empty()) return true;
  for (const auto& a : white)
    if (gui::ActivityMatches(activity, a)) return true;
  return false;
}

nlohmann::json HarnessOptions::ToJson() const {
  return {{"strings", strings_file.string()},
          {"filters", filters_file.string()},
          {"actions", actions_file.string()},
          {"text_input", text_input || !strings_file.empty()},
          {"input_mix",
           {{"pct_user", mix.pct_user},
            {"pct_seen", mix.pct_seen},
            {"pct_awkward", mix.pct_awkward},
            {"pct_plain", mix.pct_plain},
            {"max_seen", mix.max_seen}}},
          {"max_backs", max_backs}};
}

Result<std::vector<std::string>> ParseStringsFile(const std::string& text,
                                                  const std::string& source) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    MakeValidUtf8(line);  // a byte that is not UTF-8 is typed as U+FFFD
    if (!line.empty()) out.push_back(std::move(line));
    pos = end + 1;
  }
  if (out.empty())
    return Status::InvalidArgument(source +
                                   ": holds no strings (one text per line; empty lines "
                                   "are skipped)");
  return out;
}

Status ParseFilters(const json& j, const std::string& source, WidgetLists& widgets,
                    ActivityLists& activities) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(j, source, {"widgets", "activities"}));
  if (j.contains("widgets")) {
    const json& w = j["widgets"];
    ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(w, source + ": widgets", {"black", "white"}));
    if (w.contains("black"))
      ROAM_RETURN_IF_ERROR(ParseWidgetList(w["black"], source + ": widgets.black", widgets.black));
    if (w.contains("white"))
      ROAM_RETURN_IF_ERROR(ParseWidgetList(w["white"], source + ": widgets.white", widgets.white));
  }
  if (j.contains("activities")) {
    const json& a = j["activities"];
    ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(a, source + ": activities", {"black", "white"}));
    if (a.contains("black"))
      ROAM_RETURN_IF_ERROR(
          ParseActivityList(a["black"], source + ": activities.black", activities.black));
    if (a.contains("white"))
      ROAM_RETURN_IF_ERROR(
          ParseActivityList(a["white"], source + ": activities.white", activities.white));
  }
  return Status::Ok();
}

Result<std::vector<Script>> ParseScripts(const json& j, const std::string& source) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(j, source, {"actions"}));
  if (!j.contains("actions") || !j["actions"].is_array())
    return Status::InvalidArgument(source + ": needs \"actions\": an array of scripts");
  std::vector<Script> scripts;
  for (size_t i = 0; i < j["actions"].size(); ++i) {
    auto s = ParseScript(j["actions"][i], fmt::format("{}: actions[{}]", source, i));
    if (!s.ok()) return s.status();
    scripts.push_back(std::move(*s));
  }
  return scripts;
}

Result<HarnessConfig> LoadHarnessConfig(const HarnessOptions& options) {
  HarnessConfig c;
  c.options = options;
  if (options.max_backs < 1) return Status::InvalidArgument("harness.max_backs must be at least 1");
  if (!options.strings_file.empty()) {
    auto text = ReadFile(options.strings_file);
    if (!text.ok()) return text.status().Wrap("harness.strings");
    auto strings = ParseStringsFile(*text, options.strings_file.string());
    if (!strings.ok()) return strings.status();
    c.user_strings = std::move(*strings);
  }
  if (!options.filters_file.empty()) {
    auto j = ReadJsonFile(options.filters_file);
    if (!j.ok()) return j.status().Wrap("harness.filters");
    ROAM_RETURN_IF_ERROR(ParseFilters(*j, options.filters_file.string(), c.widgets, c.activities));
  }
  if (!options.actions_file.empty()) {
    auto j = ReadJsonFile(options.actions_file);
    if (!j.ok()) return j.status().Wrap("harness.actions");
    auto scripts = ParseScripts(*j, options.actions_file.string());
    if (!scripts.ok()) return scripts.status();
    c.scripts = std::move(*scripts);
  }
  return c;
}

}  // namespace roam::explore
