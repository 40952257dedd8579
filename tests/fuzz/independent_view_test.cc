// fuzz/oracle and the mutant rules: Δ and containment, the oracle on a hand-built diary seed and
// mutant, unstable views, de-duplication ranking, the 50% return rule, mutant search.
#include "fuzz/independent_view.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fuzz/mutants.h"
#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::ClickOn;
using testing::L;
using testing::W;

W Row(const std::string& t, bool photo) {
  std::vector<W> kids = {W("TextView", "title").Text(t).Click()};
  if (photo) kids.push_back(W("ImageView", "photo").Desc("Photo of " + t).Click());
  return W("LinearLayout", "", kids);
}

// The diary page: rows (title, has photo).
Layout Diary(std::vector<std::pair<std::string, bool>> rows) {
  std::vector<W> ws;
  for (auto& [t, p] : rows) ws.push_back(Row(t, p));
  return L(W("FrameLayout", "",
             {W("TextView", "count").Text(std::to_string(rows.size()) + " entries"),
              W("ListView", "list", ws)}),
           "app.Diary");
}

Layout Main(const std::string& current) {
  return L(W("FrameLayout", "",
             {W("TextView", "current").Text(current),
              W("ListView", "grid",
                {W("TextView", "name").Text("Cinema").Click(),
                 W("TextView", "name").Text("Cleaning").Click()}),
              W("Button", "nav").Text("Diary").Click()}),
           "app.Main");
}

TEST(IndependentView, DeltaIsTheSymmetricDifferenceOfViews) {
  ViewBag before = ViewsOf(Diary({{"Cinema", true}}), {});
  ViewBag after = ViewsOf(Diary({{"Cinema", false}}), {});
  Effect d = Delta(before, after);
  ASSERT_EQ(d.removed.size(), 1u);
  EXPECT_NE(d.removed.begin()->first.content().find("Photo of Cinema"), std::string::npos);
  EXPECT_TRUE(d.added.empty());
  EXPECT_TRUE(Delta(before, before).empty());
}

TEST(IndependentView, CountersAreOneViewWhateverTheirNumber) {
  // "1 entries" and "2 entries" differ only in digits: not an effect of their own.
  ViewBag a = ViewsOf(Diary({{"Cinema", false}}), {});
  ViewBag b = ViewsOf(Diary({{"Cinema", false}, {"Cinema", false}}), {});
  Effect d = Delta(a, b);
  EXPECT_TRUE(d.removed.empty());
  ASSERT_EQ(d.added.size(), 1u);  // one more "Cinema" title; the count line is the same view
}

// A screen with a counter and two buttons: Like adds one to it; Copy link changes nothing shown
// (a generated app's function_stops bug: after Copy link, Like stops counting).
Layout Likes(int count) {
  return L(W("FrameLayout", "",
             {W("TextView", "like_count").Text(fmt::format("Like count: {}", count)),
              W("Button", "btn_like").Text("Like").Click(),
              W("Button", "btn_copy_link").Text("Copy link").Click()}),
           "app.Profile");
}

TEST(IndependentView, ACounterThatStopsCountingIsAViolation) {
  // Seed: [Like], the count goes 0 -> 1. Its only effect is a number: the views compared are the
  // same once digits are masked, so the number is compared on its own.
  Layout zero = Likes(0);
  std::vector<Layout> seed = {zero, Likes(1)};
  std::vector<Event> seed_events = {ClickOn(zero.screen, "Like")};
  EXPECT_EQ(LastEffect(seed, {}, 0.5), 1);
  Event copy = ClickOn(zero.screen, "Copy link");
  // Mutant: τ = [Copy link] at pivot 0; then Like does nothing.
  std::vector<Event> mutant_events = {copy, seed_events[0]};
  auto v = CheckMutant(seed, seed_events, {zero, Likes(0), Likes(0)}, mutant_events, 0, 1, {});
  ASSERT_TRUE(v.has_value());
  ASSERT_EQ(v->missing.changed.size(), 1u);
  EXPECT_NE(v->missing.changed.begin()->first.key().find("like_count"), std::string::npos);
  EXPECT_NE(v->Key().find("app:id/like_count"), std::string::npos);
  // Its twin: Like still counts after Copy link.
  EXPECT_FALSE(CheckMutant(seed, seed_events, {zero, Likes(0), Likes(1)}, mutant_events, 0, 1, {}));
  // τ that counts too ([Like]): the seed's Like then goes 1 -> 2, a change all the same.
  std::vector<Event> twice = {seed_events[0], seed_events[0]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {zero, Likes(1), Likes(2)}, twice, 0, 1, {}));
}

TEST(IndependentView, TheSeedsViewsServeEachMutantWhileTheIgnoredViewsStayTheSame) {
  // Seed: an event adds "Cleaning" to the diary. One mutant loses it, the other keeps it.
  const Layout one = Diary({{"Cinema", false}}),
               two = Diary({{"Cinema", false}, {"Cleaning", false}});
  const std::vector<Layout> seed = {one, two}, lost = {one, one, one}, kept = {one, one, two};
  const std::vector<Event> seed_events = {ClickOn(one.screen, "Cinema")};
  const std::vector<Event> mutant_events = {seed_events[0], seed_events[0]};
  // One RunViews of the seed for both mutants: the verdicts of views made afresh.
  RunViews views(seed, {});
  EXPECT_TRUE(CheckMutant(seed, seed_events, lost, mutant_events, 0, 1, {}, {}, &views));
  EXPECT_FALSE(CheckMutant(seed, seed_events, kept, mutant_events, 0, 1, {}, {}, &views));
  // Once the titles and the count line are ignored (they changed in a rerun of the seed), the
  // seed has no effect left to judge: the views made while they counted are not read.
  std::set<std::string> unstable;
  for (int i = 0; i < static_cast<int>(one.screen.widgets.size()); ++i)
    if (!one.screen.widgets[i].text.empty()) unstable.insert(ViewKey(one.screen, i));
  ASSERT_EQ(unstable.size(), 2u);
  ASSERT_FALSE(views.Of(seed, unstable));
  EXPECT_FALSE(CheckMutant(seed, seed_events, lost, mutant_events, 0, 1, unstable, {}, &views));
  // A mutant's layouts up to the pivot are read from the seed's views only where they are the
  // seed's: the seed removes "Cleaning" (τ then goes to another screen and back); a mutant that
  // did not show it at the pivot did not fail to remove it.
  const std::vector<Layout> removes = {two, one};
  const std::vector<Event> remove = {ClickOn(two.screen, "Cleaning")};
  const std::vector<Event> away = {ClickOn(one.screen, "Cinema"), remove[0]};
  RunViews removes_views(removes, {});
  EXPECT_TRUE(
      CheckMutant(removes, remove, {two, Main("x"), two}, away, 0, 1, {}, {}, &removes_views));
  EXPECT_FALSE(
      CheckMutant(removes, remove, {one, Main("x"), two}, away, 0, 1, {}, {}, &removes_views));
}

// A list screen of `activity` with its rows and, once a row is tapped, "Selected: <row>".
Layout Picker(const std::string& activity, const std::vector<std::string>& rows,
              const std::string& selected = "") {
  std::vector<W> ws;
  for (const auto& r : rows) ws.push_back(W("TextView", "item").Text(r).Click());
  std::vector<W> kids = {W("ListView", "list", ws)};
  if (!selected.empty()) kids.push_back(W("TextView", "selected").Text("Selected: " + selected));
  return L(W("FrameLayout", "", kids), activity);
}

TEST(IndependentView, APairTheMutantShowsOnAnotherScreenThanTheSeedIsNotJudged) {
  // The seed goes back to Feed and taps Book club there; τ (before the back) had opened Alarms
  // on top of a new copy of the pivot's screen, so the mutant's back leads to Alarms, which has a
  // Book club row too and shows no selection: not the seed's screen, not its effect to show
  // (gen306, fuzzing seed 8).
  const Layout pivot = Picker("app.Search", {"Help"});
  const std::vector<Layout> seed = {pivot, Picker("app.Feed", {"Book club", "Concert"}),
                                    Picker("app.Feed", {"Book club", "Concert"}, "Book club")};
  const Event tap = ClickOn(seed[1].screen, "Book club");
  const std::vector<Event> seed_events = {{}, tap};  // back, then the tap
  const Layout alarms = Picker("app.Alarms", {"Book club"});
  const std::vector<Event> mutant_events = {ClickOn(pivot.screen, "Help"), {}, tap};
  EXPECT_FALSE(
      CheckMutant(seed, seed_events, {pivot, pivot, alarms, alarms}, mutant_events, 0, 1, {})
          .has_value());
  // Its twin: the mutant is back on Feed, where the tap selects nothing.
  EXPECT_TRUE(
      CheckMutant(seed, seed_events, {pivot, pivot, seed[1], seed[1]}, mutant_events, 0, 1, {})
          .has_value());
}

TEST(Mutants, PivotsRightBeforeACounterThatCountsComeFirst) {
  // Copy link, Copy link, Like: only the last step has an effect, a number.
  std::vector<Layout> layouts = {Likes(0), Likes(0), Likes(0), Likes(1)};
  Event like = ClickOn(layouts[0].screen, "Like"), copy = ClickOn(layouts[0].screen, "Copy link");
  EXPECT_EQ(PivotOrder(layouts, {copy, copy, like}, 3, {}, 0.5), (std::vector<int>{2, 1, 0}));
}

