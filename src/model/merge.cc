// MergeModels: Fastbot2 models learned on several devices or machines, as one.
#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "model/model.h"

namespace roam::model {

namespace {

uint32_t SaturatingAdd(uint32_t a, uint32_t b) {
  return b > std::numeric_limits<uint32_t>::max() - a ? std::numeric_limits<uint32_t>::max()
                                                      : a + b;
}

}  // namespace

Result<Model> MergeModels(const std::vector<const Model*>& models,
                          const std::vector<std::string>& names) {
  if (models.empty()) return Status::InvalidArgument("no models to merge");
  Model out(models[0]->package());
  for (size_t i = 1; i < models.size(); ++i)
    if (models[i]->package() != out.package())
      return Status::InvalidArgument(
          fmt::format("{} is a model of {}, {} of {}: models of different apps do not merge",
                      names[i], models[i]->package(), names[0], out.package()));
  struct Sum {
    uint32_t n = 0;
    // The means kept as running means, so Q near the largest double do not sum to infinity.
    double weight = 0, weighted_q = 0, plain_q = 0;  // weight: N(e) summed without saturating
    int models = 0;
    std::map<ActivityId, uint32_t> to;
  };
  std::vector<Sum> sums;
  for (const Model* m : models) {
    for (EventId e = 0; e < m->event_count(); ++e) {
      const EventId into = out.Intern(m->key(e), m->event(e));
      if (into >= sums.size()) sums.resize(into + 1);
      Sum& s = sums[into];
      s.n = SaturatingAdd(s.n, m->Count(e));
      s.weight += m->Count(e);
      ++s.models;
      if (m->Count(e) > 0) s.weighted_q += m->Count(e) / s.weight * (m->Q(e) - s.weighted_q);
      s.plain_q += (m->Q(e) - s.plain_q) / s.models;
      for (const auto& [a, count] : m->Transitions(e)) {
        const ActivityId to = out.InternActivity(m->activity(a));
        s.to[to] = SaturatingAdd(s.to[to], count);
      }
    }
    for (ActivityId a = 0; a < m->activity_count(); ++a) out.InternActivity(m->activity(a));
    for (uint64_t slot : m->DynamicSlots()) out.MarkDynamic(slot);
  }
  for (EventId e = 0; e < sums.size(); ++e) {
    const Sum& s = sums[e];
    out.SetCounts(e, s.n, {s.to.begin(), s.to.end()});
    out.SetQ(e, s.weight > 0 ? s.weighted_q : s.plain_q);
  }
  return out;
}

}  // namespace roam::model
