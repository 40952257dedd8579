// Internal to draw/: the Painter that draws widgets with cairo at a phone's proportions (sizes
// at the simulator's density, 1080 px wide, scaled to other widths), its colours, and how a
// widget's class is read as a kind of control. Used by draw.cc (screens, outlines, VisionDroid's
// marks). Not thread-safe: a Painter draws on one cairo context.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <cairo.h>
#include <fmt/format.h>

#include "gui/screen.h"

namespace roam::draw::paint {

// Sizes at the simulator's density (1080 px wide: 2.625 px a dp), scaled to other widths.
constexpr double kReferenceWidth = 1080;
constexpr double kStatusBar = 63;
constexpr double kBodyFont = 40;
constexpr double kTitleFont = 52;
constexpr double kSmallFont = 32;
constexpr double kCorner = 10;
constexpr const char* kFont = "DejaVu Sans";

struct Rgb {
  double r, g, b;
};
constexpr Rgb kWhite{1, 1, 1};
constexpr Rgb kPage{0.98, 0.98, 0.98};
constexpr Rgb kPrimary{0.247, 0.318, 0.710};      // indigo 500
constexpr Rgb kPrimaryDark{0.188, 0.247, 0.624};  // indigo 700: the status bar
constexpr Rgb kAccent{1.0, 0.251, 0.506};         // pink A200
constexpr Rgb kText{0.13, 0.13, 0.13};
constexpr Rgb kSecondary{0.46, 0.46, 0.46};
constexpr Rgb kDisabled{0.74, 0.74, 0.74};
constexpr Rgb kDivider{0.88, 0.88, 0.88};
constexpr Rgb kButton{0.88, 0.88, 0.90};
constexpr Rgb kImage{0.82, 0.85, 0.88};
constexpr Rgb kOutline{0.90, 0.10, 0.10};

inline bool Has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

enum class Kind {
  kAppBar,
  kEdit,
  kCheckBox,
  kSwitch,
  kRadio,
  kImage,
  kButton,
  kList,
  kText,
  kOther
};

inline bool IsAppBar(const gui::Widget& w) {
  const std::string& id = w.resource_id;
  return Has(w.cls, "Toolbar") || Has(w.cls, "ActionBar") || id.ends_with(":id/toolbar") ||
         id.ends_with(":id/action_bar") || id.ends_with(":id/app_bar");
}

inline Kind KindOf(const gui::Widget& w) {
  const std::string& c = w.cls;
  if (IsAppBar(w)) return Kind::kAppBar;
  if (w.editable || Has(c, "EditText") || Has(c, "AutoComplete")) return Kind::kEdit;
  if (Has(c, "CheckBox") || Has(c, "CheckedTextView")) return Kind::kCheckBox;
  if (Has(c, "Switch") || Has(c, "ToggleButton")) return Kind::kSwitch;
  if (Has(c, "RadioButton")) return Kind::kRadio;
  if (Has(c, "ImageView") || Has(c, "ImageButton")) return Kind::kImage;
  if (Has(c, "Button")) return Kind::kButton;
  if (w.scrollable || Has(c, "ListView") || Has(c, "RecyclerView") || Has(c, "ScrollView"))
    return Kind::kList;
  if (!w.text.empty()) return Kind::kText;
  if (w.checkable) return Kind::kCheckBox;
  return Kind::kOther;
}

class Painter {
 public:
  Painter(cairo_t* cr, double scale) : cr_(cr), scale_(scale) {
    cairo_select_font_face(cr_, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }

  void Fill(const Rgb& c, double alpha = 1) { cairo_set_source_rgba(cr_, c.r, c.g, c.b, alpha); }

  void Rect(const gui::Rect& r, const Rgb& c, double alpha = 1) {
    Fill(c, alpha);
    cairo_rectangle(cr_, r.left, r.top, r.width(), r.height());
    cairo_fill(cr_);
  }

  void RoundRect(double x, double y, double w, double h, double radius) {
    radius = std::min({radius, w / 2, h / 2});
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, x + w - radius, y + radius, radius, -M_PI / 2, 0);
    cairo_arc(cr_, x + w - radius, y + h - radius, radius, 0, M_PI / 2);
    cairo_arc(cr_, x + radius, y + h - radius, radius, M_PI / 2, M_PI);
    cairo_arc(cr_, x + radius, y + radius, radius, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr_);
  }

