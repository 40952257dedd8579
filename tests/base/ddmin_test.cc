#include "base/ddmin.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace roam {
namespace {

bool Has(const std::vector<size_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(Ddmin, FindsTheTwoItemsThatMatter) {
  // Fails when items 3 and 71 are both present.
  int calls = 0;
  auto r = Ddmin(
      100,
      [&](const std::vector<size_t>& c) {
        ++calls;
        EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
        return Has(c, 3) && Has(c, 71);
      },
      1000);
  EXPECT_EQ(r.kept, (std::vector<size_t>{3, 71}));
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.tests, calls);
  EXPECT_LT(r.tests, 60);
}

TEST(Ddmin, KeepsOneItemWhenOneIsEnough) {
  auto r = Ddmin(
      37, [](const std::vector<size_t>& c) { return Has(c, 36); }, 1000);
  EXPECT_EQ(r.kept, (std::vector<size_t>{36}));
  EXPECT_TRUE(r.complete);
}

TEST(Ddmin, KeepsEverythingWhenEveryItemMatters) {
  auto r = Ddmin(
      6, [](const std::vector<size_t>& c) { return c.size() == 6; }, 1000);
  EXPECT_EQ(r.kept.size(), 6u);
  EXPECT_TRUE(r.complete);
}

TEST(Ddmin, StopsAtTheBudgetWithTheBestSoFar) {
  auto r = Ddmin(
      1000, [](const std::vector<size_t>& c) { return Has(c, 5) && Has(c, 500) && Has(c, 900); },
      12);
  EXPECT_EQ(r.tests, 12);
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(Has(r.kept, 5) && Has(r.kept, 500) && Has(r.kept, 900));
  EXPECT_LT(r.kept.size(), 1000u);
}

TEST(Ddmin, NeverTestsTheSameCandidateTwice) {
  std::vector<std::vector<size_t>> seen;
  Ddmin(
      20,
      [&](const std::vector<size_t>& c) {
        EXPECT_EQ(std::count(seen.begin(), seen.end(), c), 0);
        seen.push_back(c);
        return Has(c, 0) && Has(c, 19) && Has(c, 10);
      },
      1000);
}

TEST(Ddmin, HandlesNoAndOneItem) {
  EXPECT_TRUE(Ddmin(
                  0, [](const std::vector<size_t>&) { return true; }, 10)
                  .kept.empty());
  auto one = Ddmin(
      1, [](const std::vector<size_t>&) { return true; }, 10);
  EXPECT_EQ(one.kept.size(), 1u);
  EXPECT_EQ(one.tests, 0);
}

}  // namespace
}  // namespace roam
