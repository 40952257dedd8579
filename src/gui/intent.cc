#include "gui/intent.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

namespace roam::gui {
namespace {

struct ExtraTypeRow {
  ExtraType type;
  std::string_view name;
  std::string_view flag;
};
constexpr std::array<ExtraTypeRow, 3> kExtraTypes = {{
    {ExtraType::kString, "string", "--es"},
    {ExtraType::kInt, "int", "--ei"},
    {ExtraType::kBool, "bool", "--ez"},
}};

const ExtraTypeRow& RowOf(ExtraType type) { return kExtraTypes[static_cast<int>(type)]; }

// '%', ' ' and control characters as %XX, so that a value is one space-free token.
std::string Encode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '%' || c == ' ' || c < 0x20 || c == 0x7f)
      out += fmt::format("%{:02X}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

Result<std::string> Decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    const std::string hex(i + 2 < s.size() ? s.substr(i + 1, 2) : "");
    if (hex.size() != 2 || !std::isxdigit(static_cast<unsigned char>(hex[0])) ||
        !std::isxdigit(static_cast<unsigned char>(hex[1])))
      return Status::InvalidArgument(fmt::format("\"{}\": a '%' without two hex digits", s));
    out += static_cast<char>(std::stoi(hex, nullptr, 16));
    i += 2;
  }
  return out;
}

std::vector<std::string_view> Tokens(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

bool Listed(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// "app://host/path?q" -> scheme "app", host "host", path "/path".
void SplitUri(std::string_view uri, std::string& scheme, std::string& host, std::string& path) {
  const size_t colon = uri.find(':');
  if (colon == std::string_view::npos) {
    scheme.clear(), host.clear(), path = std::string(uri);
    return;
  }
  scheme = std::string(uri.substr(0, colon));
  std::string_view rest = uri.substr(colon + 1);
  host.clear();
  if (rest.starts_with("//")) {
    rest.remove_prefix(2);
    const size_t slash = rest.find_first_of("/?#");
    host = std::string(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  path = std::string(rest.substr(0, rest.find_first_of("?#")));
}

std::string ShortClass(const std::string& name) { return name.substr(name.rfind('.') + 1); }

}  // namespace

std::string_view ExtraTypeName(ExtraType type) { return RowOf(type).name; }
std::string_view ExtraTypeFlag(ExtraType type) { return RowOf(type).flag; }

Result<ExtraType> ExtraTypeFromName(std::string_view name) {
  for (const auto& row : kExtraTypes)
    if (row.name == name) return row.type;
  return Status::InvalidArgument(
      fmt::format("extra type \"{}\": expected string, int or bool", name));
}

std::optional<ExtraType> ExtraTypeFromFlag(std::string_view flag) {
  for (const auto& row : kExtraTypes)
    if (row.flag == flag) return row.type;
  return std::nullopt;
}

std::string Intent::ToText() const {
  std::vector<std::string> parts;
  if (!component.empty()) parts.push_back("-n " + Encode(component));
  if (!action.empty()) parts.push_back("-a " + Encode(action));
  if (!data.empty()) parts.push_back("-d " + Encode(data));
  for (const auto& e : extras)
    parts.push_back(fmt::format("{} {} {}", ExtraTypeFlag(e.type), Encode(e.key),
                                e.value.empty() ? "%00" : Encode(e.value)));
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string Intent::Describe() const {
  std::string s = component.empty() ? fmt::format("open the deep link {}", data)
                                    : fmt::format("start {}", ShortClass(component));
  if (!component.empty() && !data.empty()) s += " on " + data;
  if (extras.empty()) return component.empty() ? s : s + " with no extras";
  std::vector<std::string> named;
  for (const auto& e : extras)
    named.push_back(fmt::format("{}={} ({})", e.key, e.value, ExtraTypeName(e.type)));
  return fmt::format("{} with extras {}", s, fmt::join(named, ", "));
}

Result<Intent> ParseIntentText(std::string_view text) {
  const auto tokens = Tokens(text);
  Intent intent;
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(fmt::format("intent \"{}\": {}", text, why));
  };
  // The value after tokens[i], decoded, into `out`; i moves past it.
  size_t i = 0;
  auto next = [&](std::string_view flag, std::string& out) -> Status {
    if (i + 1 >= tokens.size()) return bad(fmt::format("{} without a value", flag));
    auto decoded = Decode(tokens[++i]);
    if (!decoded.ok()) return bad(decoded.status().message());
    out = *decoded == std::string(1, '\0') ? "" : *decoded;
    return Status::Ok();
  };
  for (; i < tokens.size(); ++i) {
    const std::string_view flag = tokens[i];
    if (flag == "-n" || flag == "-a" || flag == "-d") {
      ROAM_RETURN_IF_ERROR(next(flag, flag == "-n"   ? intent.component
                                      : flag == "-a" ? intent.action
                                                     : intent.data));
      continue;
    }
    const auto type = ExtraTypeFromFlag(flag);
    if (!type) return bad(fmt::format("unknown flag \"{}\"", flag));
    IntentExtra extra{.type = *type};
    ROAM_RETURN_IF_ERROR(next(flag, extra.key));
    ROAM_RETURN_IF_ERROR(next(flag, extra.value));
    intent.extras.push_back(std::move(extra));
  }
  if (intent.component.empty() && intent.data.empty())
    return bad("neither a component (-n) nor a deep link (-d)");
  return intent;
}

bool FilterTakes(const IntentFilter& filter, const Intent& intent) {
  if (!intent.action.empty() && !Listed(filter.actions, intent.action)) return false;
  if (intent.data.empty()) return filter.schemes.empty();
  if (filter.schemes.empty()) return false;
  std::string scheme, host, path;
  SplitUri(intent.data, scheme, host, path);
  if (!Listed(filter.schemes, scheme)) return false;
  if (!filter.hosts.empty() && !Listed(filter.hosts, host)) return false;
  if (filter.paths.empty()) return true;
  return std::any_of(filter.paths.begin(), filter.paths.end(),
                     [&](const std::string& prefix) { return path.starts_with(prefix); });
}

std::vector<Intent> CandidateIntents(const DeclaredActivity& activity) {
  std::vector<Intent> out;
  if (!activity.exported) return out;
  auto add = [&](Intent intent) {
    if (std::find(out.begin(), out.end(), intent) == out.end()) out.push_back(std::move(intent));
  };
  add({.component = activity.name, .extras = activity.extras});
  add({.component = activity.name});
  for (size_t i = 0; i < activity.extras.size(); ++i) {
    Intent wrong{.component = activity.name, .extras = activity.extras};
    IntentExtra& e = wrong.extras[i];
    if (e.type == ExtraType::kString) {
      e.type = ExtraType::kInt, e.value = "1";
    } else {
      e.type = ExtraType::kString, e.value = "x";
    }
    add(std::move(wrong));
  }
  for (const auto& filter : activity.filters) {
    if (filter.schemes.empty()) continue;
    std::string uri = filter.schemes.front() + ":";
    if (!filter.hosts.empty()) uri += "//" + filter.hosts.front();
    if (!filter.paths.empty()) uri += filter.paths.front();
    add({.action = filter.actions.empty() ? "android.intent.action.VIEW" : filter.actions.front(),
         .data = uri});
  }
  return out;
}

}  // namespace roam::gui