TEST(Mutants, PivotsBeforeEachEventWithAnEffectComeBeforeSecondPivotsBeforeOne) {
  // Like, Like, Copy link, Copy link, each counting here: the first pivot before a Copy link
  // comes before the second before a Like (a seed's mutants test every effect it carries, not
  // the first one over and over).
  std::vector<Layout> layouts = {Likes(0), Likes(1), Likes(2), Likes(3), Likes(4)};
  Event like = ClickOn(layouts[0].screen, "Like"), copy = ClickOn(layouts[0].screen, "Copy link");
  EXPECT_EQ(PivotOrder(layouts, {like, like, copy, copy}, 4, {}, 0.5),
            (std::vector<int>{0, 2, 1, 3}));
}

TEST(IndependentView, ANumberThatJumpsIsNoCountAndNotJudged) {
  // "Updated 12 min ago" -> "Updated 2 min ago": a line that changes on its own (news); a count
  // moves by one. The mutant showing 12 at both ends says nothing about the seed's events.
  auto updated = [](int minutes) {
    return L(W("FrameLayout", "",
               {W("TextView", "updated").Text(fmt::format("Updated {} min ago", minutes)),
                W("Button", "btn_like").Text("Like").Click(),
                W("Button", "btn_copy_link").Text("Copy link").Click()}),
             "app.List");
  };
  std::vector<Layout> seed = {updated(12), updated(2)};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Like")};
  EXPECT_EQ(LastEffect(seed, {}, 0.5), -1);
  std::vector<Event> mutant_events = {ClickOn(seed[0].screen, "Copy link"), seed_events[0]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {updated(12), updated(12), updated(12)},
                           mutant_events, 0, 1, {}));
}

TEST(IndependentView, ACounterTauMovedItselfIsNotJudged) {
  // τ set the number to what the seed's event then sets it to (selecting one item, twice): over
  // the pair the mutant's number moved all the same, and after τ the seed's event found it
  // elsewhere than the seed did: neither is a count that stayed.
  Layout zero = Likes(0);
  std::vector<Layout> seed = {zero, Likes(1)};
  std::vector<Event> seed_events = {ClickOn(zero.screen, "Like")};
  std::vector<Event> mutant_events = {ClickOn(zero.screen, "Copy link"), seed_events[0]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {zero, Likes(1), Likes(1)}, mutant_events, 0, 1, {}));
}

// A list with a count, Add and "Clear all" (behind a confirmation dialog of the same activity),
// and a help screen of another activity.
Layout Friends(int rows) {
  std::vector<W> ws;
  for (int r = 0; r < rows; ++r)
    ws.push_back(W("LinearLayout", "",
                   {W("TextView", "row_title").Text("New item").Click(),
                    W("Button", "row_delete").Text("Delete").Click()}));
  return L(W("FrameLayout", "",
             {W("TextView", "header").Text(fmt::format("{} Friends", rows)),
              W("ListView", "list", ws), W("Button", "btn_add").Text("Add").Click(),
              W("Button", "btn_clear").Text("Clear all").Click(),
              W("Button", "btn_help").Text("Import Help").Click()}),
           "app.Friends");
}
Layout ClearDialog() {
  return L(W("FrameLayout", "",
             {W("TextView", "message").Text("Clear all?"), W("Button", "ok").Text("OK").Click(),
              W("Button", "cancel").Text("Cancel").Click()}),
           "app.Friends");
}
Layout Help() {
  return L(W("FrameLayout", "",
             {W("TextView", "header").Text("Your Help"), W("Button", "back").Text("Back").Click()}),
           "app.Help");
}

TEST(IndependentView, AMutantThatEndsUnderADialogTheSeedNeverShowedIsNotWhereTheSeedWas) {
  // gen502, seed 5: τ picked another item on a form and came back, so a later seed event asked
  // "Discard changes?" instead, and the seed's effect on the screen (a row its Add put there,
  // here) was judged missing against the dialog in front of it: the seed's pair is alike, the
  // mutant's a screen and a dialog, a pair the seed's own rule (min_pair_similarity) never judges.
  std::vector<Layout> seed = {Friends(1), Friends(2)};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Add")};
  Layout discard =
      L(W("FrameLayout", "",
          {W("TextView", "message").Text("Discard changes?"), W("Button", "ok").Text("OK").Click(),
           W("Button", "cancel").Text("Cancel").Click()}),
        "app.Friends");
  ASSERT_TRUE(Similar(seed[0], discard));
  std::vector<Event> mutant_events = {ClickOn(seed[0].screen, "Import Help"), Event{},
                                      seed_events[0]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {Friends(1), Help(), Friends(1), discard},
                           mutant_events, 0, 2, {}));
  // Its twin: the mutant stays on the screen and Add adds nothing: reported.
  EXPECT_TRUE(CheckMutant(seed, seed_events, {Friends(1), Help(), Friends(1), Friends(1)},
                          mutant_events, 0, 2, {}));
}

// A tag screen: the tags (tapping one deletes it), a field for a new one, Add and Other.
Layout Tags(const std::vector<std::string>& tags, const std::string& new_name) {
  std::vector<W> rows;
  for (const auto& t : tags) rows.push_back(W("TextView", "tag").Text(t).Click());
  return L(W("FrameLayout", "",
             {W("ListView", "tags", rows), W("EditText", "new_name").Text(new_name).Edit().Click(),
              W("Button", "add").Text("Add").Click(), W("Button", "other").Text("Other").Click()}),
           "app.Tags");
}

TEST(IndependentView, AMutantWhoseTauLeftTextInAFieldIsNotJudged) {
  // apps/bench tasks: τ typed "Alice" into the new-tag field and came back; the seed deleted the
  // tag Alice, and its later Add (which in the seed sent an empty field: nothing) sent τ's text,
  // so Alice was back and judged not removed. Text τ leaves in a field of the screen the seed
  // goes on with is input to the seed's later events there (any button may send it): τ is not
  // independent of them.
  std::vector<Layout> seed = {Tags({"Alice", "Work"}, ""), Tags({"Work"}, ""), Tags({"Work"}, "")};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Alice"),
                                    ClickOn(seed[1].screen, "Add")};
  Event type_alice = EventOn(seed[0].screen, gui::ActionKind::kInputText, 4);
  ASSERT_EQ(type_alice.type, "android.widget.EditText|app:id/new_name");
  type_alice.text = "Alice";
  std::vector<Event> mutant_events = {type_alice, seed_events[0], seed_events[1]};
  EXPECT_FALSE(CheckMutant(seed, seed_events,
                           {Tags({"Alice", "Work"}, ""), Tags({"Alice", "Work"}, "Alice"),
                            Tags({"Work"}, "Alice"), Tags({"Work", "Alice"}, "")},
                           mutant_events, 0, 1, {}));
  // Its twin: τ = [Other] leaves every field as it was, and the tap then deletes nothing.
  std::vector<Event> other = {ClickOn(seed[0].screen, "Other"), seed_events[0], seed_events[1]};
  EXPECT_TRUE(CheckMutant(seed, seed_events,
                          {Tags({"Alice", "Work"}, ""), Tags({"Alice", "Work"}, ""),
                           Tags({"Alice", "Work"}, ""), Tags({"Alice", "Work"}, "")},
                          other, 0, 1, {}));
}

TEST(IndependentView, RowsTauClearedBehindADialogMakeItDestructive) {
  // Seed: [Import Help, back, Add]: the list goes from 1 row to 2. τ at the help screen: [Back,
  // Clear all, OK, Import Help]; the rows went while the dialog was in front, so the layout after
  // OK is to be compared with the list before the dialog, not with the dialog.
  std::vector<Layout> seed = {Friends(1), Help(), Friends(1), Friends(2)};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Import Help"), Event{},
                                    ClickOn(seed[2].screen, "Add")};
  std::vector<Layout> mutant = {Friends(1), Help(), Friends(1), ClearDialog(),
                                Friends(0), Help(), Friends(0), Friends(1)};
  std::vector<Event> mutant_events = {seed_events[0],
                                      ClickOn(mutant[1].screen, "Back"),
                                      ClickOn(mutant[2].screen, "Clear all"),
                                      ClickOn(mutant[3].screen, "OK"),
                                      ClickOn(mutant[4].screen, "Import Help"),
                                      Event{},
                                      seed_events[2]};
  TauFootprint f = Footprint(mutant, 1, 4, {}, 0.5);
  EXPECT_FALSE(f.removed_rows.empty());
  EXPECT_TRUE(f.changed.count("android.widget.TextView|app:id/header"));
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant, mutant_events, 1, 4, {}));
}

// A window of five rows over a longer list (scrollable), each row a title and its Delete.
Layout Archive(std::vector<std::string> titles, bool more_below = true) {
  std::vector<W> rows;
  for (const auto& t : titles)
    rows.push_back(W("LinearLayout", "",
                     {W("TextView", "row_title").Text(t).Click(),
                      W("Button", "row_delete").Text("Delete").Click()}));
  W list("ListView", "list", rows);
  if (more_below) list.Scroll();
  return L(W("FrameLayout", "", {list, W("Button", "btn_other").Text("Other").Click()}),
           "app.Archive");
}

// A list of rows (a title and its Delete) above a star the screen keeps apart from the list.
Layout Shelf(std::vector<std::string> titles, bool starred) {
  std::vector<W> rows;
  for (const auto& t : titles)
    rows.push_back(W("LinearLayout", "",
                     {W("TextView", "row_title").Text(t).Click(),
                      W("Button", "row_delete").Text("Delete").Click()}));
  return L(W("FrameLayout", "",
             {W("ListView", "list", rows),
              W("TextView", "star_state").Text(starred ? "Starred" : "Not starred"),
              W("Button", "btn_star").Text("Star").Click()}),
           "app.Shelf");
}

