// draw/: pictures of screens. Draws a gui::Screen (a widget tree, as uiautomator dumps it) the
// way an Android phone would show it, with cairo: the status bar, the app bar with its title,
// buttons, texts, edit fields with their text or hint, check boxes, switches and radio buttons
// in their state, list rows with separators, images as placeholders, the focused field, and
// windows (dialogs over a dimmed page, menus) stacked on the page beneath. Deterministic: the
// same screens give the same bytes (fonts come from Debian's fonts-dejavu-core). The only
// translation unit that includes cairo and libpng. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::draw {

// One window: a page, or a dialog or menu drawn over what came before it.
struct Layer {
  const gui::Screen* screen = nullptr;
  bool dim = false;  // darken what is beneath first (a dialog)
};

struct DrawOptions {
  int width = 0, height = 0;  // the display; 0: the first layer's Screen::width and height
  // A widget to outline (a bug step's target), in the last layer's coordinates.
  std::optional<gui::Rect> outline;
};

// The layers as a PNG file's bytes. An error when there is nothing to draw or cairo fails.
Result<std::string> DrawPng(const std::vector<Layer>& layers, const DrawOptions& options = {});
// One screen.
Result<std::string> DrawPng(const gui::Screen& screen, const DrawOptions& options = {});

// `png` (any device's screenshot) with a red frame drawn around `box`, as PNG.
Result<std::string> OutlinePng(const std::string& png, const gui::Rect& box);

// A PNG's pixels, row by row, each 0xRRGGBB (VisionDroid's annotations and tests read them).
struct Pixels {
  int width = 0, height = 0;
  std::vector<uint32_t> rgb;
  uint32_t At(int x, int y) const { return rgb[static_cast<size_t>(y) * width + x]; }
};
Result<Pixels> DecodePng(const std::string& png);

// Whether `bytes` begin with PNG's eight-byte signature.
bool IsPng(std::string_view bytes);

// The size a PNG file says it has (its IHDR); nullopt when `png` is not a PNG.
struct PngSize {
  int width = 0, height = 0;
};
std::optional<PngSize> ReadPngSize(std::string_view png);

}  // namespace roam::draw