  // One line of text in `box`, shortened with an ellipsis to fit; `align` 0 left, 0.5 centre.
  void Text(std::string text, const gui::Rect& box, double size, const Rgb& color, double align = 0,
            bool bold = false) {
    if (text.empty() || box.width() <= 0 || box.height() <= 0) return;
    size = std::min(size * scale_, box.height() * 0.8);
    if (size < 4) return;
    cairo_save(cr_);
    cairo_rectangle(cr_, box.left, box.top, box.width(), box.height());
    cairo_clip(cr_);
    cairo_select_font_face(cr_, kFont, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, size);
    std::replace(text.begin(), text.end(), '\n', ' ');
    cairo_text_extents_t ext;
    cairo_text_extents(cr_, text.c_str(), &ext);
    if (ext.x_advance > box.width()) {
      text = Shortened(text, box.width());
      cairo_text_extents(cr_, text.c_str(), &ext);
    }
    cairo_font_extents_t font;
    cairo_font_extents(cr_, &font);
    const double x = box.left + (box.width() - ext.x_advance) * align;
    const double y = box.top + (box.height() + font.ascent - font.descent) / 2;
    Fill(color);
    cairo_move_to(cr_, x, y);
    cairo_show_text(cr_, text.c_str());
    cairo_restore(cr_);
  }

  // The longest prefix of `text` (cut at a character boundary) that fits in `width` with "…"
  // after it, found by halving: O(n log n) in the text's length, where cutting one character
  // at a time and measuring again was quadratic (30,000 characters took half a minute).
  std::string Shortened(const std::string& text, double width) {
    std::vector<size_t> cuts;  // the byte offsets where a character starts, after the first
    for (size_t i = 1; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
    auto fits = [&](size_t n) {
      const std::string candidate = text.substr(0, n) + "\u2026";
      cairo_text_extents_t ext;
      cairo_text_extents(cr_, candidate.c_str(), &ext);
      return ext.x_advance <= width;
    };
    // The most characters that fit, 0 to cuts.size(): prefix lengths only grow wider.
    size_t lo = 0, hi = cuts.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo + 1) / 2;
      if (fits(cuts[mid - 1]))
        lo = mid;
      else
        hi = mid - 1;
    }
    if (lo == 0) return fits(0) ? "\u2026" : "";
    return text.substr(0, cuts[lo - 1]) + "\u2026";
  }

  void StatusBar(int width) {
    const int h = static_cast<int>(kStatusBar * scale_);
    Rect({0, 0, width, h}, kPrimaryDark);
    Text("9:00", {static_cast<int>(24 * scale_), 0, width / 2, h}, kSmallFont, kWhite);
    // Battery and signal, as plain shapes.
    Fill(kWhite);
    const double u = scale_;
    cairo_rectangle(cr_, width - 60 * u, h * 0.3, 30 * u, h * 0.45);
    cairo_fill(cr_);
    cairo_move_to(cr_, width - 110 * u, h * 0.75);
    cairo_line_to(cr_, width - 75 * u, h * 0.75);
    cairo_line_to(cr_, width - 75 * u, h * 0.25);
    cairo_close_path(cr_);
    cairo_fill(cr_);
  }

