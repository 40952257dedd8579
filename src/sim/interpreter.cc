// SimApp and SimApp::Impl: lifecycle (launch, stop, back stack) and action dispatch.
#include "sim/interpreter.h"

#include <algorithm>
#include <charconv>

#include "gui/abstraction.h"
#include "gui/actions.h"

namespace roam::sim {
namespace {

constexpr int kRotations = 2;  // portrait, landscape
constexpr double kTwoPow53 = 9007199254740992.0;

// True when `path` (Screen::PathOf form) names widget `index`, without allocating.
bool PathIs(const gui::Screen& screen, int index, std::string_view path) {
  constexpr int kMaxDepth = 64;
  int chain[kMaxDepth];
  int n = 0;
  for (int i = index; i >= 0; i = screen.widgets[i].parent) {
    if (n == kMaxDepth) return false;
    chain[n++] = screen.widgets[i].child_index;
  }
  const char* pos = path.data();
  const char* end = path.data() + path.size();
  for (int k = n - 1; k >= 0; --k) {
    int v = 0;
    auto [p, ec] = std::from_chars(pos, end, v);
    if (ec != std::errc() || v != chain[k]) return false;
    pos = p;
    if (k > 0) {
      if (pos == end || *pos != '/') return false;
      ++pos;
    }
  }
  return pos == end;
}

}  // namespace

SimApp::Impl::Impl(std::shared_ptr<const AppSpec> spec, SimOptions options)
    : spec_(std::move(spec)), options_(std::move(options)) {
  for (const BugSpec& b : spec_->bugs()) bug_off_.push_back(options_.bugs_off.count(b.id) > 0);
  covered_.assign(spec_->units().size(), 0);
  hits_.assign(spec_->units().size(), 0);
  st_.rng = options_.seed;
  st_.rotate.assign(spec_->rotates().size(), 0);
  ResetData(true);
}

uint64_t SimApp::Impl::NextRandom() {  // splitmix64: a tiny state that snapshots cheaply
  uint64_t z = (st_.rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void SimApp::Impl::ResetData(bool all) {
  st_.vars.resize(spec_->var_init().size());
  st_.lists.resize(spec_->lists().size());
  for (size_t i = 0; i < st_.vars.size(); ++i)
    if (all || !spec_->var_persist()[i]) st_.vars[i] = spec_->var_init()[i];
  for (size_t i = 0; i < st_.lists.size(); ++i)
    if (all || !spec_->list_persist()[i]) st_.lists[i] = spec_->lists()[i].items;
}

void SimApp::Impl::Launch() {
  st_.running = true;
  st_.foreground = true;
  dirty_ = true;
  if (st_.stack.empty()) PushScreen(spec_->start(), {});
}

void SimApp::Impl::Stop() {
  st_.running = st_.foreground = false;
  st_.stack.clear();
  st_.has_dialog = st_.menu_open = false;
  ResetData(false);
  dirty_ = true;
}

void SimApp::Impl::ClearData() {
  Stop();
  ResetData(true);
}

void SimApp::Impl::PushScreen(int screen, RowRef row, std::vector<Val> extras, int crash) {
  const PageSpec& page = spec_->screens()[screen];
  st_.has_dialog = st_.menu_open = false;
  st_.stack.push_back(Frame{screen, row, std::vector<std::string>(page.fields.size()),
                            std::vector<int>(page.scroll_slots, 0), std::move(extras)});
  st_.foreground = true;
  dirty_ = true;
  Cover(page.create_unit);
  if (crash >= 0) {
    RunHandler(crash, TopCtx(row));
    if (!st_.running) return;  // it crashed in onCreate
  }
  RunHandler(page.on[static_cast<int>(PageEvent::kEnter)], TopCtx(row));
}

void SimApp::Impl::OpenDialog(int dialog, RowRef row) {
  const PageSpec& page = spec_->dialogs()[dialog];
  st_.menu_open = false;
  st_.has_dialog = true;
  st_.dialog = Frame{dialog, row, std::vector<std::string>(page.fields.size()),
                     std::vector<int>(page.scroll_slots, 0)};
  dirty_ = true;
  Cover(page.create_unit);
  RunHandler(page.on[static_cast<int>(PageEvent::kEnter)], TopCtx(row));
}

EvalCtx SimApp::Impl::TopCtx(RowRef row) const {
  EvalCtx ctx;
  if (st_.has_dialog) {
    ctx.page = &spec_->dialogs()[st_.dialog.page];
    ctx.dialog = true;
    ctx.frame = st_.dialog.page;
    ctx.row = row.list >= 0 ? row : st_.dialog.row;
  } else {
    ctx = ScreenCtx(row);
  }
  return ctx;
}

EvalCtx SimApp::Impl::ScreenCtx(RowRef row) const {
  EvalCtx ctx;
  if (st_.stack.empty()) return ctx;
  ctx.page = &spec_->screens()[st_.stack.back().page];
  ctx.frame = static_cast<int>(st_.stack.size()) - 1;
  ctx.row = row.list >= 0 ? row : st_.stack.back().row;
  return ctx;
}

void SimApp::Impl::Leave() {
  st_.foreground = false;
  dirty_ = true;
}

void SimApp::Impl::DefaultBack() {
  dirty_ = true;
  if (st_.menu_open)
    st_.menu_open = false;
  else if (st_.has_dialog)
    st_.has_dialog = false;
  else if (st_.stack.size() > 1)
    st_.stack.pop_back();
  else
    Leave();  // the last screen stays, so Launch resumes it
}

bool SimApp::Impl::RunPageEvent(PageEvent event) {
  EvalCtx ctx = TopCtx();
  if (!ctx.page) return false;
  int h = ctx.page->on[static_cast<int>(event)];
  if (h < 0) return false;
  RunHandler(h, ctx);
  return true;
}

void SimApp::Impl::ReceiveBroadcast(const std::string& action) {
  // The screen's activity takes it, a dialog in front or not.
  EvalCtx ctx = ScreenCtx();
  if (!ctx.page) return;
  const auto& taken = ctx.page->broadcasts;
  auto it =
      std::find_if(taken.begin(), taken.end(), [&](const auto& b) { return b.first == action; });
  if (it != taken.end()) RunHandler(it->second, ctx);
}

void SimApp::Impl::PressBack() {
  if (st_.menu_open || !RunPageEvent(PageEvent::kBack)) DefaultBack();
}

void SimApp::Impl::Tick() {
  ++st_.step;
  if (spec_->has_clock() && st_.step % kStepsPerMinute == 0) dirty_ = true;
  const auto& rotates = spec_->rotates();
  for (size_t i = 0; i < rotates.size(); ++i) {
    double u = static_cast<double>(NextRandom() >> 11) / kTwoPow53;
    if (u >= rotates[i].p) continue;
    int next = static_cast<int>(NextRandom() % rotates[i].texts.size());
    if (next != st_.rotate[i]) dirty_ = true;
    st_.rotate[i] = next;
  }
}

void SimApp::Impl::Perform(const gui::Action& action) {
  Render();  // targets_ must describe the screen the action was chosen on
  using gui::ActionKind;
  switch (action.kind) {
    case ActionKind::kRestart:
      Stop();
      Launch();
      break;
    case ActionKind::kIntent:
      if (auto intent = gui::ParseIntentText(action.text); intent.ok()) StartIntent(*intent);
      break;
    case ActionKind::kRotate:
      if (RotationLocked()) break;  // the activity keeps its orientation: nothing happens
      st_.rotation = (st_.rotation + 1) % kRotations;
      dirty_ = true;
      if (st_.foreground && !st_.menu_open) RunPageEvent(PageEvent::kRotate);
      break;
    default:
      if (!st_.foreground) {
        if (action.kind == ActionKind::kClick || action.kind == ActionKind::kLongClick)
          PerformOnWidget(action);  // the launcher icon
        break;
      }
      switch (action.kind) {
        case ActionKind::kBack:
          PressBack();
          break;
        case ActionKind::kMenu:
          if (st_.menu_open) {
            st_.menu_open = false;
            dirty_ = true;
            break;
          }
          if (st_.has_dialog || RunPageEvent(PageEvent::kMenu)) break;
          if (!spec_->screens()[st_.stack.back().page].menu.empty()) {
            st_.menu_open = true;
            dirty_ = true;
          }
          break;
        case ActionKind::kSwipeUp:
        case ActionKind::kSwipeDown:
        case ActionKind::kSwipeLeft:
        case ActionKind::kSwipeRight:
          if (!st_.menu_open && !st_.has_dialog)
            RunPageEvent(static_cast<PageEvent>(static_cast<int>(PageEvent::kSwipeUp) +
                                                static_cast<int>(action.kind) -
                                                static_cast<int>(ActionKind::kSwipeUp)));
          break;
        case ActionKind::kKey: {
          EvalCtx ctx = TopCtx();
          if (!ctx.page) break;
          auto it = std::find_if(ctx.page->keys.begin(), ctx.page->keys.end(),
                                 [&](const auto& k) { return k.first == action.text; });
          if (it != ctx.page->keys.end())
            RunHandler(it->second, ctx);
          else if (action.text == "HOME")
            Leave();
          break;
        }
        case ActionKind::kBroadcast:
          ReceiveBroadcast(action.text);
          break;
        default:
          PerformOnWidget(action);
      }
  }
  Tick();
}

EvalCtx SimApp::Impl::CtxForTarget(const Target& t) const {
  EvalCtx ctx = TopCtx();
  if (t.row.list >= 0) ctx.row = t.row;
  return ctx;
}

void SimApp::Impl::PerformOnWidget(const gui::Action& action) {
  if (!action.target) return;
  const std::string& path = action.target->path;
  int index = action.widget;
  if (index < 0 || index >= static_cast<int>(screen_.widgets.size()) ||
      !PathIs(screen_, index, path))
    index = screen_.FindPath(path);
  // A tap lands at the widget's centre, as on a phone: one off the display (a landscape layout's
  // widget on a portrait screen) or disabled gets nothing.
  if (index < 0 || !gui::CanAct(screen_, index, {.skip_system_ui = false})) return;
  const Target& t = targets_[index];
  using gui::ActionKind;
  switch (t.kind) {
    case Target::Kind::kNone:
      return;
    case Target::Kind::kLauncherIcon:
      if (action.kind == ActionKind::kClick) Launch();
      return;
    case Target::Kind::kOverflow:
      if (action.kind == ActionKind::kClick) {
        st_.menu_open = true;
        dirty_ = true;
      }
      return;
    case Target::Kind::kMenuItem:
      if (action.kind != ActionKind::kClick) return;
      st_.menu_open = false;
      dirty_ = true;
      RunHandler(spec_->screens()[st_.stack.back().page].menu[t.menu].on_click, TopCtx());
      return;
    case Target::Kind::kWidget:
      break;
  }
  const WidgetSpec& w = *t.widget;
  EvalCtx ctx = CtxForTarget(t);
  WidgetEvent event = WidgetEvent::kCount;
  switch (action.kind) {
    case ActionKind::kClick:
      event = WidgetEvent::kClick;
      if (w.checkable) {
        const Ref& r = w.checked.ref;
        if (r.kind == RefKind::kVar) {
          Val& v = st_.vars[r.a];
          v = ConvertTo(Val::Bool(!Truthy(v)), v.type);
        } else if (r.kind == RefKind::kRowField && ctx.row.index >= 0 &&
                   ctx.row.index < static_cast<int>(st_.lists[ctx.row.list].size())) {
          Val& v = st_.lists[ctx.row.list][ctx.row.index][r.a];
          v = Val::Bool(!Truthy(v));
        }
        dirty_ = true;
      }
      break;
    case ActionKind::kLongClick:
      event = WidgetEvent::kLongClick;
      break;
    case ActionKind::kInputText:
      if (!w.editable) return;
      if (Frame* f = FrameOf(ctx)) {
        f->fields[w.field] = action.text;
        dirty_ = true;
      }
      event = WidgetEvent::kInputText;
      break;
    case ActionKind::kScrollUp:
    case ActionKind::kScrollDown: {
      bool down = action.kind == ActionKind::kScrollDown;
      event = down ? WidgetEvent::kScrollDown : WidgetEvent::kScrollUp;
      Frame* f = FrameOf(ctx);
      if (w.list < 0 || !f) break;
      int& offset = f->scroll[w.scroll];
      int n = static_cast<int>(st_.lists[w.list].size());
      int page = std::max(1, w.visible_rows - 1);
      int last = std::max(0, n - w.visible_rows);
      int next = std::clamp(offset + (down ? page : -page), 0, last);
      if (next != offset) dirty_ = true;
      offset = next;
      break;
    }
    case ActionKind::kScrollLeft:
      event = WidgetEvent::kScrollLeft;
      break;
    case ActionKind::kScrollRight:
      event = WidgetEvent::kScrollRight;
      break;
    default:
      return;
  }
  RunHandler(w.on[static_cast<int>(event)], ctx);
}

// ---- SimApp: forwards to Impl.

SimApp::SimApp(std::shared_ptr<const AppSpec> spec, SimOptions options)
    : impl_(std::make_unique<Impl>(std::move(spec), std::move(options))) {}
SimApp::~SimApp() = default;
const AppSpec& SimApp::spec() const { return *impl_->spec_; }
const std::string& SimApp::package() const { return impl_->spec_->package(); }
void SimApp::Launch() { impl_->Launch(); }
void SimApp::Stop() { impl_->Stop(); }
void SimApp::ClearData() { impl_->ClearData(); }
bool SimApp::running() const { return impl_->st_.running; }
bool SimApp::RotationLocked() const { return impl_->RotationLocked(); }
int SimApp::TopScreen() const { return impl_->TopScreen(); }
int SimApp::SettleMs() const {
  const int top = impl_->TopScreen();
  return top < 0 ? 0 : spec().screens()[top].settle_ms;
}
const gui::Screen& SimApp::screen() { return impl_->Render(); }

bool SimApp::ScreenBeneath(gui::Screen& out, bool& dimmed) {
  return impl_->ScreenBeneath(out, dimmed);
}
void SimApp::Perform(const gui::Action& action) { impl_->Perform(action); }
IntentOutcome SimApp::StartIntent(const gui::Intent& intent) {
  const IntentOutcome outcome = impl_->StartIntent(intent);
  impl_->Tick();
  return outcome;
}

std::vector<Fault> SimApp::DrainFaults() {
  std::vector<Fault> out;
  out.swap(impl_->faults_);
  return out;
}

std::unique_ptr<SimState> SimApp::Save() const { return std::make_unique<SimState>(impl_->st_); }
uint64_t SimApp::LogicHash() const { return sim::LogicHash(impl_->st_); }
void SimApp::Load(const SimState& state, bool keep_clock) {
  const uint64_t step = impl_->st_.step, rng = impl_->st_.rng;
  impl_->st_ = state;
  if (keep_clock) impl_->st_.step = step, impl_->st_.rng = rng;
  impl_->dirty_ = true;
}

size_t SimApp::units_total() const { return impl_->spec_->units().size(); }
size_t SimApp::units_covered() const { return impl_->covered_count_; }

const std::vector<uint8_t>& SimApp::CoverageMask() const { return impl_->covered_; }
const std::vector<uint32_t>& SimApp::UnitHits() const { return impl_->hits_; }

void SimApp::SetCoverageMask(const std::vector<uint8_t>& mask) {
  if (mask.size() != impl_->covered_.size()) return;
  impl_->covered_ = mask;
  impl_->covered_count_ = static_cast<size_t>(std::count(mask.begin(), mask.end(), uint8_t{1}));
}

std::vector<std::string> SimApp::CoveredUnits() const {
  std::vector<std::string> out;
  const auto& units = impl_->spec_->units();
  for (size_t i = 0; i < units.size(); ++i)
    if (impl_->covered_[i]) out.push_back(units[i]);
  return out;
}

std::vector<std::string> SimApp::Broadcasts() const {
  std::vector<std::string> out;
  for (const PageSpec& p : impl_->spec_->screens())
    for (const auto& b : p.broadcasts) out.push_back(b.first);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> SimApp::Activities() const {
  std::vector<std::string> out;
  for (const PageSpec& p : impl_->spec_->screens())
    if (std::find(out.begin(), out.end(), p.activity) == out.end()) out.push_back(p.activity);
  return out;
}

namespace {

void HashVal(gui::StableHash& h, const Val& v) {
  h.Add(static_cast<uint64_t>(v.type)).Add(static_cast<uint64_t>(v.i)).Add(v.s);
}

void HashFrame(gui::StableHash& h, const Frame& f) {
  h.Add(static_cast<uint64_t>(f.page))
      .Add(static_cast<uint64_t>(f.row.list))
      .Add(static_cast<uint64_t>(f.row.index))
      .Add(f.fields.size());
  for (const auto& field : f.fields) h.Add(field);
  h.Add(f.scroll.size());
  for (int s : f.scroll) h.Add(static_cast<uint64_t>(s));
  if (f.extras.empty()) return;  // so a state without intents hashes as it always did
  h.Add(f.extras.size());
  for (const auto& v : f.extras) HashVal(h, v);
}

}  // namespace

uint64_t LogicHash(const SimState& state) {
  gui::StableHash h;
  h.Add(state.stack.size());
  for (const auto& f : state.stack) HashFrame(h, f);
  h.Add(static_cast<uint64_t>(state.has_dialog));
  if (state.has_dialog) HashFrame(h, state.dialog);
  h.Add(static_cast<uint64_t>(state.menu_open | state.running << 1 | state.foreground << 2));
  h.Add(state.vars.size());
  for (const auto& v : state.vars) HashVal(h, v);
  h.Add(state.lists.size());
  for (const auto& list : state.lists) {
    h.Add(list.size());
    for (const auto& item : list) {
      h.Add(item.size());
      for (const auto& v : item) HashVal(h, v);
    }
  }
  h.Add(static_cast<uint64_t>(state.rotation));
  return h.value();
}

}  // namespace roam::sim
