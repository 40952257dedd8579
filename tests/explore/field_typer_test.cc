#include "explore/field_typer.h"

#include <gtest/gtest.h>

#include "gui/actions.h"

namespace roam::explore {
namespace {

// An activity with one edit field (hint `hint`, resource-id `id`) and a Save button.
gui::Screen Form(const std::string& activity, const std::string& hint, const std::string& id) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = activity;
  s.widgets.resize(3);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  auto& field = s.widgets[1];
  field.parent = 0;
  field.cls = "android.widget.EditText";
  field.editable = field.clickable = field.focusable = true;
  field.hint = hint;
  field.resource_id = id;
  field.bounds = {0, 100, 1080, 200};
  auto& save = s.widgets[2];
  save.parent = 0;
  save.cls = "android.widget.Button";
  save.clickable = true;
  save.text = "Save";
  save.bounds = {0, 300, 1080, 400};
  s.Link();
  return s;
}

gui::Action Type(const gui::Screen& s) {
  return gui::MakeWidgetAction(gui::ActionKind::kInputText, s, 1);
}
gui::Action Save(const gui::Screen& s) {
  return gui::MakeWidgetAction(gui::ActionKind::kClick, s, 2);
}

TEST(FieldTyper, AFieldThatSaysWhatItWantsMostlyGetsIt) {
  FieldTyper typer({"hello", "42"}, /*pct_fitting=*/80);
  auto form = Form(".SignUp", "Email", "org.app:id/email");
  Rng rng(5);
  int fitting = 0;
  for (int i = 0; i < 1000; ++i) {
    typer.Arrived(form);
    gui::Action a = Type(form);
    typer.Chosen(form, a, rng);
    fitting += a.text.find('@') != std::string::npos;
  }
  EXPECT_NEAR(fitting, 800, 50);  // the rest: the strategy's own strings (invalid input too)
}

// A strategy may type into a field only once in a run (fastbot picks each event K = 1 times
// before the others): a first value that does not fit would shut the form for the run.
TEST(FieldTyper, TheFirstValueAFieldGetsFitsWhatItAsksFor) {
  auto form = Form(".SignUp", "Email", "org.app:id/email");
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    FieldTyper typer({"hello", "42"}, /*pct_fitting=*/80);
    Rng rng(seed);
    typer.Arrived(form);
    gui::Action a = Type(form);
    typer.Chosen(form, a, rng);
    EXPECT_NE(a.text.find('@'), std::string::npos) << "seed " << seed << ": " << a.text;
  }
}

TEST(FieldTyper, LearnsTheValueAClickCarriedIntoAnotherActivity) {
  FieldTyper typer({"alpha", "beta", "gamma"}, /*pct_fitting=*/100);
  auto form = Form(".Edit", "Title", "org.app:id/title");  // a plain field: no kind
  auto next = Form(".List", "Search", "org.app:id/search");
  Rng rng(1);
  typer.Arrived(form);
  gui::Action typed = Type(form);
  typer.Chosen(form, typed, rng);
  // Back to another activity carries nothing: a value is credited only after a click.
  gui::Action back = gui::MakeGlobalAction(gui::ActionKind::kBack);
  typer.Chosen(form, back, rng);
  typer.Arrived(next);
  EXPECT_EQ(typer.learned(), 0u);

  typer.Arrived(form);
  typed = Type(form);
  typer.Chosen(form, typed, rng);
  gui::Action save = Save(form);
  typer.Chosen(form, save, rng);
  typer.Arrived(next);  // Save led on: the form passed
  ASSERT_EQ(typer.learned(), 1u);
  for (int i = 0; i < 20; ++i) {
    typer.Arrived(form);
    gui::Action again = Type(form);
    typer.Chosen(form, again, rng);
    EXPECT_EQ(again.text, typed.text);
  }
}

TEST(FieldTyper, ASaveThatStaysInTheActivityCreditsNothing) {
  FieldTyper typer({"x"}, 100);
  auto form = Form(".Edit", "PIN", "org.app:id/pin");
  Rng rng(1);
  typer.Arrived(form);
  gui::Action typed = Type(form);
  typer.Chosen(form, typed, rng);
  EXPECT_EQ(typed.text.size(), 4u);  // a PIN
  gui::Action save = Save(form);
  typer.Chosen(form, save, rng);
  typer.Arrived(form);  // refused: an error on the same activity
  EXPECT_EQ(typer.learned(), 0u);
}

}  // namespace
}  // namespace roam::explore
