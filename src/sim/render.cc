// SimApp::Impl::Render: lays the current screen, dialog, menu or the launcher out as a
// gui::Screen, reusing the widgets' string storage from the previous render.
#include <algorithm>

#include "sim/interpreter.h"

namespace roam::sim {
namespace {

constexpr int kStatusBarHeight = 63;
constexpr int kToolbarHeight = 147;
constexpr int kWidgetHeight = 126;   // one line of content: a button, a text, a list row
constexpr int kMargin = 42;          // left and right of the content
constexpr int kOverflowWidth = 126;  // the "More options" button
constexpr int kDialogMargin = 84;    // left and right of a dialog box
constexpr int kDialogPadding = 63;   // above and below a dialog's content
constexpr int kMenuWidth = 588;
constexpr int kIconSize = 220;  // the launcher icon
constexpr int kMinutesPerHour = 60;
constexpr int kHoursPerDay = 24;
constexpr char kLauncherPackage[] = "com.android.launcher3";
constexpr char kLauncherActivity[] = "com.android.launcher3.Launcher";
constexpr char kFrameLayout[] = "android.widget.FrameLayout";
constexpr char kLinearLayout[] = "android.widget.LinearLayout";
constexpr char kTextView[] = "android.widget.TextView";

void ClockText(uint64_t step, std::string& out) {
  int64_t minutes = (kClockStartMinutes + static_cast<int64_t>(step / kStepsPerMinute)) %
                    (kHoursPerDay * kMinutesPerHour);
  int h = static_cast<int>(minutes / kMinutesPerHour),
      m = static_cast<int>(minutes % kMinutesPerHour);
  out += static_cast<char>('0' + h / 10);
  out += static_cast<char>('0' + h % 10);
  out += ':';
  out += static_cast<char>('0' + m / 10);
  out += static_cast<char>('0' + m % 10);
}

Target KindOf(Target::Kind kind) {
  Target t;
  t.kind = kind;
  return t;
}

}  // namespace

int SimApp::Impl::Add(int parent, const Target& target, const char* cls, gui::Rect bounds) {
  auto& ws = screen_.widgets;
  if (used_ == static_cast<int>(ws.size())) {
    if (spare_.empty()) {
      ws.emplace_back();
    } else {
      ws.push_back(std::move(spare_.back()));
      spare_.pop_back();
    }
  }
  if (used_ == static_cast<int>(targets_.size()))
    targets_.push_back(target);
  else
    targets_[used_] = target;
  gui::Widget& w = ws[used_];
  w.cls = cls;
  w.resource_id.clear();
  w.text.clear();
  w.content_desc.clear();
  w.package = screen_.package;
  w.hint.clear();
  w.bounds = bounds;
  w.clickable = w.long_clickable = w.checkable = w.checked = w.scrollable = w.editable = false;
  w.password = w.focusable = w.focused = w.selected = w.naf = false;
  w.enabled = true;
  w.parent = parent;
  return used_++;
}

const gui::Screen& SimApp::Impl::Render() {
  if (!dirty_) return screen_;
  dirty_ = false;
  used_ = 0;
  int width = spec_->width(), height = spec_->height();
  if (st_.rotation % 2) std::swap(width, height);
  screen_.width = width;
  screen_.height = height;
  screen_.rotation = st_.rotation;
  if (!st_.foreground || st_.stack.empty()) {
    RenderLauncher(width, height);
  } else {
    screen_.package = spec_->package();
    screen_.activity = spec_->screens()[st_.stack.back().page].activity;
    if (st_.menu_open)
      RenderMenu(width, height);
    else if (st_.has_dialog)
      RenderDialog(width, height);
    else
      RenderScreen(width, height);
  }
  auto& ws = screen_.widgets;
  while (static_cast<int>(ws.size()) > used_) {
    spare_.push_back(std::move(ws.back()));
    ws.pop_back();
  }
  screen_.Link();
  return screen_;
}

bool SimApp::Impl::ScreenBeneath(gui::Screen& out, bool& dimmed) {
  if (!st_.foreground || st_.stack.empty() || (!st_.menu_open && !st_.has_dialog)) return false;
  dimmed = !st_.menu_open;
  // The page alone, then the state as it was (its render is redone on the next screen()).
  const bool menu = st_.menu_open, dialog = st_.has_dialog;
  st_.menu_open = st_.has_dialog = false;
  dirty_ = true;
  out = Render();
  st_.menu_open = menu;
  st_.has_dialog = dialog;
  dirty_ = true;
  return true;
}

void SimApp::Impl::RenderLauncher(int width, int height) {
  screen_.package = kLauncherPackage;
  screen_.activity = kLauncherActivity;
  int root = Add(-1, {}, kFrameLayout, {0, 0, width, height});
  int x = (width - kIconSize) / 2, y = (height - kIconSize) / 2;
  int icon = Add(root, KindOf(Target::Kind::kLauncherIcon), kTextView,
                 {x, y, x + kIconSize, y + kIconSize});
  gui::Widget& w = screen_.widgets[icon];
  w.text = spec_->label();
  w.content_desc = spec_->label();
  w.clickable = w.long_clickable = w.focusable = true;
}

void SimApp::Impl::RenderScreen(int width, int height) {
  const PageSpec& page = spec_->screens()[st_.stack.back().page];
  EvalCtx ctx = TopCtx();
  int root = Add(-1, {}, kFrameLayout, {0, 0, width, height});
  const int bar_bottom = kStatusBarHeight + kToolbarHeight;
  // A screen with its own app bar gets none of ours: its widgets start under the status bar,
  // and a menu's overflow button sits at the top right, where an app bar has it.
  int bar = root;
  if (!page.own_bar) {
    bar = Add(root, {}, "android.view.ViewGroup", {0, kStatusBarHeight, width, bar_bottom});
    screen_.widgets[bar].resource_id = spec_->package();
    screen_.widgets[bar].resource_id += ":id/toolbar";
    int title = Add(bar, {}, kTextView,
                    {kMargin, kStatusBarHeight, width - kOverflowWidth - kMargin, bar_bottom});
    Expand(page.title, ctx, screen_.widgets[title].text);
  }
  if (!page.menu.empty()) {
    int more = Add(bar, KindOf(Target::Kind::kOverflow), "android.widget.ImageButton",
                   {width - kOverflowWidth, kStatusBarHeight, width, bar_bottom});
    gui::Widget& w = screen_.widgets[more];
    w.content_desc = gui::kOverflowDescription;
    w.clickable = w.focusable = true;
  }
  Column(page.widgets,
         {kMargin, page.own_bar ? kStatusBarHeight : bar_bottom, width - kMargin, height}, root,
         ctx);
}

void SimApp::Impl::RenderDialog(int width, int height) {
  const PageSpec& page = spec_->dialogs()[st_.dialog.page];
  EvalCtx ctx = TopCtx();
  int lines = (page.title.pieces.empty() ? 0 : 1) + (page.message.pieces.empty() ? 0 : 1);
  int units = lines;
  for (const WidgetSpec& w : page.widgets) units += Units(w, ctx);
  int box_height =
      std::min(units * kWidgetHeight + 2 * kDialogPadding, height - 2 * kStatusBarHeight);
  gui::Rect box{kDialogMargin, (height - box_height) / 2, width - kDialogMargin,
                (height + box_height) / 2};
  int root = Add(-1, {}, kFrameLayout, box);
  int line_height = units > 0 ? (box.height() - 2 * kDialogPadding) / units : 0;
  int y = box.top + kDialogPadding;
  const std::pair<const Template*, const char*> texts[] = {{&page.title, "android:id/alertTitle"},
                                                           {&page.message, "android:id/message"}};
  for (const auto& [tmpl, id] : texts) {
    if (tmpl->pieces.empty()) continue;
    int i = Add(root, {}, kTextView, {box.left + kMargin, y, box.right - kMargin, y + line_height});
    screen_.widgets[i].resource_id = id;
    Expand(*tmpl, ctx, screen_.widgets[i].text);
    y += line_height;
  }
  Column(page.widgets, {box.left + kMargin, y, box.right - kMargin, box.bottom - kDialogPadding},
         root, ctx);
}

void SimApp::Impl::RenderMenu(int width, int height) {
  const PageSpec& page = spec_->screens()[st_.stack.back().page];
  EvalCtx ctx = TopCtx();
  int n = static_cast<int>(page.menu.size());
  int item_height = std::min(kWidgetHeight, (height - kStatusBarHeight) / std::max(1, n));
  gui::Rect box{std::max(0, width - kMenuWidth), kStatusBarHeight, width,
                kStatusBarHeight + n * item_height};
  int root = Add(-1, {}, kFrameLayout, box);
  int list = Add(root, {}, "android.widget.ListView", box);
  for (int k = 0; k < n; ++k) {
    Target t = KindOf(Target::Kind::kMenuItem);
    t.menu = k;
    int top = box.top + k * item_height;
    int i = Add(list, t, kTextView, {box.left, top, box.right, top + item_height});
    gui::Widget& w = screen_.widgets[i];
    w.resource_id = "android:id/title";
    Expand(page.menu[k].text, ctx, w.text);
    w.clickable = w.focusable = true;
  }
}

int SimApp::Impl::Units(const WidgetSpec& w, const EvalCtx& ctx) const {
  if (w.has_bounds || !Test(w.visible_if, ctx)) return 0;
  if (w.list >= 0) {
    const Frame* f = FrameOf(ctx);
    int offset = f ? f->scroll[w.scroll] : 0;
    int rows = static_cast<int>(st_.lists[w.list].size()) - offset;
    return std::clamp(rows, 1, w.visible_rows);
  }
  if (w.children.empty()) return 1;
  int sum = 0;
  for (const WidgetSpec& c : w.children) sum += Units(c, ctx);
  return std::max(1, sum);
}

void SimApp::Impl::Column(const std::vector<WidgetSpec>& ws, gui::Rect area, int parent,
                          const EvalCtx& ctx) {
  int total = 0;
  for (const WidgetSpec& w : ws) total += Units(w, ctx);
  int unit = total > 0 ? std::clamp(area.height() / total, 1, kWidgetHeight) : 0;
  int y = area.top;
  for (const WidgetSpec& w : ws) {
    if (w.has_bounds) {
      if (Test(w.visible_if, ctx)) Emit(w, w.bounds, parent, ctx);
      continue;
    }
    int u = Units(w, ctx);
    if (u == 0) continue;
    Emit(w, {area.left, y, area.right, y + u * unit}, parent, ctx);
    y += u * unit;
  }
}

void SimApp::Impl::Emit(const WidgetSpec& spec, gui::Rect r, int parent, const EvalCtx& ctx) {
  Target t{Target::Kind::kWidget, &spec, ctx.row};
  int i = Add(parent, t, spec.cls.c_str(), r);
  gui::Widget& w = screen_.widgets[i];
  w.resource_id = spec.resource_id;
  if (spec.dynamic == DynamicKind::kClock) {
    ClockText(st_.step, w.text);
  } else if (spec.dynamic == DynamicKind::kRotate) {
    w.text = spec_->rotates()[spec.rotate].texts[st_.rotate[spec.rotate]];
  } else if (spec.editable) {
    const Frame* f = FrameOf(ctx);
    if (f && spec.field >= 0) w.text = f->fields[spec.field];
  } else {
    Expand(spec.text, ctx, w.text);
  }
  Expand(spec.desc, ctx, w.content_desc);
  Expand(spec.hint, ctx, w.hint);
  w.clickable = spec.clickable;
  w.long_clickable = spec.long_clickable;
  // A list scrolls only while it holds more rows than it shows (a phone says so too).
  w.scrollable =
      spec.scrollable &&
      (spec.list < 0 || static_cast<int>(st_.lists[spec.list].size()) > spec.visible_rows);
  w.editable = spec.editable;
  w.checkable = spec.checkable;
  w.focusable = spec.clickable || spec.editable;
  if (spec.checkable) w.checked = Truthy(Eval(spec.checked, ctx));
  w.enabled = Test(spec.enabled_if, ctx);
  if (!spec.children.empty()) Column(spec.children, r, i, ctx);
  if (spec.list >= 0) EmitRows(spec, r, i, ctx);
}

void SimApp::Impl::EmitRows(const WidgetSpec& spec, gui::Rect r, int parent, const EvalCtx& ctx) {
  const Frame* f = FrameOf(ctx);
  int offset = f ? f->scroll[spec.scroll] : 0;
  int n = static_cast<int>(st_.lists[spec.list].size());
  int rows = std::clamp(n - offset, 0, spec.visible_rows);
  if (rows == 0) return;
  int row_height = r.height() / rows;
  EvalCtx row_ctx = ctx;
  for (int k = 0; k < rows; ++k) {
    row_ctx.row = {spec.list, offset + k};
    gui::Rect rr{r.left, r.top + k * row_height, r.right, r.top + (k + 1) * row_height};
    int row = Add(parent, {}, kLinearLayout, rr);
    int cells = 0;
    for (const WidgetSpec& w : spec.row) cells += Test(w.visible_if, row_ctx) ? 1 : 0;
    if (cells == 0) continue;
    int cell_width = rr.width() / cells, x = rr.left;
    for (const WidgetSpec& w : spec.row) {
      if (!Test(w.visible_if, row_ctx)) continue;
      Emit(w, w.has_bounds ? w.bounds : gui::Rect{x, rr.top, x + cell_width, rr.bottom}, row,
           row_ctx);
      x += cell_width;
    }
  }
}

}  // namespace roam::sim
