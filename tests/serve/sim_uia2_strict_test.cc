// The served UiAutomator2 server refuses what the real one refuses, in its words (issue 59 item
// 7, row 10): W3C actions as ActionsPreprocessor and ActionsTokenizer check them, capabilities
// and settings as W3CCapsUtils and AbstractSetting type them, text into an element that takes
// none as SendKeysToElement refuses it, routes it does not have before sessions, and every error
// naming the request's session id. Read from appium-uiautomator2-server 10.6.2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "device/android/uia2_protocol.h"
#include "gui/uiautomator.h"
#include "serve/sim_uia2.h"
#include "serve/sim_uia2_actions.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::serve {
namespace {

namespace a = device::android;
using nlohmann::json;

class SimUia2Strict : public ::testing::Test {
 protected:
  void Open(const std::filesystem::path& app) {
    auto spec = sim::LoadSpec(app);
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    device_ = std::make_unique<SimAndroidDevice>("emulator-5554", *spec, sim::SimOptions{}, 0);
    device_->RunShell("monkey -p " + (*spec)->package() + " 1");
    server_ = std::make_unique<SimUia2Server>(*device_);
    HttpResponse s =
        server_->Handle({.method = "POST", .path = "/session", .body = a::Uia2NewSessionBody()});
    ASSERT_EQ(s.status, 200) << s.body;
    sid_ = json::parse(s.body)["sessionId"].get<std::string>();
  }
  void SetUp() override { Open(testing::SourceDir() / "apps/diary.json"); }
  // The answer's status and body.
  std::pair<int, json> Call(const std::string& method, const std::string& route,
                            const std::string& body = "") {
    HttpResponse r = server_->Handle({.method = method, .path = route, .body = body});
    auto parsed = ParseJson(r.body, route);
    EXPECT_TRUE(parsed.ok()) << r.body;
    return {r.status, parsed.ok() ? *parsed : json()};
  }
  std::pair<int, json> Post(const std::string& suffix, const std::string& body) {
    return Call("POST", "/session/" + sid_ + suffix, body);
  }
  std::unique_ptr<SimAndroidDevice> device_;
  std::unique_ptr<SimUia2Server> server_;
  std::string sid_;
};

json Chain(json items, std::string type = "pointer", std::string id = "finger1") {
  return {{"actions", json::array({{{"type", type},
                                    {"id", id},
                                    {"parameters", {{"pointerType", "touch"}}},
                                    {"actions", std::move(items)}}})}};
}

TEST_F(SimUia2Strict, ActionsAreRefusedAsTheServerRefusesThem) {
  const json move = {{"type", "pointerMove"}, {"duration", 0}, {"x", 10}, {"y", 20}};
  const json down = {{"type", "pointerDown"}, {"button", 0}};
  const json up = {{"type", "pointerUp"}, {"button", 0}};
  const json pause = {{"type", "pause"}, {"duration", 100}};
  struct Case {
    json body;
    int status;
    std::string says;
  };
  const std::vector<Case> cases = {
      {Chain({down, up}), 400,
       "Action item 'pointerDown' #1 of the action 'finger1' should be preceded with at least one "
       "item having absolute coordinates"},
      {Chain({pause, down, up}), 400, "Action item 'pause' #1 of the action 'finger1'"},
      {Chain({move, down, down, up}), 400,
       "You cannot perform two or more 'pointerDown' actions without a pause between them at 0ms "
       "in 'finger1' chain"},
      {Chain({move, down, up}, "finger"), 400,
       "Only [pointer, key, none] values are supported for type key. 'finger' is passed instead "
       "for action 'finger1'"},
      {Chain({move, {{"type", "tap"}}}), 400,
       "Only [pointerMove, pointerUp, pointerDown, pointerCancel, pause] item type values are "
       "supported for action type 'pointer'. 'tap' is passed instead for action 'finger1'"},
      {json{{"actions", json::array({{{"type", "pointer"}, {"actions", json::array()}}})}}, 400,
       "W3CItemModel: The mandatory field 'id' is not present in JSON"},
      {Chain({move, down, up}, "pointer", ""), 200, ""},
      {json{{"actions", json::array({{{"type", "pointer"},
                                      {"id", json::object()},
                                      {"actions", json::array({move, down, up})}}})}},
       400, "Expected a string but was BEGIN_OBJECT at path $.actions[0].id"},
      {Chain({{{"type", "pointerMove"}, {"duration", 1.5}, {"x", 1}, {"y", 1}}, down, up}), 400,
       "Expected a long but was 1.5"},
      {Chain({{{"type", "pointerMove"}, {"duration", 0}, {"x", 1}}, down, up}), 400,
       "Both coordinates must be be set for action item 'pointerMove' #1 of action 'finger1'"},
      {Chain({{{"type", "pointerMove"}, {"x", 1}, {"y", 1}}, down, up}), 400,
       "Missing duration key for action item 'pointerMove' of action with id 'finger1'"},
      {Chain({move, down, up}, "pointer", "f"), 200, ""},
  };
  for (const Case& c : cases) {
    auto [status, body] = Post("/actions", c.body.dump());
    EXPECT_EQ(status, c.status) << c.body.dump() << "\n" << body.dump();
    if (c.status == 200) continue;
    EXPECT_EQ(body["value"]["error"], "invalid argument") << c.body.dump();
    EXPECT_NE(body["value"]["message"].get<std::string>().find(c.says), std::string::npos)
        << c.body.dump() << "\n"
        << body["value"]["message"];
    EXPECT_EQ(body["sessionId"], sid_);
  }
  // Two sources with one id; two pointer types.
  json twins = Chain({move, down, up});
  twins["actions"].push_back(twins["actions"][0]);
  auto [status, body] = Post("/actions", twins.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["value"]["message"], "The action id 'finger1' has one one or more duplicates");
}

TEST(SimUia2Actions, ThePointerGoesDownWhereTheLastMoveLeftIt) {
  const json move = {{"type", "pointerMove"}, {"duration", 0}, {"x", 10}, {"y", 20}};
  auto r = ReadW3CActions(json::parse(a::Uia2SwipeBody(100, 900, 100, 300, 250)), {});
  ASSERT_EQ(r.error, "") << r.message;
  ASSERT_EQ(r.touches.size(), 1u);
  EXPECT_EQ(r.touches[0].x0, 100);
  EXPECT_EQ(r.touches[0].y0, 900);
  EXPECT_EQ(r.touches[0].x1, 100);
  EXPECT_EQ(r.touches[0].y1, 300);
  EXPECT_EQ(r.touches[0].duration_ms, 260) << "aligned to the server's 20 ms injection steps";
  // pointerCancel drops the item before it; origin "pointer" is relative to the last point.
  auto cancel = ReadW3CActions(
      Chain({move,
             {{"type", "pointerDown"}},
             {{"type", "pause"}, {"duration", 40}},
             {{"type", "pointerCancel"}},
             {{"type", "pointerMove"}, {"duration", 40}, {"origin", "pointer"}, {"x", 5}, {"y", 5}},
             {{"type", "pointerUp"}}}),
      {});
  ASSERT_EQ(cancel.error, "") << cancel.message;
  ASSERT_EQ(cancel.touches.size(), 1u);
  EXPECT_EQ(cancel.touches[0].x1, 15);
  EXPECT_EQ(cancel.touches[0].y1, 25);
  EXPECT_EQ(cancel.touches[0].duration_ms, 40);
  // What the server would inject but the simulator does not model is said so, not faked.
  json keys = {
      {"actions",
       json::array({{{"type", "key"},
                     {"id", "kb"},
                     {"actions", json::array({{{"type", "keyDown"}, {"value", "a"}}})}}})}};
  auto k = ReadW3CActions(keys, {});
  EXPECT_EQ(k.error, "unknown error");
  keys["actions"][0]["actions"][0].erase("value");
  EXPECT_NE(ReadW3CActions(keys, {}).message.find("Missing value key"), std::string::npos);
}

TEST_F(SimUia2Strict, CapabilitiesAndSettingsAreTypedAsTheServerTypesThem) {
  struct Case {
    std::string body;
    std::string says;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"desiredCapabilities": {}})", "'capabilities' are mandatory for session creation"},
           {R"({"capabilities": []})", "Expected BEGIN_OBJECT but was BEGIN_ARRAY"},
           {R"({"capabilities": {"alwaysMatch": "x"}})",
            "java.lang.String cannot be cast to java.util.Map"},
           {R"({"capabilities": {"firstMatch": {}}})", "cannot be cast to java.util.List"},
           {R"({"capabilities": {"alwaysMatch": {"appium:platformName": "Android"}}})",
            "The capabilities [platformName] are standard capabilities and should not have the "
            "'appium:' prefix"},
           {R"({"capabilities": {"alwaysMatch": {"waitForIdleTimeout": "0"}}})",
            "Invalid 'waitForIdleTimeout' setting value type. Got: java.lang.String. Expected: "
            "java.lang.Long."},
           {R"({"capabilities": {"alwaysMatch": {"appium:EnableMultiWindows": 0}}})",
            "Invalid 'enableMultiWindows' setting value type. Got: java.lang.Double. Expected: "
            "java.lang.Boolean."},
           {R"({"capabilities": {"alwaysMatch": {"a": 1}, "firstMatch": [{"a": 2}]}})",
            "Could not find matching capabilities"}}) {
    auto [status, body] = Call("POST", "/session", c.body);
    EXPECT_EQ(status, 500) << c.body;
    EXPECT_EQ(body["value"]["error"], "session not created") << c.body;
    EXPECT_NE(body["value"]["message"].get<std::string>().find(c.says), std::string::npos)
        << c.body << "\n"
        << body["value"]["message"];
    EXPECT_TRUE(body["sessionId"].is_null());
  }
  auto [ok, created] = Call("POST", "/session", a::Uia2NewSessionBody());
  ASSERT_EQ(ok, 200) << created.dump();
  sid_ = created["sessionId"];
  auto [bad, refused] = Post("/appium/settings", R"({"settings": {"allowInvisibleElements": 1}})");
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(refused["value"]["message"],
            "Invalid 'allowInvisibleElements' setting value type. Got: java.lang.Double. "
            "Expected: java.lang.Boolean.");
  auto [skipped, _] = Post("/appium/settings", R"({"settings": {"noSuchSetting": [1]}})");
  EXPECT_EQ(skipped, 200) << "an unknown setting is skipped, as the server skips it";
}

