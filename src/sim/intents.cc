// SimApp::Impl: intents from outside the app (SimApp::StartIntent) and the activities it
// declares to the outside (SimApp::DeclaredActivities).
#include <algorithm>
#include <charconv>

#include "base/utf8.h"
#include "sim/interpreter.h"

namespace roam::sim {
namespace {

// What a Bundle getter returns for an extra that is not there: null, 0, false.
Val Empty(gui::ExtraType type) {
  switch (type) {
    case gui::ExtraType::kInt:
      return Val::Int(0);
    case gui::ExtraType::kBool:
      return Val::Bool(false);
    case gui::ExtraType::kString:
      break;
  }
  return Val::Str("");
}

// The value `sent` carries when it has the type the screen reads; false when it has another
// (or, for an int or a bool, text that is not one).
bool Accept(const gui::IntentExtra& sent, gui::ExtraType type, Val& out) {
  if (sent.type != type) return false;
  switch (type) {
    case gui::ExtraType::kString:
      out = Val::Str(sent.value);
      return true;
    case gui::ExtraType::kInt: {
      int64_t v = 0;
      const char* end = sent.value.data() + sent.value.size();
      auto [p, ec] = std::from_chars(sent.value.data(), end, v);
      if (ec != std::errc() || p != end) return false;
      out = Val::Int(v);
      return true;
    }
    case gui::ExtraType::kBool: {
      const std::string v = AsciiLower(sent.value);
      if (v != "true" && v != "false") return false;
      out = Val::Bool(v == "true");
      return true;
    }
  }
  return false;
}

std::string Text(const Val& v) {
  switch (v.type) {
    case Val::Type::kBool:
      return v.i ? "true" : "false";
    case Val::Type::kInt:
      return std::to_string(v.i);
    default:
      return v.s;
  }
}

}  // namespace

int SimApp::Impl::DeclaringScreen(const std::string& activity) const {
  const auto& screens = spec_->screens();
  int first = -1;
  for (size_t s = 0; s < screens.size(); ++s) {
    const PageSpec& p = screens[s];
    if (p.activity != activity) continue;
    if (p.exported || !p.filters.empty() || !p.extras.empty()) return static_cast<int>(s);
    if (first < 0) first = static_cast<int>(s);
  }
  return first;
}

IntentOutcome SimApp::Impl::StartIntent(const gui::Intent& intent) {
  const auto& screens = spec_->screens();
  int screen = -1;
  if (!intent.component.empty()) {
    std::string cls = intent.component;
    if (const size_t slash = cls.find('/'); slash != std::string::npos) {
      if (cls.substr(0, slash) != spec_->package()) return IntentOutcome::kUnresolved;
      cls = cls.substr(slash + 1);
    }
    if (!cls.empty() && cls[0] == '.') cls = spec_->package() + cls;
    screen = DeclaringScreen(cls);
    if (screen < 0) return IntentOutcome::kUnresolved;
    if (!screens[screen].exported) return IntentOutcome::kNotExported;
  } else {
    for (size_t s = 0; s < screens.size() && screen < 0; ++s)
      if (screens[s].exported &&
          std::any_of(screens[s].filters.begin(), screens[s].filters.end(),
                      [&](const gui::IntentFilter& f) { return gui::FilterTakes(f, intent); }))
        screen = static_cast<int>(s);
    if (screen < 0) return IntentOutcome::kUnresolved;
  }
  // The extras as the screen reads them; the first missing or wrong one that crashes decides.
  const PageSpec& page = screens[screen];
  std::vector<Val> extras(page.extras.size());
  int crash = -1;
  for (size_t k = 0; k < page.extras.size(); ++k) {
    const ExtraSpec& x = page.extras[k];
    auto sent = std::find_if(intent.extras.rbegin(), intent.extras.rend(),
                             [&](const gui::IntentExtra& e) { return e.key == x.key; });
    if (sent != intent.extras.rend() && Accept(*sent, x.type, extras[k])) continue;
    const bool missing = sent == intent.extras.rend();
    const ExtraBehaviour behaviour = missing ? x.missing : x.wrong_type;
    extras[k] = behaviour == ExtraBehaviour::kDefault ? x.value : Empty(x.type);
    if (behaviour == ExtraBehaviour::kCrash && crash < 0)
      crash = missing ? x.missing_crash : x.wrong_type_crash;
  }
  st_.running = true;  // the process starts if it was not running
  dirty_ = true;
  Cover(page.intent_unit);
  PushScreen(screen, {}, std::move(extras), crash);
  return IntentOutcome::kStarted;
}

std::vector<gui::DeclaredActivity> SimApp::DeclaredActivities() const {
  std::vector<gui::DeclaredActivity> out;
  for (const std::string& name : Activities()) {
    const PageSpec& p = impl_->spec_->screens()[impl_->DeclaringScreen(name)];
    gui::DeclaredActivity a{.name = name, .exported = p.exported, .filters = p.filters};
    for (const ExtraSpec& x : p.extras) a.extras.push_back({x.key, x.type, Text(x.value)});
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace roam::sim
