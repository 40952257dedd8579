// bugs/V<n>/: writing a VisionDroid report's folder, scoring it on the simulator, replaying it,
// and confirming it into an example library.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "oracle/crash.h"
#include "run/budget.h"
#include "run/executor.h"
#include "run/run_folder.h"
#include "run/vision/vision.h"
#include "run/vision/vision_internal.h"
#include "vision/examples.h"

namespace roam::run {

nlohmann::json VisionStatsJson(const VisionStats& s) {
  return {{"requests",
           {{"explorer", s.explorer_requests},
            {"monitor", s.monitor_requests},
            {"detector", s.detector_requests}}},
          {"retries",
           {{"explorer", s.explorer_retries},
            {"monitor", s.monitor_retries},
            {"detector", s.detector_retries}}},
          {"fallbacks",
           {{"explorer", s.explorer_fallbacks},
            {"monitor", s.monitor_fallbacks},
            {"detector", s.detector_fallbacks}}},
          {"questions", s.questions()},
          {"answers_replaced", s.replaced()},
          {"unchanged_steps", s.unchanged_steps},
          {"functions", s.functions},
          {"requests_per_function",
           s.functions > 0 ? static_cast<double>(s.explorer_requests + s.monitor_requests +
                                                 s.detector_requests) /
                                 static_cast<double>(s.functions)
                           : 0.0},
          {"prompt_tokens", s.prompt_tokens},
          {"completion_tokens", s.completion_tokens},
          {"image_tokens_estimated",
           {{"stitched", s.image_tokens_stitched},
            {"every_screen", s.image_tokens_separate},
            {"monitor", s.image_tokens_monitor}}},
          {"model_seconds", s.model_seconds},
          {"tool_seconds", s.tool_seconds}};
}

nlohmann::json VisionConfig(const VisionOptions& o) {
  const llm::ClientOptions& llm = o.llm;
  nlohmann::json examples = nlohmann::json::array();
  for (const auto& e : o.examples) examples.push_back(e.string());
  return {{"strategy", "visiondroid"},
          {"llm",
           {{"url", o.llm_replay.empty() ? llm.url : ""},
            {"model", llm.model},
            {"key_env", llm.key_env},
            {"replay", o.llm_replay.string()},
            {"timeout_seconds", llm.timeout_seconds},
            {"retries", llm.retries},
            {"max_requests", llm.max_requests}}},
          {"vision",
           {{"examples_k", o.examples_k},
            {"examples_by", o.examples_by},
            {"examples", examples},
            {"history_steps", o.history_steps},
            {"max_function_steps", o.max_function_steps},
            {"frame_width", o.frame_width},
            {"screen_width", o.screen_width}}}};
}

using nlohmann::json;

namespace {

void Mix(uint64_t& h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  h = (h ^ 0xff) * 1099511628211ull;  // a separator: "ab","c" is not "a","bc"
}

json MarkToJson(const draw::Mark& m) {
  return {{"number", m.number},
          {"interaction", draw::InteractionName(m.interaction)},
          {"box", {m.box.left, m.box.top, m.box.right, m.box.bottom}}};
}

Result<draw::Mark> MarkFromJson(const json& j, const std::string& where) {
  draw::Mark m;
  std::string interaction;
  ROAM_RETURN_IF_ERROR(ReadField(j, "number", m.number, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "interaction", interaction, where));
  const json* box = j.contains("box") ? &j["box"] : nullptr;
  if (!box || !box->is_array() || box->size() != 4 ||
      !std::all_of(box->begin(), box->end(), [](const json& v) { return v.is_number_integer(); }))
    return Status::Corruption(where + ".box: needs 4 whole numbers (left, top, right, bottom)");
  m.box = {(*box)[0].get<int>(), (*box)[1].get<int>(), (*box)[2].get<int>(), (*box)[3].get<int>()};
  bool known = false;
  for (draw::Interaction i : draw::kInteractions)
    if (draw::InteractionName(i) == interaction) m.interaction = i, known = true;
  if (!known)
    return Status::Corruption(
        fmt::format("{}.interaction: \"{}\" is none of Roam's", where, Excerpt(interaction)));
  return m;
}

}  // namespace

Result<VisionStep> AfterFrame(device::Device& device, int frame_width) {
  auto shot = device.Screenshot(std::nullopt);
  if (!shot.ok()) return shot.status();
  auto picture = draw::Picture::Decode(*shot);
  if (!picture.ok()) return picture.status();
  return AfterFrame(*picture, frame_width);
}

Result<VisionStep> AfterFrame(const draw::Picture& screen, int frame_width) {
  auto thumb = screen.MarkedPicture({}, frame_width);
  if (!thumb.ok()) return thumb.status();
  auto png = thumb->Png();
  if (!png.ok()) return png.status();
  VisionStep after;
  after.text = kAfterCaption;
  after.frame = std::move(*png);
  after.thumb = std::move(*thumb);
  return after;
}

uint64_t ShownHash(const gui::Screen& screen) {
  uint64_t h = 1469598103934665603ull;
  Mix(h, screen.package);
  Mix(h, screen.activity);
  for (const gui::Widget& w : screen.widgets) {
    Mix(h, w.cls);
    Mix(h, w.resource_id);
    Mix(h, w.text);
    Mix(h, w.content_desc);
    Mix(h, w.checked ? "1" : "0");
  }
  return h;
}

Result<JudgedRun> RunJudgedSteps(device::Device& device,
                                 const std::vector<report::TraceStep>& trace,
                                 const std::vector<VisionStep>& steps, int frame_width,
                                 int signature_frames) {
  const bool frames = frame_width > 0;
  Budget budget = Budget::Unbounded();
  oracle::CrashOracle crashes(device.Package(), {.top_frames = signature_frames});
  StepExecutor executor(device, budget, crashes);
  JudgedRun out;
  size_t next = 0;  // the next judged step
  gui::Screen screen;
  for (size_t i = 0; i < trace.size(); ++i) {
    const report::TraceStep& step = trace[i];
    Status s;
    ActOutcome outcome;
    if (step.op == "act") {
      const bool judged = next < steps.size() && steps[next].trace_index == i;
      s = executor.Observe(screen);
      if (s.ok() && judged && frames) {
        auto shot = device.Screenshot(std::nullopt);
        if (!shot.ok()) return shot.status();
        std::vector<draw::Mark> marks;
        if (steps[next].mark) marks.push_back(*steps[next].mark);
        auto frame = draw::MarkPng(*shot, marks, frame_width);
        if (!frame.ok()) return frame.status();
        out.frames.push_back(std::move(*frame));
      }
      if (s.ok()) s = executor.Act(step.action, outcome);
    } else {
      s = executor.RunOp(step);
    }
    if (!s.ok()) return s.Wrap(fmt::format("replay step {}", step.step));
    // After the judged step (and the ENTER that may follow it): what the screen shows.
    if (next < steps.size() && i + 1 == steps[next].episode_end) {
      ROAM_RETURN_IF_ERROR(executor.Observe(screen));
      out.shown_after.push_back(ShownHash(screen));
      ++next;
    }
  }
  if (next != steps.size())
    return Status::Corruption(
        fmt::format("the trace ends before judged step {} of {}", next + 1, steps.size()));
  if (frames) {
    auto after = AfterFrame(device, frame_width);
    if (!after.ok()) return after.status();
    out.frames.push_back(std::move(after->frame));
  }
  return out;
}

std::string ScoreVisionReport(const Target& target, const VisionReport& r, int signature_frames) {
  std::vector<uint64_t> seen;
  for (const auto& s : r.steps) seen.push_back(s.shown_after);
  auto holds = [&](const std::set<std::string>& off) {
    auto d = target.fresh_device()(off);
    if (!d.ok()) return false;
    auto run = RunJudgedSteps(**d, r.trace, r.steps, 0, signature_frames);
    return run.ok() && run->shown_after == seen;
  };
  if (!holds({})) return "";
  for (const auto& id : target.FunctionalBugsOn())
    if (!holds({id})) return id;
  return "";
}

Status WriteVisionBug(const std::filesystem::path& dir, const VisionReport& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "screens", ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  const vision::DetectorVerdict& v = r.verdict;
  json steps = json::array();
  std::string step_lines;
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const VisionStep& s = r.steps[i];
    json j = {{"text", s.text},
              {"activity", s.activity},
              {"trace_index", s.trace_index},
              {"episode_end", s.episode_end},
              {"shown_after", report::HexKey(s.shown_after)},
              {"screen", fmt::format("screens/{:02}.png", i + 1)}};
    if (s.mark) j["mark"] = MarkToJson(*s.mark);
    steps.push_back(std::move(j));
    step_lines += fmt::format("  {}. {}\n", i + 1, s.text);
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / fmt::format("screens/{:02}.png", i + 1), s.frame));
  }
  json bug = {{"kind", "vision"},
              {"id", r.id},
              {"app", r.app},
              {"activity", r.steps.empty() ? "" : r.steps.back().activity},
              {"function", r.function},
              {"description", r.description},
              {"bug_kind", v.kind},
              {"bug_kind_said", v.kind_said},
              {"report", v.report},
              {"expected", v.expected},
              {"actual", v.actual},
              {"feedback", v.feedback},
              {"steps", steps},
              {"frame_width", r.frame_width},
              {"bug_id", r.scored && !r.bug_id.empty() ? json(r.bug_id) : json(nullptr)},
              {"scored", r.scored},
              {"replay", ReplaySpecToJson(r.replay)}};
  if (!r.after.empty()) ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / "screens/after.png", r.after));
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "trace.jsonl", r.trace));
  if (!r.stitched.empty()) ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / "stitched.png", r.stitched));
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / "detector_prompt.txt", r.detector_prompt));
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(
      dir / "explanation.txt",
      fmt::format("{} ({}), found by the Detector while testing \"{}\".\n{}\n\nSteps of the "
                  "function:\n{}\nExpected: {}\nActual: {}\n{}{}\nReplay: roam replay {}\n",
                  r.id, v.kind, r.function, v.report, step_lines, v.expected, v.actual,
                  v.feedback.empty() ? "" : "Feedback for the Explorer: " + v.feedback + "\n",
                  r.scored ? fmt::format("Planted bug behind it (simulator): {}\n",
                                         r.bug_id.empty() ? "none (a false alarm)" : r.bug_id)
                           : "",
                  std::filesystem::absolute(dir).lexically_normal().string())));
  return WriteJsonFile(dir / "bug.json", bug);
}

