// Bench JSON files read back and shards merged into one benchmark (`roam bench merge`).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "run/bench/bench.h"

namespace roam::run {

using nlohmann::json;

namespace {

// Reads a count that JSON holds as a non-negative integer into a size_t.
Status ReadCount(const json& j, std::string_view key, size_t& out, const std::string& where) {
  uint64_t v = out;
  ROAM_RETURN_IF_ERROR(ReadField(j, key, v, where));
  out = static_cast<size_t>(v);
  return Status::Ok();
}

Result<BenchRun> RunFromJson(const json& j, const std::string& where) {
  if (!j.is_object()) return Status::Corruption(where + ": not an object");
  BenchRun r;
  ROAM_RETURN_IF_ERROR(ReadField(j, "app", r.app, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "strategy", r.strategy, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "seed", r.seed, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "events", r.events, where));
  for (auto [key, field] : {std::pair{"activities_covered", &r.activities_covered},
                            {"activities_total", &r.activities_total},
                            {"units_covered", &r.units_covered},
                            {"units_total", &r.units_total},
                            {"states", &r.states},
                            {"crashes", &r.crashes},
                            {"anrs", &r.anrs},
                            {"functional_tp", &r.functional_tp},
                            {"functional_fp", &r.functional_fp}})
    ROAM_RETURN_IF_ERROR(ReadCount(j, key, *field, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "planted_found", r.planted_found, where));
  if (j.contains("functional_planted")) {  // files of earlier versions have none
    const json& planted = j["functional_planted"];
    if (!planted.is_array()) return Status::Corruption(where + ".functional_planted: not a list");
    for (size_t i = 0; i < planted.size(); ++i) {
      const std::string at = fmt::format("{}.functional_planted[{}]", where, i);
      PlantedBug b;
      ROAM_RETURN_IF_ERROR(ReadField(planted[i], "id", b.id, at));
      ROAM_RETURN_IF_ERROR(ReadField(planted[i], "kind", b.kind, at));
      // "oracle": the key's name in files of earlier versions.
      const char* seen_by = planted[i].contains("oracle") ? "oracle" : "seen_by";
      ROAM_RETURN_IF_ERROR(ReadField(planted[i], seen_by, b.seen_by, at));
      r.functional_planted.push_back(std::move(b));
    }
  }
  ROAM_RETURN_IF_ERROR(ReadField(j, "seconds", r.seconds, where));
  if (j.contains("phone_seconds")) {
    double phone = 0;
    ROAM_RETURN_IF_ERROR(ReadField(j, "phone_seconds", phone, where));
    r.phone_seconds = phone;
  }
  ROAM_RETURN_IF_ERROR(ReadField(j, "dir", r.dir, where));
  if (r.app.empty() || r.strategy.empty())
    return Status::Corruption(where + ": needs \"app\" and \"strategy\"");
  if (j.contains("bug_traces")) {
    if (!j["bug_traces"].is_array()) return Status::Corruption(where + ".bug_traces: not a list");
    for (size_t i = 0; i < j["bug_traces"].size(); ++i) {
      const json& t = j["bug_traces"][i];
      const std::string at = fmt::format("{}.bug_traces[{}]", where, i);
      BenchBugTrace b;
      ROAM_RETURN_IF_ERROR(ReadField(t, "bug_id", b.bug_id, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "kind", b.kind, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "dir", b.dir, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "minimized", b.minimized, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "error", b.error, at));
      ROAM_RETURN_IF_ERROR(ReadCount(t, "actions_before", b.actions_before, at));
      ROAM_RETURN_IF_ERROR(ReadCount(t, "actions_after", b.actions_after, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "replays", b.replays, at));
      ROAM_RETURN_IF_ERROR(ReadField(t, "verified", b.verified, at));
      // "oracle_actions": the key's name in files of earlier versions.
      const char* route = t.contains("oracle_actions") ? "oracle_actions" : "planner_actions";
      if (t.contains(route) && !t[route].is_null()) {
        size_t n = 0;
        ROAM_RETURN_IF_ERROR(ReadCount(t, route, n, at));
        b.planner_actions = n;
      }
      r.bug_traces.push_back(std::move(b));
    }
  }
  return r;
}

}  // namespace

Result<BenchFile> ReadBenchFile(const std::filesystem::path& path) {
  auto j = ReadJsonFile(path);
  if (!j.ok()) return j.status();
  const std::string where = path.string();
  if (!j->is_object() || !j->contains("runs") || !(*j)["runs"].is_array())
    return Status::Corruption(where + ": not a `roam bench --json` file (no \"runs\" list)");
  BenchFile f;
  ROAM_RETURN_IF_ERROR(ReadField(*j, "events", f.events, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "seeds", f.seeds, where));
  if (j->contains("time")) ROAM_RETURN_IF_ERROR(ReadField(*j, "time", f.time, where));
  if (j->contains("clock")) ROAM_RETURN_IF_ERROR(ReadField(*j, "clock", f.clock, where));
  if (f.clock != "wall" && f.clock != "phone:uia2" && f.clock != "phone:uiautomator")
    return Status::Corruption(fmt::format(
        "{}: clock: \"{}\" is none of wall, phone:uia2, phone:uiautomator", where, f.clock));
  if (j->contains("first_seed"))
    ROAM_RETURN_IF_ERROR(ReadField(*j, "first_seed", f.first_seed, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "strategies", f.strategies, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "apps", f.apps, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "snapshots", f.snapshots, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "wall_seconds", f.wall_seconds, where));
  ROAM_RETURN_IF_ERROR(ReadCount(*j, "grid", f.grid, where));
  if (j->contains("shard")) {
    ROAM_RETURN_IF_ERROR(ReadField((*j)["shard"], "index", f.shard, where + ": shard"));
    ROAM_RETURN_IF_ERROR(ReadField((*j)["shard"], "count", f.shards, where + ": shard"));
  }
  if (f.apps.empty())
    return Status::Corruption(where +
                              ": lists no \"apps\" (written before `roam bench` kept "
                              "them? run it again)");
  for (size_t i = 0; i < (*j)["runs"].size(); ++i) {
    auto r = RunFromJson((*j)["runs"][i], fmt::format("{}: runs[{}]", where, i));
    if (!r.ok()) return r.status();
    f.runs.push_back(std::move(*r));
  }
  return f;
}

BenchOptions OptionsOf(const BenchFile& f) {
  BenchOptions o;
  o.budget.events = f.events;
  o.budget.seconds = f.time;
  o.phone_clock = f.clock != "wall";
  if (f.clock.starts_with("phone:")) {
    if (auto kind = device::android::DriverNamed(f.clock.substr(6))) o.driver = *kind;
  }
  o.seeds = f.seeds;
  o.first_seed = f.first_seed;
  o.strategies = f.strategies;
  o.snapshots = f.snapshots;
  // BenchToJson writes each app's stem: a name.json gives the name back.
  for (const auto& app : f.apps) o.apps.push_back(app + ".json");
  return o;
}

Result<BenchFile> MergeBenchFiles(const std::vector<BenchFile>& files,
                                  const std::vector<std::string>& names,
                                  std::vector<std::string>* missing) {
  if (files.empty()) return Status::InvalidArgument("no bench files to merge");
  BenchFile all = files[0];
  all.runs.clear();
  all.shard = all.shards = 1;
  all.wall_seconds = 0;
  using Key = std::tuple<std::string, std::string, uint64_t>;
  std::map<Key, std::string> seen;  // the file that holds each run
  for (size_t i = 0; i < files.size(); ++i) {
    const BenchFile& f = files[i];
    const std::string& name = names[i];
    auto differs = [&](const char* setting, const auto& mine, const auto& first) -> Status {
      if (mine == first) return Status::Ok();
      return Status::InvalidArgument(
          fmt::format("{}: its {} differ from {}'s: these are not shards of one benchmark", name,
                      setting, names[0]));
    };
    ROAM_RETURN_IF_ERROR(differs("events per run", f.events, all.events));
    ROAM_RETURN_IF_ERROR(differs("time budgets", f.time, all.time));
    ROAM_RETURN_IF_ERROR(differs("clocks", f.clock, all.clock));
    ROAM_RETURN_IF_ERROR(differs("seeds", f.seeds, all.seeds));
    ROAM_RETURN_IF_ERROR(differs("first seeds", f.first_seed, all.first_seed));
    ROAM_RETURN_IF_ERROR(differs("strategies", f.strategies, all.strategies));
    ROAM_RETURN_IF_ERROR(differs("apps", f.apps, all.apps));
    ROAM_RETURN_IF_ERROR(differs("snapshot settings", f.snapshots, all.snapshots));
    all.wall_seconds += f.wall_seconds;
    for (const auto& r : f.runs) {
      auto [it, fresh] = seen.emplace(Key{r.app, r.strategy, r.seed}, name);
      if (!fresh)
        return Status::InvalidArgument(
            fmt::format("{} and {} both hold {} {} seed {}: the same shard twice?", it->second,
                        name, r.app, r.strategy, r.seed));
      all.runs.push_back(r);
    }
  }
  // The grid's order: apps, then strategies, then seeds.
  auto index = [](const std::vector<std::string>& list, const std::string& x) {
    return std::find(list.begin(), list.end(), x) - list.begin();
  };
  std::stable_sort(all.runs.begin(), all.runs.end(), [&](const BenchRun& a, const BenchRun& b) {
    return std::tuple(index(all.apps, a.app), index(all.strategies, a.strategy), a.seed) <
           std::tuple(index(all.apps, b.app), index(all.strategies, b.strategy), b.seed);
  });
  if (missing)
    for (const auto& app : all.apps)
      for (const auto& strategy : all.strategies)
        for (int seed = all.first_seed; seed < all.first_seed + all.seeds; ++seed)
          if (!seen.count(Key{app, strategy, static_cast<uint64_t>(seed)}))
            missing->push_back(fmt::format("{} {} seed {}", app, strategy, seed));
  return all;
}

}  // namespace roam::run
