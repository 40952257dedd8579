#include "base/clock.h"

#include <chrono>

namespace roam {

double SteadyClock::Now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const SteadyClock& SteadyClock::Get() {
  static const SteadyClock kClock;
  return kClock;
}

}  // namespace roam
