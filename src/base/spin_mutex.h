// SpinMutex: a lock for critical sections of a few microseconds taken by a few threads, as the
// strategy model that the workers of a multi-device run share (model::SharedModel). A waiter
// spins (with the CPU's pause hint) instead of sleeping in the kernel: a std::mutex handed over
// between two workers costs a futex sleep and wake-up per step, which on a 2-core machine held
// two fastbot workers to 1.4x one worker's events per second. After many spins it yields, so a
// holder that was descheduled is not starved. Meets the standard Lockable requirements.
#pragma once

#include <atomic>
#include <thread>

namespace roam {

class SpinMutex {
 public:
  void lock() {
    for (int spins = 0; locked_.exchange(true, std::memory_order_acquire);) {
      // Wait reading (not writing) the flag, so the holder's cache line stays put.
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < kSpinsBeforeYield) {
          Pause();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  bool try_lock() {
    return !locked_.load(std::memory_order_relaxed) &&
           !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  static constexpr int kSpinsBeforeYield = 4096;
  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  std::atomic<bool> locked_ = false;
};

}  // namespace roam
