// oracle/kinds: the oracles a user turns on, one row each (the crash oracle is always on and not
// among them). A row says which flag gives the oracle's file (`--properties FILE`), the kind and
// folder of the bugs it files (bug.json's "kind" "property", bugs/P<n>), how the file is read
// (once per run, into what makes each campaign's oracle), how a finding is checked again when
// its trace is replayed (`roam replay`, `roam minimize`, the check when it is filed) and how the
// figures of a run's devices merge into one section of summary.json. The name of a row is also
// its oracle's Name(): its section of summary.json and its key in config.json. A new oracle is
// its files in oracle/ and a row here. Constant; thread-safe.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/screen.h"
#include "oracle/oracle.h"

namespace roam::oracle {

// A finding checked again on the screens a replay of its trace showed.
struct Rechecked {
  std::string signature;  // the failure seen again ("" when what was checked held)
  std::string note;       // why it could not be checked ("the precondition did not hold ...")
  // The widgets what was checked selects (indexes in Screen::widgets) on the screen before and on
  // the one after: the bug folder's screens outline them.
  std::vector<int> before_widgets, after_widgets;
};

struct OracleKind {
  std::string_view name;      // --<name> FILE; summary.json's section; config.json's key
  std::string_view help;      // the flag's help line
  std::string_view bug_kind;  // bug.json's "kind", and the key under which it keeps the source
  std::string_view folder;    // bugs/<folder><n>
  // Reads `file`; errors name it and the place of the mistake.
  Result<OracleMaker> (*read)(const std::filesystem::path& file);
  // Checks `finding` (its source and first_step as bug.json keeps them) again: `before` is the
  // screen before the replayed step numbered first_step (null when the trace holds none), `after`
  // the screen the replay ended on.
  Result<Rechecked> (*recheck)(const Finding& finding, const gui::Screen* before,
                               const gui::Screen& after);
  // One section of summary.json from the Figures of the oracles of a run's devices (a fleet).
  nlohmann::json (*merge)(const std::vector<nlohmann::json>& figures);
};

std::span<const OracleKind> OracleKinds();
// The row whose bug_kind is `bug_kind`; null when none is.
const OracleKind* OracleKindOfBug(std::string_view bug_kind);

}  // namespace roam::oracle
