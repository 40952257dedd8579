#include "base/rng.h"

#include <numeric>

namespace roam {

size_t Rng::Weighted(const std::vector<double>& weights) {
  double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  double x = Unit() * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  // Rounding can leave x just past the end: take the last non-zero weight.
  for (size_t i = weights.size(); i-- > 0;)
    if (weights[i] > 0) return i;
  return 0;
}

}  // namespace roam
