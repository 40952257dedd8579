// draw/marks: VisionDroid's aligned screenshots. Every actionable widget of a screen gets a
// numbered box whose colour says how it is operated (click, long click, check, scroll, text
// input), and the same number starts its line in a widget list given to the model as text, so
// an answer naming a number names a widget. The history of steps is stitched into one image:
// each step's screen with its operated widget boxed and a caption under it. Drawing is in
// draw.cc (the cairo translation unit); choosing the marks and writing the list is pure logic
// here. Stateless; thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::draw {

enum class Interaction { kClick, kLongClick, kCheck, kScroll, kText };
inline constexpr Interaction kInteractions[] = {Interaction::kClick, Interaction::kLongClick,
                                                Interaction::kCheck, Interaction::kScroll,
                                                Interaction::kText};

std::string_view InteractionName(Interaction interaction);    // "long click"
std::string_view InteractionColour(Interaction interaction);  // "purple": the legend's word
// "blue box: click; purple box: long click; ...": the legend a prompt gives with the picture.
std::string Legend();

struct Mark {
  int widget = -1;  // index in Screen::widgets
  int number = 0;   // 1, 2, ...: the box's label and the widget list's line
  Interaction interaction = Interaction::kClick;
  gui::Rect box;
};

// The actionable widgets of `screen` (enabled, on screen, not empty), numbered in reading order
// (top to bottom, then left to right). A widget's one colour is the most specific way it is
// operated: text input, then check, scroll, click, long click.
std::vector<Mark> MarksFor(const gui::Screen& screen);

// What a person reads on widget `index`: its text, else its description, else an empty field's
// hint, else (unless it scrolls: a list's rows have boxes of their own) the texts or
// descriptions inside it, up to three joined by " / " (a list row is a layout whose words are
// its children's).
std::string WidgetLabel(const gui::Screen& screen, int index);

// One line per mark: `3. android.widget.Button "Save" id/save: click`, the text WidgetLabel's,
// cut at 60
// characters and written as a JSON string (a newline in it stays "\n": one widget, one line);
// the interactions listed are all the widget takes, its box's colour the first.
std::string MarkList(const gui::Screen& screen, const std::vector<Mark>& marks);

// `png` (any device's screenshot) with each mark's box in its colour and its number in a tag of
// that colour at the box's top-left corner, as PNG; scaled down to `out_width` pixels wide when
// that is narrower (a history frame, decoded again at each stitch: small is cheap).
Result<std::string> MarkPng(const std::string& png, const std::vector<Mark>& marks,
                            int out_width = 0);

// A screenshot decoded once, to be marked several ways (VisionDroid marks the current screen
// with every box and keeps a small frame with the operated one). Copies share the pixels, which
// are never changed. Thread-compatible.
class Picture {
 public:
  static Result<Picture> Decode(const std::string& png);
  // As MarkPng.
  Result<std::string> Marked(const std::vector<Mark>& marks, int out_width = 0) const;
  // The same, kept decoded (a history frame, stitched again at every step).
  Result<Picture> MarkedPicture(const std::vector<Mark>& marks, int out_width = 0) const;
  Result<std::string> Png() const;
  bool empty() const { return !surface_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  friend Result<std::string> StitchPng(const std::vector<struct Frame>& frames, int frame_width);
  std::shared_ptr<void> surface_;  // cairo_surface_t, kept out of this header
  int width_ = 0, height_ = 0;
};

// One step of a stitched history: its screen (already marked) and what it served.
struct Frame {
  std::string png;
  std::string caption;
  Picture picture;  // when set, used instead of decoding `png`
};
// The frames side by side on white, each scaled to `frame_width` pixels wide, its caption
// wrapped under it in up to three lines, as PNG. An error when there are no frames or one is not
// a PNG.
Result<std::string> StitchPng(const std::vector<Frame>& frames, int frame_width = 360);

}  // namespace roam::draw
