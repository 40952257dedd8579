// system_screens: the screens real Android puts in front of the app under test, told apart by
// their packages, resource ids and texts as real devices show them (tests/fixtures/android):
//   * "App isn't responding" (package android, android:id/aerr_close and aerr_wait);
//   * "App has stopped" / "keeps stopping" (aerr_close with aerr_restart or aerr_app_info, or
//     the title; Android 4's "Unfortunately, App has stopped." closes with its "OK", button1);
//   * a runtime permission request (com.android.permissioncontroller, Google's build of it, or
//     the older com.android.packageinstaller: permission_allow_button,
//     permission_allow_foreground_only_button, permission_allow_one_time_button,
//     permission_deny_button);
//   * the lock screen (com.android.systemui with a keyguard_* or lockscreen id);
//   * the soft keyboard (a window of an input method package, where the dump shows every window).
// What to do about each is AndroidDevice's (SystemScreenSettings). Plain functions: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "gui/screen.h"

namespace roam::device::android {

struct SystemScreen {
  enum class Kind { kNone, kNotResponding, kCrashed, kPermission, kKeyguard, kKeyboard };
  Kind kind = Kind::kNone;
  // Widget indexes of the buttons that matter (-1: not on screen).
  int close = -1;     // "Close app" (aerr_close)
  int wait = -1;      // "Wait" (aerr_wait)
  int allow = -1;     // the first allow button: while using the app, allow, only this time
  int deny = -1;      // "Don't allow" / "Deny"
  std::string title;  // the dialog's title or message, for notes
};

std::string_view SystemScreenName(SystemScreen::Kind kind);  // "not responding", ...

SystemScreen ClassifySystemScreen(const gui::Screen& screen);

}  // namespace roam::device::android