TEST(IndependentView, AMutantWhoseTauDeletedARowCanBeJudgedOnTheViewsTauDidNotTouch) {
  // Seed: Star. τ: delete B. A Star that stops working after a delete is never judged by
  // default: the whole mutant is skipped because τ removed a row.
  const Layout start = Shelf({"A", "B", "C"}, false);
  const std::vector<Layout> seed = {start, Shelf({"A", "B", "C"}, true)};
  const std::vector<Event> seed_events = {ClickOn(start.screen, "Star")};
  const Event del_b =
      EventOn(start.screen, gui::ActionKind::kClick, testing::Find(start.screen, "B") + 1);
  const std::vector<Event> mutant_events = {del_b, seed_events[0]};
  auto mutant = [&](bool starred) {
    return std::vector<Layout>{start, Shelf({"A", "C"}, false), Shelf({"A", "C"}, starred)};
  };
  const IndependentViewSettings judge{.skip_destructive_tau = false};
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant(true), mutant_events, 0, 1, {}, judge));
  auto v = CheckMutant(seed, seed_events, mutant(false), mutant_events, 0, 1, {}, judge);
  ASSERT_TRUE(v);
  EXPECT_NE(v->Key().find("star_state"), std::string::npos) << v->Key();
  // The default skips it (judging such mutants made false reports on apps/bench).
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant(false), mutant_events, 0, 1, {}));
  // Seed: delete A. τ deleted B first; what the list shows after is τ's and the seed's together,
  // so the list's views are excused (here the seed's own delete worked: A went).
  const std::vector<Layout> seed2 = {start, Shelf({"B", "C"}, false)};
  const Event del_a =
      EventOn(start.screen, gui::ActionKind::kClick, testing::Find(start.screen, "A") + 1);
  EXPECT_FALSE(CheckMutant(seed2, {del_a}, {start, Shelf({"A", "C"}, false), Shelf({"C"}, false)},
                           {del_b, del_a}, 0, 1, {}, judge));
}

TEST(IndependentView, NoPairWithASeedsScrollOrSwipeBetweenItsLayoutsIsJudged) {
  // Seed: a pull to refresh (swipe down) brings row C. In the mutant, after τ, the same pull
  // brings nothing: what a scroll or a swipe brings into view depends on the data τ changed
  // (generated apps and news gave false reports so), so the pair is not judged.
  const Layout start = Archive({"A", "B"}, /*more_below=*/false);
  const std::vector<Layout> seed = {start, Archive({"A", "B", "C"}, false)};
  const Event pull{.kind = gui::ActionKind::kSwipeDown};
  const std::vector<Event> mutant_events = {ClickOn(start.screen, "Other"), pull};
  const std::vector<Layout> mutant = {start, start, start};
  EXPECT_FALSE(CheckMutant(seed, {pull}, mutant, mutant_events, 0, 1, {}));
  // The same effect from a click is judged.
  const Event click = ClickOn(start.screen, "Other");
  EXPECT_TRUE(CheckMutant(seed, {click}, mutant, {click, click}, 0, 1, {}));
}

TEST(IndependentView, ARowRemovedWhileALikeRowComesIntoViewIsRemoved) {
  // The list holds Pay, Read, Read, Flight, Birthday, Birthday, Flight, ... and shows five.
  // Seed: delete Flight; the next Birthday comes into view. Mutant: τ deleted the fifth row,
  // Birthday, and the next, also Birthday, came into view (the window looks the same); the seed's
  // delete of Flight then brings the second Flight into view: by the bag of views nothing went,
  // by the order of the rows Flight did.
  Layout start = Archive({"Pay", "Read", "Read", "Flight", "Birthday"});
  std::vector<Layout> seed = {start, Archive({"Pay", "Read", "Read", "Birthday", "Birthday"})};
  // Flight's Delete, named by its row.
  const Event del =
      EventOn(start.screen, gui::ActionKind::kClick, testing::Find(start.screen, "Flight") + 1);
  std::vector<Event> seed_events = {del};
  std::vector<Event> mutant_events = {ClickOn(start.screen, "Other"), del};
  auto mutant = [&](std::vector<std::string> after) {
    return std::vector<Layout>{start, start, Archive(std::move(after))};
  };
  const IndependentViewSettings keep{.skip_destructive_tau = false};
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant({"Pay", "Read", "Read", "Birthday", "Flight"}),
                           mutant_events, 0, 1, {}, keep));
  // Its twin: the delete took Pay instead, and Flight stays where it was.
  EXPECT_TRUE(CheckMutant(seed, seed_events,
                          mutant({"Read", "Read", "Flight", "Birthday", "Flight"}), mutant_events,
                          0, 1, {}, keep));
}

TEST(IndependentView, ARemovalAWindowThatLooksTheSameMayHideIsNotJudged) {
  // Seed: delete New, the last of five rows. Mutant: τ [Add] put a second New below the window
  // (it scrolls now); the seed's delete of New brings that one into view, and the window looks
  // as it did: nothing visible went. This was the one class of false report left (generated
  // apps, τ [Add] before the seed's Remove on a row it had added itself).
  const Layout full = Archive({"A", "B", "C", "D", "New"}, /*more_below=*/false);
  const std::vector<Layout> seed = {full, Archive({"A", "B", "C", "D"}, false)};
  const Event del =
      EventOn(full.screen, gui::ActionKind::kClick, testing::Find(full.screen, "New") + 1);
  const std::vector<Event> seed_events = {del};
  Event add;  // τ: stands for the list's Add
  add.kind = gui::ActionKind::kMenu;
  const std::vector<Event> mutant_events = {add, del};
  const Layout scrolls = Archive({"A", "B", "C", "D", "New"});
  // The list now shows all it holds (gen409's FavoritesFilter: six rows, then five).
  EXPECT_FALSE(CheckMutant(seed, seed_events, {full, scrolls, full}, mutant_events, 0, 1, {}));
  // Or a third New is below still.
  EXPECT_FALSE(CheckMutant(seed, seed_events, {full, scrolls, scrolls}, mutant_events, 0, 1, {}));
  // Its twin: the delete took A instead.
  EXPECT_TRUE(CheckMutant(seed, seed_events,
                          {full, scrolls, Archive({"B", "C", "D", "New", "New"})}, mutant_events, 0,
                          1, {}));
}

TEST(IndependentView, ALastRowALikeRowFromBelowMayHaveReplacedIsNotJudged) {
  // gen402, gen408 (12 mutants a pivot): the seed added New itself, then deleted Read and New,
  // the first and the last of five rows. τ [Add] had put a second New below the window; after the
  // two deletes the list shows all it holds, τ's New last: by the rows in order, New was not
  // removed. Two rows went in the seed; two went in the mutant if the New shown is τ's.
  const Layout full = Archive({"Read", "Pay", "Gym", "Trip", "New"}, /*more_below=*/false);
  const std::vector<Layout> seed = {full, Archive({"Pay", "Gym", "Trip", "New"}, false),
                                    Archive({"Pay", "Gym", "Trip"}, false)};
  const Event del_read =
      EventOn(full.screen, gui::ActionKind::kClick, testing::Find(full.screen, "Read") + 1);
  const Event del_new =
      EventOn(full.screen, gui::ActionKind::kClick, testing::Find(full.screen, "New") + 1);
  const std::vector<Event> seed_events = {del_read, del_new};
  Event add;  // τ: stands for the list's Add
  add.kind = gui::ActionKind::kMenu;
  const std::vector<Event> mutant_events = {add, del_read, del_new};
  const Layout scrolls = Archive({"Read", "Pay", "Gym", "Trip", "New"});
  EXPECT_FALSE(CheckMutant(seed, seed_events,
                           {full, scrolls, Archive({"Pay", "Gym", "Trip", "New", "New"}, false),
                            Archive({"Pay", "Gym", "Trip", "New"}, false)},
                           mutant_events, 0, 1, {}));
  // Its twin: the second delete took Pay instead; three rows went if the last New is τ's.
  EXPECT_TRUE(CheckMutant(seed, seed_events,
                          {full, scrolls, Archive({"Pay", "Gym", "Trip", "New", "New"}, false),
                           Archive({"Gym", "Trip", "New", "New"}, false)},
                          mutant_events, 0, 1, {}));
}

TEST(IndependentView,
     ALastRowALikeRowFromBelowMayHaveReplacedIsNotJudgedWhenRowsAfterTheMatchesWentToo) {
  // gen505: as above, but a row after the last one the mutant still shows went too (Trip): the
  // list now shows all it holds, so every row of the window not shown went.
  const Layout full = Archive({"Read", "Pay", "Gym", "Trip", "New"}, /*more_below=*/false);
  auto del = [&](const std::string& title) {
    return EventOn(full.screen, gui::ActionKind::kClick, testing::Find(full.screen, title) + 1);
  };
  const std::vector<Layout> seed = {full, Archive({"Pay", "Gym", "Trip", "New"}, false),
                                    Archive({"Pay", "Gym", "New"}, false),
                                    Archive({"Pay", "Gym"}, false)};
  const std::vector<Event> seed_events = {del("Read"), del("Trip"), del("New")};
  Event add;  // τ: stands for the list's Add
  add.kind = gui::ActionKind::kMenu;
  const std::vector<Event> mutant_events = {add, del("Read"), del("Trip"), del("New")};
  const Layout scrolls = Archive({"Read", "Pay", "Gym", "Trip", "New"});
  EXPECT_FALSE(CheckMutant(
      seed, seed_events,
      {full, scrolls, Archive({"Pay", "Gym", "Trip", "New", "New"}, false),
       Archive({"Pay", "Gym", "New", "New"}, false), Archive({"Pay", "Gym", "New"}, false)},
      mutant_events, 0, 1, {}));
  // Its twin: the last delete took Pay instead; four rows went if the last New is τ's.
  EXPECT_TRUE(CheckMutant(
      seed, seed_events,
      {full, scrolls, Archive({"Pay", "Gym", "Trip", "New", "New"}, false),
       Archive({"Pay", "Gym", "New", "New"}, false), Archive({"Gym", "New", "New"}, false)},
      mutant_events, 0, 1, {}));
}

