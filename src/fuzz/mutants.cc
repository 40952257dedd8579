#include "fuzz/mutants.h"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

namespace roam::fuzz {

std::string Mutant::PrefixKey(size_t n) const {
  std::string k = std::to_string(pivot);
  for (size_t i = 0; i < n && i < tau.size(); ++i) k += fmt::format("\n{}", tau[i].Key());
  return k;
}

std::vector<std::pair<Event, const Edge*>> FirstEvents(const Layout& pivot,
                                                       const ActiveViews& active,
                                                       const Model& model,
                                                       const std::set<std::string>& touched,
                                                       const MutantSettings& settings) {
  std::vector<std::pair<Event, const Edge*>> out;
  const gui::Screen& s = pivot.screen;
  Groups groups = FindGroups(s);
  std::vector<int> actives = active.In(s, groups);
  for (const Edge* edge : model.Out(pivot.abs)) {
    if (!edge->example.widget()) continue;
    std::map<int, int> per_group;  // group node (-1: none) -> views taken
    for (int v = 0; v < static_cast<int>(s.widgets.size()); ++v) {
      if (WidgetType(s, v) != edge->example.type || !Takes(s, v, edge->example.kind)) continue;
      if (std::count(actives.begin(), actives.end(), v)) continue;
      if (touched.count(WidgetSignature(s, v))) continue;
      bool independent = true;
      for (int a : actives) independent &= Independent(s, groups, v, a);
      if (!independent) continue;
      if (++per_group[groups.group_of[v]] > settings.max_views_per_group) continue;
      Event e = EventOn(s, edge->example.kind, v);
      e.text = edge->example.text;
      out.emplace_back(std::move(e), edge);
    }
  }
  return out;
}

bool ReturnedToPivot(const Layout& pivot, const Layout& end, const MutantSettings& settings) {
  return TypeSimilarity(pivot, end) >= settings.min_pivot_similarity;
}

namespace {

struct Node {
  std::vector<Event> tau;
  std::vector<uint64_t> states;
  std::string loop;
};

std::vector<Mutant> SearchTraces(int p, const Layout& pivot, const ActiveViews& active,
                                 const std::set<std::string>& touched, const Model& model,
                                 const std::set<std::string>& failed,
                                 std::map<std::string, int>& loop_uses,
                                 const MutantSettings& settings) {
  std::vector<Mutant> out;
  std::deque<Node> queue;
  for (auto& [event, edge] : FirstEvents(pivot, active, model, touched, settings))
    queue.push_back({{event}, {edge->to}, fmt::format("{}>{:x}", edge->type_key, edge->to)});
  int expansions = 0;
  while (!queue.empty() && static_cast<int>(out.size()) < settings.max_per_pivot &&
         expansions++ < settings.max_expansions) {
    Node node = std::move(queue.front());
    queue.pop_front();
    Mutant m{p, node.tau, node.states, node.loop};
    bool pruned = false;
    for (size_t n = 1; n <= m.tau.size() && !pruned; ++n) pruned = failed.count(m.PrefixKey(n)) > 0;
    if (pruned) continue;
    if (node.states.back() == pivot.abs) {
      if (loop_uses[node.loop] < settings.max_loop_uses) {
        ++loop_uses[node.loop];
        out.push_back(std::move(m));
      }
      continue;
    }
    if (static_cast<int>(node.tau.size()) >= settings.max_length) continue;
    for (const Edge* edge : model.PrunedOut(node.states.back())) {
      bool seen = edge->to != pivot.abs &&
                  std::count(node.states.begin(), node.states.end(), edge->to) > 0;
      if (seen) continue;
      Node next = node;
      next.tau.push_back(edge->example);
      next.states.push_back(edge->to);
      next.loop += fmt::format(",{}>{:x}", edge->type_key, edge->to);
      queue.push_back(std::move(next));
    }
  }
  return out;
}

}  // namespace

std::vector<Mutant> GenerateMutants(const std::vector<Layout>& layouts,
                                    const std::vector<Event>& events,
                                    const std::vector<ActiveViews>& active, const Model& model,
                                    int last_effect, const std::set<std::string>& failed,
                                    const MutantSettings& settings) {
  std::vector<std::vector<Mutant>> per_pivot;
  std::map<std::string, int> loop_uses;
  const int n = std::min(static_cast<int>(layouts.size()) - 1, static_cast<int>(events.size()));
  std::set<std::string> touched;
  for (int p = 0; p < std::min(n, last_effect); ++p) {
    if (events[p].widget()) touched.insert(events[p].signature);
    if (!layouts[p].in_app) continue;
    per_pivot.push_back(
        SearchTraces(p, layouts[p], active[p], touched, model, failed, loop_uses, settings));
  }
  // Round robin over pivots, so the bound per seed does not spend everything on the first ones.
  std::vector<Mutant> out;
  for (size_t round = 0; static_cast<int>(out.size()) < settings.max_per_seed; ++round) {
    bool any = false;
    for (auto& list : per_pivot)
      if (round < list.size() && static_cast<int>(out.size()) < settings.max_per_seed) {
        out.push_back(std::move(list[round]));
        any = true;
      }
    if (!any) break;
  }
  return out;
}

}  // namespace roam::fuzz
