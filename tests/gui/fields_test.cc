#include "gui/fields.h"

#include <gtest/gtest.h>

namespace roam::gui {
namespace {

Widget Field(std::string hint, std::string resource_id = "", bool password = false) {
  Widget w;
  w.cls = "android.widget.EditText";
  w.editable = true;
  w.hint = std::move(hint);
  w.resource_id = std::move(resource_id);
  w.password = password;
  return w;
}

TEST(Fields, LabelWordsSplitAtPunctuationAndCamelCase) {
  EXPECT_EQ(LabelWords("btnSaveNote"), (std::vector<std::string>{"btn", "save", "note"}));
  EXPECT_EQ(LabelWords("Filter Reports - Starred!"),
            (std::vector<std::string>{"filter", "reports", "starred"}));
  EXPECT_EQ(LabelWords("add_item2"), (std::vector<std::string>{"add", "item2"}));
  EXPECT_TRUE(LabelWords("  -- ").empty());
}

TEST(Fields, AFieldIsKnownByTheWordsOfItsHintIdAndDescription) {
  EXPECT_EQ(ClassifyField(Field("Email")), FieldKind::kEmail);
  EXPECT_EQ(ClassifyField(Field("", "org.app:id/edit_email")), FieldKind::kEmail);
  EXPECT_EQ(ClassifyField(Field("", "org.app:id/inputPhoneNumber")), FieldKind::kPhone);
  EXPECT_EQ(ClassifyField(Field("Enter your PIN")), FieldKind::kPin);
  EXPECT_EQ(ClassifyField(Field("ZIP code")), FieldKind::kPostcode);
  EXPECT_EQ(ClassifyField(Field("Size in sp")), FieldKind::kNumber);
  EXPECT_EQ(ClassifyField(Field("Username")), FieldKind::kUsername);
  EXPECT_EQ(ClassifyField(Field("User name")), FieldKind::kUsername);
  EXPECT_EQ(ClassifyField(Field("Station name")), FieldKind::kName);
  EXPECT_EQ(ClassifyField(Field("Stream URL")), FieldKind::kUrl);
  EXPECT_EQ(ClassifyField(Field("Date of birth")), FieldKind::kDate);
  EXPECT_EQ(ClassifyField(Field("anything", "org.app:id/secret", /*password=*/true)),
            FieldKind::kPassword);
  // Whole words only: "page" is no "age", "message" no "mail"; the package is not read.
  EXPECT_EQ(ClassifyField(Field("Message on this page")), FieldKind::kPlain);
  EXPECT_EQ(ClassifyField(Field("", "org.email.app:id/body")), FieldKind::kPlain);
  EXPECT_EQ(ClassifyField(Field("Write your comment")), FieldKind::kPlain);
}

TEST(Fields, EveryKindButPlainHasValues) {
  EXPECT_TRUE(FieldValues(FieldKind::kPlain).empty());
  for (auto kind : {FieldKind::kEmail, FieldKind::kPassword, FieldKind::kPin, FieldKind::kPhone,
                    FieldKind::kNumber, FieldKind::kDate, FieldKind::kTime, FieldKind::kUrl,
                    FieldKind::kPostcode, FieldKind::kUsername, FieldKind::kName}) {
    EXPECT_FALSE(FieldValues(kind).empty()) << FieldKindName(kind);
    EXPECT_NE(FieldKindName(kind), "plain");
  }
  EXPECT_NE(FieldValues(FieldKind::kEmail).front().find('@'), std::string::npos);
  EXPECT_EQ(FieldValues(FieldKind::kPin).front().size(), 4u);
}

TEST(Fields, AnotherValueOfAKindIsTheNextOfItsValues) {
  EXPECT_EQ(OtherFieldValue("Alice"), "Alice Smith");
  EXPECT_EQ(OtherFieldValue("Alice Smith"), "Alice");  // round the list
  EXPECT_EQ(OtherFieldValue("42"), "7");
  EXPECT_EQ(OtherFieldValue("Gardening"), "");  // of no kind
}

TEST(Fields, AButtonThatSubmitsAFormSaysSo) {
  for (const char* label : {"Save", "Next", "Continue", "Done", "OK", "Submit", "Sign in", "Log in",
                            "Create account", "Send", "Register", "Confirm", "btnSaveNote"})
    EXPECT_TRUE(SubmitsForm(label)) << label;
  for (const char* label : {"Cancel", "Close", "Delete", "Favorite", "Learn more", "Notebook",
                            "Saved items", "Okay then", ""})
    EXPECT_FALSE(SubmitsForm(label)) << label;
}

// The label as a phone shows it in other languages: QQ Music's recording (../shared/real) has
// 确定 (OK) where an English app says OK, a German app Weiter or Speichern. Before, only English
// words counted, and fastbot and fuzz seeds pressed such a form's other buttons first.
TEST(Fields, AButtonThatSubmitsAFormSaysSoInOtherLanguagesToo) {
  for (const char* label :
       {"Speichern", "Weiter",    "Fertig",  "Enregistrer", "Suivant", "Terminé",
        "Guardar",   "Siguiente", "Aceptar", "Avanti",      "Salvar",  "Далее",
        "Сохранить", "确定",      "保存",    "下一步",      "完成",    "登录",
        " 確定 ",    "次へ",      "完了",    "다음",        "저장",    "확인"})
    EXPECT_TRUE(SubmitsForm(label)) << label;
  for (const char* label : {"Abbrechen", "Annuler", "Cancelar", "Отмена", "取消", "キャンセル",
                            "취소", "Weitere Optionen", "保存的歌曲"})
    EXPECT_FALSE(SubmitsForm(label)) << label;
}

}  // namespace
}  // namespace roam::gui
