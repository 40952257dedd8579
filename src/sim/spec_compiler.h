// SpecCompiler: internal to sim/. Walks a spec document once, checking every part and building
// the AppSpec; errors are collected with their JSON path, never stopping at the first.
// One instance per compilation; not thread-safe.
#pragma once

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/spec.h"

namespace roam::sim {

using nlohmann::json;

class SpecCompiler {
 public:
  SpecCompiler(const json& doc, std::vector<SpecError>& errors);
  std::unique_ptr<AppSpec> Run();

 private:
  // Where an expression is compiled: which page, whether inside a list row.
  struct Ctx {
    const PageSpec* page = nullptr;
    int row_list = -1;  // the list whose rows hold this widget, -1 outside rows
  };

  // spec_compile.cc: document structure.
  void Error(const std::string& path, std::string message);
  bool IsType(const json& v, json::value_t type, const std::string& path, bool report = true);
  void CheckKeys(const json& obj, const std::string& path,
                 std::initializer_list<std::string_view> allowed);
  const json* Field(const json& obj, const char* key, const std::string& path, bool required,
                    json::value_t type);
  std::string String(const json& obj, const char* key, const std::string& path, bool required);
  void Names(const char* key, std::vector<std::string>& out);
  std::string NotFound(const char* what, const std::string& name,
                       const std::vector<std::string>& candidates);
  void TopLevel();
  void VarsAndLists();
  void Bugs();
  void PrePage(const json& page, const std::string& path, PageSpec& out);
  void PreWidgets(const json& widgets, const std::string& path, PageSpec& page,
                  std::set<std::string>& ids, bool in_row);
  void Page(const json& page, const std::string& path, PageSpec& out);
  void Widgets(const json& widgets, const std::string& path, PageSpec& page, int row_list,
               std::vector<WidgetSpec>& out);
  void Widget(const json& w, const std::string& path, PageSpec& page, int row_list,
              WidgetSpec& out);
  void Menu(const json& menu, const std::string& path, PageSpec& page);
  void Finish();

  // spec_intents.cc: a screen's "exported", "intent_filters" and "extras" (read before the rest
  // of the screen, whose templates and handlers may name `$extra.KEY`), and the rule that one
  // screen of an activity declares them.
  void Intents(const json& page, const std::string& path, PageSpec& out);
  void IntentFilters(const json& filters, const std::string& path, PageSpec& out);
  void Extras(const json& extras, const std::string& path, PageSpec& out);
  ExtraBehaviour Behaviour(const json& v, const std::string& path, const PageSpec& page,
                           int& handler);
  void OneDeclarationPerActivity(const json& screens);

  // spec_expr.cc: values, templates, conditions, effects.
  Ref ParseRef(const std::string& s, const std::string& path, const Ctx& ctx);
  Ref InputRef(const std::string& name, const std::string& path, const Ctx& ctx);
  Ref ExtraRef(const std::string& key, const std::string& path, const Ctx& ctx);
  Template ParseTemplate(const std::string& s, const std::string& path, const Ctx& ctx);
  Template TemplateField(const json& obj, const char* key, const std::string& path, const Ctx& ctx);
  ValueExpr Value(const json& v, const std::string& path, const Ctx& ctx);
  bool Literal(const json& v, const std::string& path, Val& out);
  int CondIndex(const json& c, const std::string& path, const Ctx& ctx);
  Cond CompileCond(const json& c, const std::string& path, const Ctx& ctx);
  int HandlerIndex(const json& effects, const std::string& path, const Ctx& ctx,
                   const std::string& unit);
  Effect CompileEffect(const json& e, const std::string& path, const Ctx& ctx);
  void EffectBody(const std::string& verb, const json& e, const std::string& path, const Ctx& ctx,
                  Effect& out);
  int Unit(const std::string& name);
  int FieldName(const std::string& name, const std::string& path, bool defines);
  int IndexOf(const std::vector<std::string>& names, const std::string& name,
              const std::string& path, const char* what);

  const json& doc_;
  std::vector<SpecError>& errors_;
  std::unique_ptr<AppSpec> spec_;
  std::vector<std::string> screen_ids_, dialog_ids_, bug_ids_, list_names_, input_names_;
  std::unordered_map<std::string, int> unit_index_;
  std::map<std::string, std::string> bug_refs_;  // bug id -> first path referencing it
  std::set<std::string> defined_fields_;
  std::vector<std::pair<std::string, std::string>> field_uses_;  // (path, name)
};

// "/a/b" + key, escaped as a JSON pointer.
std::string Join(const std::string& path, std::string_view key);
std::string Join(const std::string& path, size_t index);

}  // namespace roam::sim
