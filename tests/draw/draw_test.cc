// Drawing screens: each widget kind shows its state where a person looks for it, windows dim
// what is beneath, and the same screen gives the same bytes.
#include "draw/draw.h"

#include <cstring>
#include <fstream>
#include <memory>

#include <gtest/gtest.h>

#include "draw_test_util.h"
#include "test_paths.h"

namespace roam::draw {
namespace {

// The pixels of a PNG, for looking at single points.
class Image {
 public:
  explicit Image(const std::string& png) {
    auto decoded = DecodePng(png);
    ok_ = decoded.ok();
    if (ok_) pixels_ = std::move(*decoded);
  }
  bool ok() const { return ok_; }
  int width() const { return pixels_.width; }
  int height() const { return pixels_.height; }
  // 0xRRGGBB at (x, y).
  uint32_t At(int x, int y) const { return pixels_.At(x, y); }
  // How bright a point is, 0 (black) to 255 (white).
  int Brightness(int x, int y) const {
    const uint32_t c = At(x, y);
    return static_cast<int>(((c >> 16 & 0xFF) + (c >> 8 & 0xFF) + (c & 0xFF)) / 3);
  }
  // True when some point of `r` is darker than `below`.
  bool AnyDarker(const gui::Rect& r, int below) const {
    for (int y = r.top; y < r.bottom; ++y)
      for (int x = r.left; x < r.right; ++x)
        if (Brightness(x, y) < below) return true;
    return false;
  }
  bool Pinkish(int x, int y) const {
    const uint32_t c = At(x, y);
    return (c >> 16 & 0xFF) > 200 && (c >> 8 & 0xFF) < 150;
  }