  void Widget(const gui::Screen& s, int i) {
    const gui::Widget& w = s.widgets[i];
    const gui::Rect& b = w.bounds;
    if (b.width() <= 0 || b.height() <= 0) return;
    cairo_new_path(cr_);  // a text leaves a current point an arc would join
    const Rgb text_color = w.enabled ? kText : kDisabled;
    const std::string& label = w.text.empty() ? w.content_desc : w.text;
    const double pad = 16 * scale_;
    switch (KindOf(w)) {
      case Kind::kAppBar:
        Rect(b, kPrimary);
        break;
      case Kind::kEdit: {
        const bool empty = w.text.empty();
        std::string shown = w.password && !empty ? std::string(w.text.size(), '*') : w.text;
        Text(empty ? w.hint : shown, Inset(b, pad, 0), kBodyFont, empty ? kSecondary : text_color);
        const double line = (w.focused ? 5 : 2) * scale_;
        Fill(w.focused ? kAccent : kSecondary);
        cairo_rectangle(cr_, b.left, b.bottom - line - 8 * scale_, b.width(), line);
        cairo_fill(cr_);
        break;
      }
      case Kind::kCheckBox: {
        const double side = std::min(b.height() * 0.45, 54 * scale_);
        const double x = b.left + pad, y = b.top + (b.height() - side) / 2;
        RoundRect(x, y, side, side, 4 * scale_);
        if (w.checked) {
          Fill(w.enabled ? kAccent : kDisabled);
          cairo_fill(cr_);
          Fill(kWhite);
          cairo_set_line_width(cr_, 5 * scale_);
          cairo_move_to(cr_, x + side * 0.2, y + side * 0.5);
          cairo_line_to(cr_, x + side * 0.42, y + side * 0.72);
          cairo_line_to(cr_, x + side * 0.8, y + side * 0.28);
          cairo_stroke(cr_);
        } else {
          Fill(w.enabled ? kSecondary : kDisabled);
          cairo_set_line_width(cr_, 4 * scale_);
          cairo_stroke(cr_);
        }
        Text(label, {static_cast<int>(x + side + pad), b.top, b.right, b.bottom}, kBodyFont,
             text_color);
        break;
      }
      case Kind::kSwitch: {
        const double track_w = 90 * scale_, track_h = 36 * scale_;
        const double x = b.right - pad - track_w, y = b.top + (b.height() - track_h) / 2;
        RoundRect(x, y, track_w, track_h, track_h / 2);
        Fill(w.checked ? kAccent : kDisabled, w.checked ? 0.5 : 1);
        cairo_fill(cr_);
        const double r = track_h * 0.75;
        cairo_arc(cr_, w.checked ? x + track_w - r * 0.8 : x + r * 0.8, y + track_h / 2, r, 0,
                  2 * M_PI);
        Fill(w.checked ? kAccent : kWhite);
        cairo_fill_preserve(cr_);
        Fill(kDivider);
        cairo_set_line_width(cr_, 2 * scale_);
        cairo_stroke(cr_);
        Text(label, {b.left + static_cast<int>(pad), b.top, static_cast<int>(x - pad), b.bottom},
             kBodyFont, text_color);
        break;
      }
      case Kind::kRadio: {
        const double r = std::min(b.height() * 0.22, 27 * scale_);
        const double cx = b.left + pad + r, cy = b.top + b.height() / 2.0;
        cairo_arc(cr_, cx, cy, r, 0, 2 * M_PI);
        Fill(w.checked ? kAccent : kSecondary);
        cairo_set_line_width(cr_, 4 * scale_);
        cairo_stroke(cr_);
        if (w.checked) {
          cairo_arc(cr_, cx, cy, r * 0.5, 0, 2 * M_PI);
          cairo_fill(cr_);
        }
        Text(label, {static_cast<int>(cx + r + pad), b.top, b.right, b.bottom}, kBodyFont,
             text_color);
        break;
      }
      case Kind::kImage: {
        if (w.content_desc == gui::kOverflowDescription) {  // three dots
          Fill(InAppBar(s, i) ? kWhite : kSecondary);
          for (int k = -1; k <= 1; ++k) {
            cairo_arc(cr_, b.center_x(), b.center_y() + k * 16 * scale_, 5 * scale_, 0, 2 * M_PI);
            cairo_fill(cr_);
          }
          break;
        }
        const gui::Rect in = Inset(b, 4 * scale_, 4 * scale_);
        Rect(in, kImage);
        Fill(kSecondary, 0.6);
        cairo_set_line_width(cr_, 2 * scale_);
        cairo_move_to(cr_, in.left, in.top);
        cairo_line_to(cr_, in.right, in.bottom);
        cairo_move_to(cr_, in.right, in.top);
        cairo_line_to(cr_, in.left, in.bottom);
        cairo_stroke(cr_);
        if (!w.text.empty() || !w.content_desc.empty())
          Text(label, Inset(in, pad, 0), kSmallFont, kText, 0.5);
        break;
      }
      case Kind::kButton: {
        const gui::Rect in = Inset(b, 6 * scale_, 10 * scale_);
        RoundRect(in.left, in.top, in.width(), in.height(), kCorner * scale_);
        Fill(w.enabled ? kButton : kDivider);
        cairo_fill(cr_);
        std::string upper = label;
        for (char& c : upper)
          if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        Text(upper, Inset(in, pad, 0), kBodyFont * 0.9, text_color, 0.5, true);
        break;
      }
      case Kind::kList:
        break;  // its rows draw themselves; separators come with them
      case Kind::kText: {
        const bool title = InAppBar(s, i);
        const bool in_list = w.parent >= 0 && KindOf(s.widgets[w.parent]) == Kind::kList;
        Text(label, Inset(b, title ? 0 : pad, 0), title ? kTitleFont : kBodyFont,
             title ? kWhite : text_color, 0, title);
        if (in_list) Rect({b.left, b.bottom - 2, b.right, b.bottom}, kDivider);
        break;
      }
      case Kind::kOther:
        if (!label.empty() && w.clickable) Text(label, Inset(b, pad, 0), kBodyFont, text_color);
        break;
    }
    if (w.selected) Rect(b, kPrimary, 0.08);
  }

