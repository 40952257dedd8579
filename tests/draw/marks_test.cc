// VisionDroid's aligned screenshots: which widgets get a numbered box of which colour, the
// widget list that matches the numbers, the boxes on the picture, and the stitched history.
#include "draw/marks.h"

#include <gtest/gtest.h>

#include "draw/draw.h"
#include "draw_test_util.h"

namespace roam::draw {
namespace {

// A form: a list (scrollable) of two clickable rows, a field, a check box, a button, a disabled
// button and one below the display.
gui::Screen Form() {
  gui::Screen s;
  s.width = 1080;
  s.height = 1920;
  int root = Add(s, -1, "android.widget.FrameLayout", {0, 0, 1080, 1920});
  int list = Add(s, root, "android.widget.ListView", {0, 300, 1080, 700});
  s.widgets[list].scrollable = true;
  int row1 = Add(s, list, "android.widget.TextView", {0, 300, 1080, 500});
  s.widgets[row1].clickable = s.widgets[row1].long_clickable = true;
  s.widgets[row1].text = "First row";
  int row2 = Add(s, list, "android.widget.TextView", {0, 500, 1080, 700});
  s.widgets[row2].clickable = true;
  int field = Add(s, root, "android.widget.EditText", {40, 800, 1040, 920});
  s.widgets[field].editable = s.widgets[field].clickable = true;
  s.widgets[field].hint = "Title";
  s.widgets[field].resource_id = "org.app:id/title";
  int check = Add(s, root, "android.widget.CheckBox", {40, 1000, 540, 1100});
  s.widgets[check].checkable = s.widgets[check].clickable = true;
  s.widgets[check].text = "Starred";
  int save = Add(s, root, "android.widget.Button", {600, 1000, 1040, 1100});
  s.widgets[save].clickable = true;
  s.widgets[save].text = "Save";
  int off = Add(s, root, "android.widget.Button", {40, 1200, 540, 1300});
  s.widgets[off].clickable = true;
  s.widgets[off].enabled = false;
  int below = Add(s, root, "android.widget.Button", {40, 2000, 540, 2100});
  s.widgets[below].clickable = true;
  return s;
}

TEST(Marks, ActionableWidgetsAreNumberedInReadingOrderWithTheirMostSpecificInteraction) {
  gui::Screen s = Form();
  auto marks = MarksFor(s);
  ASSERT_EQ(marks.size(), 6u) << "disabled and off-display widgets get no box";
  std::vector<std::pair<int, Interaction>> got;
  for (const auto& m : marks) got.push_back({m.widget, m.interaction});
  std::vector<std::pair<int, Interaction>> want = {
      {1, Interaction::kScroll}, {2, Interaction::kClick}, {3, Interaction::kClick},
      {4, Interaction::kText},   {5, Interaction::kCheck}, {6, Interaction::kClick}};
  EXPECT_EQ(got, want);
  for (size_t k = 0; k < marks.size(); ++k) EXPECT_EQ(marks[k].number, static_cast<int>(k) + 1);
}

TEST(Marks, TheWidgetListMatchesTheNumbers) {
  gui::Screen s = Form();
  std::string list = MarkList(s, MarksFor(s));
  EXPECT_NE(list.find("1. android.widget.ListView: scroll\n"), std::string::npos) << list;
  EXPECT_NE(list.find("2. android.widget.TextView \"First row\": click, long click\n"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("4. android.widget.EditText \"Title\" id/title: text input, click\n"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("5. android.widget.CheckBox \"Starred\": check\n"), std::string::npos)
      << list;
  s.widgets[6].text = "two\nlines \"quoted\"";
  std::string odd = MarkList(s, MarksFor(s));
  EXPECT_NE(odd.find("6. android.widget.Button \"two\\nlines \\\"quoted\\\"\": click\n"),
            std::string::npos)
      << odd;
  for (Interaction i : kInteractions) {
    std::string entry =
        std::string(InteractionColour(i)) + " box: " + std::string(InteractionName(i));
    EXPECT_NE(Legend().find(entry), std::string::npos) << entry;
  }
}

TEST(Marks, ARowWithoutTextOfItsOwnIsListedByTheTextsInsideIt) {
  gui::Screen s;
  s.width = 1080;
  s.height = 1920;
  int root = Add(s, -1, "android.widget.FrameLayout", {0, 0, 1080, 1920});
  int list = Add(s, root, "androidx.recyclerview.widget.RecyclerView", {0, 0, 1080, 1000});
  s.widgets[list].scrollable = true;
  int row = Add(s, list, "android.widget.LinearLayout", {0, 0, 1080, 300});
  s.widgets[row].clickable = true;
  s.widgets[row].resource_id = "org.tube:id/video_cell";
  s.widgets[Add(s, row, "android.widget.ImageView", {0, 0, 300, 300})].content_desc = "Thumbnail";
  s.widgets[Add(s, row, "android.widget.TextView", {300, 0, 1080, 150})].text = "The Moon";
  Add(s, row, "android.widget.TextView", {300, 150, 1080, 300});  // no text: skipped
  s.widgets[Add(s, row, "android.widget.TextView", {300, 150, 1080, 300})].text = "Veritasium";
  s.widgets[Add(s, row, "android.widget.TextView", {300, 150, 1080, 300})].text = "1M views";
  s.Link();
  EXPECT_EQ(WidgetLabel(s, row), "Thumbnail / The Moon / Veritasium");  // three at most
  EXPECT_EQ(WidgetLabel(s, list), "");
  const std::string listed = MarkList(s, MarksFor(s));
  EXPECT_NE(listed.find("2. android.widget.LinearLayout \"Thumbnail / The Moon / Veritasium\" "
                        "id/video_cell: click\n"),
            std::string::npos)
      << listed;
}

// 0xRRGGBB of each interaction's colour, as MarkPng paints it.
uint32_t Painted(const Pixels& p, int x, int y) { return p.At(x, y); }
bool Blueish(uint32_t c) { return (c & 0xFF) > 180 && (c >> 16 & 0xFF) < 80; }
bool Greenish(uint32_t c) {
  return (c >> 8 & 0xFF) > 110 && (c >> 16 & 0xFF) < 80 && (c & 0xFF) < 80;
}
bool Reddish(uint32_t c) { return (c >> 16 & 0xFF) > 180 && (c >> 8 & 0xFF) < 80; }

TEST(Marks, BoxesAndTagsArePaintedInTheirColours) {
  gui::Screen s = Form();
  auto screen = DrawPng(s);
  ASSERT_TRUE(screen.ok());
  auto marked = MarkPng(*screen, MarksFor(s));
  ASSERT_TRUE(marked.ok()) << marked.status().message();
  auto p = DecodePng(*marked);
  ASSERT_TRUE(p.ok());
  // The field's box (red: text input) on its left edge; the Save button's (blue) on its right.
  EXPECT_TRUE(Reddish(Painted(*p, 42, 860))) << std::hex << Painted(*p, 42, 860);
  EXPECT_TRUE(Blueish(Painted(*p, 1037, 1050))) << std::hex << Painted(*p, 1037, 1050);
  // A row's tag sits at its top-left corner; the list's (green, it holds the rows) at its
  // bottom-right, inside.
  EXPECT_TRUE(Blueish(Painted(*p, 8, 306))) << std::hex << Painted(*p, 8, 306);
  EXPECT_TRUE(Greenish(Painted(*p, 1074, 690))) << std::hex << Painted(*p, 1074, 690);
  // Nothing is drawn where no widget is operated.
  auto plain = DecodePng(*screen);
  EXPECT_EQ(p->At(540, 1500), plain->At(540, 1500));
}

TEST(Marks, MarkingSomethingThatIsNotAPngIsAnError) {
  auto r = MarkPng("not a png", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a PNG"), std::string::npos);
}

TEST(Marks, AStitchedHistoryHasEveryFrameAndItsCaption) {
  gui::Screen s = Form();
  auto screen = DrawPng(s);
  ASSERT_TRUE(screen.ok());
  std::vector<Frame> frames = {{*screen, "2. tap \"First row\": open the entry"},
                               {*screen,
                                "a long caption that takes more than one line to say "
                                "what this step served in the function under test"}};
  auto stitched = StitchPng(frames, 300);
  ASSERT_TRUE(stitched.ok()) << stitched.status().message();
  auto size = ReadPngSize(*stitched);
  ASSERT_TRUE(size.has_value());
  // Two frames 300 px wide and three 10 px gaps; 1920 scaled to 300/1080 is 534 px.
  EXPECT_EQ(size->width, 2 * 300 + 3 * 10);
  EXPECT_GT(size->height, 534);
  auto p = DecodePng(*stitched);
  ASSERT_TRUE(p.ok());
  // Caption text (dark) under each frame, and the frame's status bar (indigo) at its top.
  for (int frame = 0; frame < 2; ++frame) {
    const int left = 10 + frame * 310;
    bool dark = false;
    for (int y = 10 + 534; y < size->height && !dark; ++y)
      for (int x = left; x < left + 300 && !dark; ++x) dark = (p->At(x, y) & 0xFF) < 90;
    EXPECT_TRUE(dark) << "caption of frame " << frame;
    const uint32_t bar = p->At(left + 150, 14);
    EXPECT_TRUE((bar >> 16 & 0xFF) < 90 && (bar & 0xFF) > 120)
        << "indigo status bar: " << std::hex << bar;
  }
}

TEST(Marks, StitchingRefusesWhatItCannotDraw) {
  EXPECT_FALSE(StitchPng({}).ok());
  auto bad = StitchPng({{"GIF89a", "x"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("frame 1"), std::string::npos);
  gui::Screen s = Form();
  auto screen = DrawPng(s);
  std::vector<Frame> many(40, Frame{*screen, "step"});
  auto wide = StitchPng(many, 360);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("at most 8192"), std::string::npos);
}

}  // namespace
}  // namespace roam::draw
