// A `uiautomator dump` from a device: parsed, then abstracted as the step loop does.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/uiautomator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view xml(reinterpret_cast<const char*>(data), size);
  auto screen = roam::gui::ParseDump(xml);
  if (!screen.ok()) return 0;
  (void)roam::gui::ScreenKey(*screen);
  std::vector<roam::gui::Action> actions;
  roam::gui::ActionsFor(*screen, actions);
  (void)roam::gui::WriteDump(*screen);
  return 0;
}
