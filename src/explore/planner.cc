#include "explore/planner.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/fields.h"
#include "sim/bug_distance.h"
#include "sim/interpreter.h"
#include "sim/spec.h"

namespace roam::explore {

namespace {

using gui::ActionKind;

// Texts a user would type, after the spec's own literals (credentials, expected answers).
const char* const kFallbackTexts[] = {"Roam", "42", "roam@example.org", "https://example.org"};

constexpr size_t kMapTextLimit = 64;  // bytes of a text that tell places apart
constexpr size_t kMaxStrays = 256;    // walks of one last-resort search that may stray

void CollectLiterals(const sim::Cond& c, std::vector<std::string>& out) {
  for (const sim::ValueExpr* v : {&c.a, &c.b}) {
    if (v->kind != sim::ValueExpr::Kind::kLiteral) continue;
    if (v->literal.type == sim::Val::Type::kString && !v->literal.s.empty())
      out.push_back(v->literal.s);
    if (v->literal.type == sim::Val::Type::kInt) out.push_back(std::to_string(v->literal.i));
  }
  for (const auto& k : c.kids) CollectLiterals(k, out);
}

}  // namespace

struct PlannerStrategy::Node {
  std::unique_ptr<sim::SimState> state;
  int parent;
  gui::Action action;  // the action that led here from parent
  int depth;
};

std::vector<std::string> PlannerStrategy::Texts(const sim::AppSpec& spec,
                                                const PlannerOptions& options) {
  std::vector<std::string> literals, texts;
  for (const auto& c : spec.conds()) CollectLiterals(c, literals);
  for (const char* t : kFallbackTexts) literals.push_back(t);
  for (auto& t : literals) {
    if (static_cast<int>(texts.size()) >= options.max_texts) break;
    if (std::find(texts.begin(), texts.end(), t) == texts.end()) texts.push_back(t);
  }
  return texts;
}

PlannerStrategy::PlannerStrategy(std::shared_ptr<const sim::AppSpec> spec,
                                 sim::SimOptions sim_options, PlannerOptions options)
    : spec_(spec),
      options_(options),
      shadow_(spec, sim_options),
      planner_(spec, sim_options),
      texts_(Texts(*spec, options)) {
  // The run starts from cleared data, as the device does.
  shadow_.ClearData();
}

PlannerStrategy::~PlannerStrategy() = default;

void PlannerStrategy::AddSettings(nlohmann::json& config) const {
  config["planner"] = {{"max_trials", options_.max_trials},
                       {"map_trials", options_.map_trials},
                       {"max_depth", options_.max_depth},
                       {"max_texts", options_.max_texts},
                       {"retry_after", options_.retry_after}};
}

void PlannerStrategy::KeepInApp(sim::SimApp& app) {
  if (app.screen().package != app.package()) app.Launch();
}

void PlannerStrategy::Candidates(const gui::Screen& screen, const std::vector<std::string>& texts,
                                 std::vector<gui::Action>& out) {
  std::vector<gui::Action> widget_actions;
  gui::ActionsFor(screen, widget_actions);
  out.clear();
  for (auto& a : widget_actions) {
    if (a.kind != ActionKind::kInputText) {
      out.push_back(std::move(a));
      continue;
    }
    for (const auto& t : texts) {
      out.push_back(a);
      out.back().text = t;
    }
    // And what the field says it wants (gui/fields.h), as the other strategies type it: a
    // field's pattern is no literal of the spec's conditions.
    if (a.widget < 0 || a.widget >= static_cast<int>(screen.widgets.size())) continue;
    for (const auto& t : gui::FieldValues(gui::ClassifyField(screen.widgets[a.widget]))) {
      if (std::find(texts.begin(), texts.end(), t) != texts.end()) continue;
      out.push_back(a);
      out.back().text = t;
    }
  }
  for (ActionKind k : {ActionKind::kBack, ActionKind::kMenu, ActionKind::kRotate,
                       ActionKind::kRestart, ActionKind::kSwipeRight, ActionKind::kSwipeLeft,
                       ActionKind::kSwipeUp, ActionKind::kSwipeDown})
    out.push_back(gui::MakeGlobalAction(k));
}

uint64_t PlannerStrategy::MapKey(const gui::Screen& screen) {
  gui::StableHash h;
  h.Add(gui::ScreenKey(screen));
  // The screen key leaves out texts that are no widget's label, so a "Sign out?" dialog and a
  // "Discard changes?" one with the same buttons would be one place. Texts outside scrolling
  // lists tell them apart (digits masked: a counter is no new place); rows are the app's data.
  const auto& ws = screen.widgets;
  for (int i = 0; i < static_cast<int>(ws.size());) {
    const gui::Widget& w = ws[i];
    if (w.editable) {
      h.Add(uint64_t{!w.text.empty()});
    } else {
      h.AddMasked(w.text, kMapTextLimit).AddMasked(w.content_desc, kMapTextLimit);
    }
    i = w.scrollable ? std::max(w.subtree_end, i + 1) : i + 1;
  }
  return h.value();
}

void PlannerStrategy::MapCandidates(const gui::Screen& screen,
                                    std::vector<gui::Action>& out) const {
  Candidates(screen, texts_, out);
  // A field is typed into while it is empty, what it asks for first: every text in every field
  // of a three-field form would be hundreds of places.
  std::vector<gui::Action> kept;
  int field = -1;  // the field whose texts are being kept
  size_t field_start = 0;
  auto type = [&](const gui::Action& a, const std::string& text) {
    if (static_cast<int>(kept.size() - field_start) >= options_.max_texts) return;
    for (size_t k = field_start; k < kept.size(); ++k)
      if (kept[k].text == text) return;
    kept.push_back(a);
    kept.back().text = text;
  };
  for (auto& a : out) {
    if (a.kind != ActionKind::kInputText) {
      kept.push_back(std::move(a));
      continue;
    }
    if (a.widget < 0 || a.widget >= static_cast<int>(screen.widgets.size())) continue;
    const gui::Widget& w = screen.widgets[a.widget];
    if (!w.text.empty()) continue;
    if (a.widget != field) {
      field = a.widget;
      field_start = kept.size();
      for (const auto& t : gui::FieldValues(gui::ClassifyField(w))) type(a, t);
    }
    type(a, a.text);
  }
  out = std::move(kept);
}

std::vector<uint32_t> PlannerStrategy::Try(const gui::Action& action) {
  planner_.SetCoverageMask(no_coverage_);
  planner_.Perform(action);
  planner_.DrainFaults();
  KeepInApp(planner_);
  std::vector<uint32_t> units;
  const auto& mask = planner_.CoverageMask();
  for (size_t u = 0; u < mask.size(); ++u)
    if (mask[u]) units.push_back(static_cast<uint32_t>(u));
  return units;
}

bool PlannerStrategy::RunsNew(const std::vector<uint32_t>& units) const {
  const auto& covered = shadow_.CoverageMask();
  return std::any_of(units.begin(), units.end(), [&](uint32_t u) { return !covered[u]; });
}

PlannerStrategy::PlanResult PlannerStrategy::PlanOnMap() {
  if (no_coverage_.empty()) no_coverage_.assign(shadow_.units_total(), 0);
  int trials = 0;
  Stray stray;
  const auto shadow = shadow_.Save();
  PlanResult r = SearchMap(*shadow, {}, trials, &stray, /*all_ways=*/false);
  if (r != PlanResult::kNone) return r;
  // Nothing within reach by the way each action went last. Last resorts (what they leave
  // unsearched is left, not searched again at the next step): the other ways actions have
  // gone, from here, then from where a walk strayed to, where the way the map expected may
  // open (the crash it ran into relaunched the app and reset a counter).
  if (SearchMap(*shadow, {}, trials, &stray, true) == PlanResult::kRoute ||
      (stray.state &&
       SearchMap(*stray.state, stray.plan, trials, nullptr, true) == PlanResult::kRoute))
    return PlanResult::kRoute;
  plan_.clear();
  return PlanResult::kNone;
}

PlannerStrategy::PlanResult PlannerStrategy::SearchMap(const sim::SimState& start,
                                                       const std::vector<gui::Action>& prefix,
                                                       int& trials, Stray* stray, bool all_ways) {
  // A place reached by the breadth-first search over the map: its key, and the edge its parent
  // visit took to get here.
  struct Visit {
    uint64_t key;
    int parent;  // index into visits, -1 at the start
    size_t edge;
  };
  planner_.Load(start);
  const uint64_t here = MapKey(planner_.screen());
  std::vector<gui::Action> candidates;
  std::vector<int> route;
  std::vector<Visit> visits;
  std::unordered_set<uint64_t> seen;
  // With all_ways, the ways (place, edge, place expected) a walk of this search strayed from:
  // not taken again. Without, a walk that strays makes its last edge lead elsewhere.
  std::unordered_set<uint64_t> failed;
  auto way = [](uint64_t place, size_t e, uint64_t to) {
    return gui::StableHash().Add(place).Add(uint64_t{e}).Add(to).value();
  };

  // Takes the route of the search tree to `visit` on the planner, then `last` (an edge of the
  // visit's place) if given. The map does not see hidden state, so an edge may lead elsewhere
  // now or run other code: the map keeps every place it has led to and the units it ran last.
  // plan_ holds the actions taken.
  enum class Walk { kNewCode, kStrayed, kArrived };
  auto walk = [&](int visit, std::optional<size_t> last) {
    route.clear();
    for (int v = visit; visits[v].parent >= 0; v = visits[v].parent) route.push_back(v);
    std::reverse(route.begin(), route.end());
    planner_.Load(start);
    plan_ = prefix;
    auto take = [&](uint64_t place, size_t e, std::optional<uint64_t> expect) {
      Edge& edge = map_[place].edges[e];
      plan_.push_back(edge.action);
      edge.units = Try(edge.action);
      ++trials;
      const uint64_t to = MapKey(planner_.screen());
      std::erase(edge.to, to);
      edge.to.push_back(to);
      if (edge.to.size() > kMaxWays) edge.to.erase(edge.to.begin());
      if (RunsNew(edge.units)) return Walk::kNewCode;
      if (!expect || to == *expect) return Walk::kArrived;
      if (all_ways) failed.insert(way(place, e, *expect));
      if (stray && !stray->state) {
        stray->state = planner_.Save();
        stray->plan = plan_;
      }
      return Walk::kStrayed;
    };
    for (int v : route) {
      Walk w = take(visits[visits[v].parent].key, visits[v].edge, visits[v].key);
      if (w != Walk::kArrived) return w;
    }
    return last ? take(visits[visit].key, *last, std::nullopt) : Walk::kArrived;
  };

  while (trials < options_.map_trials) {
    // Breadth-first over the map from here: the nearest place with actions not yet tried is
    // walked to and they are tried; the nearest edge known to run uncovered code is walked
    // and taken. A walk that strays from the map starts the search again, without that way.
    visits.assign(1, {here, -1, 0});
    seen = {here};
    bool strayed = false;
    for (size_t v = 0; v < visits.size() && !strayed && trials < options_.map_trials; ++v) {
      const int vi = static_cast<int>(v);
      const uint64_t key = visits[v].key;
      if (auto it = map_.find(key); it == map_.end() || !it->second.complete) {
        Walk w = walk(vi, std::nullopt);
        if (w == Walk::kNewCode) return PlanResult::kRoute;
        strayed = w == Walk::kStrayed;
        if (strayed) break;
        const auto there = planner_.Save();
        MapCandidates(planner_.screen(), candidates);
        Place& place = map_[key];
        while (place.edges.size() < candidates.size() && trials < options_.map_trials) {
          const gui::Action& action = candidates[place.edges.size()];
          planner_.Load(*there);
          auto units = Try(action);
          ++trials;
          place.edges.push_back({action, {MapKey(planner_.screen())}, std::move(units)});
          if (RunsNew(place.edges.back().units)) {
            plan_.push_back(action);
            return PlanResult::kRoute;
          }
        }
        place.complete = place.edges.size() >= candidates.size();
        if (!place.complete) break;  // out of trials
      }
      const std::vector<Edge>& edges = map_[key].edges;  // a walk changes edges, not their number
      for (size_t e = 0; e < edges.size() && !strayed; ++e) {
        if (RunsNew(edges[e].units)) {
          Walk w = walk(vi, e);
          if (w == Walk::kNewCode) return PlanResult::kRoute;
          strayed = w == Walk::kStrayed;
        }
        for (auto to = edges[e].to.rbegin(); to != edges[e].to.rend(); ++to) {  // latest first
          if (!failed.contains(way(key, e, *to)) && seen.insert(*to).second)
            visits.push_back({*to, vi, e});
          if (!all_ways) break;
        }
      }
    }
    // Ways that hidden state closes can be many (every list the walk would need empty): after
    // kMaxStrays of them the map is taken to have nothing within reach.
    if (!strayed || (all_ways && failed.size() >= kMaxStrays)) break;
  }
  return trials < options_.map_trials ? PlanResult::kNone : PlanResult::kLater;
}

PlannerStrategy::PlanResult PlannerStrategy::Plan() {
  plan_.clear();
  plan_pos_ = 0;
  const size_t base = shadow_.units_covered();
  if (base == shadow_.units_total()) return PlanResult::kNone;
  if (PlanResult r = PlanOnMap(); r != PlanResult::kNone) return r;
  // The map has nothing left within reach: look for what hidden state hides.
  planner_.SetCoverageMask(shadow_.CoverageMask());
  auto route = Search(
      shadow_, planner_, options_, texts_,
      [&](sim::SimApp& app, const std::vector<sim::Fault>&) { return app.units_covered() > base; },
      [](sim::SimApp& app) { return gui::ContentHash(app.screen()); });
  if (!route) return PlanResult::kNone;
  plan_ = std::move(*route);
  return PlanResult::kRoute;
}

std::optional<std::vector<gui::Action>> PlannerStrategy::Search(
    sim::SimApp& from, sim::SimApp& planner, const PlannerOptions& options,
    const std::vector<std::string>& texts, const SearchGoal& goal, const SearchKey& key,
    const SearchDistance& distance) {
  std::vector<Node> nodes;
  nodes.push_back({from.Save(), -1, {}, 0});
  std::unordered_set<uint64_t> seen = {key(from)};
  // Nodes by depth plus distance, then distance, then age: without a distance, breadth-first.
  using Entry = std::tuple<int, int, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
  auto push = [&](int n) {
    const int h = distance ? distance(*nodes[n].state) : 0;
    frontier.push({nodes[n].depth + h, h, n});
  };
  push(0);
  std::vector<gui::Action> candidates;
  int trials = 0;
  while (!frontier.empty() && trials < options.max_trials) {
    const int n = std::get<2>(frontier.top());
    frontier.pop();
    if (nodes[n].depth >= options.max_depth) continue;
    planner.Load(*nodes[n].state);
    Candidates(planner.screen(), texts, candidates);
    for (const auto& action : candidates) {
      if (++trials > options.max_trials) break;
      planner.Load(*nodes[n].state);
      planner.Perform(action);
      if (goal(planner, planner.DrainFaults())) {
        // Found: the route is the chain of actions back to the root, then this one.
        std::vector<gui::Action> route = {action};
        for (int i = n; nodes[i].parent >= 0; i = nodes[i].parent) route.push_back(nodes[i].action);
        std::reverse(route.begin(), route.end());
        return route;
      }
      KeepInApp(planner);
      if (!seen.insert(key(planner)).second) continue;
      nodes.push_back({planner.Save(), n, action, nodes[n].depth + 1});
      push(static_cast<int>(nodes.size()) - 1);
    }
  }
  return std::nullopt;
}

std::optional<std::vector<gui::Action>> PlannerStrategy::RouteToBug(
    std::shared_ptr<const sim::AppSpec> spec, const sim::SimOptions& sim_options,
    const PlannerOptions& options, const std::string& bug_id) {
  sim::SimApp start(spec, sim_options), planner(spec, sim_options);
  start.ClearData();
  start.Launch();
  start.DrainFaults();
  auto goal = [&](sim::SimApp&, const std::vector<sim::Fault>& faults) {
    for (const auto& f : faults)
      if (f.bug_id == bug_id) return true;
    return false;
  };
  auto logic = [](sim::SimApp& app) { return app.LogicHash(); };
  // Toward the pages that raise the bug: a news reader's stories, comments, settings and drafts
  // are too many states for breadth-first search to reach a form eight screens deep.
  const sim::BugDistance to_bug(*spec, bug_id);
  return Search(start, planner, options, Texts(*spec, options), goal, logic,
                [&](const sim::SimState& state) { return to_bug.From(state); });
}

void PlannerStrategy::SyncShadow() {
  if (!started_) {
    shadow_.Launch();
    started_ = true;
  }
  KeepInApp(shadow_);
  shadow_.DrainFaults();
}

gui::Action PlannerStrategy::Next(const StepView& view, Rng& rng) {
  SyncShadow();
  gui::Action action;
  if (gui::ScreenKey(shadow_.screen()) != view.state) {
    // Out of step with the device (data kept from an earlier run, a restored snapshot...):
    // plans would be wrong, so choose at random among what the device shows.
    ++desyncs_;
    plan_.clear();
    action = view.actions.empty() ? gui::MakeGlobalAction(ActionKind::kBack)
                                  : view.actions[rng.Below(view.actions.size())];
    if (action.kind == ActionKind::kInputText) action.text = texts_[rng.Below(texts_.size())];
  } else {
    const bool wait =
        shadow_.units_covered() == failed_at_units_ && view.step - failed_at_step_ < retry_wait_;
    const PlanResult planned = plan_pos_ < plan_.size() ? PlanResult::kRoute
                               : wait                   ? PlanResult::kNone
                                                        : Plan();
    if (planned != PlanResult::kRoute) {
      if (planned == PlanResult::kNone && !wait) {
        // A search's last resorts are dear: searching in vain every 100 steps once everything
        // within reach was covered made 10,000 events take ten times as long.
        retry_wait_ =
            shadow_.units_covered() == failed_at_units_ ? 2 * retry_wait_ : options_.retry_after;
        failed_at_units_ = shadow_.units_covered();
        failed_at_step_ = view.step;
      }
      // Nothing new within reach: wander (the widgets the device shows, or back).
      std::vector<gui::Action> candidates;
      Candidates(shadow_.screen(), texts_, candidates);
      plan_ = {candidates[rng.Below(candidates.size())]};
      plan_pos_ = 0;
    }
    action = plan_[plan_pos_++];
  }
  chosen_ = action;
  return action;
}

void PlannerStrategy::Learn(const Transition& transition) {
  // The shadow mirrors what the device did, which is not always what Next returned: a harness
  // (explore/harness.h) may replace the choice, and then the plan no longer holds.
  const gui::Action& done = transition.action;
  if (done.kind != chosen_.kind || done.target != chosen_.target || done.text != chosen_.text) {
    plan_.clear();
    plan_pos_ = 0;
  }
  SyncShadow();  // the harness may act before the planner is first asked
  shadow_.Perform(done);
}

}  // namespace roam::explore
