#include "cli/fastbot_flags.h"

#include "cli/flags.h"

namespace roam::cli {

namespace {
constexpr const char* kGroup = "Fastbot strategy";
}  // namespace

void AddFastbotTuningFlags(CLI::App& app, explore::FastbotOptions& o) {
  app.add_option("--fastbot-alpha", o.alpha, "fastbot: softmax temperature over E(e)")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-k", o.k, "fastbot: picks of each event per run before the others")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-n", o.n_step, "fastbot: n of N-step SARSA")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-gamma", o.gamma, "fastbot: discount of later rewards")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-lr", o.learning_rate, "fastbot: SARSA learning rate")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-beta", o.beta, "fastbot: softmax temperature over Q(e)")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-dynamic-texts", o.dynamic_texts,
                 "fastbot: texts a widget may show before its text counts as dynamic (empty)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option(
         "--fastbot-stuck", o.stuck_steps,
         "fastbot: steps on one screen before back is forced (twice that: restart; 0: never)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option_function<std::string>(
         "--fastbot-route", [&o](const std::string& v) { o.route = v == "on"; },
         "fastbot: on a page with nothing left to try, walk to the nearest one with something "
         "(off: the paper's rules alone)")
      ->check(CLI::IsMember({"on", "off"}))
      ->default_str(o.route ? "on" : "off")
      ->group(kGroup);
  app.add_option("--fastbot-intent-stall", o.intents.stall_steps,
                 "fastbot: steps without a new activity after which it sends an intent, to an "
                 "activity not reached first (0: never; with --intents on)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-model-steps", o.model_steps,
                 "fastbot: steps of a run in which the combined mode picks by the model before "
                 "it picks by Q (0: by the model only where the page has events not yet picked "
                 "K times)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option_function<std::string>(
         "--fastbot-expand-globals", [&o](const std::string& v) { o.expand_globals = v == "on"; },
         "fastbot: expansion tries the global actions (back, rotate, restart...) as it tries a "
         "screen's new events (off: the screen's only)")
      ->check(CLI::IsMember({"on", "off"}))
      ->default_str(o.expand_globals ? "on" : "off")
      ->group(kGroup);
  app.add_option("--fastbot-prior", o.prior,
                 "fastbot: a hyper-event's prior: the mix's weights of all the widgets it stands "
                 "for (widget: 20 like rows weigh 20 buttons) or of one (event)")
      ->check(CLI::IsMember({"widget", "event"}))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-repeat", o.repeat,
                 "fastbot: the chance that a tap that led to a new screen of its activity is "
                 "tapped again at once (0: never, as Fastbot2's K = 1)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--fastbot-globals", o.globals,
                 "fastbot: global actions offered as hyper-events (back, menu, swipe_up, "
                 "swipe_down, swipe_left, swipe_right, rotate, restart, key)")
      ->delimiter(',')
      ->capture_default_str()
      ->group(kGroup);
}

void AddFastbotModelFlags(CLI::App& app, explore::FastbotOptions& o, int64_t& save_every) {
  app.add_option("--model", o.model_dir,
                 "fastbot: reusable model folder (DIR/model.bin: loaded at start, created if "
                 "absent, saved as the run goes and at the end)")
      ->group(kGroup);
  app.add_option("--model-save-every", save_every,
                 "fastbot: events between model saves (0: at the end only)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_flag("--model-reset", o.model_reset,
               "fastbot: set aside a model file that cannot be loaded and start a fresh one")
      ->group(kGroup);
}

}  // namespace roam::cli
