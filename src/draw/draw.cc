#include "draw/draw.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>

#include <cairo.h>
#include <fmt/format.h>

#include "draw/marks.h"

namespace roam::draw {

namespace {

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

bool Has(std::string_view s, std::string_view part) { return s.find(part) != std::string::npos; }

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

bool IsAppBar(const gui::Widget& w) {
  const std::string& id = w.resource_id;
  return Has(w.cls, "Toolbar") || Has(w.cls, "ActionBar") || id.ends_with(":id/toolbar") ||
         id.ends_with(":id/action_bar") || id.ends_with(":id/app_bar");
}

Kind KindOf(const gui::Widget& w) {
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

bool IsLauncher(const gui::Screen& s) { return Has(s.package, "launcher"); }

// Draws one window's widgets; a window that does not cover the display gets a card.
void DrawLayer(Painter& p, const gui::Screen& s, int width, int height) {
  if (IsLauncher(s)) {
    p.Launcher(s);
    return;
  }
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    const gui::Widget& w = s.widgets[i];
    if (w.parent < 0) {
      const gui::Rect& b = w.bounds;
      if (b.left <= 0 && b.top <= 0 && b.right >= width && b.bottom >= height) {
        p.Rect(b, kPage);
      } else {
        p.Window(b);
      }
    }
    p.Widget(s, i);
  }
}

// The surface as PNG with libpng: zlib level 1, no row filters. Screens are mostly flat colour,
// so this is 5x faster than cairo's own writer (zlib's default level, every filter tried) for
// files about three times as large (tens of kilobytes). False when libpng fails.
bool EncodePng(cairo_surface_t* surface, std::string& out) {
  const int width = cairo_image_surface_get_width(surface);
  const int height = cairo_image_surface_get_height(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  std::vector<unsigned char> row(static_cast<size_t>(width) * 3);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {  // libpng's errors arrive here by longjmp
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(
      png, &out,
      [](png_structp p, png_bytep bytes, png_size_t n) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<char*>(bytes), n);
      },
      nullptr);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, 0, PNG_FILTER_NONE);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) {
    const unsigned char* px = data + static_cast<ptrdiff_t>(y) * stride;
    for (int x = 0; x < width; ++x) {
      uint32_t c;  // cairo's RGB24: native-endian 0x00RRGGBB
      std::memcpy(&c, px + 4 * x, 4);
      row[3 * x] = static_cast<unsigned char>(c >> 16);
      row[3 * x + 1] = static_cast<unsigned char>(c >> 8);
      row[3 * x + 2] = static_cast<unsigned char>(c);
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

// The drawing as PNG, or why not (cairo in an error state, libpng failing).
Result<std::string> Encoded(cairo_t* cr, cairo_surface_t* surface) {
  if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
    return Status::Io(std::string("drawing: ") + cairo_status_to_string(cairo_status(cr)));
  std::string out;
  cairo_surface_flush(surface);
  if (!EncodePng(surface, out)) return Status::Io("writing PNG: libpng failed");
  return out;
}

}  // namespace

Result<std::string> DrawPng(const std::vector<Layer>& layers, const DrawOptions& options) {
  if (layers.empty() || !layers[0].screen) return Status::InvalidArgument("no screen to draw");
  const int width = options.width > 0 ? options.width : layers[0].screen->width;
  const int height = options.height > 0 ? options.height : layers[0].screen->height;
  constexpr int kMaxSide = 8192;
  if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide)
    return Status::InvalidArgument("cannot draw a " + std::to_string(width) + "x" +
                                   std::to_string(height) + " screen");
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
  const double scale = std::min(width, height) / kReferenceWidth;
  Painter p(cr.get(), scale);
  p.Rect({0, 0, width, height}, kPage);
  for (const Layer& layer : layers) {
    if (!layer.screen) continue;
    if (layer.dim) p.Rect({0, 0, width, height}, {0, 0, 0}, 0.4);
    DrawLayer(p, *layer.screen, width, height);
  }
  if (!IsLauncher(*layers.back().screen)) p.StatusBar(width);
  if (options.outline) p.OutlineBox(*options.outline);
  return Encoded(cr.get(), surface.get());
}

Result<std::string> DrawPng(const gui::Screen& screen, const DrawOptions& options) {
  return DrawPng(std::vector<Layer>{{&screen, false}}, options);
}

namespace {

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

// A PNG file's bytes as a cairo image surface; an error names what `what` needed it for.
Result<Surface> SurfaceFromPng(const std::string& png, const char* what) {
  struct Reader {
    const std::string& bytes;
    size_t at = 0;
  } reader{png};
  Surface surface(cairo_image_surface_create_from_png_stream(
                      [](void* closure, unsigned char* data, unsigned int length) {
                        auto* r = static_cast<Reader*>(closure);
                        if (r->at + length > r->bytes.size()) return CAIRO_STATUS_READ_ERROR;
                        std::memcpy(data, r->bytes.data() + r->at, length);
                        r->at += length;
                        return CAIRO_STATUS_SUCCESS;
                      },
                      &reader),
                  cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    return Status::Corruption(std::string("not a PNG ") + what + ": " +
                              cairo_status_to_string(cairo_surface_status(surface.get())));
  return surface;
}

}  // namespace

Result<Pixels> DecodePng(const std::string& png) {
  auto surface = SurfaceFromPng(png, "that can be read");
  if (!surface.ok()) return surface.status();
  cairo_surface_t* s = surface->get();
  cairo_surface_flush(s);
  Pixels p;
  p.width = cairo_image_surface_get_width(s);
  p.height = cairo_image_surface_get_height(s);
  const int stride = cairo_image_surface_get_stride(s);
  const unsigned char* data = cairo_image_surface_get_data(s);
  p.rgb.resize(static_cast<size_t>(p.width) * p.height);
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x) {
      uint32_t argb;  // native-endian 0xAARRGGBB
      std::memcpy(&argb, data + static_cast<ptrdiff_t>(y) * stride + 4 * x, 4);
      p.rgb[static_cast<size_t>(y) * p.width + x] = argb & 0xFFFFFF;
    }
  return p;
}

Result<std::string> OutlinePng(const std::string& png, const gui::Rect& box) {
  auto read = SurfaceFromPng(png, "the outline can be drawn on");
  if (!read.ok()) return read.status();
  Surface surface = std::move(*read);
  const int width = cairo_image_surface_get_width(surface.get());
  const int height = cairo_image_surface_get_height(surface.get());
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
  Painter(cr.get(), std::min(width, height) / kReferenceWidth).OutlineBox(box);
  return Encoded(cr.get(), surface.get());
}

namespace {

Rgb ColourOf(Interaction i) {
  switch (i) {
    case Interaction::kClick:
      return {0.12, 0.37, 0.84};  // blue
    case Interaction::kLongClick:
      return {0.56, 0.14, 0.67};  // purple
    case Interaction::kCheck:
      return {0.94, 0.42, 0.0};  // orange
    case Interaction::kScroll:
      return {0.18, 0.55, 0.20};  // green
    case Interaction::kText:
      return {0.83, 0.18, 0.18};  // red
  }
  return {0.12, 0.37, 0.84};
}

// `text` in lines no wider than `width` at the font set on `cr`, broken between words; at most
// `max_lines`, the last holding the rest (Painter::Text then shortens it with an ellipsis).
std::vector<std::string> Wrapped(cairo_t* cr, const std::string& text, double width,
                                 size_t max_lines) {
  std::vector<std::string> lines;
  std::string line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    if (end == at) {
      ++at;
      continue;
    }
    if (lines.size() + 1 == max_lines) {  // the last line holds the rest, unmeasured: it is cut
      if (!line.empty()) line += ' ';
      line.append(text, at, std::string::npos);
      break;
    }
    std::string word = text.substr(at, end - at);
    at = end + 1;
    std::string candidate = line.empty() ? word : line + " " + word;
    cairo_text_extents_t ext;
    cairo_text_extents(cr, candidate.c_str(), &ext);
    if (ext.x_advance <= width || line.empty()) {
      line = std::move(candidate);
    } else {
      lines.push_back(std::move(line));
      line = std::move(word);
    }
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace

namespace {

// Draws `marks` (in the screen's pixels) on `cr`, whose screen is width x height.
void DrawMarks(cairo_t* cr, const std::vector<Mark>& marks, int width, int height) {
  const double scale = std::min(width, height) / kReferenceWidth;
  Painter p(cr, scale);
  // A mark that holds others (a list around its rows) is drawn first and just outside its
  // bounds, with its tag at its bottom-right corner, so the rows' boxes and tags hide neither.
  auto holds = [](const gui::Rect& a, const gui::Rect& b) {
    return !(a == b) && a.left <= b.left && a.top <= b.top && a.right >= b.right &&
           a.bottom >= b.bottom;
  };
  std::vector<bool> container(marks.size(), false);
  for (size_t i = 0; i < marks.size(); ++i)
    for (size_t j = 0; j < marks.size() && !container[i]; ++j)
      container[i] = holds(marks[i].box, marks[j].box);
  std::vector<size_t> order(marks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return container[a] > container[b]; });
  const double line = std::max(2.0, 5 * scale);
  cairo_set_line_width(cr, line);
  for (size_t i : order) {
    const Mark& m = marks[i];
    p.Fill(ColourOf(m.interaction));
    const double inset = container[i] ? -line : line / 2;
    cairo_rectangle(cr, m.box.left + inset, m.box.top + inset, m.box.width() - 2 * inset,
                    m.box.height() - 2 * inset);
    cairo_stroke(cr);
  }
  // The tags after every box, so no box crosses a number.
  for (size_t i : order) {
    const Mark& m = marks[i];
    const std::string label = std::to_string(m.number);
    cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 30 * scale);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, label.c_str(), &ext);
    const int tag_w = static_cast<int>(ext.x_advance + 14 * scale);
    const int tag_h = static_cast<int>(40 * scale);
    const gui::Rect tag =
        container[i]
            ? gui::Rect{m.box.right - tag_w, m.box.bottom - tag_h, m.box.right, m.box.bottom}
            : gui::Rect{m.box.left, m.box.top, m.box.left + tag_w, m.box.top + tag_h};
    p.Rect(tag, ColourOf(m.interaction));
    p.Text(label, tag, 30, kWhite, 0.5, /*bold=*/true);
  }
}

cairo_surface_t* SurfaceOf(const std::shared_ptr<void>& p) {
  return static_cast<cairo_surface_t*>(p.get());
}

}  // namespace

