// fuzz/seeds: which event a seed takes next.
#include "fuzz/seeds.h"

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

// Times in 1,000 random choices on `layout` that the seed tapped Done.
int DoneTaps(const Layout& layout, const Model& model) {
  Rng rng(7);
  SeedChooser chooser({}, model, rng);
  Event done = ClickOn(layout.screen, "Done");
  int n = 0;
  for (int i = 0; i < 1000; ++i) n += chooser.Choose(layout, /*systematic=*/false) == done;
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

}  // namespace
}  // namespace roam::fuzz