  void Launcher(const gui::Screen& s) {
    // A wallpaper, and the app's icon with its label under it.
    cairo_pattern_t* sky = cairo_pattern_create_linear(0, 0, 0, s.height);
    cairo_pattern_add_color_stop_rgb(sky, 0, 0.16, 0.35, 0.55);
    cairo_pattern_add_color_stop_rgb(sky, 1, 0.05, 0.12, 0.25);
    cairo_set_source(cr_, sky);
    cairo_paint(cr_);
    cairo_pattern_destroy(sky);
    for (const gui::Widget& w : s.widgets) {
      if (w.text.empty()) continue;
      const gui::Rect& b = w.bounds;
      const double side = b.width() * 0.7;
      RoundRect(b.center_x() - side / 2, b.top, side, side, side * 0.22);
      Fill(kAccent);
      cairo_fill(cr_);
      Text(w.text.substr(0, 1), {b.left, b.top, b.right, b.top + static_cast<int>(side)},
           kTitleFont * 1.6, kWhite, 0.5, true);
      Text(w.text,
           {b.left - b.width() / 2, b.top + static_cast<int>(side), b.right + b.width() / 2,
            b.bottom + static_cast<int>(40 * scale_)},
           kSmallFont, kWhite, 0.5);
    }
  }

  // A window over the page: a card with a shadow.
  void Window(const gui::Rect& b) {
    for (int k = 3; k >= 1; --k) {
      RoundRect(b.left - k * 2, b.top + k * 3, b.width() + k * 4, b.height() + k * 2,
                kCorner * scale_);
      Fill({0, 0, 0}, 0.06);
      cairo_fill(cr_);
    }
    RoundRect(b.left, b.top, b.width(), b.height(), kCorner * scale_ / 2);
    Fill(kWhite);
    cairo_fill(cr_);
  }

  void OutlineBox(const gui::Rect& b) {
    Fill(kOutline);
    cairo_set_line_width(cr_, 8 * scale_);
    cairo_rectangle(cr_, b.left + 4 * scale_, b.top + 4 * scale_, b.width() - 8 * scale_,
                    b.height() - 8 * scale_);
    cairo_stroke(cr_);
  }

 private:
  static gui::Rect Inset(const gui::Rect& b, double dx, double dy) {
    const int x = static_cast<int>(dx), y = static_cast<int>(dy);
    return {b.left + x, b.top + y, std::max(b.left + x, b.right - x),
            std::max(b.top + y, b.bottom - y)};
  }
  static bool InAppBar(const gui::Screen& s, int i) {
    for (int p = s.widgets[i].parent; p >= 0; p = s.widgets[p].parent)
      if (IsAppBar(s.widgets[p])) return true;
    return false;
  }

  cairo_t* cr_;
  double scale_;
};

}  // namespace roam::draw::paint