// A tube-like main screen with its tabs: the feed's video rows, or the bookmarks' rows, which
// show a video with the same views (title, channel) as the feed does.
Layout Tube(bool bookmarks_tab, std::vector<std::string> rows) {
  std::vector<W> ws;
  for (const auto& t : rows)
    ws.push_back(W("LinearLayout", bookmarks_tab ? "bookmark_row" : "video_cell",
                   {W("TextView", "title").Text(t).Click(), W("TextView", "channel").Text("Ch")}));
  return L(W("FrameLayout", "",
             {W("Button", "tab_feed").Text("Feed").Click(),
              W("Button", "tab_bookmarks").Text("Bookmarks").Click(),
              W("ListView", bookmarks_tab ? "bookmarks" : "grid", ws)}),
           "app.Main");
}

TEST(IndependentView, ARowOfOneListIsNotARowOfAnother) {
  // apps/bench tube: seed [Bookmarks] goes from the feed tab to the bookmarks tab (one
  // bookmark): the feed's rows went. τ bookmarked the feed's Moon video first: the bookmarks tab
  // shows it with the very views the feed showed, and by views alone the Moon row did not go.
  const std::vector<Layout> seed = {Tube(false, {"Moon", "Clock"}), Tube(true, {"Rust"})};
  const std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Bookmarks")};
  Event bookmark;  // τ: stands for the menu's Bookmark on the Moon row
  bookmark.kind = gui::ActionKind::kMenu;
  const std::vector<Event> mutant_events = {bookmark, seed_events[0]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {seed[0], seed[0], Tube(true, {"Rust", "Moon"})},
                           mutant_events, 0, 1, {}));
  // Its twin: the tab still shows the feed's rows (the tap did not switch).
  EXPECT_TRUE(CheckMutant(seed, seed_events, {seed[0], seed[0], Tube(false, {"Moon", "Clock"})},
                          mutant_events, 0, 1, {}));
}

TEST(IndependentView, ATauThatDeletesARowWhileALikeOneComesIntoViewIsDestructive) {
  // τ deletes Flight; the next rows move up and another Flight comes into view: same bag.
  std::vector<Layout> mutant = {Archive({"Pay", "Read", "Read", "Flight", "Birthday"}),
                                Archive({"Pay", "Read", "Read", "Birthday", "Flight"})};
  EXPECT_FALSE(Footprint(mutant, 0, 1, {}, 0.5).removed_rows.empty());
}

// A home screen whose list starts with one row ("New Home item", each with its Delete), an Add
// that adds another like it, and a way to a screen of another activity.
Layout Home(int rows) {
  std::vector<W> ws;
  for (int r = 0; r < rows; ++r)
    ws.push_back(W("LinearLayout", "",
                   {W("TextView", "row_title").Text("New Home item").Click(),
                    W("Button", "row_delete").Text("Delete").Click()}));
  return L(W("FrameLayout", "",
             {W("ListView", "list", ws), W("Button", "btn_add").Text("Add").Click(),
              W("Button", "btn_share").Text("Share Notes").Click()}),
           "app.Main");
}
Layout ShareNotes() {
  return L(W("FrameLayout", "", {W("Button", "btn_back").Text("Back").Click()}), "app.Share");
}

TEST(IndependentView, TauAddingARowOnAnotherScreenThanThePivotsCountsAsTausEffect) {
  // Seed: [Share Notes, back, Delete]: the row goes. τ at Share Notes: [Back, Add, Share Notes]
  // adds a row just like it on the home screen and comes back; the seed's Delete then removes
  // one of the two: over the pair (home, home) the views are the same, which is τ's row and
  // the seed's removal together.
  std::vector<Layout> seed = {Home(1), ShareNotes(), Home(1), Home(0)};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Share Notes"), Event{},
                                    ClickOn(seed[2].screen, "Delete")};
  std::vector<Event> mutant_events = {seed_events[0],
                                      ClickOn(seed[1].screen, "Back"),
                                      ClickOn(seed[2].screen, "Add"),
                                      ClickOn(seed[2].screen, "Share Notes"),
                                      Event{},
                                      seed_events[2]};
  auto mutant = [&](int rows_after) {
    return std::vector<Layout>{Home(1),      ShareNotes(), Home(1),         Home(2),
                               ShareNotes(), Home(2),      Home(rows_after)};
  };
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant(1), mutant_events, 1, 3, {}));
  // Its twin: the Delete removed nothing.
  EXPECT_TRUE(CheckMutant(seed, seed_events, mutant(2), mutant_events, 1, 3, {}));
}

TEST(IndependentView, ARowAddedToAListThatScrollsMayBeBelowItsWindow) {
  // Seed: [Send] adds "hi" to a chat of two rows. Mutant: τ = [Other] (it sent a message of its
  // own elsewhere), and the list now shows five rows and scrolls: the seed's row may be below.
  Layout two = Archive({"a", "b"}, false);
  std::vector<Layout> seed = {two, Archive({"a", "b", "hi"}, false)};
  std::vector<Event> seed_events = {ClickOn(two.screen, "Other")};
  std::vector<Event> mutant_events = {ClickOn(two.screen, "Other"), seed_events[0]};
  auto full = Archive({"a", "b", "c", "d", "e"}, true);
  EXPECT_FALSE(CheckMutant(seed, seed_events, {two, full, full}, mutant_events, 0, 1, {},
                           {.skip_destructive_tau = false}));
  // Its twin: the list does not scroll, so the row is not there: dropped.
  auto same = Archive({"a", "b", "c", "d", "e"}, false);
  EXPECT_TRUE(CheckMutant(seed, seed_events, {two, same, same}, mutant_events, 0, 1, {},
                          {.skip_destructive_tau = false}));
}

TEST(IndependentView,
     AViewOfARowAddedToAListThatScrollsMayBeBelowItsWindowThoughNoRowThereShowsOne) {
  // The diary's history (apps/diary.json, fuzzing seed 4): a window of five rows over the entries,
  // each a title and, when the entry has one, its note. Seed: its entry "Reading" gets the note
  // "3 entries" and is the fifth row. Mutant: τ started another entry, which takes the fifth row;
  // the seed's entry, note and all, is below the window. No row in the window shows a note, so
  // the note was judged as a single view gone missing.
  auto history = [](std::vector<std::pair<std::string, std::string>> entries, bool more) {
    std::vector<W> rows;
    for (const auto& [title, note] : entries) {
      std::vector<W> views = {W("TextView", "entry_title").Text(title).Click()};
      if (!note.empty()) views.push_back(W("TextView", "entry_note").Text(note));
      rows.push_back(W("LinearLayout", "", views));
    }
    W list("ListView", "history", rows);
    if (more) list.Scroll();
    return L(W("FrameLayout", "", {list, W("Button", "btn_other").Text("Other").Click()}),
             "app.History");
  };
  const Layout four = history({{"Work", ""}, {"Clean", ""}, {"Sleep", ""}, {"Read", ""}}, false);
  const std::vector<Layout> seed = {
      four,
      history({{"Work", ""}, {"Clean", ""}, {"Sleep", ""}, {"Read", ""}, {"Read", "3 entries"}},
              false)};
  const std::vector<Event> seed_events = {ClickOn(four.screen, "Other")};
  const std::vector<Event> mutant_events = {ClickOn(four.screen, "Other"), seed_events[0]};
  const Layout five =
      history({{"Work", ""}, {"Clean", ""}, {"Sleep", ""}, {"Sleep", ""}, {"Read", ""}}, true);
  const IndependentViewSettings keep{.skip_destructive_tau = false};
  EXPECT_FALSE(CheckMutant(seed, seed_events, {four, five, five}, mutant_events, 0, 1, {}, keep));
  // Its twin: the list holds no more than it shows, so the note is gone.
  const Layout all =
      history({{"Work", ""}, {"Clean", ""}, {"Sleep", ""}, {"Sleep", ""}, {"Read", ""}}, false);
  EXPECT_TRUE(CheckMutant(seed, seed_events, {four, all, all}, mutant_events, 0, 1, {}, keep));
}

// A task list (title and due date per row), a task's edit screen, and its due-date dialog.
Layout TaskList(std::vector<std::pair<std::string, std::string>> tasks) {
  std::vector<W> rows;
  for (const auto& [title, due] : tasks)
    rows.push_back(
        W("LinearLayout", "",
          {W("TextView", "task_title").Text(title).Click(), W("TextView", "task_due").Text(due)}));
  return L(W("FrameLayout", "", {W("ListView", "tasks", rows)}), "app.Main");
}
Layout TaskEdit(const std::string& title, const std::string& due) {
  return L(W("FrameLayout", "",
             {W("EditText", "title").Text(title), W("TextView", "due").Text(due),
              W("Button", "btn_due").Text("Due date").Click(),
              W("Button", "btn_delete").Text("Delete task").Click()}),
           "app.Edit");
}
Layout DueDialog() {
  return L(W("FrameLayout", "",
             {W("Button", "today").Text("Today").Click(),
              W("Button", "next_week").Text("Next week").Click()}),
           "app.Edit");
}

