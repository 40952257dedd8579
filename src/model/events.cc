#include "model/events.h"

namespace roam::model {
namespace {

constexpr size_t kTextLimit = 64;  // bytes of masked text, as in gui::MakeHyperEvent

// `out` = `text` with digit runs masked, cut to kTextLimit bytes on a UTF-8 boundary.
void AssignMasked(std::string& out, std::string_view text) {
  out.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool digit = c >= '0' && c <= '9';
    if (!digit) {
      out += c;
    } else if (i == 0 || !(text[i - 1] >= '0' && text[i - 1] <= '9')) {
      out += '#';
    }
    if (out.size() > kTextLimit) break;
  }
  if (out.size() > kTextLimit) {
    size_t cut = kTextLimit;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
}

}  // namespace

EventId EventMapper::Map(Model& model, const gui::Screen& screen, const gui::Action& action) {
  gui::HyperEvent& e = scratch_;
  e.activity.assign(screen.activity);
  e.kind = action.kind;
  e.resource_id.clear();
  e.text.clear();
  if (!gui::IsWidgetAction(action.kind) || !action.target) {
    if (action.kind == gui::ActionKind::kKey) e.text.assign(action.text);
    return model.Intern(e);
  }
  const int n = static_cast<int>(screen.widgets.size());
  int i = action.widget;
  if (i < 0 || i >= n || screen.widgets[i].bounds != action.target->bounds)
    i = screen.FindPath(action.target->path);
  if (i < 0) return model.Intern(e);
  const gui::Widget& w = screen.widgets[i];
  e.resource_id.assign(w.resource_id);
  if (!w.editable) AssignMasked(e.text, w.text.empty() ? w.content_desc : w.text);
  uint64_t slot = gui::StableHash()
                      .Add("text-slot-v1")
                      .Add(e.activity)
                      .Add(e.resource_id)
                      .Add(gui::ActionKindName(e.kind))
                      .Add(action.target->path)
                      .value();
  if (model.DynamicText(slot, gui::StableHash().Add(e.text).value())) e.text.clear();
  return model.Intern(e);
}

}  // namespace roam::model
