// The fast reader of uiautomator dumps (see uiautomator_internal.h): one pass over the bytes
// of the well-formed subset that devices write, no DOM, attribute values assigned straight
// into Widget fields. Anything outside the subset returns false and pugixml takes over.
#include <array>
#include <charconv>
#include <cstring>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "gui/uiautomator.h"
#include "gui/uiautomator_internal.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace roam::gui::internal {
namespace {

enum : unsigned char { kName = 1, kSpace = 2 };

constexpr std::array<unsigned char, 256> MakeClasses() {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || c == '_' || c == ':' || c == '-' || c == '.') t[c] |= kName;
  }
  for (int c : {' ', '\t', '\n', '\r'}) t[c] |= kSpace;
  return t;
}
constexpr std::array<unsigned char, 256> kClasses = MakeClasses();

bool Is(char c, unsigned char cls) { return kClasses[static_cast<unsigned char>(c)] & cls; }

// The first byte in [p, end) that is `quote`, '&', '<' or a control character (16 at a time
// where SSE2 is available), or end.
const char* FindValueStop(const char* p, const char* end, char quote) {
#ifdef __SSE2__
  const __m128i q = _mm_set1_epi8(quote), amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<');
  const __m128i high3 = _mm_set1_epi8(static_cast<char>(0xE0)), zero = _mm_setzero_si128();
  for (; end - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, amp)),
        _mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(_mm_and_si128(v, high3), zero)));
    if (int mask = _mm_movemask_epi8(hit)) return p + __builtin_ctz(mask);
  }
#endif
  for (; p < end; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == static_cast<unsigned char>(quote) || c == '&' || c == '<' || c < 0x20) break;
  }
  return p;
}

// Decodes the five named entities and numeric references; false for anything else.
bool Unescape(std::string_view in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '&') {
      out += in[i];
      continue;
    }
    size_t semi = in.find(';', i);
    if (semi == std::string_view::npos) return false;
    std::string_view ent = in.substr(i + 1, semi - i - 1);
    i = semi;
    if (ent == "amp")
      out += '&';
    else if (ent == "lt")
      out += '<';
    else if (ent == "gt")
      out += '>';
    else if (ent == "quot")
      out += '"';
    else if (ent == "apos")
      out += '\'';
    else if (ent.size() >= 2 && ent[0] == '#') {
      bool hex = ent[1] == 'x';
      std::string_view digits = ent.substr(hex ? 2 : 1);
      unsigned cp = 0;
      auto [p, ec] =
          std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return false;
      if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
      AppendUtf8(out, cp);
    } else {
      return false;
    }
  }
  return true;
}

class Scanner {
 public:
  explicit Scanner(std::string_view xml) : p_(xml.data()), end_(xml.data() + xml.size()) {}

  bool Run(Screen& screen) {
    std::vector<Widget>& ws = screen.widgets;
    size_t count = 0;
    int rotation = 0, display_width = 0, display_height = 0;
    if (!SkipProlog() || !Expect('<')) return false;
    std::string_view root;
    if (!ReadName(root) || root != "hierarchy") return false;
    bool closed = false;
    bool ok = ReadAttributes(closed, [&](std::string_view n, std::string_view v) {
      int* into = n == "rotation" ? &rotation
                  : n == "width"  ? &display_width
                  : n == "height" ? &display_height
                                  : nullptr;
      if (!into) return true;
      auto [q, ec] = std::from_chars(v.data(), v.data() + v.size(), *into);
      return ec == std::errc() && q == v.data() + v.size();
    });
    if (!ok) return false;
    struct Open {
      std::string_view name;
      int parent;  // the parent of <node>s before this element opened
    };
    std::vector<Open> open;
    int parent = -1;
    while (!closed) {
      const char* lt = static_cast<const char*>(std::memchr(p_, '<', end_ - p_));
      if (!lt || lt + 1 >= end_) return false;  // unclosed
      p_ = lt + 1;
      if (*p_ == '/') {
        ++p_;
        std::string_view name;
        if (!ReadName(name)) return false;
        SkipSpace();
        if (!Expect('>')) return false;
        if (open.empty()) {
          if (name != "hierarchy") return false;
          closed = true;
        } else {
          if (name != open.back().name) return false;
          parent = open.back().parent;
          open.pop_back();
        }
      } else if (*p_ == '!') {
        if (!SkipPast("!--", "-->")) return false;
      } else if (*p_ == '?') {
        if (!SkipPast("?", "?>")) return false;
      } else {
        std::string_view name;
        if (!ReadName(name)) return false;
        bool leaf = false;
        // A <node>, or an element named by its class with a class attribute (the UiAutomator2
        // server's page source): a widget. Read into the next slot either way; an element
        // that turns out to be neither is transparent and leaves the slot to the next one.
        if (count == ws.size()) ws.emplace_back();
        Widget& w = ws[count];
        ResetWidget(w);
        w.parent = parent;
        bool editable_attr = false;
        bool is_widget = name == "node" || IsClassName(name);
        if (!ReadAttributes(leaf, [&](std::string_view n, std::string_view v) {
              is_widget = is_widget || n == "class";
              SetNodeAttribute(w, n, v, editable_attr);
              return true;
            }))
          return false;
        if (is_widget) {
          if (w.cls.empty() && name != "node") w.cls = name;
          FinishNode(w, editable_attr);
          if (!leaf) {
            open.push_back({name, parent});
            parent = static_cast<int>(count);
          }
          ++count;
        } else if (!leaf) {
          open.push_back({name, parent});
        }
      }
    }
    if (!SkipProlog() || p_ != end_) return false;  // only comments and PIs may follow
    FinishScreen(screen, count, rotation, display_width, display_height);
    return true;
  }

