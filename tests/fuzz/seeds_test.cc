// fuzz/seeds: which event a seed takes next.
#include "fuzz/seeds.h"

#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::ClickOn;
using testing::L;
using testing::W;

// A form with Done and Cancel beside other buttons (Like, Share): the shape of a generated
// app's Profile screen.
Layout Form() {
  return L(W("LinearLayout", "root",
             {W("Button", "btn_done").Text("Done").Click(),
              W("Button", "btn_cancel").Text("Cancel").Click(),
              W("Button", "btn_like").Text("Like").Click(),
              W("Button", "btn_share").Text("Share").Click()}));
}

// Times in 1,000 random choices on `layout`, each the first of a seed, that the seed tapped Done.
int DoneTaps(const Layout& layout, const Model& model) {
  Rng rng(7);
  SeedChooser chooser({}, model, rng);
  Event done = ClickOn(layout.screen, "Done");
  int n = 0;
  for (int i = 0; i < 1000; ++i) {
    chooser.StartSeed();
    n += chooser.Choose(layout, /*systematic=*/false) == done;
  }
  return n;
}

TEST(SeedChooser, PrefersThePositiveAnswerWhileItMayLeadOn) {
  Layout form = Form();
  Model model;  // Done never tried here
  EXPECT_GT(DoneTaps(form, model), 750);
  // Done led elsewhere once: still preferred.
  model.Observe(form.abs, ClickOn(form.screen, "Done"), form.abs + 1);
  model.Observe(form.abs, ClickOn(form.screen, "Done"), form.abs);
  EXPECT_GT(DoneTaps(form, model), 750);
}

TEST(SeedChooser, AnswersPositivelyWhereItArrivesNotOverAndOver) {
  // Done on a form led on once (valid input) and stayed once (invalid input), so it stays
  // preferred; a seed on the form pressed it 6 of its 12 events and never tapped Like (gen307's
  // Profile).
  Layout form = Form();
  Event done = ClickOn(form.screen, "Done");
  Model model;
  model.Observe(form.abs, done, form.abs + 1);
  model.Observe(form.abs, done, form.abs);
  Rng rng(5);
  SeedChooser chooser({}, model, rng);
  const EffectLedger with_mutants;
  for (const EffectLedger* ledger : {static_cast<const EffectLedger*>(nullptr), &with_mutants}) {
    int dones = 0, firsts = 0;
    for (int seed = 0; seed < 100; ++seed) {
      chooser.StartSeed();
      for (int t = 0; t < 12; ++t) {
        const bool d = chooser.Choose(form, false, ledger) == done;
        dones += d;
        firsts += d && t == 0;
      }
    }
    EXPECT_GT(firsts, 75);  // still the first answer
    EXPECT_LT(dones, 400);  // was about 900: then as any other click
  }
  // A confirm dialog is answered each time a seed's event opens it (a list's Remove, then OK).
  const Layout list =
      L(W("LinearLayout", "root", {W("Button", "btn_remove").Text("Remove").Click()}));
  const Layout confirm =
      L(W("LinearLayout", "root",
          {W("Button", "ok").Text("OK").Click(), W("Button", "cancel").Text("Cancel").Click()}));
  Event ok = ClickOn(confirm.screen, "OK");
  int oks = 0;
  chooser.StartSeed();
  for (int t = 0; t < 100; ++t) {
    chooser.Choose(list, false);
    oks += chooser.Choose(confirm, false) == ok;
  }
  EXPECT_GT(oks, 75);
}

TEST(SeedChooser, StopsPreferringAPositiveAnswerThatChangesNothing) {
  // A form whose input is invalid: Done only shows its error, i.e. stays on this layout. A seed
  // that kept answering it (80% of its events) never tapped Like or Share.
  Layout form = Form();
  Model model;
  model.Observe(form.abs, ClickOn(form.screen, "Done"), form.abs);
  int done = DoneTaps(form, model);
  // Without the preference a click picks among the four buttons (60% clicks, 35% long clicks
  // that none takes, 5% back): about 1 in 4.
  EXPECT_LT(done, 400);
  EXPECT_GT(done, 100);
}

