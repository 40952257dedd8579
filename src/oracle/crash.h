// oracle/crash: crashes and ANRs from the device's events, de-duplicated by a normalised stack
// signature (exception class plus the top frames of the app's own package), with counts: the
// oracle the step executor hands every action's reports to. Used by one run loop at a time; not
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device/device.h"
#include "oracle/oracle.h"

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

// Hears the device's reports after each action; each new signature is a Finding whose kind is
// the report's ("crash", "anr", "native_crash"), with the first report kept.
class CrashOracle final : public Oracle {
 public:
  explicit CrashOracle(std::string package, CrashOracleOptions options = {})
      : package_(std::move(package)), options_(options) {}

  std::string_view Name() const override { return "crashes"; }
  void Hear(const StepHeard& heard, Verdict& verdict) override;

  // Records one report met after `events` events; returns the finding's index and whether it is
  // new.
  struct Seen {
    size_t index;
    bool is_new;
  };
  Seen Observe(const device::Event& event, int64_t events);

  // In order of discovery: finding i is bug B<i+1> of a run.
  const std::vector<Finding>& findings() const { return findings_; }
  size_t CountOf(device::Event::Kind kind) const;

 private:
  std::string package_;
  CrashOracleOptions options_;
  std::vector<Finding> findings_;
};

}  // namespace roam::oracle
