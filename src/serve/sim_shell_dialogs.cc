// sim_shell_dialogs: the screens Android puts in front of the app, on a served device that
// shows them (SimAndroidDevice::set_system_dialogs): "isn't responding" after a planted ANR,
// "keeps stopping" after a planted crash, a runtime permission request at a cold launch
// (until allowed, at most twice denied, as Android stops asking then). Each is a modal window
// with the ids and texts real devices show (tests/fixtures/android): taps outside its buttons
// do nothing, back waits, closes or denies. Members run under SimAndroidDevice's mutex.
#include <fmt/format.h>

#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"
#include "sim/spec.h"

namespace roam::serve {

namespace {

gui::Widget Node(std::string cls, std::string package, gui::Rect bounds, int parent) {
  gui::Widget w;
  w.cls = std::move(cls);
  w.package = std::move(package);
  w.bounds = bounds;
  w.parent = parent;
  return w;
}

gui::Widget Button(std::string package, std::string id, std::string text, gui::Rect bounds,
                   int parent) {
  gui::Widget w = Node("android.widget.Button", std::move(package), bounds, parent);
  w.resource_id = std::move(id);
  w.text = std::move(text);
  w.clickable = w.focusable = true;
  return w;
}

}  // namespace

void SimAndroidDevice::set_system_dialogs(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  system_dialogs_ = on;
}

void SimAndroidDevice::ShowDialog(Dialog kind) {
  if (!system_dialogs_) return;
  const gui::Screen& under = app_.screen();
  const int w = under.width, h = under.height;
  gui::Screen s;
  s.width = w;
  s.height = h;
  s.rotation = under.rotation;
  const std::string label = app_.spec().label().empty() ? app_.package() : app_.spec().label();
  const gui::Rect box{w / 12, h / 3, w - w / 12, h * 2 / 3};
  const int mid = (box.top + box.bottom) / 2;
  auto row = [&](int k) {  // the k-th of three button rows in the lower half of the box
    const int top = mid + k * (box.bottom - mid) / 3;
    return gui::Rect{box.left, top, box.right, top + (box.bottom - mid) / 3};
  };
  if (kind == Dialog::kPermission) {
    const std::string p = "com.google.android.permissioncontroller";
    const std::string id = "com.android.permissioncontroller:id/";
    s.package = p;
    s.activity = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity";
    s.widgets.push_back(Node("android.widget.FrameLayout", p, {0, 0, w, h}, -1));
    gui::Widget grant = Node("android.widget.LinearLayout", p, box, 0);
    grant.resource_id = id + "grant_dialog";
    s.widgets.push_back(grant);
    gui::Widget message =
        Node("android.widget.TextView", p, {box.left, box.top, box.right, mid}, 1);
    message.resource_id = id + "permission_message";
    message.text = fmt::format("Allow {} to take pictures and record video?", label);
    s.widgets.push_back(message);
    s.widgets.push_back(Button(p, id + "permission_allow_foreground_only_button",
                               "While using the app", row(0), 1));
    s.widgets.push_back(
        Button(p, id + "permission_allow_one_time_button", "Only this time", row(1), 1));
    s.widgets.push_back(Button(p, id + "permission_deny_button", "Don’t allow", row(2), 1));
  } else {
    const std::string p = "android";
    s.package = p;
    s.widgets.push_back(Node("android.widget.FrameLayout", p, box, -1));
    gui::Widget title = Node("android.widget.TextView", p, {box.left, box.top, box.right, mid}, 0);
    title.resource_id = "android:id/alertTitle";
    title.text =
        kind == Dialog::kNotResponding ? label + " isn't responding" : label + " keeps stopping";
    s.widgets.push_back(title);
    if (kind == Dialog::kNotResponding) {
      s.widgets.push_back(Button(p, "android:id/aerr_close", "Close app", row(0), 0));
      s.widgets.push_back(Button(p, "android:id/aerr_wait", "Wait", row(1), 0));
    } else {
      s.widgets.push_back(Button(p, "android:id/aerr_app_info", "App info", row(0), 0));
      s.widgets.push_back(Button(p, "android:id/aerr_close", "Close app", row(1), 0));
    }
  }
  s.Link();
  dialog_ = kind;
  dialog_screen_ = std::move(s);
  ++stats_.dialogs_shown[std::string(DialogName(kind))];
}

std::string_view SimAndroidDevice::DialogName(Dialog kind) {
  switch (kind) {
    case Dialog::kNone:
      return "none";
    case Dialog::kNotResponding:
      return "not_responding";
    case Dialog::kCrashed:
      return "crashed";
    case Dialog::kPermission:
      return "permission";
  }
  return "none";
}

void SimAndroidDevice::CloseDialog(std::string_view how) {
  if (dialog_ == Dialog::kNone) return;
  const Dialog was = dialog_;
  dialog_ = Dialog::kNone;
  dialog_screen_ = gui::Screen();
  ++stats_.dialogs_closed[fmt::format("{}:{}", DialogName(was), how)];
  if (was == Dialog::kNotResponding && how == "close") {
    app_.Stop();  // "Close app" kills the process
    EndProcess();
  }
  if (was == Dialog::kPermission) {
    if (how == "allow")
      permission_granted_ = true;
    else
      ++permission_denials_;
  }
}

void SimAndroidDevice::DialogTouch(int x, int y) {
  const gui::Screen& s = dialog_screen_;
  for (const gui::Widget& w : s.widgets) {
    if (!w.clickable || !w.bounds.Contains(x, y)) continue;
    const std::string_view id = w.resource_id;
    if (id.ends_with("aerr_close"))
      CloseDialog("close");
    else if (id.ends_with("aerr_wait"))
      CloseDialog("wait");
    else if (id.ends_with("aerr_app_info"))
      CloseDialog("app_info");
    else if (id.ends_with("permission_deny_button"))
      CloseDialog("deny");
    else if (id.find("permission_allow") != std::string_view::npos)
      CloseDialog("allow");
    return;
  }
}

void SimAndroidDevice::DialogBack() {
  if (dialog_ == Dialog::kPermission)
    CloseDialog("deny");
  else if (dialog_ == Dialog::kNotResponding)
    CloseDialog("wait");
  else
    CloseDialog("back");
}

bool SimAndroidDevice::WantsPermission() const {
  return system_dialogs_ && !permission_granted_ && permission_denials_ < 2;
}

}  // namespace roam::serve