TEST(IndependentView, TauThatOpensAnotherItemUnderTheSameDialogChangedSharedState) {
  // Seed: open "Call", Due date, Today, Delete task: Call goes. τ at the dialog: [Next week, back
  // (unsaved), open "Prep", Due date]: the same dialog again, over Prep now; the seed's rest
  // deletes Prep, as it should (it acts on the task open). The dialogs look alike; the screens
  // under them do not.
  Layout main = TaskList({{"Call", "Tomorrow"}, {"Prep", "Friday"}});
  std::vector<Layout> seed = {main, TaskEdit("Call", "Tomorrow"), DueDialog(),
                              TaskEdit("Call", "Today"), TaskList({{"Prep", "Friday"}})};
  std::vector<Event> seed_events = {
      ClickOn(main.screen, "Call"), ClickOn(seed[1].screen, "Due date"),
      ClickOn(seed[2].screen, "Today"), ClickOn(seed[3].screen, "Delete task")};
  std::vector<Layout> mutant = {main,
                                TaskEdit("Call", "Tomorrow"),
                                DueDialog(),
                                TaskEdit("Call", "Next week"),
                                main,  // back: the edit was not saved
                                TaskEdit("Prep", "Friday"),
                                DueDialog(),
                                TaskEdit("Prep", "Today"),
                                TaskList({{"Call", "Tomorrow"}})};
  std::vector<Event> mutant_events = {seed_events[0],
                                      seed_events[1],
                                      ClickOn(mutant[2].screen, "Next week"),
                                      Event{},
                                      ClickOn(mutant[4].screen, "Prep"),
                                      ClickOn(mutant[5].screen, "Due date"),
                                      seed_events[2],
                                      seed_events[3]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant, mutant_events, 2, 4, {}));
  // Its twin: τ opened Call again, and the seed's Delete task then left it in the list.
  mutant_events[4] = ClickOn(mutant[4].screen, "Call");
  mutant[5] = TaskEdit("Call", "Tomorrow");
  mutant[7] = TaskEdit("Call", "Today");
  mutant[8] = main;
  EXPECT_TRUE(CheckMutant(seed, seed_events, mutant, mutant_events, 2, 4, {}));
}

TEST(IndependentView, ContainmentIsPerSideAndCountsCopies) {
  Effect seed{{{View("v", "A"), 1}}, {}};
  Effect more{{{View("v", "A"), 1}, {View("v", "B"), 1}}, {{View("v", "C"), 1}}};
  EXPECT_TRUE(Missing(seed, more).empty());
  Effect other{{{View("v", "B"), 1}}, {}};
  EXPECT_EQ(Missing(seed, other).removed.size(), 1u);
  Effect twice{{{View("v", "A"), 2}}, {}};
  EXPECT_EQ(Missing(twice, seed).removed.at(View("v", "A")), 1);
}

// Seed: [click Diary, click Photo of Cinema]: the photo goes. Mutant: τ added a Cleaning entry
// with a photo before; then the same clicks remove Cleaning's photo (the bug) or Cinema's.
TEST(IndependentView, WrongRowDeletedIsAViolationAndTheRightOneIsNot) {
  Layout main = Main("Cinema");
  std::vector<Layout> seed = {main, Diary({{"Cinema", true}}), Diary({{"Cinema", false}})};
  std::vector<Event> seed_events = {ClickOn(main.screen, "Diary"),
                                    ClickOn(seed[1].screen, "Photo of Cinema")};
  // τ = two events back to Main, before the seed's `click Diary` (pivot 0).
  Layout tau1 = Main("Cinema");
  auto mutant_with = [&](bool bug) {
    return std::vector<Layout>{main, tau1, main, Diary({{"Cinema", true}, {"Cleaning", true}}),
                               Diary({{"Cinema", bug}, {"Cleaning", !bug}})};
  };
  auto v = CheckMutant(seed, seed_events, mutant_with(true), {}, 0, 2, {});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->seed_i, 1);
  EXPECT_EQ(v->seed_j, 2);
  EXPECT_EQ(v->mutant_i, 3);
  EXPECT_EQ(v->mutant_j, 4);
  ASSERT_EQ(v->missing.removed.size(), 1u);
  EXPECT_NE(v->missing.removed.begin()->first.content().find("Photo of Cinema"), std::string::npos);
  EXPECT_NE(v->Key().find("app:id/photo"), std::string::npos);
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant_with(false), {}, 0, 2, {}).has_value());
}

TEST(IndependentView, ARemovedRowTauMadeALikeOfOffTheScreenMayBeTheOneLeft) {
  // The diary (apps/diary.json, fuzzing seed 3): the seed leaves the history, comes back, opens
  // its one entry, Reading, and renames it Meeting. τ on the main screen taps Reading, which
  // starts a second Reading entry; τ never shows the history, so its row there is unseen. The
  // seed's rename then takes the first Reading, and the second stays: by the bags of views,
  // Reading was not removed.
  auto history = [](std::vector<std::string> titles) {
    std::vector<W> rows;
    for (const auto& t : titles) rows.push_back(W("TextView", "entry_title").Text(t).Click());
    return L(W("FrameLayout", "", {W("ListView", "history", rows)}), "app.History");
  };
  const Layout main =
      L(W("FrameLayout", "",
          {W("Button", "diary").Text("Diary").Click(), W("Button", "cat").Text("Reading").Click(),
           W("Button", "cat").Text("Sleeping").Click()}),
        "app.Main");
  const Layout detail =
      L(W("FrameLayout", "", {W("Button", "save").Text("Save").Click()}), "app.Detail");
  const std::vector<Layout> seed = {history({"Reading"}), main, history({"Reading"}), detail,
                                    history({"Meeting"})};
  const std::vector<Event> seed_events = {Event{}, ClickOn(main.screen, "Diary"),
                                          ClickOn(seed[2].screen, "Reading"),
                                          ClickOn(detail.screen, "Save")};
  auto mutant = [&](const std::string& tau_taps, std::vector<std::string> after) {
    std::vector<std::string> before = {"Reading", tau_taps};
    const std::vector<Layout> layouts = {history({"Reading"}), main,   main,
                                         history(before),      detail, history(std::move(after))};
    const std::vector<Event> events = {Event{}, ClickOn(main.screen, tau_taps), seed_events[1],
                                       seed_events[2], seed_events[3]};
    return CheckMutant(seed, seed_events, layouts, events, 1, 1, {});
  };
  EXPECT_FALSE(mutant("Reading", {"Meeting", "Reading"}));
  // Its twin: τ started Sleeping, and the rename took it instead of Reading.
  EXPECT_TRUE(mutant("Sleeping", {"Reading", "Meeting"}));
}

TEST(IndependentView, ARowTauMadeALikeOfBeforeThePairMayHoldWhatTheSeedMovedOnToAnother) {
  // The diary with its bug off (fuzzing seed 3): τ on the main screen taps Sleeping, which starts
  // a second Sleeping entry; the seed's note then goes to τ's entry, and its rename of "Sleeping"
  // in the history takes the other one, so the note stays behind in the row of τ's entry. τ ran
  // before the pair (the rule was for τ between it) and never showed the history.
  auto history = [](std::vector<std::pair<std::string, std::string>> entries) {
    std::vector<W> rows;
    for (const auto& [title, note] : entries) {
      std::vector<W> views = {W("TextView", "entry_title").Text(title).Click()};
      if (!note.empty()) views.push_back(W("TextView", "entry_note").Text(note));
      rows.push_back(W("LinearLayout", "", views));
    }
    return L(W("FrameLayout", "", {W("ListView", "history", rows)}), "app.History");
  };
  const Layout main = L(W("FrameLayout", "",
                          {W("Button", "diary").Text("Diary").Click(),
                           W("Button", "cat").Text("Sleeping").Click(), W("EditText", "note")}),
                        "app.Main");
  const Layout detail =
      L(W("FrameLayout", "", {W("Button", "save").Text("Save").Click()}), "app.Detail");
  const std::vector<Layout> seed = {main, history({{"Sleeping", "Meeting"}}), detail,
                                    history({{"Reading", "Meeting"}})};
  const std::vector<Event> seed_events = {ClickOn(main.screen, "Diary"),
                                          ClickOn(seed[1].screen, "Sleeping"),
                                          ClickOn(detail.screen, "Save")};
  auto mutant = [&](bool tau_shows_history) {
    const Layout before = history({{"Sleeping", "Meeting"}, {"Sleeping", ""}});
    const std::vector<Layout> layouts = {
        main,   tau_shows_history ? before : main,
        main,   before,
        detail, history({{"Sleeping", "Meeting"}, {"Reading", ""}})};
    std::vector<Event> events = {ClickOn(main.screen, "Sleeping"), ClickOn(main.screen, "Diary"),
                                 seed_events[0], seed_events[1], seed_events[2]};
    return CheckMutant(seed, seed_events, layouts, events, 0, 2, {});
  };
  EXPECT_FALSE(mutant(false));
  // Its twin: τ showed the history (whose rows it could have changed there): judged.
  EXPECT_TRUE(mutant(true));
  // τ showed the history before it tapped Sleeping on the main screen (apps/bench/diary.json,
  // fuzzing seed 8: τ = [Diary, back, Cooking]): the row it made there came after its look.
  const Layout one = history({{"Sleeping", "Meeting"}});
  const std::vector<Layout> looked_first = {main,
                                            one,
                                            main,
                                            main,
                                            history({{"Sleeping", "Meeting"}, {"Sleeping", ""}}),
                                            detail,
                                            history({{"Sleeping", "Meeting"}, {"Reading", ""}})};
  const std::vector<Event> events = {ClickOn(main.screen, "Diary"),
                                     Event{},
                                     ClickOn(main.screen, "Sleeping"),
                                     seed_events[0],
                                     seed_events[1],
                                     seed_events[2]};
  EXPECT_FALSE(CheckMutant(seed, seed_events, looked_first, events, 0, 3, {}));
  // Its twin: the tap made no entry (the history holds one row after τ) and the rename failed.
  const std::vector<Layout> no_entry = {main, one, main, main, one, detail, one};
  EXPECT_TRUE(CheckMutant(seed, seed_events, no_entry, events, 0, 3, {}));
}

