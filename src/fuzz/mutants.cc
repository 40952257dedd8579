#include "fuzz/mutants.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include <fmt/format.h>

#include "fuzz/oracle.h"
#include "fuzz/seeds.h"

namespace roam::fuzz {

std::string Mutant::PrefixKey(size_t n) const {
  std::string k = std::to_string(pivot);
  for (size_t i = 0; i < n && i < tau.size(); ++i) k += fmt::format("\n{}", tau[i].Key());
  return k;
}

int Mutant::Length() const {
  static const std::string overflow = fmt::format("|{}", gui::kOverflowDescription);
  return static_cast<int>(std::count_if(tau.begin(), tau.end(), [](const Event& e) {
    return !(e.kind == gui::ActionKind::kClick && e.signature.ends_with(overflow));
  }));
}

std::string TriedTaus::Key(const Mutant& m) {
  return m.loop.starts_with("unseen>") && !m.tau.empty() ? m.loop + "\n" + m.tau[0].Key() : m.loop;
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
  auto may_start = [&](int v) {
    if (std::count(actives.begin(), actives.end(), v)) return false;
    if (touched.count(WidgetSignature(s, v))) return false;
    // Cancel, Discard, ... abandon what the seed is in the middle of: not independent of it.
    if (IsNegativeAnswer(s.widgets[v])) return false;
    for (int a : actives)
      if (!Independent(s, groups, v, a)) return false;
    return true;
  };
  std::set<std::string> seen_clicks;  // TypeKeys of clicks M knows from the pivot's state
  for (const Edge* edge : model.Out(pivot.abs)) {
    if (!edge->example.widget() || IsScrollOrSwipe(edge->example.kind)) continue;
    if (edge->example.kind == gui::ActionKind::kClick) seen_clicks.insert(edge->type_key);
    std::map<int, int> per_group;  // group node (-1: none) -> views taken
    for (int v = 0; v < static_cast<int>(s.widgets.size()); ++v) {
      if (WidgetType(s, v) != edge->example.type || !Takes(s, v, edge->example.kind)) continue;
      if (!may_start(v)) continue;
      if (++per_group[groups.group_of[v]] > settings.max_views_per_group) continue;
      Event e = EventOn(s, edge->example.kind, v);
      e.text = edge->example.text;
      out.emplace_back(std::move(e), edge);
    }
  }
  if (!settings.try_unseen_clicks) return out;
  std::map<std::pair<std::string, int>, int> per_group;  // (type, group node) -> views taken
  for (int v = 0; v < static_cast<int>(s.widgets.size()); ++v) {
    if (!Takes(s, v, gui::ActionKind::kClick)) continue;
    Event e = EventOn(s, gui::ActionKind::kClick, v);
    if (seen_clicks.count(e.TypeKey()) || !may_start(v)) continue;
    if (++per_group[{e.type, groups.group_of[v]}] > settings.max_views_per_group) continue;
    out.emplace_back(std::move(e), nullptr);
  }
  return out;
}

bool ReturnedToPivot(const Layout& pivot, const Layout& end, const MutantSettings& settings) {
  return TypeSimilarity(pivot, end) >= settings.min_pivot_similarity;
}

namespace {

struct Node {
  size_t first = 0;  // which first event the path starts with
  std::vector<Event> tau;
  std::vector<uint64_t> states;
  std::string loop;
};

std::vector<Mutant> SearchTraces(int p, const Layout& pivot, const ActiveViews& active,
                                 const std::set<std::string>& touched, const Model& model,
                                 const std::set<std::string>& failed,
                                 std::map<std::string, int>& loop_uses,
                                 const MutantSettings& settings, Rng* rng, const TriedTaus* tried) {
  std::vector<Mutant> out;
  std::vector<Mutant> again;  // τ run at this state before: only when too few others are found
  // With a generator, collect more candidates than needed and draw among them, so long loops get
  // their chance beside the short ones the breadth-first search finds first.
  const int want =
      rng ? settings.max_per_pivot * settings.candidate_factor : settings.max_per_pivot;
  std::deque<Node> queue;
  size_t firsts = 0;
  for (auto& [event, edge] : FirstEvents(pivot, active, model, touched, settings)) {
    if (edge)
      queue.push_back(
          {firsts++, {event}, {edge->to}, fmt::format("{}>{:x}", edge->type_key, edge->to)});
    else  // a click M has not seen here: a τ of its own, hoped to come back to the pivot
      queue.push_back({firsts++, {event}, {pivot.abs}, "unseen>" + event.TypeKey()});
  }
  // Each state is expanded once per first event: the search reaches deep loops instead of
  // enumerating every path of the shallow ones.
  std::set<std::pair<size_t, uint64_t>> expanded;
  int expansions = 0;
  std::map<std::string, int> found_loops;
  while (!queue.empty() && static_cast<int>(out.size()) < want &&
         expansions++ < settings.max_expansions) {
    Node node = std::move(queue.front());
    queue.pop_front();
    Mutant m{p, node.tau, node.states, node.loop};
    bool pruned = false;
    for (size_t n = 1; n <= m.tau.size() && !pruned; ++n) pruned = failed.count(m.PrefixKey(n)) > 0;
    if (pruned) continue;
    if (node.states.back() == pivot.abs) {
      if (loop_uses[node.loop] + found_loops[node.loop] < settings.max_loop_uses) {
        if (tried && tried->Has(pivot.abs, m)) {
          again.push_back(std::move(m));
        } else {
          ++found_loops[node.loop];
          out.push_back(std::move(m));
        }
      }
      continue;
    }
    if (m.Length() >= settings.max_length) continue;
    if (!expanded.emplace(node.first, node.states.back()).second) continue;
    for (const Edge* edge : model.PrunedOut(node.states.back())) {
      // τ does not type into a field the seed typed into: that overwrites the seed's input.
      if (edge->example.kind == gui::ActionKind::kInputText &&
          touched.count(edge->example.signature))
        continue;
      if (IsScrollOrSwipe(edge->example.kind)) continue;
      bool seen =
          edge->to != pivot.abs && std::count(node.states.begin(), node.states.end(), edge->to) > 0;
      if (seen) continue;
      Node next = node;
      next.tau.push_back(edge->example);
      next.states.push_back(edge->to);
      next.loop += fmt::format(",{}>{:x}", edge->type_key, edge->to);
      queue.push_back(std::move(next));
    }
  }
  if (rng && static_cast<int>(out.size()) > settings.max_per_pivot) {
    // A weighted draw without replacement: each candidate's key u^(1/w), w = 2^-(|τ|-1), highest
    // first.
    std::vector<std::pair<double, size_t>> keys;
    for (size_t i = 0; i < out.size(); ++i)
      keys.emplace_back(
          std::pow(rng->Unit(), std::ldexp(1.0, static_cast<int>(out[i].tau.size()) - 1)), i);
    std::sort(keys.rbegin(), keys.rend());
    std::vector<Mutant> drawn;
    for (const auto& [key, i] : keys) drawn.push_back(std::move(out[i]));
    out = std::move(drawn);
  }
  if (rng && static_cast<int>(out.size()) < settings.max_per_pivot)
    std::shuffle(again.begin(), again.end(), rng->engine());
  for (auto& m : again)
    if (loop_uses[m.loop] + found_loops[m.loop]++ < settings.max_loop_uses)
      out.push_back(std::move(m));
  if (static_cast<int>(out.size()) > settings.max_per_pivot) out.resize(settings.max_per_pivot);
  for (const auto& m : out) ++loop_uses[m.loop];
  return out;
}

}  // namespace

std::vector<int> PivotOrder(const std::vector<Layout>& layouts, const std::vector<Event>& events,
                            int pivots, const std::set<std::string>& ignored,
                            double min_pair_similarity, int first_pivot) {
  // A pivot right before an effect is where an independent τ can show it missing.
  const std::vector<char> lands = EffectLands(layouts, ignored, min_pair_similarity);
  const int n = static_cast<int>(layouts.size());
  std::vector<int> next_effect(n + 1, n);  // smallest j > t where an effect lands
  for (int j = n - 1; j > 0; --j) next_effect[j - 1] = lands[j] ? j : next_effect[j];
  // Pivot p comes before event p, so the effect of event p lands at p + 1 at the soonest.
  auto distance = [&](int p) { return next_effect[p] - p; };
  std::vector<int> order;
  for (int p = std::max(first_pivot, 0); p < pivots; ++p) order.push_back(p);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return distance(a) < distance(b); });
  // The round of each pivot: how many nearer pivots precede the same event on the same state.
  std::vector<int> round(std::max(pivots, 0), 0);
  std::map<std::pair<uint64_t, std::string>, int> seen;
  for (int p : order) {
    const int j = next_effect[p];
    if (j >= n || j - 1 >= static_cast<int>(events.size())) continue;
    round[p] = seen[{layouts[j - 1].abs, events[j - 1].Key()}]++;
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return round[a] < round[b]; });
  return order;
}