TEST(SeedChooser, TakesEffectsNoTestedSeedTookFirst) {
  Layout form = Form();
  Event like = ClickOn(form.screen, "Like");
  EffectLedger ledger;
  ledger.Saw(form.abs, like);
  EXPECT_TRUE(ledger.Untested(form.abs, like));
  EXPECT_FALSE(ledger.Untested(form.abs + 1, like));
  auto likes = [&](const EffectLedger* steer) {
    Rng rng(3);
    Model model;
    model.Observe(form.abs, ClickOn(form.screen, "Done"), form.abs);  // Done: a futile answer
    SeedChooser chooser({}, model, rng);
    int n = 0;
    for (int i = 0; i < 1000; ++i) {
      chooser.StartSeed();  // each the first event of a seed
      n += chooser.Choose(form, false, steer) == like;
    }
    return n;
  };
  const int plain = likes(nullptr), steered = likes(&ledger);
  EXPECT_LT(plain, 250);    // one click of four, 60% of the time
  EXPECT_GT(steered, 550);  // half the time, then as plain
  ledger.Tested(form.abs, like);
  EXPECT_FALSE(ledger.Untested(form.abs, like));
  EXPECT_LT(likes(&ledger), 250);
}

// A form that validates (a name, a four-digit PIN) before its Continue leads on, beside buttons
// that do something else: the shape of a generated app's Edit screen.
Layout PinForm(const std::string& name, const std::string& pin) {
  return L(W(
      "LinearLayout", "root",
      {W("EditText", "edit_name").Edit().Click().Text(name),
       W("EditText", "edit_pin").Edit().Click().Text(pin),
       W("Button", "btn_next").Text("Continue").Click(),
       W("Button", "btn_back").Text("Back").Click(), W("Button", "btn_like").Text("Like").Click(),
       W("Button", "btn_share").Text("Share").Click(), W("Button", "btn_sort").Text("Sort").Click(),
       W("Button", "btn_mute").Text("Mute").Click()}));
}

TEST(SeedChooser, FillsAFormsEmptyFieldsWithWhatTheyAskForThenSendsItOn) {
  // Typing into both fields and then pressing Continue, three events in a row, is about one
  // in 2,000 for a random seed (a click falls on one of eight widgets, 60% of the time), so seeds
  // of 12 events never got behind the form on a generated app (gen312: 22 of 40 activities,
  // fastbot 40).
  Model model;
  Rng rng(11);
  SeedChooser chooser({}, model, rng);
  int typed = 0, pin_fits = 0, sent = 0;
  const Layout empty = PinForm("", ""), half = PinForm("Alice", ""),
               full = PinForm("Alice", "1234");
  for (int i = 0; i < 1000; ++i) {
    Event e = chooser.Choose(empty, /*systematic=*/i % 2 == 0);
    typed += e.kind == gui::ActionKind::kInputText;
    Event f = chooser.Choose(half, i % 2 == 0);
    if (f.kind == gui::ActionKind::kInputText && f.signature.find("edit_pin") != std::string::npos)
      pin_fits += f.text == "1234";
    sent += chooser.Choose(full, i % 2 == 0) == ClickOn(full.screen, "Continue");
  }
  EXPECT_GT(typed, 700);
  EXPECT_GT(pin_fits, 700);  // the empty field, with a value it takes
  EXPECT_GT(sent, 500);
  EXPECT_LT(sent, 900);  // the rest of the form is tried too
  // A form that has let a seed through is not filled by rule again: seeds map the rest of its
  // screen (on gen309 the way on lay behind a checkbox on a form's screen, and seeds that kept
  // sending the form on never took it).
  const Layout next = L(W("LinearLayout", "root", {}), "app.Next");
  Model passed;
  passed.Observe(empty.abs, ClickOn(full.screen, "Continue"), next.abs);
  SeedChooser after({}, passed, rng);
  typed = 0;
  for (int i = 0; i < 1000; ++i)
    typed += after.Choose(empty, false).kind == gui::ActionKind::kInputText;
  EXPECT_LT(typed, 300);
  // Without the rule: typing is as likely as any other click.
  SeedSettings plain;
  plain.pct_fill_forms = 0;
  SeedChooser random(plain, model, rng);
  typed = 0;
  for (int i = 0; i < 1000; ++i)
    typed += random.Choose(empty, false).kind == gui::ActionKind::kInputText;
  EXPECT_LT(typed, 300);
}

