// The fast scanner must agree with the pugixml reader on everything it accepts, and hand
// over (return false) on everything outside its subset.
#include <gtest/gtest.h>

#include "gui/uiautomator.h"
#include "gui/uiautomator_internal.h"
#include "gui_test_util.h"

namespace roam::gui {
namespace {

using testing::Dump;
using testing::ExpectSameDumpContent;
using testing::Node;

// Both readers on `xml`; returns whether the scanner accepted it.
bool CheckAgree(const std::string& xml) {
  Screen slow, fast;
  Status st = internal::ParseDumpWithPugixml(xml, slow);
  bool accepted = internal::ScanDumpInto(xml, fast);
  if (accepted) {
    EXPECT_TRUE(st.ok()) << "scanner accepted what pugixml rejects: " << xml;
    ExpectSameDumpContent(slow, fast);
  }
  return accepted;
}

TEST(ScanDump, AcceptsDeviceFormatAndAgrees) {
  EXPECT_TRUE(CheckAgree(Dump(
      Node(
          "android.widget.Button", "[0,0][10,10]",
          R"(text="Tom &amp; Jerry &lt;3&gt; &quot;q&quot; &apos;a&apos;&#10;x&#x1F600;" content-desc='single "quoted"')") +
      Node("android.widget.FrameLayout", "[0,0][100,100]", "", false) +
      Node("a.Child", "[1,1][2,2]", R"(NAF="true" hint="h" visible-to-user="true")") + "</node>")));
  EXPECT_TRUE(
      CheckAgree("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<!-- c -->\n"
                 "<hierarchy rotation=\"1\">\n\t<node\n\t class=\"a\"\n\tbounds=\"[0,0][5,5]\" />"
                 "<!-- inside --><window><node class=\"b\"/></window>stray text</hierarchy>\n"));
  EXPECT_TRUE(CheckAgree(R"(<hierarchy rotation="0"/>)"));
  EXPECT_TRUE(CheckAgree(Dump(Node("a.Odd", "[1,2][3]") +
                              Node("a.Text", "Grüße 日本語 😀", R"(text="Grüße 日本語 😀")"))));
}

TEST(ScanDump, HandsOverOutsideTheSubset) {
  for (const std::string& xml : std::vector<std::string>{
           "", "garbage", "<html/>",
           "<dump><hierarchy/></dump>",                       // root not <hierarchy>
           "<node class=\"a\"/>",                             // bare node root
           "<!DOCTYPE x><hierarchy/>",                        // DOCTYPE
           "<hierarchy><node text=\"a\nb\"/></hierarchy>",    // raw newline in value
           "<hierarchy><node text=\"&nbsp;\"/></hierarchy>",  // unknown entity
           "<hierarchy><node text=\"&#0;\"/></hierarchy>",    // NUL reference
           "<hierarchy><node a=\"1\"b=\"2\"/></hierarchy>",   // no space between
           "<hierarchy><node class=\"a\"></hierarchy>",       // unclosed
           "<hierarchy><node></nodes></hierarchy>",           // mismatched
           "<hierarchy rotation=\"x\"/>",                     // odd rotation
           "<hierarchy></hierarchy>trailing",                 // text after root
           "<hierarchy><![CDATA[x]]></hierarchy>",            // CDATA
           "\xEF\xBB\xBF<hierarchy/>",                        // BOM
       }) {
    EXPECT_FALSE(CheckAgree(xml)) << xml;
  }
}

TEST(ScanDump, ParseDumpStillTakesWhatTheScannerHandsOver) {
  Result<Screen> s = ParseDump("<hierarchy><node text=\"a\nb\" class=\"x&nbsp;\"/></hierarchy>");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->widgets[0].text, "a b");     // attribute whitespace normalised by pugixml
  EXPECT_EQ(s->widgets[0].cls, "x&nbsp;");  // unknown entities are kept as written
}

TEST(ScanDump, ReusedScreenAfterHandOver) {
  Screen s;
  ASSERT_TRUE(
      ParseDumpInto(
          Dump(Node("a.One", "[0,0][1,1]", R"(text="one")") + Node("a.Two", "[0,0][1,1]")), s)
          .ok());
  // The scanner starts filling, fails at the second node, pugixml redoes it from scratch.
  ASSERT_TRUE(
      ParseDumpInto("<hierarchy><node class=\"b\"/><node text=\"x\ny\"/></hierarchy>", s).ok());
  ASSERT_EQ(s.widgets.size(), 2u);
  EXPECT_EQ(s.widgets[0].cls, "b");
  EXPECT_EQ(s.widgets[0].text, "");
  EXPECT_EQ(s.widgets[1].text, "x y");
}

}  // namespace
}  // namespace roam::gui
