// The one seeded random generator of a run: created from the run's seed and passed down by
// reference, so any run can be repeated. Not thread-safe: one per worker.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace roam {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  // Uniform integer in [0, n); n must be > 0.
  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(engine_); }
  // Uniform real in [0, 1).
  double Unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }
  bool Chance(double p) { return Unit() < p; }
  // Index drawn with probability proportional to weights (all >= 0, sum > 0).
  size_t Weighted(const std::vector<double>& weights);
  uint64_t Next() { return engine_(); }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace roam
