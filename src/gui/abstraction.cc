#include "gui/abstraction.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace roam::gui {
namespace {

constexpr std::string_view kSystemUi = "com.android.systemui";
constexpr size_t kTextLimit = 64;  // bytes of masked text that enter a key

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

uint64_t LoadLittleEndian(const char* p, size_t n) {
  uint64_t w = 0;
  for (size_t i = 0; i < n; ++i) w |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return w;
}

// Actionable in the sense of the key: a tap or check lands on it.
bool KeyKeepsText(const Widget& w) {
  return (w.clickable || w.long_clickable || w.checkable) && w.resource_id.empty() && !w.editable;
}

uint64_t NodeHash(const Widget& w) {
  StableHash h;
  h.Add(w.cls).Add(w.resource_id).Add(static_cast<uint64_t>(w.depth));
  uint64_t flags = (w.clickable ? 1 : 0) | (w.long_clickable ? 2 : 0) | (w.checkable ? 4 : 0) |
                   (w.checked ? 8 : 0) | (w.scrollable ? 16 : 0) | (w.editable ? 32 : 0) |
                   (w.enabled ? 64 : 0);
  h.Add(flags);
  if (KeyKeepsText(w)) h.AddMasked(w.text, kTextLimit).AddMasked(w.content_desc, kTextLimit);
  return h.value();
}

// Adds the hashes of the children of `parent` (-1: the windows), each distinct one once.
void AddDistinctChildren(const Screen& s, int parent, const std::vector<uint64_t>& hashes,
                         std::vector<uint64_t>& seen, StableHash& into) {
  const std::vector<Widget>& ws = s.widgets;
  int end = parent < 0 ? static_cast<int>(ws.size()) : ws[parent].subtree_end;
  seen.clear();
  for (int c = parent + 1; c < end; c = std::max(ws[c].subtree_end, c + 1)) {
    if (parent < 0 && ws[c].package == kSystemUi) continue;
    uint64_t h = hashes[c];
    if (std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
    seen.push_back(h);
    into.Add(h);
  }
}

}  // namespace

void StableHash::Mix(uint64_t word) {
  // One multiply a word on the way; the full avalanche runs once, in value().
  h_ = ((h_ ^ word) << 29 | (h_ ^ word) >> 35) * 0x9e3779b97f4a7c15ULL;
}

StableHash& StableHash::Add(std::string_view s) {
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) Mix(LoadLittleEndian(s.data() + i, 8));
  if (i < s.size()) Mix(LoadLittleEndian(s.data() + i, s.size() - i));
  Mix(s.size());
  return *this;
}

StableHash& StableHash::Add(uint64_t v) {
  Mix(v);
  return *this;
}

StableHash& StableHash::AddMasked(std::string_view text, size_t limit) {
  char buf[8];
  size_t n = 0, total = 0;
  for (size_t i = 0; i < text.size() && total < limit; ++i) {
    char c = text[i];
    if (IsDigit(c)) {
      if (i > 0 && IsDigit(text[i - 1])) continue;
      c = '#';
    }
    buf[n++] = c;
    ++total;
    if (n == 8) {
      Mix(LoadLittleEndian(buf, 8));
      n = 0;
    }
  }
  if (n) Mix(LoadLittleEndian(buf, n));
  Mix(total);
  return *this;
}

uint64_t StableHash::value() const {
  uint64_t k = h_;  // MurmurHash3 fmix64
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

std::string MaskDigits(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (!IsDigit(text[i])) {
      out += text[i];
    } else if (i == 0 || !IsDigit(text[i - 1])) {
      out += '#';
    }
  }
  return out;
}

std::string KeyHex(uint64_t key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(key));
  return buf;
}

uint64_t ScreenKey(const Screen& screen) {
  const std::vector<Widget>& ws = screen.widgets;
  const int n = static_cast<int>(ws.size());
  std::vector<uint64_t> hashes(n);
  std::vector<uint64_t> seen;
  // Children follow their parent in pre-order, so a reverse walk sees every child first.
  for (int i = n - 1; i >= 0; --i) {
    StableHash h;
    h.Add(NodeHash(ws[i]));
    AddDistinctChildren(screen, i, hashes, seen, h);
    hashes[i] = h.value();
  }
  StableHash key;
  key.Add("screen-key-v1").Add(screen.package).Add(screen.activity);
  AddDistinctChildren(screen, -1, hashes, seen, key);
  return key.value();
}

uint64_t HyperEvent::Hash() const {
  return StableHash()
      .Add("hyper-event-v1")
      .Add(activity)
      .Add(resource_id)
      .Add(text)
      .Add(ActionKindName(kind))
      .value();
}

HyperEvent MakeHyperEvent(const Screen& screen, const Action& action) {
  HyperEvent e;
  e.activity = screen.activity;
  e.kind = action.kind;
  if (!IsWidgetAction(action.kind) || !action.target) {
    if (TextNamesAction(action.kind)) e.text = action.text;
    return e;
  }
  const int n = static_cast<int>(screen.widgets.size());
  int i = action.widget;
  if (i < 0 || i >= n || screen.widgets[i].bounds != action.target->bounds)
    i = screen.FindPath(action.target->path);
  if (i < 0) return e;
  const Widget& w = screen.widgets[i];
  e.resource_id = w.resource_id;
  if (!w.editable) {
    e.text = MaskDigits(w.text.empty() ? w.content_desc : w.text);
    if (e.text.size() > kTextLimit) {
      size_t cut = kTextLimit;  // not inside a UTF-8 sequence
      while (cut > 0 && (static_cast<unsigned char>(e.text[cut]) & 0xC0) == 0x80) --cut;
      e.text.resize(cut);
    }
  }
  return e;
}

namespace {
constexpr int kListRowsHashed = 2;  // list rows that tell content apart
}  // namespace

uint64_t ContentHash(const Screen& s) {
  StableHash h;
  h.Add(s.package).Add(s.activity);
  const int n = static_cast<int>(s.widgets.size());
  for (int i = 0; i < n;) {
    const Widget& w = s.widgets[i];
    // Rows of a list past the first few: an endless feed must not be endless states.
    if (w.parent >= 0 && s.widgets[w.parent].scrollable && w.child_index >= kListRowsHashed) {
      i = std::max(w.subtree_end, i + 1);
      continue;
    }
    h.Add(w.resource_id).Add(w.text).Add(w.content_desc);
    h.Add(static_cast<uint64_t>(w.checked | w.enabled << 1 | w.clickable << 2));
    ++i;
  }
  return h.value();
}

}  // namespace roam::gui
