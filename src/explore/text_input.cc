#include "explore/text_input.h"

#include "explore/random.h"

namespace roam::explore {

const char* TextSourceName(TextSource source) {
  switch (source) {
    case TextSource::kUser:
      return "user";
    case TextSource::kSeen:
      return "seen";
    case TextSource::kAwkward:
      return "awkward";
    case TextSource::kPlain:
      return "plain";
  }
  return "?";
}

const std::vector<std::string>& AwkwardStrings() {
  static const std::vector<std::string> kStrings = {
      "",                                                                  // empty
      std::string(5000, 'a'),                                              // very long
      "   ",                                                               // whitespace only
      "\t\n",                                                              // control whitespace
      "\xF0\x9F\x98\x80\xF0\x9F\x8E\x89\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",  // emoji, a skin tone
      "\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7 "
      "\xD8\xA8\xD8\xA7\xD9\x84\xD8\xB9\xD8\xA7\xD9\x84\xD9\x85",           // Arabic
      "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xD7\xA2\xD7\x95\xD7\x9C\xD7\x9D",  // Hebrew
      "\xE2\x80\xAE"
      "abc",           // right-to-left override
      "\xE2\x80\x8B",  // zero-width space
      "' OR 1=1 --",   // SQL
      "'; DROP TABLE users; --",
      "\" OR \"\"=\"",
      "%s%n%x%d",  // format strings
      "{0}{1}%@",
      "2147483648",           // INT_MAX + 1
      "-2147483649",          // INT_MIN - 1
      "9223372036854775808",  // INT64_MAX + 1
      "-1",
      "0",
      "1e309",
      "NaN",
      "null",
      "<script>alert(1)</script>",
      "../../../../etc/passwd",
      "\\",
      "\"",
      "\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x93",  // full-width digits
  };
  return kStrings;
}

TextInput::TextInput(TextMix mix, std::vector<std::string> user_strings)
    : mix_(mix), user_(std::move(user_strings)) {}

void TextInput::Remember(const std::string& text) {
  if (text.empty() || text.size() > mix_.max_seen_length || mix_.max_seen == 0) return;
  if (seen_set_.count(text)) return;
  if (seen_.size() < mix_.max_seen) {
    seen_.push_back(text);
  } else {
    seen_set_.erase(seen_[seen_next_]);
    seen_[seen_next_] = text;
    seen_next_ = (seen_next_ + 1) % seen_.size();
  }
  seen_set_.insert(text);
}

void TextInput::Observe(const gui::Screen& screen, uint64_t state) {
  if (mix_.pct_seen <= 0 || !states_.insert(state).second) return;
  for (const auto& w : screen.widgets) {
    // Not typed text, and not the system's (the status bar's clock and icons).
    if (w.editable || (!w.package.empty() && w.package != screen.package)) continue;
    Remember(w.text);
    Remember(w.content_desc);
  }
}

std::string TextInput::Draw(Rng& rng, TextSource& source) {
  const std::vector<std::string>* lists[kTextSourceCount] = {&user_, &seen_, &AwkwardStrings(),
                                                             &DefaultInputStrings()};
  const double pct[kTextSourceCount] = {mix_.pct_user, mix_.pct_seen, mix_.pct_awkward,
                                        mix_.pct_plain};
  std::vector<double>& weights = weights_;
  weights.assign(kTextSourceCount, 0.0);
  double total = 0;
  for (int i = 0; i < kTextSourceCount; ++i) {
    weights[i] = lists[i]->empty() ? 0 : pct[i];
    total += weights[i];
  }
  int pick = static_cast<int>(TextSource::kPlain);  // every weight zero: the plain list
  if (total > 0) pick = static_cast<int>(rng.Weighted(weights));
  source = static_cast<TextSource>(pick);
  ++drawn_[pick];
  const auto& list = *lists[pick];
  return list[rng.Below(list.size())];
}

}  // namespace roam::explore