Result<Picture> Picture::Decode(const std::string& png) {
  auto read = SurfaceFromPng(png, "that can be marked");
  if (!read.ok()) return read.status();
  Picture p;
  p.width_ = cairo_image_surface_get_width(read->get());
  p.height_ = cairo_image_surface_get_height(read->get());
  p.surface_ = std::shared_ptr<void>(
      read->release(), [](void* s) { cairo_surface_destroy(static_cast<cairo_surface_t*>(s)); });
  return p;
}

Result<std::string> Picture::Marked(const std::vector<Mark>& marks, int out_width) const {
  auto marked = MarkedPicture(marks, out_width);
  if (!marked.ok()) return marked.status();
  return marked->Png();
}

Result<std::string> Picture::Png() const {
  if (!surface_) return Status::InvalidArgument("an empty picture has no PNG");
  std::string out;
  cairo_surface_flush(SurfaceOf(surface_));
  if (!EncodePng(SurfaceOf(surface_), out)) return Status::Io("writing PNG: libpng failed");
  return out;
}

Result<Picture> Picture::MarkedPicture(const std::vector<Mark>& marks, int out_width) const {
  if (!surface_) return Status::InvalidArgument("an empty picture cannot be marked");
  // Drawn straight at the size it is written at: the screen scaled in, the marks on top in the
  // screen's coordinates. Bilinear: a 360-px frame of a 1080-px screen costs 1.5 ms against 12
  // with cairo's GOOD filter, and its text stays readable.
  const double k =
      out_width > 0 && out_width < width_ ? static_cast<double>(out_width) / width_ : 1.0;
  const int w = k < 1 ? out_width : width_;
  const int h = k < 1 ? std::max(1, static_cast<int>(std::lround(height_ * k))) : height_;
  Surface out(cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(out.get()), cairo_destroy);
  cairo_scale(cr.get(), k, k);
  cairo_set_source_surface(cr.get(), SurfaceOf(surface_), 0, 0);
  if (k < 1) cairo_pattern_set_filter(cairo_get_source(cr.get()), CAIRO_FILTER_BILINEAR);
  cairo_paint(cr.get());
  DrawMarks(cr.get(), marks, width_, height_);
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
    return Status::Io(std::string("drawing: ") + cairo_status_to_string(cairo_status(cr.get())));
  Picture p;
  p.width_ = w;
  p.height_ = h;
  p.surface_ = std::shared_ptr<void>(
      out.release(), [](void* s) { cairo_surface_destroy(static_cast<cairo_surface_t*>(s)); });
  return p;
}

