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
#include "draw/painter.h"

namespace roam::draw {

namespace {

using namespace paint;  // NOLINT(google-build-using-namespace): this layer's own painter

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

bool IsPng(std::string_view bytes) { return bytes.starts_with("\x89PNG\r\n\x1a\n"); }

std::optional<PngSize> ReadPngSize(std::string_view png) {
  if (png.size() < 24 || !IsPng(png) || png.substr(12, 4) != "IHDR") return std::nullopt;
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(png[at + k]);
    return static_cast<int>(v);
  };
  return PngSize{be32(16), be32(20)};
}

}  // namespace roam::draw
