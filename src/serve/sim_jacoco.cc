#include "serve/sim_jacoco.h"

#include <map>

namespace roam::serve {

namespace jacoco = device::jacoco;

namespace {

// "org.roam.diary" + "MainActivity.onSave" -> "org/roam/diary/MainActivity".
std::string ClassOf(const std::string& package, const std::string& unit) {
  std::string path = package;
  for (char& c : path)
    if (c == '.') c = '/';
  const size_t dot = unit.rfind('.');
  return path + "/" + (dot == std::string::npos || dot == 0 ? "Units" : unit.substr(0, dot));
}

uint64_t ClassId(const std::string& name) {  // FNV-1a: stable, and unlike any CRC64 collision
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::string SimCoverageFile(const std::string& package) {
  return "/data/data/" + package + "/files/coverage.ec";
}

bool ReachesCoverageReceiver(const std::string& package, const std::string& component,
                             const std::string& action, const std::string& to_package) {
  if (!component.empty())
    return component == package + "/.CoverageReceiver" ||
           component == package + "/" + package + ".CoverageReceiver";
  return to_package == package && action == package + ".DUMP_COVERAGE";
}

jacoco::ExecData JacocoData(const std::string& package, const std::vector<std::string>& units,
                            const std::vector<bool>& hit, const std::string& session) {
  std::map<std::string, jacoco::ClassData> classes;
  for (size_t i = 0; i < units.size(); ++i) {
    jacoco::ClassData& c = classes[ClassOf(package, units[i])];
    c.probes.push_back(i < hit.size() && hit[i]);
  }
  jacoco::ExecData data;
  data.sessions.push_back({.id = session});
  for (auto& [name, c] : classes) {
    c.name = name;
    c.id = ClassId(name);
    data.classes[c.id] = std::move(c);
  }
  return data;
}

std::string UnitOfProbe(const std::string& package, const std::vector<std::string>& units,
                        const std::string& class_name, size_t probe) {
  for (const std::string& u : units)
    if (ClassOf(package, u) == class_name && probe-- == 0) return u;
  return "";
}

void ServeJacoco(device::android::Socket& s, const std::atomic<bool>& stop,
                 const std::function<Result<jacoco::ExecData>(bool reset)>& dump) {
  // Each side's writer sends the header as it is made (RemoteControlWriter), on connecting.
  const std::string header = jacoco::ExecHeader();
  if (!s.WriteAll(header).ok()) return;
  auto theirs = s.ReadExact(header.size());
  if (!theirs.ok() || *theirs != header) return;  // not a JaCoCo client
  while (!stop) {
    // Blocks as JaCoCo's RemoteControlReader takes them: a header again (clients that send one
    // before each command) or a dump command; anything else ends the connection.
    auto type = s.ReadExact(1);
    if (!type.ok()) return;
    if (static_cast<uint8_t>((*type)[0]) == jacoco::kBlockHeader) {
      auto rest = s.ReadExact(header.size() - 1);
      if (!rest.ok() || *type + *rest != header) return;
      continue;
    }
    auto flags = s.ReadExact(2);
    if (!flags.ok()) return;
    auto request = jacoco::ParseDumpCommand(header + *type + *flags);
    if (!request.ok()) return;
    auto data = dump(request->reset);
    if (!data.ok()) return;
    std::string answer = request->dump ? jacoco::WriteExecBlocks(*data) : "";
    if (!s.WriteAll(answer + jacoco::CmdOk()).ok()) return;
  }
}

}  // namespace roam::serve