Result<std::string> MarkPng(const std::string& png, const std::vector<Mark>& marks, int out_width) {
  auto picture = Picture::Decode(png);
  if (!picture.ok()) return picture.status();
  return picture->Marked(marks, out_width);
}

Result<std::string> StitchPng(const std::vector<Frame>& frames, int frame_width) {
  if (frames.empty()) return Status::InvalidArgument("no frames to stitch");
  constexpr int kMaxSide = 8192;
  const double unit = frame_width / 360.0;  // sizes below are for 360 px frames
  const int gap = static_cast<int>(12 * unit), line_h = static_cast<int>(22 * unit);
  const int caption_h = 3 * line_h + gap;
  const int64_t total_w = static_cast<int64_t>(frames.size()) * (frame_width + gap) + gap;
  if (frame_width < 40 || total_w > kMaxSide)
    return Status::InvalidArgument(fmt::format(
        "cannot stitch {} frames {} px wide: the picture would be {} px wide (at most {})",
        frames.size(), frame_width, total_w, kMaxSide));
  std::vector<Surface> screens;
  int tallest = 0;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (!frames[i].picture.empty()) {  // decoded already: shared, not copied
      cairo_surface_t* s = SurfaceOf(frames[i].picture.surface_);
      tallest = std::max(
          tallest, static_cast<int>(std::ceil(static_cast<double>(frames[i].picture.height()) *
                                              frame_width / frames[i].picture.width())));
      screens.push_back(Surface(cairo_surface_reference(s), cairo_surface_destroy));
      continue;
    }
    auto read = SurfaceFromPng(frames[i].png, "that can be stitched");
    if (!read.ok())
      return Status::Corruption(fmt::format("frame {}: {}", i + 1, read.status().message()));
    const double w = cairo_image_surface_get_width(read->get());
    const double h = cairo_image_surface_get_height(read->get());
    tallest = std::max(tallest, static_cast<int>(std::ceil(h * frame_width / w)));
    screens.push_back(std::move(*read));
  }
  const int height = gap + tallest + caption_h;
  if (height > kMaxSide)
    return Status::InvalidArgument(fmt::format("cannot stitch frames {} px tall", tallest));
  Surface out(cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(total_w), height),
              cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(out.get()), cairo_destroy);
  Painter p(cr.get(), 1);
  p.Rect({0, 0, static_cast<int>(total_w), height}, kWhite);
  for (size_t i = 0; i < screens.size(); ++i) {
    const int x = gap + static_cast<int>(i) * (frame_width + gap);
    const double w = cairo_image_surface_get_width(screens[i].get());
    const double h = cairo_image_surface_get_height(screens[i].get());
    const double k = frame_width / w;
    cairo_save(cr.get());
    cairo_translate(cr.get(), x, gap);
    cairo_scale(cr.get(), k, k);
    cairo_set_source_surface(cr.get(), screens[i].get(), 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr.get()), CAIRO_FILTER_GOOD);
    cairo_paint(cr.get());
    cairo_restore(cr.get());
    p.Fill(kDivider);
    cairo_set_line_width(cr.get(), 1);
    cairo_rectangle(cr.get(), x - 0.5, gap - 0.5, frame_width + 1, h * k + 1);
    cairo_stroke(cr.get());
    cairo_select_font_face(cr.get(), kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr.get(), 16 * unit);
    const auto lines = Wrapped(cr.get(), frames[i].caption, frame_width, 3);
    for (size_t l = 0; l < lines.size(); ++l) {
      const int top = gap + tallest + gap / 2 + static_cast<int>(l) * line_h;
      p.Text(lines[l], {x, top, x + frame_width, top + line_h}, 16 * unit, kText);
    }
  }
  return Encoded(cr.get(), out.get());
}

std::optional<PngSize> ReadPngSize(std::string_view png) {
  constexpr std::string_view kSignature = "\x89PNG\r\n\x1a\n";
  if (png.size() < 24 || png.substr(0, 8) != kSignature || png.substr(12, 4) != "IHDR")
    return std::nullopt;
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(png[at + k]);
    return static_cast<int>(v);
  };
  return PngSize{be32(16), be32(20)};
}

}  // namespace roam::draw