std::vector<Mutant> GenerateMutants(const std::vector<Layout>& layouts,
                                    const std::vector<Event>& events,
                                    const std::vector<ActiveViews>& active, const Model& model,
                                    int last_effect, const std::set<std::string>& failed,
                                    const MutantSettings& settings,
                                    const std::set<std::string>& ignored,
                                    double min_pair_similarity, Rng* rng, int first_pivot,
                                    const TriedTaus* tried) {
  std::map<std::string, int> loop_uses;
  const int n = std::min(static_cast<int>(layouts.size()) - 1, static_cast<int>(events.size()));
  const int pivots = std::min(n, last_effect);
  std::vector<std::set<std::string>> touched(std::max(pivots, 0));
  std::set<std::string> so_far;
  for (int p = 0; p < pivots; ++p) {
    if (events[p].widget()) so_far.insert(events[p].signature);
    touched[p] = so_far;
  }
  std::vector<Mutant> out;
  for (int p : PivotOrder(layouts, events, pivots, ignored, min_pair_similarity, first_pivot)) {
    if (static_cast<int>(out.size()) >= settings.max_per_seed) break;
    if (!layouts[p].in_app) continue;
    for (auto& m : SearchTraces(p, layouts[p], active[p], touched[p], model, failed, loop_uses,
                                settings, rng, tried))
      if (static_cast<int>(out.size()) < settings.max_per_seed) out.push_back(std::move(m));
  }
  return out;
}

}  // namespace roam::fuzz
