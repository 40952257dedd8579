#include "model/events.h"

namespace roam::model {
namespace {

constexpr size_t kTextLimit = 64;  // bytes of masked text, as in gui::MakeHyperEvent

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `out` = `text` with digit runs masked, cut to kTextLimit bytes on a UTF-8 boundary.
void AssignMasked(std::string& out, std::string_view text) {
  out.clear();
  for (size_t i = 0; i < text.size() && out.size() <= kTextLimit; ++i) {
    if (!IsDigit(text[i])) {
      out += text[i];
    } else if (i == 0 || !IsDigit(text[i - 1])) {
      out += '#';
    }
  }
  if (out.size() > kTextLimit) {
    size_t cut = kTextLimit;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
}

}  // namespace

void EventMapper::BeginScreen(const gui::Screen& screen) {
  scratch_.activity.assign(screen.activity);
  // The same word sequence as gui::HyperEvent::Hash(), resumed per action.
  event_base_ = gui::StableHash().Add("hyper-event-v1").Add(screen.activity);
  slot_base_ = gui::StableHash().Add("text-slot-v1").Add(screen.activity);
  activity_fast_ = std::hash<std::string_view>()(screen.activity);
}

EventId EventMapper::Map(Model& model, const gui::Screen& screen, const gui::Action& action) {
  if (cached_for_ != &model) {
    cache_.clear();
    cached_for_ = &model;
  }
  // The target widget, as gui::MakeHyperEvent finds it.
  const gui::Widget* w = nullptr;
  if (gui::IsWidgetAction(action.kind) && action.target) {
    const int n = static_cast<int>(screen.widgets.size());
    int i = action.widget;
    if (i < 0 || i >= n || screen.widgets[i].bounds != action.target->bounds)
      i = screen.FindPath(action.target->path);
    if (i >= 0) w = &screen.widgets[i];
  }
  std::string_view resource_id, raw_text, path;
  if (w) {
    resource_id = w->resource_id;
    if (!w->editable) raw_text = w->text.empty() ? w->content_desc : w->text;
    path = action.target->path;
  } else if (gui::TextNamesAction(action.kind)) {
    raw_text = action.text;
  }
  // The cache: per slot under a fast (not stable) hash, the raw text last seen and its event.
  const std::hash<std::string_view> h;
  uint64_t fast = activity_fast_;
  for (uint64_t part : {h(resource_id), h(path), uint64_t(action.kind)})
    fast = (fast ^ part) * 0x9e3779b97f4a7c15ULL + (fast >> 29);
  const uint64_t raw_hash = h(raw_text);
  auto [it, added] = cache_.try_emplace(fast);
  if (!added && it->second.text_hash == raw_hash) return it->second.event;

  // A slot or a text not seen before: the four fields, the dynamic-text rule, the key.
  const std::string_view kind = gui::ActionKindName(action.kind);
  const uint64_t slot = gui::StableHash(slot_base_).Add(resource_id).Add(kind).Add(path).value();
  gui::HyperEvent& e = scratch_;
  e.kind = action.kind;
  e.resource_id.assign(resource_id);
  if (w) {
    AssignMasked(e.text, raw_text);
  } else {
    e.text.assign(raw_text);
  }
  if (w && model.DynamicText(slot, gui::StableHash().Add(e.text).value())) e.text.clear();
  const uint64_t key =
      gui::StableHash(event_base_).Add(e.resource_id).Add(e.text).Add(kind).value();
  EventId id = model.Intern(key, e);
  it->second = {raw_hash, id};
  return id;
}

}  // namespace roam::model
