#include "device/android/system_screens.h"

namespace roam::device::android {

namespace {

// The part after ":id/".
std::string_view IdName(std::string_view id) {
  size_t at = id.find(":id/");
  return at == std::string_view::npos ? id : id.substr(at + 4);
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool PermissionPackage(std::string_view p) {
  return p == "com.android.permissioncontroller" ||
         p == "com.google.android.permissioncontroller" || p == "com.android.packageinstaller" ||
         p == "com.google.android.packageinstaller";
}

bool InputMethodPackage(std::string_view p) {
  return Contains(p, "inputmethod") || Contains(p, ".keyboard") || p == "com.touchtype.swiftkey" ||
         Contains(p, "com.sohu.inputmethod") || Contains(p, "com.baidu.input");
}

}  // namespace

std::string_view SystemScreenName(SystemScreen::Kind kind) {
  using K = SystemScreen::Kind;
  switch (kind) {
    case K::kNone:
      return "none";
    case K::kNotResponding:
      return "not responding dialog";
    case K::kCrashed:
      return "has stopped dialog";
    case K::kPermission:
      return "permission dialog";
    case K::kKeyguard:
      return "lock screen";
    case K::kKeyboard:
      return "soft keyboard";
  }
  return "none";
}

SystemScreen ClassifySystemScreen(const gui::Screen& screen) {
  SystemScreen s;
  bool restart = false, app_info = false, keyguard = false, keyboard = false, app_window = false;
  bool permission = false;
  int button1 = -1;  // Android 4's "Unfortunately, App has stopped." dialog has only "OK"
  std::string stopped_title, anr_title;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    const gui::Widget& w = screen.widgets[i];
    const std::string_view id = IdName(w.resource_id);
    if (w.package == "android") {
      if (id == "aerr_close") s.close = i;
      if (id == "aerr_wait") s.wait = i;
      if (id == "aerr_restart" || id == "aerr_relaunch") restart = true;
      if (id == "aerr_app_info") app_info = true;
      if (id == "button1") button1 = i;
      if (Contains(w.text, "isn't responding") || Contains(w.text, "isn’t responding") ||
          Contains(w.text, "is not responding"))
        anr_title = w.text;
      if (Contains(w.text, "has stopped") || Contains(w.text, "keeps stopping"))
        stopped_title = w.text;
    } else if (PermissionPackage(w.package)) {
      if (id == "permission_message" || id == "grant_dialog") permission = true;
      if (id == "permission_message") s.title = w.text;
      if (s.allow < 0 &&
          (id == "permission_allow_foreground_only_button" || id == "permission_allow_button" ||
           id == "permission_allow_one_time_button"))
        s.allow = i;
      if (id == "permission_deny_button" || id == "permission_deny_and_dont_ask_again_button")
        if (s.deny < 0) s.deny = i;
    } else if (w.package == "com.android.systemui") {
      if (id.starts_with("keyguard") || id.starts_with("lockscreen") ||
          Contains(id, "_keyguard_") || id.starts_with("miui_keyguard"))
        keyguard = true;
    } else if (InputMethodPackage(w.package)) {
      keyboard = true;
    } else if (!w.package.empty()) {
      app_window = true;
    }
  }
  using K = SystemScreen::Kind;
  if (s.close < 0 && (!stopped_title.empty() || !anr_title.empty())) s.close = button1;
  if (s.close >= 0 && (s.wait >= 0 || !anr_title.empty()) && stopped_title.empty()) {
    s.kind = K::kNotResponding;
    s.title = anr_title;
  } else if (s.close >= 0 || restart || app_info || !stopped_title.empty()) {
    s.kind = K::kCrashed;
    s.title = stopped_title;
  } else if (permission || s.allow >= 0) {
    s.kind = K::kPermission;
  } else if (keyguard) {
    s.kind = K::kKeyguard;
  } else if (keyboard && app_window) {
    s.kind = K::kKeyboard;
  }
  return s;
}

}  // namespace roam::device::android
