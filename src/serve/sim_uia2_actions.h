// sim_uia2_actions: a W3C actions body (POST /session/ID/actions) read as the UiAutomator2 server
// reads it, so that what it refuses is refused here with its status and message: Gson's typed
// read of W3CActionsModel (a string field takes a string or a number, a number field a number or
// a numeric string; anything else is a JsonSyntaxException, 400), the model's required fields
// (BaseModel.validate), ActionsPreprocessor (ids, types, pointer types, pointerCancel) and
// ActionsTokenizer (durations, a pointerDown or pointerUp needs a pointerMove with absolute
// coordinates before it, two downs or ups at one instant). Read from appium-uiautomator2-server
// 10.6.2 (utils/w3c). Gson's messages carry "at line L column C path P"; these say only "at path
// P". What passes is a list of touches for one finger. Where the simulator is stricter than the
// server (a key source, a second pointer, a mouse or a pen: the server would inject them) the
// answer is 500 "unknown error" saying so. Plain functions: thread-safe.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gui/widget.h"

namespace roam::serve {

// One press of the finger: down at (x0, y0), up at (x1, y1) `duration_ms` later.
struct W3CTouch {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int64_t duration_ms = 0;
};

struct W3CActionsResult {
  std::string error;    // "" when the chain is valid; else the W3C error code
  std::string message;  // the server's message for it
  std::vector<W3CTouch> touches;
  int64_t total_ms = 0;  // the chain's length in time (pauses and moves, aligned to 20 ms)
};

// The bounds of a cached element (an origin that names an element); nullopt: not in the cache.
using ElementBounds = std::function<std::optional<gui::Rect>(const std::string& id)>;

W3CActionsResult ReadW3CActions(const nlohmann::json& body, const ElementBounds& element);

}  // namespace roam::serve