// An album: items to pick (the app remembers the pick, the screen does not show it) and the
// photos attached so far.
Layout Album(std::vector<std::string> photos) {
  std::vector<W> rows;
  for (auto& p : photos) rows.push_back(W("TextView", "photo").Text(p));
  return L(W("FrameLayout", "",
             {W("ListView", "items",
                {W("TextView", "item").Text("Cinema").Click(),
                 W("TextView", "item").Text("Cleaning").Click()}),
              W("Button", "attach").Text("Attach picture").Click(), W("ListView", "photos", rows)}),
           "app.Album");
}

// Seed: [Attach picture] adds a photo of the current item, Cleaning. Mutant: τ = [click Cinema]
// first, so Attach picture adds a photo of Cinema: τ's data in the seed's effect, not a
// violation (it was one before TauData). Its twin, where Attach picture adds nothing after τ (a
// data loss), still is.
TEST(IndependentView, AnAddedViewShowingWhatTauPickedIsNotAViolationButAMissingOneIs) {
  std::vector<Layout> seed = {Album({}), Album({"Photo of Cleaning"})};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Attach picture")};
  Layout picked = Album({});
  std::vector<Event> mutant_events = {ClickOn(seed[0].screen, "Cinema"),
                                      ClickOn(picked.screen, "Attach picture")};
  std::vector<Layout> tau_data = {seed[0], picked, Album({"Photo of Cinema"})};
  EXPECT_FALSE(CheckMutant(seed, seed_events, tau_data, mutant_events, 0, 1, {}).has_value());
  IndependentViewSettings before;
  before.excuse_tau_data = false;
  EXPECT_TRUE(CheckMutant(seed, seed_events, tau_data, mutant_events, 0, 1, {}, before));
  std::vector<Layout> lost = {seed[0], picked, Album({})};
  auto v = CheckMutant(seed, seed_events, lost, mutant_events, 0, 1, {});
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->missing.added.begin()->first.content().find("Photo of Cleaning"), std::string::npos);
  // The words must be whole: "Cine" names nothing τ picked.
  EXPECT_TRUE(HasWords("Photo of Cinema", "Cinema"));
  EXPECT_FALSE(HasWords("Photo of Cinemas", "Cinema"));
  EXPECT_FALSE(HasWords("Photo of Cinema", "Cine"));
}

// A list of which the screen shows three rows, each with its Remove button.
Layout Window(std::vector<std::string> rows) {
  std::vector<W> ws;
  for (size_t i = 0; i < rows.size() && i < 3; ++i)
    ws.push_back(
        W("LinearLayout", "",
          {W("TextView", "title").Text(rows[i]), W("Button", "remove").Text("Remove").Click()}));
  return L(W("FrameLayout", "", {W("ListView", "list", ws)}), "app.List");
}

// Seed: Remove on the first row; A goes and D, below the fold, comes into view. In the mutant τ
// (which changed no row in view) had put E before D, so E comes into view: the window moved the
// same way, not a violation. Its twin, where the Remove removes nothing, still is one.
TEST(IndependentView, RowsComingIntoViewAsOthersGoAreComparedByNumber) {
  std::vector<Layout> seed = {Window({"A", "B", "C", "D"}), Window({"B", "C", "D"})};
  std::vector<Event> seed_events = {ClickOn(seed[0].screen, "Remove")};
  Layout pivot = seed[0];
  Event elsewhere;  // τ: stands for events that add a row out of view
  elsewhere.kind = gui::ActionKind::kMenu;
  std::vector<Event> mutant_events = {elsewhere, seed_events[0]};
  std::vector<Layout> window = {pivot, Window({"A", "B", "C", "E", "D"}), Window({"B", "C", "E"})};
  EXPECT_FALSE(CheckMutant(seed, seed_events, window, mutant_events, 0, 1, {}).has_value());
  IndependentViewSettings before;
  before.count_window_rows = false;
  EXPECT_TRUE(CheckMutant(seed, seed_events, window, mutant_events, 0, 1, {}, before));
  std::vector<Layout> stuck = {pivot, Window({"A", "B", "C", "E"}), Window({"A", "B", "C", "E"})};
  auto v = CheckMutant(seed, seed_events, stuck, mutant_events, 0, 1, {});
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->missing.removed.empty());
}

// The Remove of the row showing `title`.
Event RemoveOn(const gui::Screen& s, const std::string& title) {
  Event e = ClickOn(s, "Remove");
  e.row = title;
  return e;
}

// Seed: Remove on row N (H stays). Mutant: τ first added a row just like N, so over the pair
// the mutant's list goes from one N to one N: τ's effect and the seed's together, not a missing
// one (it was reported before τ's effect was counted). Its twin, where the seed's Remove then
// removes nothing, still is a violation.
TEST(IndependentView, ARowTauAddedLikeTheOneTheSeedRemovesIsTausEffectNotAMissingOne) {
  std::vector<Layout> seed = {Window({"H", "N"}), Window({"H"})};
  std::vector<Event> seed_events = {RemoveOn(seed[0].screen, "N")};
  Event add;  // τ: stands for the list's Add
  add.kind = gui::ActionKind::kMenu;
  std::vector<Event> mutant_events = {add, seed_events[0]};
  std::vector<Layout> added = {seed[0], Window({"H", "N", "N"}), Window({"H", "N"})};
  EXPECT_FALSE(CheckMutant(seed, seed_events, added, mutant_events, 0, 1, {}).has_value());
  IndependentViewSettings before;
  before.count_tau_effect = false;
  EXPECT_TRUE(CheckMutant(seed, seed_events, added, mutant_events, 0, 1, {}, before));
  std::vector<Layout> kept = {seed[0], Window({"H", "N", "N"}), Window({"H", "N", "N"})};
  auto v = CheckMutant(seed, seed_events, kept, mutant_events, 0, 1, {});
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->missing.removed.empty());
}

// gen308, gen309: a list shows up to four rows. The seed's list holds four; its Remove on the
// last, N, leaves three, and the list shrinks to them. In the mutant τ had added a second N
// below the window, which comes up in the first's place: the window shows the same rows though N
// went. (A list that keeps its height may have rows below: there N's going is not seen so.)
TEST(IndependentView, ARowGoneFromAListThatShrankIsGoneThoughALikeRowCameUp) {
  auto list = [](std::vector<std::string> rows) {
    const int shown = std::min<int>(rows.size(), 4);
    std::vector<W> ws;
    for (int i = 0; i < shown; ++i)
      ws.push_back(
          W("LinearLayout", "",
            {W("TextView", "title").Text(rows[i]), W("Button", "remove").Text("Remove").Click()}));
    Layout l = L(W("FrameLayout", "", {W("ListView", "list", ws).Scroll()}), "app.List");
    for (auto& w : l.screen.widgets)
      if (w.scrollable) w.bounds = {0, 100, 1080, 100 + 100 * shown};
    return l;
  };
  const std::vector<Layout> seed = {list({"B", "C", "D", "N"}), list({"B", "C", "D"})};
  const std::vector<Event> seed_events = {RemoveOn(seed[0].screen, "N")};
  Event add;  // τ: stands for an Add that puts a second N at the end
  add.kind = gui::ActionKind::kMenu;
  const std::vector<Event> mutant_events = {add, seed_events[0]};
  const Layout added = list({"B", "C", "D", "N", "N"});
  EXPECT_FALSE(CheckMutant(seed, seed_events, {seed[0], added, list({"B", "C", "D", "N"})},
                           mutant_events, 0, 1, {})
                   .has_value());
  // The mutant's Remove removed B instead: still a violation.
  EXPECT_TRUE(CheckMutant(seed, seed_events, {seed[0], added, list({"C", "D", "N", "N"})},
                          mutant_events, 0, 1, {})
                  .has_value());
}

// A minimised seed can end before the pivot its mutant was made at (the seed prefix shrank):
// nothing to compare, and no read past either trace (it threw "cannot create std::vector
// larger than max_size()" from a layout read beyond the mutant's end).
TEST(IndependentView, ASeedShorterThanItsPivotIsNotCompared) {
  Layout main = Main("Cinema");
  std::vector<Layout> seed = {main, Diary({{"Cinema", true}})};
  std::vector<Event> seed_events = {ClickOn(main.screen, "Diary")};
  std::vector<Layout> mutant = {main, Main("Cinema"), main};
  IndependentViewSettings settings;
  settings.excuse_tau_effects = true;
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant, {}, 3, 2, {}, settings).has_value());
  EXPECT_FALSE(CheckMutant(seed, seed_events, mutant, {}, 1, 2, {}, settings).has_value());
}

TEST(IndependentView, IgnoredViewsDoNotCount) {
  // A banner that rotates by itself: seen as an effect unless the two seed runs flag it.
  auto page = [](const std::string& ad, bool photo) {
    return L(W("FrameLayout", "",
               {W("TextView", "banner").Text(ad), W("ListView", "list", {Row("Cinema", photo)})}),
             "app.Diary");
  };
  std::vector<Layout> run1 = {page("Ad one", true), page("Ad two", true)};
  std::vector<Layout> run2 = {page("Ad three", true), page("Ad two", true)};
  std::set<std::string> unstable = UnstableViews(run1, run2);
  ASSERT_EQ(unstable.size(), 1u);
  EXPECT_EQ(*unstable.begin(), "android.widget.TextView|app:id/banner");
  EXPECT_EQ(LastEffect(run1, unstable, 0.5), -1);
  EXPECT_EQ(LastEffect(run1, {}, 0.5), 1);
}

