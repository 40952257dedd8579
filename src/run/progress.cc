#include "run/progress.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "base/files.h"

namespace roam::run {

namespace {

std::string Line(const ProgressFigures& f) {
  std::string events =
      f.max_events > 0 ? fmt::format("{}/{}", f.events, f.max_events) : fmt::format("{}", f.events);
  double rate = f.elapsed - f.aside > 0 ? f.events / (f.elapsed - f.aside) : 0;
  std::string activities = f.activities_total
                               ? fmt::format("{}/{}", f.activities, *f.activities_total)
                               : fmt::format("{}", f.activities);
  std::string units = f.units_total ? fmt::format("  units {}/{}", *f.units_covered, *f.units_total)
                                    : std::string();
  std::string travel = f.snapshots + f.restores + f.failed_restores > 0
                           ? fmt::format("  snapshots {}  restores {} ({} failed)", f.snapshots,
                                         f.restores, f.failed_restores)
                           : std::string();
  const std::string phone =
      f.phone_seconds ? fmt::format(" = {:.0f}s of a phone", *f.phone_seconds) : std::string();
  return fmt::format(
      "[{:7.1f}s{}] events {}  {:.0f} ev/s  states {}  activities {}{}  crashes {}  "
      "anrs {}  relaunches {}{}{}{}",
      f.elapsed, phone, events, rate, f.states, activities, units, f.crashes, f.anrs, f.relaunches,
      travel, f.extra.empty() ? "" : "  ", f.extra);
}

}  // namespace

nlohmann::json ProgressSample(const ProgressFigures& f) {
  nlohmann::json j = {
      {"events", f.events},         {"seconds", std::round(f.elapsed * 1000) / 1000},
      {"activities", f.activities}, {"states", f.states},
      {"crashes", f.crashes},       {"anrs", f.anrs},
      {"relaunches", f.relaunches}};
  if (f.units_covered) j["units"] = *f.units_covered;
  if (f.phone_seconds) j["phone_seconds"] = std::round(*f.phone_seconds * 1000) / 1000;
  return j;
}

Progress::Progress(std::FILE* out, bool tty, ProgressOptions options)
    : out_(out), tty_(tty), options_(options), last_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (log_) std::fclose(log_);
}

Status Progress::OpenLog(const std::filesystem::path& path) {
  if (log_) std::fclose(log_);
  log_ = nullptr;
  ROAM_RETURN_IF_ERROR(CheckOutputPath(path));
  log_ = std::fopen(path.c_str(), "w");
  if (!log_) return Status::Io(fmt::format("cannot write {}", path.string()));
  next_sample_ = 0;
  last_sampled_ = -1;
  return Status::Ok();
}

void Progress::Sample(const ProgressFigures& figures) {
  if (!log_ || figures.events == last_sampled_) return;
  std::string line = ProgressSample(figures).dump() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), log_) != line.size() || std::fflush(log_) != 0) {
    std::fclose(log_);
    log_ = nullptr;
    Note("roam: cannot write progress.jsonl any more; the run goes on without its samples");
    return;
  }
  last_sampled_ = figures.events;
  const int64_t every = std::max<int64_t>(1, options_.sample_every);
  next_sample_ = (figures.events / every + 1) * every;
}

void Progress::Update(const ProgressFigures& figures, bool force) {
  if (log_ && figures.events >= next_sample_) Sample(figures);
  if (!out_) return;
  auto now = std::chrono::steady_clock::now();
  double interval = tty_ ? options_.tty_interval : options_.plain_interval;
  if (!force && std::chrono::duration<double>(now - last_).count() < interval) return;
  last_ = now;
  if (tty_) {
    fmt::print(out_, "\r\033[K{}", Line(figures));
  } else {
    fmt::print(out_, "{}\n", Line(figures));
  }
  std::fflush(out_);
  drawn_ = true;
}

void Progress::Finish(const ProgressFigures& figures) {
  Sample(figures);
  if (!out_) return;
  if (tty_) {
    fmt::print(out_, "\r\033[K{}\n", Line(figures));
  } else {
    fmt::print(out_, "{}\n", Line(figures));
  }
  std::fflush(out_);
}

}  // namespace roam::run

namespace roam::run {

void Progress::Note(const std::string& line) {
  if (!out_) return;
  fmt::print(out_, "{}{}\n", tty_ && drawn_ ? "\r\033[K" : "", line);
  std::fflush(out_);
}

}  // namespace roam::run