TEST_F(SimUia2Strict, ErrorsNameTheRequestsSessionAndUnknownRoutesComeFirst) {
  auto [status, body] = Call("GET", "/session/stale-id/source");
  EXPECT_EQ(status, 404);
  EXPECT_EQ(body["value"]["error"], "invalid session id");
  EXPECT_EQ(body["sessionId"], "stale-id");
  auto [unknown, u] = Call("GET", "/session/stale-id/no/such/route");
  EXPECT_EQ(unknown, 404);
  EXPECT_EQ(u["value"]["error"], "unknown command") << "the route is matched before the session";
  EXPECT_TRUE(u["sessionId"].is_null());
  auto [wrong_method, w] = Call("GET", "/session/" + sid_ + "/actions");
  EXPECT_EQ(wrong_method, 404);
  EXPECT_EQ(w["value"]["error"], "unknown command");
  auto [bad, b] = Post("/orientation", R"({"orientation": "SIDEWAYS"})");
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(b["sessionId"], sid_);
  EXPECT_NE(b["value"]["stacktrace"].get<std::string>().find("InvalidArgumentException"),
            std::string::npos);
  auto [lower, l] = Post("/orientation", R"({"orientation": "portrait"})");
  EXPECT_EQ(lower, 200) << "ScreenOrientation.ofString upper-cases: " << l.dump();
}