TEST(IndependentView, ALineWhoseNumberDiffersBetweenTwoRunsIsUnstableToo) {
  // "Updated 12 min ago" in one run, "Updated 2 min ago" in the other: alike once digits are
  // masked, but two runs of the same events that show other numbers show a line that changes on
  // its own (news). A count the events drive shows the same number in both runs.
  auto page = [](int minutes, int likes) {
    return L(W("FrameLayout", "",
               {W("TextView", "updated").Text(fmt::format("Updated {} min ago", minutes)),
                W("TextView", "like_count").Text(fmt::format("Like count: {}", likes)),
                W("Button", "btn_like").Text("Like").Click()}),
             "app.News");
  };
  const std::vector<Layout> run = {page(12, 0), page(12, 1)}, later = {page(2, 0), page(2, 1)};
  EXPECT_EQ(UnstableViews(run, later),
            (std::set<std::string>{"android.widget.TextView|app:id/updated"}));
  EXPECT_TRUE(UnstableViews(run, run).empty());
}

TEST(IndependentView, PairsSpanOrFollowThePivot) {
  std::vector<Layout> seed = {Main("a"), Main("b"), Main("c"), Main("d")};
  auto pairs = JudgedPairs(seed, 1);
  // j in {2, 3}; i < j; never both at or before the pivot.
  std::vector<std::pair<int, int>> want = {{1, 2}, {0, 2}, {2, 3}, {1, 3}, {0, 3}};
  EXPECT_EQ(pairs, want);
  EXPECT_EQ(MutantIndex(1, 1, 3), 1);
  EXPECT_EQ(MutantIndex(2, 1, 3), 5);
}

TEST(IndependentView, ReportsSeenOnceRankFirst) {
  auto ranked = RankReports({"a", "b", "a", "c", "a", "b"});
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked[0].key, "c");
  EXPECT_EQ(ranked[0].count, 1);
  EXPECT_EQ(ranked[1].key, "b");
  EXPECT_EQ(ranked[1].count, 2);
  EXPECT_EQ(ranked[2].key, "a");
  EXPECT_EQ(ranked[2].count, 3);
}

TEST(Mutants, UnderHalfLikeThePivotIsDropped) {
  Layout pivot = Main("Cinema");
  MutantSettings settings;  // min_pivot_similarity 0.5
  EXPECT_TRUE(ReturnedToPivot(pivot, Main("Cleaning"), settings));
  Layout elsewhere = L(W("FrameLayout", "",
                         {W("EditText", "name"), W("Button", "save").Text("Save").Click(),
                          W("Button", "nav").Text("Diary").Click()}),
                       "app.Main");
  EXPECT_LT(TypeSimilarity(pivot, elsewhere), 0.5);
  EXPECT_FALSE(ReturnedToPivot(pivot, elsewhere, settings));
}

TEST(Mutants, SearchFindsALoopStartingOnAnInactiveIndependentView) {
  // Main --click name--> Main' (another state) --click nav--> Main: a loop of two.
  Layout pivot = Main("Cinema");
  Layout other = L(W("FrameLayout", "",
                     {W("TextView", "current").Text("x"), W("ImageView", "photo"),
                      W("ListView", "grid", {W("TextView", "name").Text("Cinema").Click()}),
                      W("Button", "nav").Text("Diary").Click()}),
                   "app.Main");
  Model model;
  Event cinema = ClickOn(pivot.screen, "Cinema");
  model.Observe(pivot.abs, cinema, other.abs);
  model.Observe(other.abs, ClickOn(other.screen, "Diary"), pivot.abs);
  std::vector<Layout> seed = {pivot, Diary({{"Cinema", true}}), Diary({{"Cinema", false}})};
  std::vector<Event> events = {cinema, ClickOn(seed[1].screen, "Photo of Cinema")};
  // The seed's first event is on Cinema: Cinema is active at the pivot, Cleaning is not.
  std::vector<ActiveViews> active = TrackActiveViews(seed, events);
  MutantSettings settings;
  settings.try_unseen_clicks = false;  // the model's loops alone
  auto mutants = GenerateMutants(seed, events, active, model, 2, {}, settings);
  ASSERT_FALSE(mutants.empty());
  const Mutant& m = mutants[0];
  EXPECT_EQ(m.pivot, 0);
  ASSERT_EQ(m.tau.size(), 2u);
  EXPECT_NE(m.tau[0].signature.find("Cleaning"), std::string::npos);  // not the active Cinema
  for (const auto& x : mutants)
    EXPECT_EQ(x.tau[0].signature.find("Cinema"), std::string::npos) << x.tau[0].signature;
  // A failed prefix prunes it.
  auto pruned = GenerateMutants(seed, events, active, model, 2, {m.PrefixKey(1)}, settings);
  for (const auto& x : pruned) EXPECT_NE(x.PrefixKey(1), m.PrefixKey(1));
}

TEST(Mutants, TheOverflowButtonsTapIsNotCountedInTausLength) {
  // apps/bench tube: Play dies once the video was opened in the browser. τ = [More options,
  // Open in browser, Chrome, Close tab]: the menu's item is one action with the tap that opens
  // the menu, so τ is three long.
  auto video = [](const std::string& state, std::vector<W> over) {
    std::vector<W> ws = {W("TextView", "state").Text(state),
                         W("Button", "play").Text("Play").Click(),
                         W("ImageButton", "").Desc(std::string(gui::kOverflowDescription)).Click()};
    for (auto& w : over) ws.push_back(std::move(w));
    return L(W("FrameLayout", "", ws), "app.Video");
  };
  const Layout pivot = video("Paused", {});
  const Layout menu =
      video("Paused", {W("TextView", "android:id/title").Text("Open in browser").Click(),
                       W("TextView", "android:id/title").Text("Share").Click()});
  const Layout choose = video("Paused", {W("TextView", "android:id/text1").Text("Chrome").Click()});
  const Layout browser =
      L(W("FrameLayout", "", {W("Button", "close").Text("Close tab").Click()}), "app.Browser");
  Model model;
  model.Observe(pivot.abs, ClickOn(pivot.screen, std::string(gui::kOverflowDescription)), menu.abs);
  model.Observe(menu.abs, ClickOn(menu.screen, "Open in browser"), choose.abs);
  model.Observe(choose.abs, ClickOn(choose.screen, "Chrome"), browser.abs);
  model.Observe(browser.abs, ClickOn(browser.screen, "Close tab"), pivot.abs);
  const std::vector<Layout> seed = {pivot, video("Playing", {})};
  const std::vector<Event> events = {ClickOn(pivot.screen, "Play")};
  const std::vector<ActiveViews> active = TrackActiveViews(seed, events);
  MutantSettings settings;
  settings.try_unseen_clicks = false;
  const auto mutants = GenerateMutants(seed, events, active, model, 1, {}, settings);
  ASSERT_EQ(mutants.size(), 1u);
  EXPECT_EQ(mutants[0].tau.size(), 4u);
  EXPECT_EQ(mutants[0].Length(), 3);
  settings.max_length = 2;
  EXPECT_TRUE(GenerateMutants(seed, events, active, model, 1, {}, settings).empty());
}

TEST(Mutants, TauNeitherScrollsNorSwipes) {
  // A loop that scrolls a list moves its window; one that opens a drawer and picks another feed
  // changes what the seed's next events act on (news: a false report). τ takes neither.
  auto feed = [](const std::string& state) {
    return L(
        W("FrameLayout", "",
          {W("TextView", "state").Text(state), W("ListView", "list").Scroll(),
           W("Button", "play").Text("Play").Click(), W("Button", "like").Text("Like").Click()}),
        "app.Feed");
  };
  const Layout pivot = feed("Paused");
  const Layout drawer =
      L(W("FrameLayout", "", {W("TextView", "nav").Text("Ask HN").Click()}), "app.Drawer");
  int list = 0;
  while (!pivot.screen.widgets[list].scrollable) ++list;
  Model model;
  model.Observe(pivot.abs, EventOn(pivot.screen, gui::ActionKind::kScrollDown, list), pivot.abs);
  model.Observe(pivot.abs, Event{.kind = gui::ActionKind::kSwipeRight}, drawer.abs);
  model.Observe(drawer.abs, ClickOn(drawer.screen, "Ask HN"), pivot.abs);
  model.Observe(pivot.abs, ClickOn(pivot.screen, "Like"), pivot.abs);
  const std::vector<Layout> seed = {pivot, feed("Playing")};
  const std::vector<Event> events = {ClickOn(pivot.screen, "Play")};
  const std::vector<ActiveViews> active = TrackActiveViews(seed, events);
  MutantSettings settings;
  settings.try_unseen_clicks = false;
  const auto mutants = GenerateMutants(seed, events, active, model, 1, {}, settings);
  ASSERT_FALSE(mutants.empty());  // Like's loop
  for (const Mutant& m : mutants)
    for (const Event& e : m.tau) EXPECT_FALSE(IsScrollOrSwipe(e.kind)) << e.Describe();
}

