#include "explore/dqn.h"

#include <algorithm>
#include <mutex>
#include <numeric>

#include <fmt/format.h>

namespace roam::explore {

namespace {

// The page events every screen offers: the paper's restart, back and menu, rotation, and the
// four screen swipes Monkey and Fastbot send (a navigation drawer opens with a swipe from the
// edge and has no widget to click until then).
constexpr gui::ActionKind kPageGlobals[] = {
    gui::ActionKind::kBack,      gui::ActionKind::kMenu,      gui::ActionKind::kSwipeUp,
    gui::ActionKind::kSwipeDown, gui::ActionKind::kSwipeLeft, gui::ActionKind::kSwipeRight,
    gui::ActionKind::kRotate,    gui::ActionKind::kRestart};
// The keys among the system events sent every `system_every` steps (Stoat's: rotation, volume,
// the app's broadcasts).
constexpr std::string_view kSystemKeys[] = {"VOLUME_UP", "VOLUME_DOWN", "VOLUME_MUTE"};

constexpr int kHashedDim = 100;  // the dimension of the vectors scripts/word_vectors.sh builds

}  // namespace

Status CheckDqnOptions(const DqnOptions& o) {
  auto bad = [](std::string what) { return Status::InvalidArgument(std::move(what)); };
  if (o.epsilon < 0 || o.epsilon > 1) return bad("dqn.epsilon must be between 0 and 1");
  if (o.warmup < 0) return bad("dqn.warmup must be 0 or more");
  if (o.replay < 0 || o.replay > 1000) return bad("dqn.replay must be 0 to 1000");
  if (!(o.learning_rate > 0) || o.learning_rate > 1)
    return bad("dqn.learning_rate must be above 0 and at most 1");
  if (o.gamma < 0 || o.gamma >= 1) return bad("dqn.gamma must be at least 0 and below 1");
  if (o.system_every < 0) return bad("dqn.system_every must be 0 (never) or more");
  if (o.memory < 1) return bad("dqn.memory must be at least 1");
  if (o.words < 1 || o.words > DqnShape::kMaxWords)
    return bad(fmt::format("dqn.words must be 1 to {}", DqnShape::kMaxWords));
  if (o.generations < 1 || o.generations > DqnShape::kMaxGenerations)
    return bad(fmt::format("dqn.generations must be 1 to {}", DqnShape::kMaxGenerations));
  if (o.histogram < DqnShape::kMinHistogram || o.histogram > DqnShape::kMaxHistogram)
    return bad(fmt::format("dqn.histogram must be {} to {}", DqnShape::kMinHistogram,
                           DqnShape::kMaxHistogram));
  if (o.reward != "auto" && o.reward != "coverage" && o.reward != "novelty")
    return bad(fmt::format("dqn.reward \"{}\": expected auto, coverage or novelty", o.reward));
  return Status::Ok();
}

std::string ResolveRewardRule(const std::string& reward, bool has_coverage) {
  if (reward != "auto") return reward;
  return has_coverage ? "coverage" : "novelty";
}

bool RunsDqn(std::string_view strategy) { return strategy == "dqn" || strategy.ends_with(":dqn"); }

namespace {

// The word vectors, the model's record and its network, as `options` name them, into `into`.
Status LoadShared(const DqnOptions& options, DqnShared& into) {
  if (!options.networks.fresh || !options.networks.load)
    return Status::InvalidArgument("dqn: this build has no network library");
  std::optional<WordVectors> vectors;
  if (options.vectors.empty() || options.vectors == "hashed") {
    vectors = WordVectors::Hashed(kHashedDim);
  } else {
    auto loaded = WordVectors::Load(options.vectors);
    if (!loaded.ok())
      return loaded.status().Wrap(
          "dqn: the word vectors (scripts/word_vectors.sh builds them; dqn.vectors names "
          "another file)");
    vectors = std::move(*loaded);
  }
  DqnShape shape{.words = options.words,
                 .dim = vectors->dim(),
                 .generations = options.generations,
                 .histogram = options.histogram};
  DqnModelMeta meta{.shape = shape, .vectors_fingerprint = vectors->fingerprint()};
  std::unique_ptr<QNetwork> network;
  Result<DqnModel> model = Status::NotFound("");
  std::string source = options.model.string();
  if (options.model.empty()) {
    source = "the shipped model";
    if (ShippedDqnModel().empty())
      return Status::NotFound(
          "dqn: this build ships no model: train one with `roam train` and give it with "
          "dqn.model");
    model = DecodeDqnModel(ShippedDqnModel(), source);
  } else {
    model = LoadDqnModel(options.model);
  }
  if (model.ok()) {
    if (model->meta.shape != shape)
      return Status::InvalidArgument(fmt::format(
          "dqn: {} reads {} words of {}-d vectors and FCD of {} x {}; these settings give {} "
          "words of {}-d vectors and {} x {} (train a model for them)",
          source, model->meta.shape.words, model->meta.shape.dim, model->meta.shape.generations,
          model->meta.shape.histogram, shape.words, shape.dim, shape.generations, shape.histogram));
    if (model->meta.vectors_fingerprint != vectors->fingerprint() && options.note)
      options.note(fmt::format(
          "dqn: {} was trained with other word vectors than {}: its text features may mislead it",
          source, options.vectors.empty() ? "hashed ones" : options.vectors.string()));
    meta.trained_events = model->meta.trained_events;
    meta.apps = model->meta.apps;
    auto loaded = options.networks.load(model->weights, shape, options.learning_rate, source);
    if (!loaded.ok()) return loaded.status();
    network = std::move(*loaded);
  } else if (model.status().IsNotFound() && options.create) {
    auto fresh = options.networks.fresh(shape, options.learning_rate, options.init_seed);
    if (!fresh.ok()) return fresh.status();
    network = std::move(*fresh);
  } else if (model.status().IsNotFound()) {
    return Status::NotFound(fmt::format(
        "dqn: {}: no such model file (`roam train --model {}` makes one)", source, source));
  } else {
    return model.status().Wrap("dqn: cannot load the model");
  }
  if (!options.frozen && options.save && !options.model.empty() && !options.app.empty() &&
      meta.apps.size() < 1000)
    meta.apps.push_back(options.app);
  into.vectors = std::move(*vectors);
  into.meta = std::move(meta);
  into.network = std::move(network);
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<DqnStrategy>> DqnStrategy::Make(DqnOptions options, bool has_coverage) {
  ROAM_RETURN_IF_ERROR(CheckDqnOptions(options));
  std::shared_ptr<DqnShared> shared = options.shared;
  if (!shared) shared = std::make_shared<DqnShared>();
  {
    std::lock_guard lock(shared->mu);
    if (!shared->loaded) {
      ROAM_RETURN_IF_ERROR(LoadShared(options, *shared));
      shared->loaded = true;
    }
  }
  std::string rule = ResolveRewardRule(options.reward, has_coverage);
  return std::make_unique<DqnStrategy>(std::move(options), std::move(rule), std::move(shared));
}

void DqnStrategy::AddSettings(nlohmann::json& config) const {
  const DqnOptions& d = options_;
  config["dqn"] = {
      {"epsilon", d.epsilon},
      {"warmup", d.warmup},
      {"replay", d.replay},
      {"learning_rate", d.learning_rate},
      {"gamma", d.gamma},
      {"reward_positive", d.reward_positive},
      {"reward_negative", d.reward_negative},
      {"reward_rule", reward_rule_},
      {"system_every", d.system_every},
      {"broadcasts", d.broadcasts},
      {"memory", d.memory},
      {"words", d.words},
      {"generations", d.generations},
      {"histogram", d.histogram},
      {"features", FeatureNames(d.features)},
      {"record_q", d.record_q},
      {"model", d.model.empty() ? nlohmann::json("shipped") : nlohmann::json(d.model.string())},
      {"frozen", d.frozen},
      {"vectors", d.vectors.string()}};
}

void DqnStrategy::AddFigures(std::vector<FiguresFile>& files) const {
  std::lock_guard lock(s_.mu);
  const DqnStats& st = s_.stats;
  files.push_back({.name = "dqn",
                   .figures = {{"decisions", st.decisions},
                               {"updates", st.updates},
                               {"loss", st.loss},
                               {"positive_rewards", st.positive},
                               {"vertices", st.vertices},
                               {"pages", st.pages},
                               {"reward_rule", reward_rule_}},
                   .whole_run = options_.shared != nullptr});
  if (options_.record_q) files.push_back({.name = "dqn-steps", .figures = steps_record_});
}

void DqnStrategy::RecordStep(const StepView& view, std::string_view how, int chosen) {
  nlohmann::json events = nlohmann::json::array();
  for (size_t i = 0; i < page_.size(); ++i) {
    const int first = page_[i].actions.front();
    const gui::Action& action = first >= 0 ? view.actions[first] : globals_[-1 - first];
    const std::string_view kind = gui::ActionKindName(action.kind);
    const std::string label = EventLabel(view.screen, action);  // a global's is its kind
    events.push_back({{"event", label.empty() || label == kind ? std::string(kind)
                                                               : fmt::format("{} {}", kind, label)},
                      {"q", q_[i]}});
  }
  steps_record_.push_back({{"step", steps_},
                           {"activity", view.screen.activity},
                           {"how", how},
                           {"chosen", chosen},
                           {"events", std::move(events)}});
}

DqnStrategy::DqnStrategy(DqnOptions options, std::string reward_rule,
                         std::shared_ptr<DqnShared> shared)
    : options_(std::move(options)),
      reward_rule_(std::move(reward_rule)),
      shared_(std::move(shared)),
      s_(*shared_),
      shape_(s_.meta.shape),
      typer_(options_.strings) {
  for (auto kind : kPageGlobals) globals_.push_back(gui::MakeGlobalAction(kind));
}

void DqnStrategy::MapPage(const StepView& view) {
  page_.clear();
  const std::string& activity = view.screen.activity;
  auto add = [&](const gui::Action& action, int index) {
    EventGraph::Vertex v =
        s_.graph.VertexOf(activity, action.kind, EventLabel(view.screen, action));
    for (auto& e : page_)
      if (e.vertex == v) {
        e.actions.push_back(index);
        return;
      }
    page_.push_back({v, {index}});
  };
  for (int i = 0; i < static_cast<int>(view.actions.size()); ++i) add(view.actions[i], i);
  for (int i = 0; i < static_cast<int>(globals_.size()); ++i) add(globals_[i], -1 - i);
}

void DqnStrategy::Learn(const Transition& t) {
  const bool grew = reward_rule_ == "coverage" ? t.new_units > 0 : t.new_activity || t.new_state;
  const bool positive = grew || t.new_crash;
  std::lock_guard lock(s_.mu);
  s_.stats.positive += positive;
  pending_reward_ = positive ? options_.reward_positive : options_.reward_negative;
}

void DqnStrategy::LearnStep(float best_next, Rng& rng) {
  const size_t width = static_cast<size_t>(shape_.width());
  const float target = static_cast<float>(*pending_reward_ + options_.gamma * best_next);
  batch_rows_.assign(pending_row_.begin(), pending_row_.end());
  batch_targets_.assign(1, target);
  // `replay` distinct history samples (all of them while the memory holds fewer).
  const size_t stored = s_.memory_targets.size();
  const size_t want = std::min(stored, static_cast<size_t>(options_.replay));
  picks_.clear();
  while (picks_.size() < want) {
    size_t pick = rng.Below(stored);
    if (std::find(picks_.begin(), picks_.end(), pick) != picks_.end()) continue;
    picks_.push_back(pick);
    batch_rows_.insert(batch_rows_.end(), s_.memory_rows.begin() + pick * width,
                       s_.memory_rows.begin() + (pick + 1) * width);
    batch_targets_.push_back(s_.memory_targets[pick]);
  }
  double loss = s_.network->Fit(batch_rows_.data(), batch_targets_.data(), batch_targets_.size());
  ++s_.stats.updates;
  s_.recent_loss.push_back(loss);
  if (s_.recent_loss.size() > 100) s_.recent_loss.erase(s_.recent_loss.begin());
  s_.stats.loss = std::accumulate(s_.recent_loss.begin(), s_.recent_loss.end(), 0.0) /
                  static_cast<double>(s_.recent_loss.size());
  // Into the memory, a ring of options_.memory samples.
  if (stored < options_.memory) {
    s_.memory_rows.insert(s_.memory_rows.end(), pending_row_.begin(), pending_row_.end());
    s_.memory_targets.push_back(target);
  } else {
    std::copy(pending_row_.begin(), pending_row_.end(),
              s_.memory_rows.begin() + s_.memory_next * width);
    s_.memory_targets[s_.memory_next] = target;
    s_.memory_next = (s_.memory_next + 1) % options_.memory;
  }
}

std::pair<size_t, std::string_view> DqnStrategy::Choose(Rng& rng) {
  if (steps_ <= options_.warmup) return {rng.Below(page_.size()), "warmup"};
  if (rng.Chance(options_.epsilon)) return {rng.Below(page_.size()), "epsilon"};
  ++s_.stats.decisions;
  return {static_cast<size_t>(std::max_element(q_.begin(), q_.end()) - q_.begin()), "network"};
}

gui::Action DqnStrategy::Next(const StepView& view, Rng& rng) {
  ++steps_;
  typer_.Arrived(view.screen);
  intents_.Saw(view);
  std::lock_guard lock(s_.mu);
  MapPage(view);
  std::vector<EventGraph::Vertex> vertices;
  vertices.reserve(page_.size());
  for (const auto& e : page_) vertices.push_back(e.vertex);
  EventGraph::Page page = s_.graph.PageOf(view.screen.activity, std::move(vertices));
  if (pending_vertex_) s_.graph.AddEdge(*pending_vertex_, page);

  const size_t width = static_cast<size_t>(shape_.width());
  rows_.resize(page_.size() * width);
  for (size_t i = 0; i < page_.size(); ++i) {
    const auto& e = page_[i];
    const int first = e.actions.front();
    const gui::Action& action = first >= 0 ? view.actions[first] : globals_[-1 - first];
    EventRow(s_.graph, e.vertex, EventWords(view.screen, action), s_.vectors, shape_,
             rows_.data() + i * width, options_.features);
  }
  q_.resize(page_.size());
  s_.network->Predict(rows_.data(), page_.size(), q_.data());
  if (pending_vertex_ && pending_reward_ && !options_.frozen)
    LearnStep(*std::max_element(q_.begin(), q_.end()), rng);
  s_.meta.trained_events += !options_.frozen;
  pending_vertex_.reset();
  pending_reward_.reset();

  if (options_.system_every > 0 && steps_ % options_.system_every == 0) {
    // A system event, not learned from (the paper's Stoat library): a rotation, a volume key,
    // a broadcast the app takes or an intent (one slot, explore/intents.h picks which), each as
    // likely.
    const size_t keys = std::size(kSystemKeys);
    const size_t broadcasts = options_.broadcasts ? view.broadcasts.size() : 0;
    const size_t intents = view.intents.empty() ? 0 : 1;
    const size_t pick = rng.Below(keys + 1 + broadcasts + intents);
    gui::Action system =
        pick < keys ? gui::MakeGlobalAction(gui::ActionKind::kKey, std::string(kSystemKeys[pick]))
        : pick == keys ? gui::MakeGlobalAction(gui::ActionKind::kRotate)
        : pick <= keys + broadcasts
            ? gui::MakeGlobalAction(gui::ActionKind::kBroadcast, view.broadcasts[pick - keys - 1])
            : *intents_.Pick(view, rng);
    if (options_.record_q) RecordStep(view, "system", -1);
    typer_.Chosen(view.screen, system, rng);
    return system;
  }
  const auto [chosen, how] = Choose(rng);
  if (options_.record_q) RecordStep(view, how, static_cast<int>(chosen));
  const Event& e = page_[chosen];
  s_.graph.Executed(e.vertex);
  pending_vertex_ = e.vertex;
  pending_row_.assign(rows_.begin() + chosen * width, rows_.begin() + (chosen + 1) * width);
  s_.stats.vertices = s_.graph.vertex_count();
  s_.stats.pages = s_.graph.page_count();
  const int index = e.actions[rng.Below(e.actions.size())];
  gui::Action action = index >= 0 ? view.actions[index] : globals_[-1 - index];
  typer_.Chosen(view.screen, action, rng);
  return action;
}

Status DqnStrategy::Flush() {
  if (options_.frozen || !options_.save || options_.model.empty()) return Status::Ok();
  std::lock_guard lock(s_.mu);
  return SaveDqnModel(s_.meta, s_.network->Weights(), options_.model).Wrap("saving the dqn model");
}

}  // namespace roam::explore
