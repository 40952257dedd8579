// Helpers shared by the gui tests: a compact way to write dump nodes, and the comparison the
// round trip promises (every field a dump carries). Test-only.
#pragma once

#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "gui/screen.h"

namespace roam::gui {

// So that failed EXPECT_EQ on widgets print something readable.
inline void PrintTo(const Widget& w, std::ostream* os) {
  *os << "{" << w.cls << " id=" << w.resource_id << " text=\"" << w.text << "\" desc=\""
      << w.content_desc << "\" pkg=" << w.package << " [" << w.bounds.left << "," << w.bounds.top
      << "][" << w.bounds.right << "," << w.bounds.bottom << "] parent=" << w.parent
      << " depth=" << w.depth << " idx=" << w.child_index << " end=" << w.subtree_end << "}";
}

namespace testing {

// One <node ...> start tag with device defaults, `extra` appended as raw attributes.
// `close` ends it with "/>" (a leaf).
inline std::string Node(const std::string& cls, const std::string& bounds,
                        const std::string& extra = "", bool close = true) {
  return "<node index=\"0\" class=\"" + cls + "\" package=\"org.app\" bounds=\"" + bounds +
         "\" enabled=\"true\" " + extra + (close ? "/>" : ">");
}

inline std::string Dump(const std::string& body, int rotation = 0) {
  return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"" +
         std::to_string(rotation) + "\">" + body + "</hierarchy>";
}

// Equal in everything WriteDump carries (all but activity; size is derived from bounds).
inline void ExpectSameDumpContent(const Screen& a, const Screen& b) {
  EXPECT_EQ(a.package, b.package);
  EXPECT_EQ(a.rotation, b.rotation);
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  ASSERT_EQ(a.widgets.size(), b.widgets.size());
  for (size_t i = 0; i < a.widgets.size(); ++i)
    EXPECT_EQ(a.widgets[i], b.widgets[i]) << "widget " << i << " " << a.PathOf(static_cast<int>(i));
}

}  // namespace testing
}  // namespace roam::gui
