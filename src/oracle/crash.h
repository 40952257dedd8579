// oracle/crash: crashes and ANRs from the device's events, de-duplicated by a normalised stack
// signature (exception class plus the top frames of the app's own package), with counts.
// CrashOracle is used by one run loop at a time; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device/device.h"

namespace roam::oracle {

struct CrashOracleOptions {
  int top_frames = 3;  // app frames that make up a signature (default 3)
};

// "java.lang.NullPointerException@org.app.Edit.save<org.app.Edit.onClick" -- line numbers,
// lambda and synthetic-class suffixes are dropped so that one bug gives one signature across
// builds. Frames outside `package` are skipped; with none left, the top framework frames count.
std::string CrashSignature(const device::Event& event, const std::string& package, int top_frames);
// "org.app.Edit$1.lambda$onClick$0(Edit.java:12)" -> "org.app.Edit.onClick".
std::string NormaliseFrame(const std::string& frame);

struct CrashFinding {
  int id = 0;  // 1, 2, ... in order of discovery
  device::Event::Kind kind = device::Event::Kind::kCrash;
  std::string signature;
  device::Event first;  // the first event with this signature
  std::string bug_id;   // ground truth when known
  int64_t first_step = 0;
  int count = 0;
};

class CrashOracle {
 public:
  explicit CrashOracle(std::string package, CrashOracleOptions options = {})
      : package_(std::move(package)), options_(options) {}

  // Records one event; returns the finding's index and whether it is new.
  struct Seen {
    size_t index;
    bool is_new;
  };
  Seen Observe(const device::Event& event, int64_t step);

  const std::vector<CrashFinding>& findings() const { return findings_; }
  size_t CountOf(device::Event::Kind kind) const;

 private:
  std::string package_;
  CrashOracleOptions options_;
  std::vector<CrashFinding> findings_;
};

}  // namespace roam::oracle