namespace {

Result<std::vector<VisionStep>> StepsFromJson(const json& bug, const std::string& where) {
  if (!bug.contains("steps") || !bug["steps"].is_array() || bug["steps"].empty())
    return Status::Corruption(where + ": \"steps\" must list the judged steps");
  std::vector<VisionStep> steps;
  for (size_t i = 0; i < bug["steps"].size(); ++i) {
    const json& j = bug["steps"][i];
    const std::string at = fmt::format("{}: steps[{}]", where, i);
    VisionStep s;
    std::string shown;
    ROAM_RETURN_IF_ERROR(ReadField(j, "text", s.text, at));
    uint64_t index = 0, end = 0;
    ROAM_RETURN_IF_ERROR(ReadField(j, "trace_index", index, at));
    ROAM_RETURN_IF_ERROR(ReadField(j, "episode_end", end, at));
    s.trace_index = index;
    s.episode_end = end;
    ROAM_RETURN_IF_ERROR(ReadField(j, "shown_after", shown, at));
    s.shown_after = std::strtoull(shown.c_str(), nullptr, 16);
    if (j.contains("mark")) {
      auto m = MarkFromJson(j["mark"], at + ".mark");
      if (!m.ok()) return m.status();
      s.mark = *m;
    }
    if (s.trace_index >= s.episode_end ||
        (!steps.empty() && s.trace_index < steps.back().episode_end))
      return Status::Corruption(at + ": trace_index and episode_end out of order");
    steps.push_back(std::move(s));
  }
  return steps;
}

}  // namespace