// A form whose name field is disabled once "Lock" is tapped: the focused field then takes no
// text, and SendKeysToElement's ACTION_SET_TEXT fails: 400 "invalid element state".
TEST_F(SimUia2Strict, TextIntoAnElementThatTakesNoneIs400InvalidElementState) {
  const auto app = testing::TempDir("uia2_keys") / "form.json";
  ASSERT_TRUE(WriteJsonFile(app, json::parse(R"({
    "app": "form", "package": "org.roam.form", "start": "Main", "vars": {"locked": 0},
    "screens": [{"id": "Main", "activity": ".MainActivity", "title": "Form", "widgets": [
      {"id": "name", "hint": "Name", "input": {"max": 20},
       "enabled_if": {"eq": ["$var.locked", 0]}},
      {"id": "lock", "text": "Lock", "on": {"click": [{"set": "locked", "to": 1}]}}]}]})"))
                  .ok());
  Open(app);
  auto [none, n] = Post("/keys", a::Uia2KeysBody("hello"));
  EXPECT_EQ(none, 404) << "nothing focused: " << n.dump();
  auto screen = gui::ParseDump(
      Call("GET", "/session/" + sid_ + "/source").second["value"].get<std::string>());
  ASSERT_TRUE(screen.ok());
  gui::Rect field, lock;
  for (const auto& w : screen->widgets) {
    if (w.editable) field = w.bounds;
    if (w.text == "Lock") lock = w.bounds;
  }
  ASSERT_FALSE(field.empty());
  ASSERT_FALSE(lock.empty());
  Post("/appium/gestures/click", a::Uia2ClickBody(field.center_x(), field.center_y()));
  auto [typed, t] = Post("/keys", a::Uia2KeysBody("hello"));
  EXPECT_EQ(typed, 200) << t.dump();
  auto [active, act] = Call("GET", "/session/" + sid_ + "/element/active");
  ASSERT_EQ(active, 200) << act.dump();
  const std::string element = act["value"]["element-6066-11e4-a52e-4f735466cecf"];
  auto [value, v] = Post("/element/" + element + "/value", a::Uia2KeysBody(" world"));
  EXPECT_EQ(value, 200) << v.dump();
  Post("/appium/gestures/click", a::Uia2ClickBody(lock.center_x(), lock.center_y()));
  for (const std::string& route : {std::string("/keys"), "/element/" + element + "/value"}) {
    auto [refused, r] = Post(route, a::Uia2KeysBody("more"));
    EXPECT_EQ(refused, 400) << route << ": " << r.dump();
    EXPECT_EQ(r["value"]["error"], "invalid element state");
    EXPECT_EQ(r["value"]["message"],
              "Cannot set the element to 'more'. Did you interact with the correct element?");
    EXPECT_EQ(r["sessionId"], sid_);
  }
  auto [stale, s] = Post("/element/no-such-element/value", a::Uia2KeysBody("x"));
  EXPECT_EQ(stale, 404);
  EXPECT_EQ(s["value"]["error"], "no such element");
}

}  // namespace
}  // namespace roam::serve