TEST(SeedChooser, RandomSeedsScrollListsAndSwipeTheScreenUnlessTold) {
  // Rows below the fold, drawers and pagers were out of a seed's reach: it never scrolled.
  const Layout list = L(W("LinearLayout", "root",
                          {W("ListView", "list").Scroll(), W("Button", "add").Text("Add").Click()}),
                        "app.Main");
  auto count = [&](double pct_scroll) {
    Model model;
    Rng rng(3);
    SeedSettings settings;
    settings.pct_scroll = pct_scroll;
    SeedChooser chooser(settings, model, rng);
    std::map<gui::ActionKind, int> kinds;
    for (int i = 0; i < 2000; ++i) ++kinds[chooser.Choose(list, /*systematic=*/false).kind];
    return kinds;
  };
  auto kinds = count(10);
  // Weights 60 click, 5 back, 10 scroll or swipe (no long click here): about 267 of 2,000,
  // over the list's up and down and the screen's four swipes.
  int scrolls = 0;
  for (auto [kind, n] : kinds) scrolls += IsScrollOrSwipe(kind) ? n : 0;
  EXPECT_GT(scrolls, 180);
  EXPECT_LT(scrolls, 360);
  EXPECT_GT(kinds[gui::ActionKind::kScrollDown], 20);
  EXPECT_GT(kinds[gui::ActionKind::kSwipeRight], 20);
  for (auto [kind, n] : count(0)) EXPECT_FALSE(IsScrollOrSwipe(kind)) << n;
}

TEST(SeedChooser, ASeedWithMutantsStaysOnTheScreenItStartsOn) {
  // A seed with mutants tests the screen it starts on. One whose first events were a Back or a
  // Close tested the screens it came to instead (gen301: three seeds started on the screen of a
  // planted "Like stops working", none tapped its Like).
  const Layout albums = L(W("LinearLayout", "root",
                            {W("Button", "btn_like").Text("Like").Click(),
                             W("Button", "btn_copy").Text("Copy link").Click(),
                             W("Button", "btn_sort").Text("Sort").Click(),
                             W("Button", "btn_close").Text("Close").Click()}),
                          "app.Albums");
  const Layout home =
      L(W("LinearLayout", "root", {W("Button", "btn_albums").Text("Albums").Click()}), "app.Main");
  const Event close = ClickOn(albums.screen, "Close");
  Model model;
  model.Observe(albums.abs, close, home.abs);
  model.Observe(albums.abs, Event{}, home.abs);  // back
  model.Observe(albums.abs, ClickOn(albums.screen, "Sort"), albums.abs);
  auto leaving = [&](const EffectLedger* ledger) {
    Rng rng(5);
    SeedChooser chooser({}, model, rng);
    chooser.See(albums);
    chooser.See(home);
    int n = 0;
    for (int i = 0; i < 1000; ++i) {
      Event e = chooser.Choose(albums, /*systematic=*/false, ledger);
      n += e == close || e == Event{};  // Close or back
    }
    return n;
  };
  EffectLedger ledger;
  EXPECT_GT(leaving(nullptr), 150);  // a seed mapping the app: one click in four, and back
  EXPECT_LT(leaving(&ledger), 80);
}