Result<ReplayOutcome> ReplayVision(const std::filesystem::path& dir, const ReplaySpec& spec,
                                   bool original, const llm::ClientOptions& llm) {
  (void)original;  // a vision report has no minimised form
  const std::string where = (dir / "bug.json").string();
  auto bug = ReadJsonFile(dir / "bug.json");
  if (!bug.ok()) return bug.status();
  auto steps = StepsFromJson(*bug, where);
  if (!steps.ok()) return steps.status();
  auto trace = report::ReadTrace(dir / "trace.jsonl");
  if (!trace.ok()) return trace.status();
  if (trace->size() < steps->back().episode_end)
    return Status::Corruption((dir / "trace.jsonl").string() + ": shorter than its steps say");
  auto prompt = ReadFile(dir / "detector_prompt.txt");
  if (!prompt.ok()) return prompt.status();
  auto device = OpenReplayDevice(spec, dir);
  if (!device.ok()) return device.status();
  const int frame_width = bug->value("frame_width", 360);
  if (frame_width < 16 || frame_width > 4096)
    return Status::Corruption(where + ": \"frame_width\" must be 16 to 4096");
  auto run = RunJudgedSteps(**device, *trace, *steps, frame_width, spec.signature_frames);
  if (!run.ok()) return run.status();
  ReplayOutcome outcome;
  outcome.trace = (dir / "trace.jsonl").string();
  outcome.expected = bug->value("report", "");
  outcome.result.steps_run = static_cast<int64_t>(trace->size());
  size_t same = 0;
  for (size_t i = 0; i < steps->size(); ++i) same += run->shown_after[i] == (*steps)[i].shown_after;
  const bool screens = same == steps->size();
  // The Detector again, with the same prompt and the replay's pictures.
  std::vector<draw::Frame> frames;
  for (size_t i = 0; i < steps->size(); ++i) frames.push_back({run->frames[i], (*steps)[i].text});
  frames.push_back({run->frames.back(), kAfterCaption});
  auto stitched = draw::StitchPng(frames, frame_width);
  if (!stitched.ok()) return stitched.status();
  std::unique_ptr<llm::Client> client;
  if (!llm.url.empty()) {
    auto c = llm::HttpClient(llm);
    if (!c.ok()) return c.status();
    client = std::move(*c);
  } else {
    auto c = llm::LookupClient(RunDirOfBug(dir) / "llm.jsonl");
    if (!c.ok()) return c.status();
    client = std::move(*c);
  }
  auto answer = client->Complete({{"user", *prompt, {*stitched}}});
  std::string verdict_note;
  bool bug_again = false;
  if (!answer.ok()) {
    verdict_note = "the Detector was not asked again: " + answer.status().message();
  } else if (auto v = vision::ParseDetectorAnswer(answer->content); !v.ok()) {
    verdict_note = "the Detector's answer did not parse: " + v.status().message();
  } else {
    bug_again = v->bug;
    verdict_note = v->bug ? "the Detector reports it again: " + v->report
                          : "the Detector no longer reports a bug";
  }
  outcome.reproduced = screens && bug_again;
  outcome.note = fmt::format("{} of {} judged screens show as recorded; {}", same, steps->size(),
                             verdict_note);
  return outcome;
}

