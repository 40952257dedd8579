// The intent half of SpecCompiler: what a screen's activity declares to the outside (exported,
// intent filters) and the extras the screen reads, with what it does when one is missing or of
// another type (docs/app-spec.md, "Intents").
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/files.h"
#include "sim/spec_compiler.h"

namespace roam::sim {
namespace {

const std::vector<std::string> kIntentKeys = {"exported", "intent_filters", "extras"};
const std::vector<std::string> kBehaviours = {"fine", "default"};

bool Token(const std::string& s) {
  return !s.empty() && s.find_first_of(" \t\n'\"") == std::string::npos;
}

void AddOnce(std::vector<std::string>& list, const std::string& s) {
  if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

}  // namespace

void SpecCompiler::Intents(const json& page, const std::string& path, PageSpec& out) {
  const json* exported = Field(page, "exported", path, false, json::value_t::boolean);
  out.exported = exported && exported->get<bool>();
  if (const json* f = Field(page, "intent_filters", path, false, json::value_t::array)) {
    IntentFilters(*f, Join(path, "intent_filters"), out);
    if (!f->empty() && !exported)
      Error(Join(path, "intent_filters"),
            "a screen with intent filters must say \"exported\": Android 12 refuses to install "
            "an app whose activity has an intent filter but no android:exported; add "
            "\"exported\": true");
    else if (!f->empty() && !out.exported)
      Error(Join(path, "intent_filters"),
            "the screen is not exported, so no intent from outside reaches its filters: drop "
            "them or say \"exported\": true");
  }
  if (const json* e = Field(page, "extras", path, false, json::value_t::array))
    Extras(*e, Join(path, "extras"), out);
  if (out.exported) out.intent_unit = Unit(out.id + ":intent");
}

void SpecCompiler::IntentFilters(const json& filters, const std::string& path, PageSpec& out) {
  for (size_t i = 0; i < filters.size(); ++i) {
    const std::string fp = Join(path, i);
    if (!IsType(filters[i], json::value_t::object, fp)) continue;
    const json& f = filters[i];
    CheckKeys(f, fp, {"actions", "categories", "data"});
    gui::IntentFilter filter;
    auto names = [&](const char* key, std::vector<std::string>& into) {
      const json* list = Field(f, key, fp, false, json::value_t::array);
      if (!list) return;
      for (size_t k = 0; k < list->size(); ++k) {
        const std::string np = Join(Join(fp, key), k);
        if (!IsType((*list)[k], json::value_t::string, np)) continue;
        const std::string name = (*list)[k].get<std::string>();
        if (!Token(name))
          Error(np, fmt::format("\"{}\": a name without spaces or quotes, such as "
                                "android.intent.action.VIEW",
                                name));
        else
          AddOnce(into, name);
      }
    };
    names("actions", filter.actions);
    names("categories", filter.categories);
    if (filter.actions.empty())
      Error(Join(fp, "actions"),
            "an intent filter needs at least one action (one without actions takes no intent), "
            "such as android.intent.action.VIEW");
    if (const json* data = Field(f, "data", fp, false, json::value_t::array)) {
      for (size_t k = 0; k < data->size(); ++k) {
        const std::string dp = Join(Join(fp, "data"), k);
        if (!IsType((*data)[k], json::value_t::object, dp)) continue;
        const json& d = (*data)[k];
        CheckKeys(d, dp, {"scheme", "host", "path_prefix"});
        const std::string scheme = String(d, "scheme", dp, true);
        const std::string host = String(d, "host", dp, false);
        const std::string prefix = String(d, "path_prefix", dp, false);
        if (!scheme.empty()) AddOnce(filter.schemes, scheme);
        if (!host.empty()) AddOnce(filter.hosts, host);
        if (!prefix.empty() && prefix[0] != '/')
          Error(Join(dp, "path_prefix"),
                fmt::format("\"{}\": a path prefix starts with '/', such as /item", prefix));
        else if (!prefix.empty())
          AddOnce(filter.paths, prefix);
      }
    }
    out.filters.push_back(std::move(filter));
  }
}

void SpecCompiler::Extras(const json& extras, const std::string& path, PageSpec& out) {
  for (size_t i = 0; i < extras.size(); ++i) {
    const std::string ep = Join(path, i);
    if (!IsType(extras[i], json::value_t::object, ep)) continue;
    const json& e = extras[i];
    CheckKeys(e, ep, {"key", "type", "value", "missing", "wrong_type"});
    ExtraSpec x;
    x.key = String(e, "key", ep, true);
    if (!x.key.empty() && !Token(x.key))
      Error(Join(ep, "key"), fmt::format("\"{}\": a key without spaces or quotes", x.key));
    for (const ExtraSpec& before : out.extras)
      if (!x.key.empty() && before.key == x.key)
        Error(Join(ep, "key"), fmt::format("duplicate extra \"{}\"", x.key));
    const std::string type = String(e, "type", ep, true);
    if (!type.empty()) {
      auto parsed = gui::ExtraTypeFromName(type);
      if (parsed.ok())
        x.type = *parsed;
      else
        Error(Join(ep, "type"), NotFound("extra type", type, {"string", "int", "bool"}));
    }
    auto v = e.find("value");
    if (v == e.end()) {
      Error(ep, "missing required field \"value\" (a value the screen accepts)");
    } else {
      const json::value_t want = x.type == gui::ExtraType::kInt    ? json::value_t::number_integer
                                 : x.type == gui::ExtraType::kBool ? json::value_t::boolean
                                                                   : json::value_t::string;
      if (IsType(*v, want, Join(ep, "value"))) Literal(*v, Join(ep, "value"), x.value);
    }
    for (const char* key : {"missing", "wrong_type"}) {
      auto b = e.find(key);
      if (b == e.end()) continue;
      const bool missing = std::string(key) == "missing";
      (missing ? x.missing : x.wrong_type) =
          Behaviour(*b, Join(ep, key), out, missing ? x.missing_crash : x.wrong_type_crash);
    }
    out.extras.push_back(std::move(x));
  }
}

ExtraBehaviour SpecCompiler::Behaviour(const json& v, const std::string& path, const PageSpec& page,
                                       int& handler) {
  if (v.is_string()) {
    const std::string name = v.get<std::string>();
    if (name == "fine") return ExtraBehaviour::kFine;
    if (name == "default") return ExtraBehaviour::kDefault;
    Error(path, NotFound("behaviour", name, kBehaviours) +
                    "; a behaviour is \"fine\", \"default\" or a crash {\"crash\": {...}}");
    return ExtraBehaviour::kFine;
  }
  if (!v.is_object() || !v.contains("crash")) {
    Error(path,
          "expected \"fine\", \"default\" or a crash {\"crash\": {\"exception\": ..., "
          "\"message\": ..., \"frames\": [...]}, \"bug\": \"ID\"}");
    return ExtraBehaviour::kFine;
  }
  Handler h;
  h.effects.push_back(CompileEffect(v, path, Ctx{&page, -1}));
  if (h.effects.back().verb != Verb::kCrash) return ExtraBehaviour::kFine;  // reported
  const std::string cls = page.activity.substr(page.activity.rfind('.') + 1);
  h.default_frame = fmt::format("{}.onCreate({}.java)", page.activity, cls);
  spec_->handlers_.push_back(std::move(h));
  handler = static_cast<int>(spec_->handlers_.size()) - 1;
  return ExtraBehaviour::kCrash;
}

void SpecCompiler::OneDeclarationPerActivity(const json& screens) {
  std::map<std::string, size_t> declared;  // activity -> the screen that declares it
  for (size_t i = 0; i < screens.size() && i < spec_->screens_.size(); ++i) {
    if (!screens[i].is_object()) continue;
    const std::string& activity = spec_->screens_[i].activity;
    for (const std::string& key : kIntentKeys) {
      if (!screens[i].contains(key) || activity.empty()) continue;
      auto [it, first] = declared.emplace(activity, i);
      if (!first && it->second != i)
        Error(Join(Join("/screens", i), key),
              fmt::format("activity {} is declared by /screens/{} already: one screen of an "
                          "activity says what its manifest entry does (exported, "
                          "intent_filters, extras)",
                          activity, it->second));
    }
  }
}

}  // namespace roam::sim
