#include "model/model_file.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "base/files.h"
#include "model/envelope.h"

namespace roam::model {
namespace {

constexpr Envelope kEnvelope{
    .magic = "ROAMMODL", .version = kModelFormatVersion, .what = "Roam model"};

void PutF64(std::string& out, double d) {
  uint64_t v;
  std::memcpy(&v, &d, sizeof v);
  PutU64(out, v);
}
void PutStr(std::string& out, std::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

// Reads the payload; the first fault stays in `error` and every later read yields zero.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  uint32_t U32() { return static_cast<uint32_t>(Fixed(4)); }
  uint64_t U64() { return Fixed(8); }
  double F64() {
    uint64_t v = Fixed(8);
    double d;
    std::memcpy(&d, &v, sizeof d);
    return d;
  }
  std::string_view Str() {
    uint32_t n = U32();
    if (!Need(n)) return {};
    std::string_view s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  // A count of items of at least `min_bytes` each: refuses counts the rest cannot hold.
  uint32_t Count(size_t min_bytes) {
    uint32_t n = U32();
    if (error.empty() && n > (bytes_.size() - pos_) / min_bytes)
      Fail(fmt::format("a count of {} items does not fit in the {} bytes left", n,
                       bytes_.size() - pos_));
    return error.empty() ? n : 0;
  }
  void Fail(std::string what) {
    if (error.empty()) error = fmt::format("corrupt at payload byte {}: {}", pos_, what);
  }
  bool AtEnd() const { return pos_ == bytes_.size(); }
  std::string error;

 private:
  bool Need(size_t n) {
    if (!error.empty()) return false;
    if (bytes_.size() - pos_ < n) {
      Fail(fmt::format("needs {} more bytes, {} left", n, bytes_.size() - pos_));
      return false;
    }
    return true;
  }
  uint64_t Fixed(int n) {
    if (!Need(n)) return 0;
    uint64_t v = GetLe(bytes_.data() + pos_, n);
    pos_ += n;
    return v;
  }
  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::string EncodeModel(const Model& model) {
  // The activity table: the model's activities, then any that only name a hyper-event's screen.
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> index;
  auto add = [&](const std::string& name) {
    auto [it, added] = index.try_emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
  };
  for (ActivityId a = 0; a < model.activity_count(); ++a) add(model.activity(a));
  std::vector<uint32_t> event_activity(model.event_count());
  for (EventId e = 0; e < model.event_count(); ++e)
    event_activity[e] = add(model.event(e).activity);

  std::string payload;
  payload.reserve(64 + model.event_count() * 48 + model.transition_count() * 8);
  PutStr(payload, model.package());
  PutU32(payload, static_cast<uint32_t>(names.size()));
  for (const auto& n : names) PutStr(payload, n);
  std::vector<uint64_t> slots = model.DynamicSlots();
  PutU32(payload, static_cast<uint32_t>(slots.size()));
  for (uint64_t s : slots) PutU64(payload, s);
  PutU32(payload, static_cast<uint32_t>(model.event_count()));
  for (EventId e = 0; e < model.event_count(); ++e) {
    const gui::HyperEvent& ev = model.event(e);
    PutU32(payload, event_activity[e]);
    PutStr(payload, ev.resource_id);
    PutStr(payload, ev.text);
    PutStr(payload, gui::ActionKindName(ev.kind));
    PutU32(payload, model.Count(e));
    PutF64(payload, model.Q(e));
    const auto& to = model.Transitions(e);
    PutU32(payload, static_cast<uint32_t>(to.size()));
    // Model activity ids equal their index in `names` (they were added first).
    for (const auto& [a, count] : to) {
      PutU32(payload, a);
      PutU32(payload, count);
    }
  }
  return Seal(kEnvelope, payload);
}

Result<Model> DecodeModel(std::string_view bytes, const std::string& source,
                          std::string_view package) {
  auto fail = [&](const std::string& what) { return Status::Corruption(source + ": " + what); };
  auto unsealed = Unseal(kEnvelope, bytes, source);
  if (!unsealed.ok()) return unsealed.status();
  std::string_view payload = *unsealed;
  Reader r(payload);
  Model model(std::string(r.Str()));
  if (r.error.empty() && !package.empty() && model.package() != package)
    return fail(
        fmt::format("a model of package \"{}\", not of \"{}\" (or use another model folder)",
                    model.package(), package));
  uint32_t activities = r.Count(4);
  for (uint32_t i = 0; i < activities && r.error.empty(); ++i) {
    std::string_view name = r.Str();
    if (model.InternActivity(name) != i) r.Fail(fmt::format("activity \"{}\" listed twice", name));
  }
  uint32_t slots = r.Count(8);
  for (uint32_t i = 0; i < slots && r.error.empty(); ++i) model.MarkDynamic(r.U64());
  uint32_t events = r.Count(32);
  model.Reserve(events);
  for (uint32_t i = 0; i < events && r.error.empty(); ++i) {
    gui::HyperEvent ev;
    uint32_t a = r.U32();
    ev.resource_id = r.Str();
    ev.text = r.Str();
    std::string_view kind = r.Str();
    uint32_t n = r.U32();
    double q = r.F64();
    uint32_t count = r.Count(8);
    std::vector<std::pair<ActivityId, uint32_t>> to(count);
    uint64_t sum = 0;
    for (auto& [ta, tc] : to) {
      ta = r.U32();
      tc = r.U32();
      sum += tc;
      if (r.error.empty() && ta >= activities)
        r.Fail(fmt::format("activity index {} of {}", ta, activities));
    }
    if (!r.error.empty()) break;
    if (a >= activities)
      r.Fail(fmt::format("hyper-event {}: activity index {} of {}", i, a, activities));
    auto k = gui::ActionKindFromName(kind);
    if (!k) r.Fail(fmt::format("hyper-event {}: unknown action kind \"{}\"", i, kind));
    if (sum > n)
      r.Fail(fmt::format("hyper-event {}: transitions sum to {}, more than N(e) = {}", i, sum, n));
    // A NaN or infinite Q would stay so forever: every update adds to it.
    if (!std::isfinite(q))
      r.Fail(fmt::format("hyper-event {}: Q is {}, not a finite number", i, q));
    if (!r.error.empty()) break;
    ev.activity = model.activity(a);
    ev.kind = *k;
    EventId id = model.Intern(ev);
    if (id != i) {
      r.Fail(fmt::format("hyper-event {} repeats hyper-event {}", i, id));
      break;
    }
    model.SetCounts(id, n, std::move(to));
    model.SetQ(id, q);
  }
  if (r.error.empty() && !r.AtEnd()) r.Fail("bytes left after the last hyper-event");
  if (!r.error.empty()) return fail(r.error);
  return model;
}

Status SaveModel(const Model& model, const std::filesystem::path& path) {
  std::string bytes = EncodeModel(model);
  // What LoadModel would refuse is never written (a merge of extreme Q once wrote an infinity).
  if (auto check = DecodeModel(bytes, path.string(), model.package()); !check.ok())
    return Status::InvalidArgument(fmt::format("{}: not written, it would not load again: {}",
                                               path.string(), check.status().message()));
  return WriteFileAtomic(path, bytes);
}

Result<Model> LoadModel(const std::filesystem::path& path, std::string_view package) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::NotFound(path.string() + ": no such file");
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  return DecodeModel(*bytes, path.string(), package);
}

}  // namespace roam::model
