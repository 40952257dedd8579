// Abstraction: the screen key (which observed screens count as one state) and the Fastbot2
// hyper-event (which actions count as one event). Keys are stable 64-bit hashes: the same on
// every run, process and machine, so saved models stay valid. Plain functions: thread-safe.
//
// ScreenKey INCLUDES: the "screen-key-v1" tag, the screen's package and activity; for every
//   widget outside the system UI windows (package com.android.systemui), as a tree hash: class,
//   resource-id, depth, the flags clickable, long-clickable, checkable, checked, scrollable,
//   editable, enabled; and for actionable widgets (clickable, long-clickable or checkable)
//   that have no resource-id and are not edit fields, their text and content-desc with digit
//   runs masked ("12:03" -> "#:#") and cut to 64 bytes, so a dialog's OK/Cancel pair differs
//   from Delete/Cancel. Repeated rows are folded: among the children of one parent (and among
//   the windows), a child whose subtree hash equals an earlier sibling's is skipped, so a list
//   of 3 rows and one of 30 like rows give the same key.
// ScreenKey IGNORES: bounds, the `index` attribute, focused, selected, password, NAF, hint,
//   the text and content-desc of non-actionable widgets (clocks, counters, labels) and of edit
//   fields (typed text), the system UI windows (status and navigation bars), and how many
//   times a like row repeats.
//
// HyperEvent (Fastbot2): activity + resource-id + static text + action kind. text is the
//   widget's text (its content-desc when the text is empty) with digit runs masked, cut to 64
//   bytes, and empty for edit fields. Global actions have empty resource_id; their text is
//   empty too, except those whose text names them (TextNamesAction: a key's name, a broadcast's
//   intent action, an intent), so VOLUME_UP and VOLUME_MUTE differ.
//   The kind enters the hash by name, so reordering ActionKind does not change hashes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gui/action.h"
#include "gui/screen.h"

namespace roam::gui {

// A stable 64-bit hash in the FNV-1a manner, but 8 bytes a step: each little-endian 64-bit
// word is xor-ed in, then mixed with MurmurHash3's fmix64 (a bijection, so nothing is lost).
// Every string is followed by its length, so ("ab","c") and ("a","bc") differ.
// Platform-independent; an exact value is pinned by a test.
class StableHash {
 public:
  StableHash& Add(std::string_view s);
  StableHash& Add(uint64_t v);
  // `text` with each run of ASCII digits replaced by '#', at most `limit` bytes of it.
  StableHash& AddMasked(std::string_view text, size_t limit);
  uint64_t value() const;

 private:
  void Mix(uint64_t word);
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

// Each run of ASCII digits replaced by one '#': "12:03" -> "#:#", "v2.10" -> "v#.#".
std::string MaskDigits(std::string_view text);
// 16 lowercase hex digits, for logs and file names.
std::string KeyHex(uint64_t key);

// The state key of a screen (see above). The screen must be linked (Screen::Link or
// ParseDump); allocates one scratch vector of widgets.size().
uint64_t ScreenKey(const Screen& screen);

// A hash of what a screen shows (package, activity, every widget's id, text, description and
// checked / enabled / clickable state; list rows past the first two left out, so an endless
// feed is not endless states): finer than the screen key, for telling exact returns apart (the
// oracle's planning, loops in a bug's trace).
uint64_t ContentHash(const Screen& screen);

struct HyperEvent {
  std::string activity;
  std::string resource_id;
  std::string text;  // static text, digits masked; "" for edit fields and most global actions
  ActionKind kind = ActionKind::kBack;

  uint64_t Hash() const;
  bool operator==(const HyperEvent&) const = default;
};

// The hyper-event of `action` taken on `screen`. The target is action.widget when it is in
// range and its bounds match the action's target, else the widget at the target's path.
HyperEvent MakeHyperEvent(const Screen& screen, const Action& action);

}  // namespace roam::gui