 private:
  bool ok_ = false;
  Pixels pixels_;
};

// One of each kind, in rows of 126 px under a 63 px status bar and a 147 px app bar.
gui::Screen Gallery() {
  gui::Screen s;
  s.package = "org.roam.gallery";
  s.activity = "org.roam.gallery.MainActivity";
  int root = Add(s, -1, "android.widget.FrameLayout", {0, 0, 1080, 1920});
  int bar = Add(s, root, "android.view.ViewGroup", {0, 63, 1080, 210});
  s.widgets[bar].resource_id = "org.roam.gallery:id/toolbar";
  s.widgets[Add(s, bar, "android.widget.TextView", {42, 63, 900, 210})].text = "Gallery";
  auto row = [&](int k) { return gui::Rect{42, 210 + 126 * k, 1038, 210 + 126 * (k + 1)}; };
  s.widgets[Add(s, root, "android.widget.TextView", row(0))].text = "Plain text";
  s.widgets[Add(s, root, "android.widget.Button", row(1))].text = "Save";
  int hint = Add(s, root, "android.widget.EditText", row(2));
  s.widgets[hint].hint = "Title";
  s.widgets[hint].editable = true;
  int typed = Add(s, root, "android.widget.EditText", row(3));
  s.widgets[typed].text = "Groceries";
  s.widgets[typed].editable = s.widgets[typed].focused = true;
  int off = Add(s, root, "android.widget.CheckBox", row(4));
  s.widgets[off].text = "Unchecked";
  s.widgets[off].checkable = true;
  int on = Add(s, root, "android.widget.CheckBox", row(5));
  s.widgets[on].text = "Checked";
  s.widgets[on].checkable = s.widgets[on].checked = true;
  int sw_off = Add(s, root, "android.widget.Switch", row(6));
  s.widgets[sw_off].text = "Switch off";
  int sw_on = Add(s, root, "android.widget.Switch", row(7));
  s.widgets[sw_on].text = "Switch on";
  s.widgets[sw_on].checked = true;
  int radio = Add(s, root, "android.widget.RadioButton", row(8));
  s.widgets[radio].text = "Radio on";
  s.widgets[radio].checked = true;
  s.widgets[Add(s, root, "android.widget.ImageView", row(9))].content_desc = "Photo";
  int list = Add(s, root, "android.widget.ListView", {42, 1470, 1038, 1722});
  s.widgets[list].scrollable = true;
  s.widgets[Add(s, list, "android.widget.TextView", {42, 1470, 1038, 1596})].text = "Row one";
  s.widgets[Add(s, list, "android.widget.TextView", {42, 1596, 1038, 1722})].text =
      "Row two, with a text far too long to fit on one line of this phone's screen";
  int disabled = Add(s, root, "android.widget.Button", {42, 1722, 1038, 1848});
  s.widgets[disabled].text = "Disabled";
  s.widgets[disabled].enabled = false;
  s.Link();
  return s;
}

TEST(Draw, EachWidgetKindShowsItsState) {
  gui::Screen s = Gallery();
  auto png = DrawPng(s);
  ASSERT_TRUE(png.ok()) << png.status().message();
  if (const char* keep = std::getenv("ROAM_KEEP_PNG")) std::ofstream(keep) << *png;
  Image img(*png);
  ASSERT_TRUE(img.ok());
  ASSERT_EQ(img.width(), 1080);
  ASSERT_EQ(img.height(), 1920);
  auto row = [](int k) { return 210 + 126 * k; };
  // The status bar and the app bar are the primary colour, not the page's.
  EXPECT_LT(img.Brightness(700, 30), 120);
  EXPECT_LT(img.Brightness(1000, 150), 140);
  EXPECT_TRUE(img.AnyDarker({60, 70, 600, 200}, 250) && !img.AnyDarker({60, 70, 600, 200}, 20))
      << "the title is drawn light on the app bar";
  // Text is drawn where its widget is.
  EXPECT_TRUE(img.AnyDarker({58, row(0), 400, row(1)}, 100));
  // A button is a filled shape: its corner area is grey, not the page.
  EXPECT_LT(img.Brightness(70, row(1) + 63), 240);
  // The hint is grey; typed text is dark; the focused field's underline is the accent colour.
  EXPECT_FALSE(img.AnyDarker({58, row(2) + 20, 300, row(3) - 20}, 60));
  EXPECT_TRUE(img.AnyDarker({58, row(2) + 20, 300, row(3) - 20}, 200));
  EXPECT_TRUE(img.AnyDarker({58, row(3) + 20, 400, row(4) - 20}, 60));
  EXPECT_TRUE(img.Pinkish(500, row(4) - 10));
  // A checked box is filled with the accent; an unchecked one is empty inside.
  const int box_x = 42 + 16 + 27;  // the box's centre: left + padding + half its side
  EXPECT_TRUE(img.Pinkish(box_x - 15, row(5) + 48));
  EXPECT_GT(img.Brightness(box_x, row(4) + 63), 240);
  // A switch's thumb sits left when off, right (in the accent) when on.
  EXPECT_TRUE(img.Pinkish(1038 - 16 - 20, row(7) + 63));
  EXPECT_FALSE(img.Pinkish(1038 - 16 - 20, row(6) + 63));
  // A checked radio button has its dot.
  EXPECT_TRUE(img.Pinkish(42 + 16 + 27, row(8) + 63));
  // An image is a placeholder box.
  EXPECT_LT(img.Brightness(100, row(9) + 20), 240);
  // List rows are separated by a line.
  EXPECT_LT(img.Brightness(500, 1595), 240);
  // A disabled button's label is lighter than an enabled one's.
  EXPECT_FALSE(img.AnyDarker({300, 1740, 780, 1830}, 100));
}

TEST(Draw, SameScreenSameBytes) {
  gui::Screen s = Gallery();
  auto a = DrawPng(s), b = DrawPng(s);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  s.widgets[5].text = "Other";  // the typed field: another picture
  auto c = DrawPng(s);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(*a, *c);
}

TEST(Draw, ADialogDimsThePageBeneathAndAnOutlineIsRed) {
  gui::Screen page = Gallery();
  gui::Screen dialog;
  dialog.package = page.package;
  int root = Add(dialog, -1, "android.widget.FrameLayout", {84, 700, 996, 1200});
  dialog.widgets[Add(dialog, root, "android.widget.TextView", {126, 763, 954, 889})].text =
      "Delete this entry?";
  dialog.widgets[Add(dialog, root, "android.widget.Button", {126, 1015, 954, 1141})].text = "OK";
  dialog.Link();
  auto alone = DrawPng(page);
  auto over =
      DrawPng({{&page, false}, {&dialog, true}}, {.outline = gui::Rect{126, 1015, 954, 1141}});
  ASSERT_TRUE(alone.ok() && over.ok());
  Image a(*alone), b(*over);
  // Outside the dialog the page is darker; inside, the dialog's card is white.
  EXPECT_LT(b.Brightness(20, 1900), a.Brightness(20, 1900) - 60);
  EXPECT_GT(b.Brightness(900, 720), 245);
  // The outlined target has a red frame.
  const uint32_t red = b.At(130, 1080);
  EXPECT_GT(red >> 16 & 0xFF, 200u);
  EXPECT_LT(red >> 8 & 0xFF, 60u);
}

TEST(Draw, NothingToDrawOrAHugeScreenIsAnError) {
  EXPECT_FALSE(DrawPng(std::vector<Layer>{}).ok());
  gui::Screen s;
  s.width = 100000;
  EXPECT_FALSE(DrawPng(s).ok());
}

TEST(Draw, PngSizeIsReadFromTheHeader) {
  gui::Screen s = Gallery();
  s.width = 1920;
  s.height = 1080;  // landscape
  auto png = DrawPng(s);
  ASSERT_TRUE(png.ok());
  auto size = ReadPngSize(*png);
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(size->width, 1920);
  EXPECT_EQ(size->height, 1080);
  EXPECT_FALSE(ReadPngSize("not a png").has_value());
}

TEST(Draw, DecodingSomethingThatIsNotAPngIsAnError) {
  auto pixels = DecodePng("GIF89a and then some");
  ASSERT_FALSE(pixels.ok());
  EXPECT_NE(pixels.status().message().find("not a PNG"), std::string::npos);
  auto outlined = OutlinePng("", {0, 0, 1, 1});
  ASSERT_FALSE(outlined.ok());
  EXPECT_NE(outlined.status().message().find("the outline can be drawn on"), std::string::npos);
}

}  // namespace
}  // namespace roam::draw