// A seed of one event on an entries screen (Like, Add, and a list of rows with Remove): Remove
// on the row "Tax return", which (the planted bug) removes the first row instead. The model
// knows Remove there and a loop of Like, and no seed tapped Add.
struct RemoveSeed {
  static Layout Entries(const std::vector<std::string>& titles) {
    std::vector<W> rows;
    for (const auto& t : titles)
      rows.push_back(W("LinearLayout", "",
                       {W("TextView", "entry_title").Text(t),
                        W("Button", "entry_remove").Text("Remove").Click()}));
    return L(W("FrameLayout", "",
               {W("Button", "btn_like").Text("Like").Click(),
                W("Button", "btn_add_entry").Text("Add").Click(), W("ListView", "list", rows)}),
             "app.Entries");
  }
  RemoveSeed() {
    const Layout pivot = Entries({"Gym", "Tax return"});
    Event remove = ClickOn(pivot.screen, "Remove");
    remove.row = "Tax return";
    layouts = {pivot, Entries({"Tax return"})};  // the bug: the first went
    events = {remove};
    model.Observe(pivot.abs, ClickOn(pivot.screen, "Like"), pivot.abs);
    model.Observe(pivot.abs, remove, layouts[1].abs);
    active = TrackActiveViews(layouts, events);
  }
  std::vector<Mutant> Mutants(const MutantSettings& settings, const TriedTaus* tried = nullptr) {
    return GenerateMutants(layouts, events, active, model, 1, {}, settings, {}, 0.5, nullptr, 0,
                           tried);
  }
  std::vector<Layout> layouts;
  std::vector<Event> events;
  std::vector<ActiveViews> active;
  Model model;
};

// apps/bench notes: "+" opens the new-file dialog; typing a note's name there and OK overwrites
// that note. The seed opens "Shopping list.md"; another seed had created "Cinema" through the
// dialog, so the model knows its field as typed into with "Cinema".
TEST(Mutants, TauTypesTheNameOfWhatTheSeedOpensNextIntoAFieldASeedTypedInto) {
  auto notebook = [] {
    std::vector<W> rows;
    for (const char* f : {"Welcome.md", "Shopping list.md"})
      rows.push_back(W("LinearLayout", "", {W("TextView", "title").Text(f).Click()}));
    return L(W("FrameLayout", "",
               {W("Button", "fab_add").Text("+").Click(), W("ListView", "files", rows)}),
             "app.Main");
  };
  auto dialog = [](const std::string& name) {
    return L(W("FrameLayout", "",
               {W("EditText", "name").Text(name).Edit().Click(),
                W("Button", "android:id/button1").Text("OK").Click()}),
             "app.Main");
  };
  auto editor = [](const std::string& text) {
    return L(W("FrameLayout", "", {W("TextView", "content").Text(text)}), "app.Document");
  };
  const Layout pivot = notebook(), empty = dialog(""), named = dialog("Cinema");
  Event type_name = EventOn(empty.screen, gui::ActionKind::kInputText, 1);
  type_name.text = "Cinema";
  Model model;
  model.Observe(pivot.abs, ClickOn(pivot.screen, "+"), empty.abs);
  model.Observe(empty.abs, type_name, named.abs);
  model.Observe(named.abs, ClickOn(named.screen, "OK"), editor("# Cinema").abs);
  model.Observe(editor("# Cinema").abs, Event{.kind = gui::ActionKind::kBack}, pivot.abs);
  const std::vector<Layout> seed = {pivot, editor("- milk - eggs - bread")};
  const std::vector<Event> events = {ClickOn(pivot.screen, "Shopping list.md")};
  model.Observe(pivot.abs, events[0], seed[1].abs);
  EXPECT_EQ(NamesAhead(seed, events, 0, MutantSettings{}),
            (std::vector<std::string>{"Shopping list.md", "Shopping list"}));
  auto taus = [&](int fields) {
    MutantSettings settings;
    settings.try_unseen_clicks = false;
    settings.max_typed_fields = fields;
    std::set<std::string> out;
    for (const Mutant& m :
         GenerateMutants(seed, events, TrackActiveViews(seed, events), model, 1, {}, settings)) {
      std::string tau;
      for (const Event& e : m.tau) tau += (tau.empty() ? "" : ", ") + e.Describe();
      out.insert(tau);
    }
    return out;
  };
  // +, the name, OK, back: four events, three as |τ| counts them.
  const std::set<std::string> typing = taus(1);
  EXPECT_TRUE(typing.count(
      "click \"+\", input_text EditText name text \"Shopping list\", click \"OK\", back"))
      << fmt::format("{}", fmt::join(typing, "\n"));
  EXPECT_TRUE(
      typing.count("click \"+\", input_text EditText name text \"Cinema\", click \"OK\", back"));
  for (const std::string& tau : taus(0))
    EXPECT_EQ(tau.find("input_text"), std::string::npos) << tau;
}

TEST(Mutants, TauDoesNotTypeIntoAFormWhoseInputTheSeedStillSends) {
  // The seed types "Cinema" into a form, picks a colour on another screen (the pivot), comes
  // back to the form, which still shows "Cinema", and saves: τ typing into the form overwrites
  // what the seed saves.
  auto form = [](const std::string& name) {
    return L(W("FrameLayout", "",
               {W("EditText", "name").Text(name).Edit().Click(),
                W("Button", "pick").Text("Pick colour").Click(),
                W("Button", "save").Text("Save").Click()}),
             "app.Form");
  };
  const Layout colours =
      L(W("FrameLayout", "",
          {W("Button", "red").Text("Red").Click(), W("Button", "done").Text("Done").Click()}),
        "app.Colours");
  const Layout list = L(W("FrameLayout", "", {W("TextView", "row").Text("Cinema")}), "app.List");
  Event type_name = EventOn(form("").screen, gui::ActionKind::kInputText, 1);
  type_name.text = "Cinema";
  const std::vector<Layout> seed = {form(""), form("Cinema"), colours, form("Cinema"), list};
  const std::vector<Event> events = {type_name, ClickOn(seed[1].screen, "Pick colour"),
                                     Event{.kind = gui::ActionKind::kBack},
                                     ClickOn(seed[3].screen, "Save")};
  Model model;
  for (size_t t = 0; t < events.size(); ++t) model.Observe(seed[t].abs, events[t], seed[t + 1].abs);
  model.Observe(colours.abs, ClickOn(colours.screen, "Done"), form("Cinema").abs);
  MutantSettings settings;
  settings.try_unseen_clicks = false;
  settings.max_typed_fields = 1;
  const auto active = TrackActiveViews(seed, events);
  int at_colours = 0;
  for (const Mutant& m : GenerateMutants(seed, events, active, model, 4, {}, settings)) {
    if (m.pivot != 2) continue;
    ++at_colours;
    for (const Event& e : m.tau) EXPECT_NE(e.kind, gui::ActionKind::kInputText) << e.Describe();
  }
  EXPECT_GT(at_colours, 0);  // [Done, Pick colour]
}

TEST(Mutants, AClickTheModelHasNotSeenAtThePivotIsTriedAsAMutantOfItsOwn) {
  // The model knows only what seeds did: no seed had tapped this screen's Add, which puts a new
  // entry first, so no mutant inserted it before the seed's Remove, the one τ that shows a
  // planted "Remove on any row removes the first" (gen305: never found in 6 fuzzing seeds).
  RemoveSeed seed;
  auto taus = [&](bool untried) {
    MutantSettings settings;
    settings.try_unseen_clicks = untried;
    std::set<std::string> out;
    for (const auto& m : seed.Mutants(settings))
      out.insert(m.tau.size() == 1 ? m.tau[0].Describe() : "longer");
    return out;
  };
  EXPECT_EQ(taus(false), std::set<std::string>({"click \"Like\""}));
  EXPECT_EQ(taus(true), std::set<std::string>({"click \"Like\"", "click \"Add\""}));
}

TEST(Mutants, ATauRunAtAStateBeforeGivesWayToOneNotRunThere) {
  // One mutant a pivot, two loops from its state: the search finds the same first one for every
  // seed that passes here, so the other was never run; once the first has run at this state,
  // the other is taken (and the first again only when nothing else is found).
  RemoveSeed seed;
  MutantSettings settings;
  settings.max_per_pivot = 1;
  TriedTaus tried;
  auto next = [&] {
    auto mutants = seed.Mutants(settings, &tried);
    EXPECT_EQ(mutants.size(), 1u);
    if (mutants.empty()) return std::string();
    tried.Add(seed.layouts[0].abs, mutants[0]);
    return mutants[0].tau[0].Describe();
  };
  const std::string first = next();
  EXPECT_EQ(first, "click \"Like\"");  // the model's loop comes first
  EXPECT_EQ(next(), "click \"Add\"");  // then the click the model has not seen
  EXPECT_EQ(next(), first);            // both run: the first found again
}

// Issue 46, item 7: `roam replay F1` printed the raw violation string.
TEST(ViolationInWords, SaysWhatTheMutantDidNotDoThatTheSeedDid) {
  EXPECT_EQ(ViolationInWords("com.todoroo.astrid.activity.MainActivity:+android.widget.TextView|"
                             "org.tasks:id/attachments;"),
            "MainActivity: the mutant did not add TextView attachments, as the seed did");
  EXPECT_EQ(ViolationInWords(".ListActivity:-android.widget.TextView|org.a:id/title|x;"
                             "-android.widget.CheckBox|;~android.widget.TextView|org.a:id/count;"),
            "ListActivity: the mutant did not remove TextView title, CheckBox; it did not change "
            "TextView count, as the seed did");
  EXPECT_EQ(ViolationInWords("no colon here"), "no colon here");
  EXPECT_EQ(ViolationInWords("A:?odd;"), "A:?odd;");
}

}  // namespace
}  // namespace roam::fuzz
