#include "fuzz/mutants.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "fuzz/independent_view.h"
#include "fuzz/seeds.h"
#include "gui/fields.h"

namespace roam::fuzz {

std::string Mutant::PrefixKey(size_t n) const {
  std::string k = std::to_string(pivot);
  for (size_t i = 0; i < n && i < tau.size(); ++i) k += fmt::format("\n{}", tau[i].Key());
  return k;
}

int Mutant::Length() const {
  static const std::string overflow = fmt::format("|{}", gui::kOverflowDescription);
  return static_cast<int>(std::count_if(tau.begin(), tau.end(), [](const Event& e) {
    return e.kind != gui::ActionKind::kInputText &&
           !(e.kind == gui::ActionKind::kClick && e.signature.ends_with(overflow));
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
  int typed = 0;       // fields τ typed into
  std::string typing;  // what it typed where
};

// (state, field type): where τ does not type.
using Fields = std::set<std::pair<uint64_t, std::string>>;

// The texts an input edge is tried with: another value of its field's kind than a seed typed
// (a second form filled as the first was shows nothing new; the seed's own text where it is of no
// kind), then the names ahead.
std::vector<std::string> TextsToType(const Event& example, const std::vector<std::string>& names) {
  const std::string other = gui::OtherFieldValue(example.text);
  std::vector<std::string> out = {other.empty() ? example.text : other};
  for (const std::string& n : names)
    if (!n.empty() && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

std::vector<Mutant> SearchTraces(int p, const Layout& pivot, const ActiveViews& active,
                                 const std::set<std::string>& touched, const Fields& pending,
                                 const std::vector<std::string>& names, const Model& model,
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
    const int typed = event.kind == gui::ActionKind::kInputText;
    if (edge)
      queue.push_back(
          {firsts++, {event}, {edge->to}, fmt::format("{}>{:x}", edge->type_key, edge->to), typed});
    else  // a click M has not seen here: a τ of its own, hoped to come back to the pivot
      queue.push_back({firsts++, {event}, {pivot.abs}, "unseen>" + event.TypeKey(), typed});
  }
  // Each state is expanded once per first event and what τ typed: the search reaches deep
  // loops instead of enumerating every path of the shallow ones.
  std::set<std::tuple<size_t, uint64_t, std::string>> expanded;
  int expansions = 0;
  std::map<std::string, int> found_loops;
  while (!queue.empty() && static_cast<int>(out.size()) < want &&
         expansions++ < settings.max_expansions) {
    Node node = std::move(queue.front());
    queue.pop_front();
    Mutant m{p, node.tau, node.states, node.loop, !node.typing.empty()};
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
    const uint64_t at = node.states.back();
    if (!expanded.emplace(node.first, at, node.typing).second) continue;
    auto seen = [&](uint64_t to) {
      return to != pivot.abs && std::count(node.states.begin(), node.states.end(), to) > 0;
    };
    for (const Edge* edge : model.PrunedOut(at)) {
      if (edge->example.kind == gui::ActionKind::kInputText) continue;  // below
      if (IsScrollOrSwipe(edge->example.kind) || seen(edge->to)) continue;
      Node next = node;
      next.tau.push_back(edge->example);
      next.states.push_back(edge->to);
      next.loop += fmt::format(",{}>{:x}", edge->type_key, edge->to);
      queue.push_back(std::move(next));
    }
    if (node.typed >= settings.max_typed_fields) continue;
    // Typing mostly leaves the state as it was: a field typed into is not a state seen again.
    for (const Edge* edge : model.Out(at)) {
      if (edge->example.kind != gui::ActionKind::kInputText) continue;
      if (pending.count({at, edge->example.type}) || (edge->to != at && seen(edge->to))) continue;
      for (const std::string& text : TextsToType(edge->example, names)) {
        Node next = node;
        next.tau.push_back(edge->example);
        next.tau.back().text = text;
        next.states.push_back(edge->to);
        next.loop += fmt::format(",{}>{:x}={}", edge->type_key, edge->to, text);
        ++next.typed;
        next.typing += fmt::format("\n{}={}", edge->example.type, text);
        // Typing is no step deeper: the node is searched at its field's depth.
        queue.push_front(std::move(next));
      }
    }
  }
  if (rng && static_cast<int>(out.size()) > settings.max_per_pivot) {
    // A weighted draw without replacement: each candidate's key u^(1/w), w = 2^-(n-1) for the n
    // events of τ that are not typing, highest first.
    std::vector<std::pair<double, size_t>> keys;
    for (size_t i = 0; i < out.size(); ++i) {
      const auto n = std::count_if(out[i].tau.begin(), out[i].tau.end(), [](const Event& e) {
        return e.kind != gui::ActionKind::kInputText;
      });
      keys.emplace_back(std::pow(rng->Unit(), std::ldexp(1.0, static_cast<int>(n) - 1)), i);
    }
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
  // At most max_typing_per_pivot τ that type come first; more only where too few others are.
  std::vector<Mutant> first, later;
  int typing = 0;
  for (auto& m : out)
    (!m.types || typing++ < settings.max_typing_per_pivot ? first : later).push_back(std::move(m));
  out = std::move(first);
  for (auto& m : later) out.push_back(std::move(m));
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

std::vector<std::string> NamesAhead(const std::vector<Layout>& layouts,
                                    const std::vector<Event>& events, int p,
                                    const MutantSettings& settings) {
  std::vector<std::string> out;
  auto add = [&](std::string name) {
    if (!name.empty() && name.size() <= 40 && std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(std::move(name));
  };
  const int n = std::min(static_cast<int>(layouts.size()), static_cast<int>(events.size()));
  for (int t = std::max(p, 0), taken = 0; t < n && taken < settings.names_ahead; ++t) {
    if (!events[t].widget() || events[t].kind == gui::ActionKind::kInputText) continue;
    ++taken;
    const std::string name = ShownName(layouts[t].screen, Resolve(layouts[t].screen, events[t]));
    add(name);
    // "name.ext": the extension is one to four letters or digits after the last dot.
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0 && name.size() - dot - 1 >= 1 &&
        name.size() - dot - 1 <= 4 &&
        std::all_of(name.begin() + dot + 1, name.end(),
                    [](unsigned char c) { return std::isalnum(c) != 0; }))
      add(name.substr(0, dot));
  }
  return out;
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
  // The seed's input still pending after pivot p: typed at t < p into a field that a layout of
  // the same state after p still shows it in.
  auto pending_at = [&](int p) {
    Fields out;
    for (int t = 0; t < p; ++t) {
      const Event& e = events[t];
      if (e.kind != gui::ActionKind::kInputText || e.text.empty()) continue;
      for (int j = p + 1; j < static_cast<int>(layouts.size()); ++j) {
        if (layouts[j].abs != layouts[t].abs) continue;
        const gui::Screen& s = layouts[j].screen;
        bool shown = false;
        for (int v = 0; v < static_cast<int>(s.widgets.size()) && !shown; ++v)
          shown =
              s.widgets[v].editable && s.widgets[v].text == e.text && WidgetType(s, v) == e.type;
        if (shown) {
          out.emplace(layouts[t].abs, e.type);
          break;
        }
      }
    }
    return out;
  };
  std::vector<Mutant> out;
  for (int p : PivotOrder(layouts, events, pivots, ignored, min_pair_similarity, first_pivot)) {
    if (static_cast<int>(out.size()) >= settings.max_per_seed) break;
    if (!layouts[p].in_app) continue;
    // What τ may type and where it may not: only read when τ types.
    const bool typing = settings.max_typed_fields > 0;
    const std::vector<std::string> names =
        typing ? NamesAhead(layouts, events, p, settings) : std::vector<std::string>{};
    const Fields pending = typing ? pending_at(p) : Fields{};
    for (auto& m : SearchTraces(p, layouts[p], active[p], touched[p], pending, names, model, failed,
                                loop_uses, settings, rng, tried))
      if (static_cast<int>(out.size()) < settings.max_per_seed) out.push_back(std::move(m));
  }
  return out;
}

}  // namespace roam::fuzz