TEST(SeedChooser, ASeedTakesAnUntestedEffectOnceNotOverAndOver) {
  // The effect is untested until the seed's mutants are made, so a seed kept taking it: one
  // typed "Alice" into the same field ten times in a row (gen307) and tested nothing else there.
  Layout form = Form();
  Event like = ClickOn(form.screen, "Like");
  EffectLedger ledger;
  ledger.Saw(form.abs, like);
  Model model;
  model.Observe(form.abs, ClickOn(form.screen, "Done"), form.abs);  // Done: a futile answer
  Rng rng(9);
  SeedChooser chooser({}, model, rng);
  int likes = 0;
  for (int seed = 0; seed < 100; ++seed) {
    chooser.StartSeed();
    for (int t = 0; t < 12; ++t) likes += chooser.Choose(form, false, &ledger) == like;
  }
  EXPECT_GT(likes, 100);  // the first time, then as any other click
  EXPECT_LT(likes, 400);  // was about 700: half of every event, then a click in four
}

TEST(SeedChooser, ASeedWithMutantsAnswersNoDialogThatLeavesTheScreen) {
  // The stay rule held for clicks but not for a dialog's positive answer: seeds started on a
  // form with Done and Cancel pressed Done, which closes it, as their first event.
  Layout form = Form();
  const Layout home =
      L(W("LinearLayout", "root", {W("Button", "btn_albums").Text("Albums").Click()}), "app.Home");
  Event done = ClickOn(form.screen, "Done");
  Model model;
  model.Observe(form.abs, done, home.abs);
  Rng rng(4);
  SeedChooser chooser({}, model, rng);
  chooser.See(form);
  chooser.See(home);
  EffectLedger ledger;
  int dones = 0;
  for (int i = 0; i < 1000; ++i) dones += chooser.Choose(form, false, &ledger) == done;
  EXPECT_LT(dones, 250);  // was about 800
}

TEST(EffectLedger, AStateHasUntestedEffectsUntilTestedSeedsTookThemAll) {
  Layout form = Form();
  Event like = ClickOn(form.screen, "Like"), done = ClickOn(form.screen, "Done");
  EffectLedger ledger;
  EXPECT_FALSE(ledger.HasUntested(form.abs));
  ledger.Saw(form.abs, like);
  ledger.Saw(form.abs, done);
  ledger.Saw(form.abs + 1, like);
  EXPECT_TRUE(ledger.HasUntested(form.abs));
  ledger.Tested(form.abs, like);
  EXPECT_TRUE(ledger.HasUntested(form.abs));  // Done is left
  ledger.Tested(form.abs, done);
  EXPECT_FALSE(ledger.HasUntested(form.abs));
  EXPECT_TRUE(ledger.HasUntested(form.abs + 1));  // another state's effects are its own
  EXPECT_FALSE(ledger.HasUntested(form.abs + 2));
}

TEST(Seeds, WaysToTheLayoutsOfARunLeaveOutDetours) {
  // States A B A C B: the way to C skips the trip to B and back; the way to the last B is
  // [to C, to B], not the first B's.
  std::vector<Layout> layouts(5);
  const uint64_t abs[] = {1, 2, 1, 3, 2};
  for (int t = 0; t < 5; ++t) layouts[t].abs = abs[t];
  std::vector<Event> events(4);
  for (int t = 0; t < 4; ++t) events[t].text = std::to_string(t);  // tells them apart
  auto ways = WaysWithoutDetours(layouts, events);
  ASSERT_EQ(ways.size(), 5u);
  EXPECT_TRUE(ways[0].empty());
  EXPECT_EQ(ways[1], std::vector<Event>({events[0]}));
  EXPECT_TRUE(ways[2].empty());  // back at A
  EXPECT_EQ(ways[3], std::vector<Event>({events[2]}));
  EXPECT_EQ(ways[4], std::vector<Event>({events[2], events[3]}));
}