 private:
  // The loops below work on locals: a member pointer would be stored back at every byte.
  void SkipSpace() {
    const char* p = p_;
    while (p < end_ && Is(*p, kSpace)) ++p;
    p_ = p;
  }
  bool Expect(char c) {
    if (p_ >= end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  // At `open` (after '<'): skips to after `close`.
  bool SkipPast(std::string_view open, std::string_view close) {
    if (std::string_view(p_, end_ - p_).substr(0, open.size()) != open) return false;
    std::string_view rest(p_ + open.size(), end_ - p_ - open.size());
    size_t at = rest.find(close);
    if (at == std::string_view::npos) return false;
    p_ = rest.data() + at + close.size();
    return true;
  }
  // Whitespace, <?xml ...?> and comments, before or after the root.
  bool SkipProlog() {
    for (;;) {
      SkipSpace();
      if (end_ - p_ >= 2 && p_[0] == '<' && (p_[1] == '?' || p_[1] == '!')) {
        ++p_;
        if (!(*p_ == '?' ? SkipPast("?", "?>") : SkipPast("!--", "-->"))) return false;
      } else {
        return true;
      }
    }
  }
  bool ReadName(std::string_view& name) {
    const char* p = p_;
    while (p < end_ && Is(*p, kName)) ++p;
    name = std::string_view(p_, p - p_);
    p_ = p;
    return !name.empty();
  }
  // Reads attributes up to and including '>' or "/>" (then `leaf`), calling on(name, value)
  // with values unescaped; false on anything outside the subset or when on() says so.
  template <typename F>
  bool ReadAttributes(bool& leaf, F&& on) {
    for (;;) {
      const char* before = p_;
      SkipSpace();
      if (p_ >= end_) return false;
      if (*p_ == '>' || *p_ == '/') {
        leaf = *p_ == '/';
        ++p_;
        return !leaf || Expect('>');
      }
      if (p_ == before) return false;  // attributes need whitespace before them
      std::string_view name;
      if (!ReadName(name)) return false;
      SkipSpace();
      if (!Expect('=')) return false;
      SkipSpace();
      if (p_ >= end_ || (*p_ != '"' && *p_ != '\'')) return false;
      const char quote = *p_++;
      const char* start = p_;
      const char* p = p_;
      const char* const end = end_;
      bool escaped = false;
      for (;; ++p) {
        p = FindValueStop(p, end, quote);
        if (p >= end) return false;
        if (*p == quote) break;
        if (*p != '&') return false;  // '<' or a raw control character: pugixml decides
        escaped = true;
      }
      std::string_view value(start, p - start);
      p_ = p + 1;
      if (escaped) {
        if (!Unescape(value, scratch_)) return false;
        value = scratch_;
      }
      if (!on(name, value)) return false;
    }
  }

  const char* p_;
  const char* end_;
  std::string scratch_;
};

}  // namespace

bool ScanDumpInto(std::string_view xml, Screen& screen) { return Scanner(xml).Run(screen); }

}  // namespace roam::gui::internal
