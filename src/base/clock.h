// The clock a run reads its time from: wall-time budgets, elapsed figures, refresh intervals.
// Behind an interface so tests can drive time by hand (FakeClock). SteadyClock is thread-safe;
// a FakeClock is used by one thread.
#pragma once

namespace roam {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since an arbitrary fixed point; never goes back.
  virtual double Now() const = 0;
};

// The monotonic system clock.
class SteadyClock final : public Clock {
 public:
  double Now() const override;
  // One shared instance (stateless).
  static const SteadyClock& Get();
};

// Time that moves only when told to.
class FakeClock final : public Clock {
 public:
  double Now() const override { return now_; }
  void Advance(double seconds) { now_ += seconds; }

 private:
  double now_ = 0;
};

}  // namespace roam
