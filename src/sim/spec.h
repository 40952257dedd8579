// AppSpec: the checked, immutable, pre-compiled form of an app spec (docs/app-spec.md). Ids are
// resolved to indices, templates split into pieces, conditions and effects compiled into small
// structs, so the interpreter never looks up a name or touches JSON. Immutable once built by
// CompileSpec (spec_compile.cc); safe to share between threads.
#pragma once

#include <array>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "gui/intent.h"
#include "gui/widget.h"
#include "sim/sim_app.h"
#include "sim/value.h"

namespace roam::sim {

// A reference to runtime data: `$var.X`, `$len.L`, `$row`, `$row.F`, `$input.W`, `$extra.K`.
enum class RefKind : uint8_t { kNone, kVar, kLen, kRow, kRowField, kInput, kInputByName, kExtra };
struct Ref {
  RefKind kind = RefKind::kNone;
  int a = -1;  // var / list / field slot of the page / global input name / global field name
};

// A text with `{var.x}`-style holes: literal pieces interleaved with references.
struct Template {
  struct Piece {
    std::string text;  // emitted before `ref`
    Ref ref;           // kNone for a trailing literal
  };
  std::vector<Piece> pieces;
  bool constant() const {
    return pieces.size() <= 1 && (pieces.empty() || pieces[0].ref.kind == RefKind::kNone);
  }
};

// A value: a literal, one reference, or a string template.
struct ValueExpr {
  enum class Kind : uint8_t { kLiteral, kRef, kTemplate };
  Kind kind = Kind::kLiteral;
  Val literal;
  Ref ref;
  Template tmpl;
};

enum class CondOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kNot, kAll, kAny, kValid, kTruthy };
struct Cond {
  CondOp op = CondOp::kTruthy;
  ValueExpr a, b;
  std::vector<Cond> kids;  // not, all, any
  Ref field;               // valid: kInput or kInputByName
};

enum class Verb : uint8_t {
  kNavigate,
  kBack,
  kFinish,
  kSet,
  kInc,
  kToggle,
  kAddItem,
  kRemoveItem,
  kUpdateItem,
  kClearList,
  kDialog,
  kDismiss,
  kCrash,
  kHang,
  kCover,
  kStop,
  kSetInput,
  kLeave
};
struct Effect {
  Verb verb = Verb::kStop;
  int cond = -1;  // index into AppSpec::conds(), -1: always
  int bug = -1;   // with `bug` (runs while on) or `fix` (runs while off)
  bool fix = false;
  int target = -1;  // screen, dialog, var or list index
  Ref input;        // set_input
  ValueExpr value;  // set.to, inc.by, remove/update_item.at, set_input.to
  std::vector<std::pair<int, ValueExpr>> fields;  // add_item.item / update_item.set (field names)
  std::string exception;
  Template message;
  std::vector<std::string> frames;
  std::vector<int> units;  // cover
};

struct Handler {
  std::vector<Effect> effects;
  int unit = -1;              // its coverage unit
  std::string default_frame;  // stack frame of a crash or hang that names none
};

enum class WidgetEvent : uint8_t {
  kClick,
  kLongClick,
  kInputText,
  kScrollUp,
  kScrollDown,
  kScrollLeft,
  kScrollRight,
  kCount
};
constexpr int kWidgetEventCount = static_cast<int>(WidgetEvent::kCount);
enum class PageEvent : uint8_t {
  kBack,
  kEnter,
  kRotate,
  kMenu,
  kSwipeUp,
  kSwipeDown,
  kSwipeLeft,
  kSwipeRight,
  kCount
};
constexpr int kPageEventCount = static_cast<int>(PageEvent::kCount);

template <size_t N>
constexpr std::array<int, N> NoHandlers() {
  std::array<int, N> a{};
  for (int& x : a) x = -1;
  return a;
}

enum class DynamicKind : uint8_t { kNone, kClock, kRotate };

struct WidgetSpec {
  std::string id;
  std::string cls;
  std::string resource_id;
  Template text, desc, hint;
  std::array<int, kWidgetEventCount> on = NoHandlers<kWidgetEventCount>();  // -1: none
  int field = -1;  // edit field: slot in the page's fields
  bool checkable = false;
  ValueExpr checked;  // a kRef to a var or a row field
  int enabled_if = -1, visible_if = -1;
  DynamicKind dynamic = DynamicKind::kNone;
  int rotate = -1;  // index into AppSpec::rotates()
  std::vector<WidgetSpec> children;
  int list = -1;
  std::vector<WidgetSpec> row;
  int visible_rows = 0;
  int scroll = -1;  // slot in the page's list scroll offsets
  bool has_bounds = false;
  gui::Rect bounds;
  bool clickable = false, long_clickable = false, scrollable = false, editable = false;
};

struct FieldSpec {
  std::string name;
  int min = 0;
  int max = -1;  // -1: no limit
  bool has_pattern = false;
  std::regex pattern;
};

struct MenuItemSpec {
  std::string id;
  Template text;
  int on_click = -1;
};

// What a screen does when an intent starts it with an extra it reads missing or of another type
// (docs/app-spec.md, "Intents"): go on as if nothing were wrong (`$extra.K` reads the type's
// empty value: "", 0, false), show its default (`$extra.K` reads the declared value), or crash
// (a handler of one crash effect, maybe tied to a planted bug: switched off, it is kDefault).
enum class ExtraBehaviour : uint8_t { kFine, kDefault, kCrash };

