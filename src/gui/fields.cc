#include "gui/fields.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "base/utf8.h"

namespace roam::gui {

std::vector<std::string> LabelWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
  };
  char prev = 0;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isupper(u) && std::islower(static_cast<unsigned char>(prev))) flush();  // camelCase
    if (std::isalnum(u)) {
      word += static_cast<char>(std::tolower(u));
    } else {
      flush();
    }
    prev = c;
  }
  flush();
  return words;
}

std::string_view ShortId(std::string_view resource_id) {
  const size_t at = resource_id.find(":id/");
  return at == std::string_view::npos ? resource_id : resource_id.substr(at + 4);
}

std::string_view FieldKindName(FieldKind kind) {
  switch (kind) {
    case FieldKind::kPlain:
      return "plain";
    case FieldKind::kEmail:
      return "email";
    case FieldKind::kPassword:
      return "password";
    case FieldKind::kPin:
      return "pin";
    case FieldKind::kPhone:
      return "phone";
    case FieldKind::kNumber:
      return "number";
    case FieldKind::kDate:
      return "date";
    case FieldKind::kTime:
      return "time";
    case FieldKind::kUrl:
      return "url";
    case FieldKind::kPostcode:
      return "postcode";
    case FieldKind::kUsername:
      return "username";
    case FieldKind::kName:
      return "name";
  }
  return "plain";
}

namespace {

// Words that say what a field wants, in the order they are tried: the first kind with a word
// among the field's words wins ("zip code" is a postcode, not a PIN; "user name" a username).
const std::vector<std::pair<FieldKind, std::vector<std::string_view>>>& Keywords() {
  static const std::vector<std::pair<FieldKind, std::vector<std::string_view>>> kKeywords = {
      {FieldKind::kEmail, {"email", "mail"}},
      {FieldKind::kPassword, {"password", "passwd", "pwd", "pass"}},
      {FieldKind::kPostcode, {"zip", "postcode", "postal", "plz"}},
      {FieldKind::kPin, {"pin", "otp", "passcode", "cvv", "cvc"}},
      {FieldKind::kPhone, {"phone", "tel", "telephone", "mobile", "cell"}},
      {FieldKind::kUrl, {"url", "link", "website", "homepage", "http", "https", "uri"}},
      {FieldKind::kDate, {"date", "birthday", "dob", "birthdate"}},
      {FieldKind::kTime, {"time", "hour", "clock"}},
      {FieldKind::kUsername, {"username", "user", "login", "nickname", "handle"}},
      {FieldKind::kNumber,
       {"amount", "number", "num", "age", "count", "quantity", "qty", "price", "size", "minutes",
        "seconds", "year", "weight", "height", "duration", "limit", "percent"}},
      {FieldKind::kName, {"name", "city", "town", "surname", "firstname", "lastname", "country"}},
  };
  return kKeywords;
}

}  // namespace

FieldKind ClassifyField(const Widget& field) {
  if (field.password) return FieldKind::kPassword;
  std::vector<std::string> words = LabelWords(field.hint);
  // The resource-id's entry name only ("org.app:id/edit_email" -> edit, email).
  for (auto& w : LabelWords(ShortId(field.resource_id))) words.push_back(std::move(w));
  for (auto& w : LabelWords(field.content_desc)) words.push_back(std::move(w));
  for (const auto& [kind, keys] : Keywords())
    for (const auto& word : words)
      for (std::string_view key : keys)
        if (word == key) return kind;
  return FieldKind::kPlain;
}

const std::vector<std::string>& FieldValues(FieldKind kind) {
  static const std::array<std::vector<std::string>, 12> kValues = {{
      {},                                                    // plain
      {"ann@example.com", "test.user@mail.org"},             // email
      {"Secret#2024pass", "Passw0rd!"},                      // password
      {"1234", "0000"},                                      // pin
      {"+1 555 0100", "5550100123"},                         // phone
      {"42", "7", "100"},                                    // number
      {"2024-05-17", "17/05/2024"},                          // date
      {"09:30", "18:45"},                                    // time
      {"https://example.org", "http://example.com/stream"},  // url
      {"10115", "90210"},                                    // postcode
      {"alice_01", "tester"},                                // username
      {"Alice", "Alice Smith"},                              // name
  }};
  return kValues[static_cast<size_t>(kind)];
}

std::string OtherFieldValue(std::string_view value) {
  for (int k = 0; k <= static_cast<int>(FieldKind::kName); ++k) {
    const auto& values = FieldValues(static_cast<FieldKind>(k));
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i] == value) return values[(i + 1) % values.size()];
  }
  return "";
}

bool SubmitsForm(std::string_view label) {
  static constexpr std::string_view kVerbs[] = {
      "save",    "next",   "continue", "done",   "ok",    "submit", "send",   "register",
      "confirm", "create", "apply",    "finish", "login", "signin", "signup", "go"};
  // The same buttons in other languages, as whole labels (ASCII letters compared lowercased;
  // others as phones show them): German, French, Spanish, Portuguese, Italian, Russian, Chinese
  // (simplified and traditional), Japanese, Korean.
  static constexpr std::string_view kOtherLanguages[] = {
      "speichern",   "weiter",    "fertig",  "senden",   "anmelden",  "bestätigen", "übernehmen",
      "enregistrer", "suivant",   "terminé", "valider",  "envoyer",   "confirmer",  "guardar",
      "siguiente",   "listo",     "enviar",  "aceptar",  "confirmar", "salvar",     "próximo",
      "concluir",    "continuar", "salva",   "avanti",   "fatto",     "invia",      "conferma",
      "continua",    "Сохранить", "Далее",   "Готово",   "Отправить", "Войти",      "Продолжить",
      "Подтвердить", "确定",      "保存",    "下一步",   "完成",      "提交",       "登录",
      "注册",        "发送",      "继续",    "確定",     "儲存",      "登入",       "送出",
      "次へ",        "完了",      "送信",    "ログイン", "登録",      "確認",       "저장",
      "다음",        "완료",      "확인",    "전송",     "로그인"};
  const std::string whole = AsciiLower(TrimSpace(label));
  if (whole.empty()) return false;
  for (std::string_view other : kOtherLanguages)
    if (whole == other) return true;
  const std::vector<std::string> words = LabelWords(label);
  for (size_t i = 0; i < words.size(); ++i) {
    for (std::string_view verb : kVerbs)
      if (words[i] == verb) return true;
    // "Sign in", "Log in", "Sign up" as two words.
    if ((words[i] == "sign" || words[i] == "log") && i + 1 < words.size() &&
        (words[i + 1] == "in" || words[i + 1] == "up" || words[i + 1] == "on"))
      return true;
  }
  return false;
}

}  // namespace roam::gui
