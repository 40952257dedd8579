// model/events: maps the actions of an observed screen to interned hyper-event ids, applying
// Fastbot2's rule that text which changes between visits counts as empty: each widget slot
// (activity, resource-id, action kind, widget path) remembers the text it showed; once it shows
// another, the slot's hyper-events use empty text from then on (the slot memory is in Model).
// Reuses scratch strings, so mapping a screen allocates only for hyper-events never seen.
// Not thread-safe.
#pragma once

#include "gui/abstraction.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "model/model.h"

namespace roam::model {

class EventMapper {
 public:
  // The id of `action`'s hyper-event on `screen` (see gui::MakeHyperEvent for the four fields),
  // interned into `model` when new.
  EventId Map(Model& model, const gui::Screen& screen, const gui::Action& action);

 private:
  gui::HyperEvent scratch_;
};

}  // namespace roam::model
