// model/events: maps the actions of an observed screen to interned hyper-event ids, applying
// Fastbot2's rule that text which changes between visits counts as empty: each widget slot
// (activity, resource-id, action kind, widget path) remembers the text it showed; once it shows
// another, the slot's hyper-events use empty text from then on (the slot memory is in Model).
// A cache per slot (under a fast 64-bit hash) of the raw text last seen and its event id makes
// a screen seen before cost a few std::hash calls and one lookup an action; only a slot or text
// not seen last time computes the stable hashes, and only new hyper-events allocate.
// Not thread-safe.
#pragma once

#include <unordered_map>

#include "gui/abstraction.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "model/model.h"

namespace roam::model {

class EventMapper {
 public:
  // Call once per observed screen, before the Map calls for its actions.
  void BeginScreen(const gui::Screen& screen);
  // The id of `action`'s hyper-event on the screen of BeginScreen (see gui::MakeHyperEvent for
  // the four fields; its Hash() is the event's key), interned into `model` when new.
  EventId Map(Model& model, const gui::Screen& screen, const gui::Action& action);

 private:
  gui::HyperEvent scratch_;
  gui::StableHash event_base_, slot_base_;  // the tag and activity hashed once per screen
  uint64_t activity_fast_ = 0;
  // Per model: the cache holds ids of one model only.
  const Model* cached_for_ = nullptr;
  struct Cached {
    uint64_t text_hash = 0;
    EventId event = 0;
  };
  std::unordered_map<uint64_t, Cached> cache_;
};

}  // namespace roam::model
