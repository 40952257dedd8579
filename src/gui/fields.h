// gui/fields: what an edit field asks for. Real forms validate: an e-mail needs an '@', a PIN
// four digits, a password eight characters; a random word passes none of them, so the screens
// behind such forms stay out of reach. ClassifyField reads the words of a field's hint,
// resource-id and content-desc (and its password flag) and FieldValues gives values a form of
// that kind usually accepts. Shared by the explore strategies (explore/field_typer.h) and the
// fuzzer's seeds (fuzz/seeds.cc). Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gui/widget.h"

namespace roam::gui {

// The words of a label: lowercase ASCII letters and digits, split at every other character and
// at camelCase humps ("btnSaveNote" -> btn, save, note).
std::vector<std::string> LabelWords(std::string_view text);
// A resource-id's entry name: "org.app:id/edit_email" -> "edit_email" (unchanged without ":id/").
std::string_view ShortId(std::string_view resource_id);

enum class FieldKind {
  kPlain,  // nothing said: any text
  kEmail,
  kPassword,
  kPin,  // a short numeric code (PIN, OTP, passcode)
  kPhone,
  kNumber,  // amounts, counts, ages, sizes
  kDate,
  kTime,
  kUrl,
  kPostcode,
  kUsername,
  kName,  // a person's or a place's name
};
std::string_view FieldKindName(FieldKind kind);

// The kind `field` asks for; kPlain when its words say nothing (or it is no edit field).
FieldKind ClassifyField(const Widget& field);

// Values a form of `kind` usually accepts, the likeliest first (never empty except for kPlain,
// whose values are the caller's own strings).
const std::vector<std::string>& FieldValues(FieldKind kind);

// Another value of the kind whose FieldValues hold `value` (the next of them: "Alice" -> "Alice
// Smith"); "" when `value` is none of them. A second form filled with it differs from the first.
std::string OtherFieldValue(std::string_view value);

// Whether a button labelled `label` sends a form on (Save, Next, Continue, Done, OK, Submit, Sign
// in, Send, ...), by whole words, or as the whole label in nine other languages (Weiter,
// Suivant, Далее, 确定, 次へ, ...): what a strategy presses once the form's fields hold text.
bool SubmitsForm(std::string_view label);

}  // namespace roam::gui