struct ExtraSpec {
  std::string key;
  gui::ExtraType type = gui::ExtraType::kString;
  Val value;  // the declared value: what the app's own GUI starts the screen with
  ExtraBehaviour missing = ExtraBehaviour::kFine, wrong_type = ExtraBehaviour::kFine;
  int missing_crash = -1, wrong_type_crash = -1;  // handler index (kCrash), else -1
};

// A screen or a dialog.
inline constexpr int kMaxSettleMs = 10000;  // PageSpec::settle_ms at most: uiautomator's idle wait

struct PageSpec {
  std::string id;
  bool dialog = false;
  std::string activity;  // fully qualified (screens)
  Template title, message;
  std::vector<WidgetSpec> widgets;
  std::vector<MenuItemSpec> menu;
  std::array<int, kPageEventCount> on = NoHandlers<kPageEventCount>();
  std::vector<std::pair<std::string, int>> keys;  // "key:NAME" handlers
  // "broadcast:ACTION" handlers (screens): a receiver the screen's activity registers while
  // it is in front.
  std::vector<std::pair<std::string, int>> broadcasts;
  std::vector<FieldSpec> fields;   // edit fields, by slot
  std::vector<int> field_by_name;  // global input name -> slot or -1
  int scroll_slots = 0;
  int create_unit = -1;
  // "orientation": "portrait": the activity is locked to portrait (android:screenOrientation):
  // a rotation does nothing while the screen is in front. Screens only.
  bool portrait_locked = false;
  // "settle_ms": after the screen comes to the front it is still loading for this long (an
  // animation): `roam sim serve` shows its views sliding in from the right until then (a dump
  // waits for it, as uiautomator's waits for idle). The simulator itself has no time: 0 to
  // kMaxSettleMs. Screens only.
  int settle_ms = 0;
  // The screen declares its own app bar (a widget whose class is a Toolbar or ActionBar, or
  // whose resource-id is `:id/toolbar`, `:id/action_bar` or `:id/app_bar`): the simulator adds no
  // toolbar of its own.
  bool own_bar = false;
  // Screens only, as the manifest declares the screen's activity (one screen of an activity says):
  // "exported", "intent_filters" and the "extras" the screen reads (`$extra.KEY`).
  bool exported = false;
  std::vector<gui::IntentFilter> filters;
  std::vector<ExtraSpec> extras;
  int intent_unit = -1;  // "<id>:intent", covered when an intent starts it (exported screens)
};

struct RotateSpec {
  std::vector<std::string> texts;
  double p = 0;
};

struct BugSpec {
  std::string id, kind, summary, correct;
  // Which of Roam's checks can see the bug in principle (the spec's "seen_by", formerly
  // "oracle"; by default from the kind): "crash" (crash, anr: crashes and ANRs in the log),
  // "gui_effect" (data_loss, function_stops, wrong_behaviour: Genie's independent-view check of
  // `roam fuzz`, when an event sequence independent of the bug's events can change what they do)
  // or "other" (the rest, and any bug that no independent sequence exposes: a person, a
  // property, or `roam vision`'s model reading the screen).
  std::string seen_by;
};

// What sees a bug kind's bugs when the spec does not say (see BugSpec::seen_by).
std::string DefaultSeenBy(const std::string& kind);

struct ListSpec {
  std::string name;
  std::vector<std::vector<Val>> items;  // each item: one Val per global field name
};

class AppSpec {
 public:
  const std::string& app() const { return app_; }
  const std::string& package() const { return package_; }
  const std::string& label() const { return label_; }
  const std::string& source() const { return source_; }
  int width() const { return width_; }
  int height() const { return height_; }
  int start() const { return start_; }
  const std::vector<std::string>& var_names() const { return var_names_; }
  const std::vector<Val>& var_init() const { return var_init_; }
  const std::vector<ListSpec>& lists() const { return lists_; }
  const std::vector<std::string>& field_names() const { return field_names_; }
  const std::vector<bool>& var_persist() const { return var_persist_; }
  const std::vector<bool>& list_persist() const { return list_persist_; }
  const std::vector<BugSpec>& bugs() const { return bugs_; }
  const std::vector<PageSpec>& screens() const { return screens_; }
  const std::vector<PageSpec>& dialogs() const { return dialogs_; }
  const std::vector<Handler>& handlers() const { return handlers_; }
  const std::vector<Cond>& conds() const { return conds_; }
  const std::vector<std::string>& units() const { return units_; }
  const std::vector<RotateSpec>& rotates() const { return rotates_; }
  bool has_clock() const { return has_clock_; }
  int FindBug(const std::string& id) const;

 private:
  friend class SpecCompiler;
  friend std::unique_ptr<AppSpec> CompileSpec(const nlohmann::json&, std::vector<SpecError>&,
                                              const std::string&);
  std::string app_, package_, label_, source_;
  int width_ = 0, height_ = 0, start_ = 0;
  std::vector<std::string> var_names_;
  std::vector<Val> var_init_;
  std::vector<ListSpec> lists_;
  std::vector<std::string> field_names_;
  std::vector<bool> var_persist_, list_persist_;
  std::vector<BugSpec> bugs_;
  std::vector<PageSpec> screens_, dialogs_;
  std::vector<Handler> handlers_;
  std::vector<Cond> conds_;
  std::vector<std::string> units_;
  std::vector<RotateSpec> rotates_;
  bool has_clock_ = false;
};

// Checks and compiles `doc`; `errors` receives every problem (the spec is unusable if any).
std::unique_ptr<AppSpec> CompileSpec(const nlohmann::json& doc, std::vector<SpecError>& errors,
                                     const std::string& source_name = "");

}  // namespace roam::sim