TEST(Seeds, AWayKeepsTheTypingThatLetAFormThrough) {
  // Typing leaves a form's layout state as it was (its abstraction has no typed text), so the
  // typing looked like a detour and was cut: a seed starting behind the form replayed only
  // Continue, which the empty form refused, and never got there (gen304: 14 seeds of one run
  // started "from" a screen behind a form and took not one event of their own).
  const std::vector<Layout> layouts = {PinForm("", ""), PinForm("Alice", ""),
                                       PinForm("Alice", "1234"),
                                       L(W("LinearLayout", "root", {}), "app.Next")};
  std::vector<Event> events(3);
  for (int t = 0; t < 3; ++t) events[t].text = std::to_string(t);
  auto ways = WaysWithoutDetours(layouts, events);
  ASSERT_EQ(ways.size(), 4u);
  EXPECT_EQ(ways[3], events);
}

TEST(Starts, AStateReachedByAShorterWayIsStartedFromThatWay) {
  // The first way to a state was kept for good. Ways keep more now (typing is no detour), and
  // a screen first reached 34 events deep, two short of max_prefix, was started from 9 times in
  // one run while the screen behind it, though 8 taps from the launch, never could be (gen301).
  auto run = [](std::vector<uint64_t> states) {
    std::vector<Layout> layouts(states.size());
    std::vector<Event> events(states.size() - 1);
    for (size_t t = 0; t < states.size(); ++t) layouts[t].abs = states[t];
    for (size_t t = 0; t + 1 < states.size(); ++t)
      events[t].text = fmt::format("to {}", states[t + 1]);
    return std::pair(layouts, events);
  };
  Starts starts(/*max_prefix=*/2);
  auto [long_layouts, long_events] = run({1, 2, 3, 4});
  starts.Add(long_layouts, long_events);
  ASSERT_EQ(starts.all().size(), 2u);  // 2 and 3; 4 lies 3 events deep
  starts.all()[1].uses = 5;
  auto [short_layouts, short_events] = run({1, 4, 3});
  starts.Add(short_layouts, short_events);
  ASSERT_EQ(starts.all().size(), 3u);
  EXPECT_EQ(starts.all()[2].state, 4u);
  EXPECT_EQ(starts.all()[2].prefix, std::vector<Event>({short_events[0]}));
  EXPECT_EQ(starts.all()[1].state, 3u);  // now 2 events deep, as before: unchanged
  EXPECT_EQ(starts.all()[1].prefix.size(), 2u);
  EXPECT_EQ(starts.all()[1].uses, 5);
  auto [shorter_layouts, shorter_events] = run({1, 3});
  starts.Add(shorter_layouts, shorter_events);
  EXPECT_EQ(starts.all()[1].prefix, std::vector<Event>({shorter_events[0]}));
  EXPECT_EQ(starts.all()[1].uses, 5);
}

TEST(Starts, AWayThatFailedWaitsForAnotherAndIsNotTakenAgain) {
  auto run = [](std::vector<uint64_t> states, std::string tag) {
    std::vector<Layout> layouts(states.size());
    std::vector<Event> events(states.size() - 1);
    for (size_t t = 0; t < states.size(); ++t) layouts[t].abs = states[t];
    for (size_t t = 0; t + 1 < states.size(); ++t)
      events[t].text = fmt::format("{} to {}", tag, states[t + 1]);
    return std::pair(layouts, events);
  };
  Starts starts(/*max_prefix=*/5);
  auto [short_layouts, short_events] = run({1, 3}, "a");
  starts.Add(short_layouts, short_events);
  ASSERT_EQ(starts.all().size(), 1u);
  Starts::Start& three = starts.all()[0];
  EXPECT_TRUE(three.Usable());
  starts.Failed(three);
  EXPECT_FALSE(three.Usable());
  // Seen again by the way that failed: still not usable.
  starts.Add(short_layouts, short_events);
  EXPECT_FALSE(starts.all()[0].Usable());
  // Another way, though longer, is taken.
  auto [long_layouts, long_events] = run({1, 2, 3}, "b");
  starts.Add(long_layouts, long_events);
  EXPECT_TRUE(starts.all()[0].Usable());
  EXPECT_EQ(starts.all()[0].prefix, long_events);
  // The short way that failed does not replace it.
  starts.Add(short_layouts, short_events);
  EXPECT_EQ(starts.all()[0].prefix, long_events);
}

}  // namespace
}  // namespace roam::fuzz
