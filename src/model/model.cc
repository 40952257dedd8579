#include "model/model.h"

#include <algorithm>
#include <cmath>

namespace roam::model {

EventId Model::Intern(uint64_t key, const gui::HyperEvent& event) {
  auto [it, added] = event_ids_.try_emplace(key, static_cast<EventId>(events_.size()));
  if (added) {
    ++version_;
    EventData d;
    d.event = event;
    d.key = key;
    events_.push_back(std::move(d));
  }
  return it->second;
}

void Model::Reserve(size_t events) {
  events_.reserve(events);
  event_ids_.reserve(events);
}

std::optional<EventId> Model::Find(uint64_t key) const {
  auto it = event_ids_.find(key);
  if (it == event_ids_.end()) return std::nullopt;
  return it->second;
}

ActivityId Model::InternActivity(std::string_view name) {
  if (auto a = FindActivity(name)) return *a;
  auto id = static_cast<ActivityId>(activities_.size());
  ++version_;
  activities_.push_back({std::string(name), 0});
  activity_ids_.emplace(std::string(name), id);
  return id;
}

std::optional<ActivityId> Model::FindActivity(std::string_view name) const {
  auto it = activity_ids_.find(name);
  if (it == activity_ids_.end()) return std::nullopt;
  return it->second;
}

void Model::RecordTransition(EventId e, std::optional<ActivityId> to) {
  EventData& d = events_[e];
  if (d.n++ == 0) ++version_;
  if (!to) return;
  for (auto& [a, count] : d.to) {
    if (a == *to) {
      ++count;
      return;
    }
  }
  ++version_;
  d.to.emplace_back(*to, 1);
}

uint32_t Model::Count(EventId e, ActivityId a) const {
  for (const auto& [to, count] : events_[e].to)
    if (to == a) return count;
  return 0;
}

double Model::P(EventId e, ActivityId a) const {
  const EventData& d = events_[e];
  return d.n == 0 ? 0.0 : static_cast<double>(Count(e, a)) / d.n;
}

size_t Model::transition_count() const {
  size_t n = 0;
  for (const auto& d : events_) n += d.to.size();
  return n;
}

void Model::SetCounts(EventId e, uint32_t n, std::vector<std::pair<ActivityId, uint32_t>> to) {
  ++version_;
  events_[e].n = n;
  events_[e].to = std::move(to);
}

bool Model::DynamicText(uint64_t slot, uint64_t text_hash) {
  Slot& s = slots_[slot];
  if (s.dynamic) return true;
  for (int i = 0; i < s.count; ++i)
    if (s.texts[i] == text_hash) return false;
  if (s.count >= dynamic_text_limit_) {
    s.dynamic = true;
    return true;
  }
  s.texts[s.count++] = text_hash;
  return false;
}

std::vector<uint64_t> Model::DynamicSlots() const {
  std::vector<uint64_t> out;
  for (const auto& [slot, s] : slots_)
    if (s.dynamic) out.push_back(slot);
  std::sort(out.begin(), out.end());  // a stable file for a given model
  return out;
}

void Model::VisitActivity(ActivityId a) {
  if (activities_[a].visits++ == 0) ++version_;
}

double Model::Expectation(EventId e, std::optional<ActivityId> also_unvisited) const {
  const EventData& d = events_[e];
  if (d.n == 0) return 0.0;
  uint32_t sum = 0;
  for (const auto& [a, count] : d.to)
    if (activities_[a].visits == 0 || (also_unvisited && a == *also_unvisited)) sum += count;
  return static_cast<double>(sum) / d.n;
}

void Model::StartRun() {
  ++version_;
  for (auto& d : events_) d.run_count = 0;
  for (auto& a : activities_) a.visits = 0;
}

void SoftmaxWeights(const std::vector<double>& values, double temperature,
                    std::vector<double>& out) {
  out.resize(values.size());
  if (values.empty()) return;
  double top = *std::max_element(values.begin(), values.end());
  for (size_t i = 0; i < values.size(); ++i) out[i] = std::exp((values[i] - top) / temperature);
}

}  // namespace roam::model
