// Texts for edit fields, for the harness (explore/harness.h): drawn from four sources by
// settable weights: the user's strings (--strings FILE), texts seen earlier in the app (labels
// and content-descs of widgets that are not edit fields, a bounded set), a built-in list of
// awkward strings, and the random strategy's plain list (DefaultInputStrings). A source that
// has nothing to offer yet (no file, nothing seen) is left out and the rest renormalised.
// Not thread-safe: one per run.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/rng.h"
#include "gui/screen.h"

namespace roam::explore {

// Weights of the sources; they need not sum to 100.
struct TextMix {
  double pct_user = 25;     // the user's --strings file (left out when there is none)
  double pct_seen = 25;     // texts seen on earlier screens of the app
  double pct_awkward = 25;  // AwkwardStrings(): empty, very long, emoji, RTL, SQL, format strings
  double pct_plain = 25;    // DefaultInputStrings(): words, numbers, an address
  size_t max_seen = 1000;   // texts seen kept at most (the oldest are replaced)
  size_t max_seen_length = 200;  // longer labels are not kept
};

enum class TextSource { kUser, kSeen, kAwkward, kPlain };
constexpr int kTextSourceCount = 4;
const char* TextSourceName(TextSource source);  // "user", "seen", "awkward", "plain"

// Strings that break careless input handling: empty, 5,000 characters, emoji, Arabic and
// Hebrew (right to left), SQL and format-string fragments, whitespace only, numbers at and
// beyond the 32- and 64-bit limits, negative and non-numbers, markup, paths, control characters.
const std::vector<std::string>& AwkwardStrings();

class TextInput {
 public:
  TextInput(TextMix mix, std::vector<std::string> user_strings);

  // Collects the texts of `screen`'s non-editable widgets of the app's own package. Cheap to
  // call every step: a screen whose state key was seen before is skipped.
  void Observe(const gui::Screen& screen, uint64_t state);
  // A text drawn by the mix; `source` says where it came from.
  std::string Draw(Rng& rng, TextSource& source);

  const std::vector<std::string>& seen() const { return seen_; }
  // How many texts each source gave, indexed by TextSource.
  const std::array<int64_t, kTextSourceCount>& drawn() const { return drawn_; }

 private:
  void Remember(const std::string& text);

  TextMix mix_;
  std::vector<std::string> user_;
  std::vector<std::string> seen_;  // ring of at most mix_.max_seen
  size_t seen_next_ = 0;           // the slot replaced next once full
  std::unordered_set<std::string> seen_set_;
  std::unordered_set<uint64_t> states_;  // screens already collected
  std::array<int64_t, kTextSourceCount> drawn_{};
  std::vector<double> weights_;  // scratch
};

}  // namespace roam::explore