Result<std::string> ConfirmVisionBug(const std::filesystem::path& bug_dir,
                                     const std::filesystem::path& library) {
  const std::string where = (bug_dir / "bug.json").string();
  auto bug = ReadJsonFile(bug_dir / "bug.json");
  if (!bug.ok()) return bug.status();
  std::string kind;
  ROAM_RETURN_IF_ERROR(ReadField(*bug, "kind", kind, where));
  if (kind != "vision")
    return Status::InvalidArgument(fmt::format(
        "{}: a {} bug; only reports of `roam vision` (bugs/V<n>) become examples", where, kind));
  json example = {{"source", "confirmed"}};
  for (const char* key : {"app", "activity", "function", "expected", "actual"}) {
    std::string value;
    ROAM_RETURN_IF_ERROR(ReadField(*bug, key, value, where));
    example[key] = value;
  }
  std::string bug_kind;
  ROAM_RETURN_IF_ERROR(ReadField(*bug, "bug_kind", bug_kind, where));
  example["kind"] = bug_kind;
  auto steps = StepsFromJson(*bug, where);
  if (!steps.ok()) return steps.status();
  json texts = json::array();
  for (const auto& s : *steps) texts.push_back(s.text);
  example["steps"] = texts;
  json lib = {{"about", "A team's functional-bug examples for `roam vision --examples`."},
              {"examples", json::array()}};
  std::error_code ec;
  if (std::filesystem::exists(library, ec)) {
    auto checked = vision::LoadExamples(library);  // a broken library is not appended to
    if (!checked.ok()) return checked.status();
    auto j = ReadJsonFile(library);
    if (!j.ok()) return j.status();
    lib = std::move(*j);
    for (const auto& e : *checked)
      if (e.app == example["app"] && e.function == example["function"] &&
          e.actual == example["actual"])
        return Status::InvalidArgument(
            fmt::format("{}: already holds this report as {}", library.string(), e.id));
  }
  const std::string id = fmt::format("C{:02}", lib["examples"].size() + 1);
  example["id"] = id;
  lib["examples"].push_back(example);
  ROAM_RETURN_IF_ERROR(WriteJsonFile(library, lib));
  // What was written must load: the same checks as --examples.
  if (auto reread = vision::LoadExamples(library); !reread.ok()) return reread.status();
  return id;
}

}  // namespace roam::run
