#include "run/progress.h"

#include <sys/ioctl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "base/files.h"

namespace roam::run {

namespace {

// "1m02s", "12s", "2h05m".
std::string Duration(double seconds) {
  const int64_t s = std::max<int64_t>(0, std::llround(seconds));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
}

struct Part {
  std::string text;
  int keep;  // the higher, the longer it stays when the line is too wide
};

}  // namespace

std::string ProgressLine(const ProgressFigures& f, double since_new, size_t width) {
  const double rate = f.elapsed - f.aside > 0 ? f.events / (f.elapsed - f.aside) : 0;
  const double spent = f.phone_seconds.value_or(f.elapsed);
  std::vector<Part> parts;
  parts.push_back(
      {fmt::format("[{:7.1f}s{}]", f.elapsed,
                   f.phone_seconds ? fmt::format(" = {:.0f}s of a phone", *f.phone_seconds)
                                   : std::string()),
       9});
  // The share of the budget used and the time left: of whichever budget runs out first.
  double share = 0, left = -1;
  if (f.max_events > 0) {
    share = static_cast<double>(f.events) / static_cast<double>(f.max_events);
    if (rate > 0) left = static_cast<double>(f.max_events - f.events) / rate;
  }
  if (f.max_seconds > 0 && spent / f.max_seconds >= share) {
    share = spent / f.max_seconds;
    left = f.max_seconds - spent;
  }
  if (f.max_events > 0 || f.max_seconds > 0)
    parts.push_back({fmt::format("{:.0f}%{}", 100 * std::min(share, 1.0),
                                 left >= 0 ? "  " + Duration(left) + " left" : ""),
                     8});
  parts.push_back({f.max_events > 0 ? fmt::format("events {}/{}", f.events, f.max_events)
                                    : fmt::format("events {}", f.events),
                   8});
  parts.push_back({fmt::format("crashes {}", f.crashes), 8});
  parts.push_back({fmt::format("anrs {}", f.anrs), 8});
  parts.push_back({fmt::format("states {}", f.states), 7});
  parts.push_back({f.activities_total
                       ? fmt::format("activities {}/{}", f.activities, *f.activities_total)
                       : fmt::format("activities {}", f.activities),
                   6});
  if (f.units_total)
    parts.push_back({fmt::format("units {}/{}", *f.units_covered, *f.units_total), 6});
  if (since_new >= 0) parts.push_back({"new " + Duration(since_new) + " ago", 5});
  parts.push_back({fmt::format("{:.0f} ev/s", rate), 2});
  parts.push_back({fmt::format("relaunches {}", f.relaunches), 2});
  if (f.snapshots + f.restores + f.failed_restores > 0)
    parts.push_back({fmt::format("snapshots {}  restores {} ({} failed)", f.snapshots, f.restores,
                                 f.failed_restores),
                     3});
  for (size_t i = 0; i < f.extra.size(); ++i)  // most telling first: the last goes first
    parts.push_back({f.extra[i], i == 0 ? 7 : 4 - static_cast<int>(std::min<size_t>(i, 3))});
  const auto length = [&] {
    size_t n = 0;
    for (const Part& p : parts) n += p.text.size() + 2;
    return n - 2;
  };
  while (width > 0 && parts.size() > 1 && length() > width) {
    auto drop = parts.begin();  // the least telling; of equals, the last
    for (auto it = parts.begin(); it != parts.end(); ++it)
      if (it->keep <= drop->keep) drop = it;
    parts.erase(drop);
  }
  std::string line;
  for (const Part& p : parts) line += (line.empty() ? "" : "  ") + p.text;
  if (width > 0 && line.size() > width) line.resize(width);
  return line;
}

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

size_t Progress::Width() const {
  if (options_.width > 0) return static_cast<size_t>(options_.width);
  winsize size{};
  if (ioctl(fileno(out_), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && std::atoi(columns) > 0)
    return static_cast<size_t>(std::atoi(columns));
  return 80;
}

std::string Progress::Line(const ProgressFigures& f) {
  const size_t units = f.units_covered.value_or(0);
  if (f.states > seen_states_ || units > seen_units_) new_at_ = f.elapsed;
  seen_states_ = std::max(seen_states_, f.states);
  seen_units_ = std::max(seen_units_, units);
  // A terminal line stays within the width, less one column: writing the last one wraps on
  // some terminals, and a wrapped line is not redrawn in place.
  return ProgressLine(f, new_at_ < 0 ? -1 : f.elapsed - new_at_, tty_ ? Width() - 1 : 0);
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
