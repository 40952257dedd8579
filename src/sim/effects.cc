// SimApp::Impl: values, templates, conditions and effects.
#include <algorithm>
#include <regex>

#include "sim/interpreter.h"

namespace roam::sim {
namespace {

constexpr int kMaxHandlerDepth = 16;  // enter handlers navigating in a cycle stop here

bool InRange(const std::vector<Item>& list, int64_t index) {
  return index >= 0 && index < static_cast<int64_t>(list.size());
}

}  // namespace

void SimApp::Impl::Cover(int unit) {
  if (unit < 0) return;
  if (hits_[unit] != UINT32_MAX) ++hits_[unit];
  if (covered_[unit]) return;
  covered_[unit] = 1;
  ++covered_count_;
}

const Frame* SimApp::Impl::FrameOf(const EvalCtx& ctx) const {
  if (ctx.dialog) return st_.has_dialog && st_.dialog.page == ctx.frame ? &st_.dialog : nullptr;
  if (ctx.frame < 0 || ctx.frame >= static_cast<int>(st_.stack.size())) return nullptr;
  const Frame& f = st_.stack[ctx.frame];
  return &spec_->screens()[f.page] == ctx.page ? &f : nullptr;
}

Frame* SimApp::Impl::FrameOf(const EvalCtx& ctx) {
  return const_cast<Frame*>(static_cast<const Impl*>(this)->FrameOf(ctx));
}

const std::string* SimApp::Impl::FieldText(const Ref& field, const EvalCtx& ctx,
                                           const FieldSpec** spec) const {
  const Frame* frame = nullptr;
  const PageSpec* page = nullptr;
  int slot = field.a;
  if (field.kind == RefKind::kInput) {
    frame = FrameOf(ctx);
    page = ctx.page;
  } else if (field.kind == RefKind::kInputByName && !st_.stack.empty()) {
    frame = &st_.stack.back();  // the screen beneath a dialog
    page = &spec_->screens()[frame->page];
    slot = page->field_by_name[field.a];
  }
  if (!frame || slot < 0 || slot >= static_cast<int>(frame->fields.size())) return nullptr;
  if (spec) *spec = &page->fields[slot];
  return &frame->fields[slot];
}

std::string* SimApp::Impl::MutableField(const Ref& field, const EvalCtx& ctx) {
  return const_cast<std::string*>(FieldText(field, ctx, nullptr));
}

Val SimApp::Impl::Deref(const Ref& r, const EvalCtx& ctx) const {
  switch (r.kind) {
    case RefKind::kVar:
      return st_.vars[r.a];
    case RefKind::kLen:
      return Val::Int(static_cast<int64_t>(st_.lists[r.a].size()));
    case RefKind::kRow:
      return ctx.row.index >= 0 ? Val::Int(ctx.row.index) : Val{};
    case RefKind::kRowField: {
      if (ctx.row.list < 0) return Val{};
      const auto& list = st_.lists[ctx.row.list];
      if (!InRange(list, ctx.row.index)) return Val{};
      const Item& item = list[ctx.row.index];
      return r.a < static_cast<int>(item.size()) ? item[r.a] : Val{};
    }
    case RefKind::kInput:
    case RefKind::kInputByName: {
      const std::string* text = FieldText(r, ctx, nullptr);
      return text ? Val::Str(*text) : Val::Str("");
    }
    case RefKind::kExtra: {
      if (!ctx.page || r.a < 0 || r.a >= static_cast<int>(ctx.page->extras.size())) return Val{};
      const Frame* f = FrameOf(ctx);
      if (f && r.a < static_cast<int>(f->extras.size())) return f->extras[r.a];
      return ctx.page->extras[r.a].value;  // started by the app itself
    }
    case RefKind::kNone:
      break;
  }
  return Val{};
}

Val SimApp::Impl::Eval(const ValueExpr& v, const EvalCtx& ctx) const {
  switch (v.kind) {
    case ValueExpr::Kind::kLiteral:
      return v.literal;
    case ValueExpr::Kind::kRef:
      return Deref(v.ref, ctx);
    case ValueExpr::Kind::kTemplate: {
      Val out = Val::Str("");
      Expand(v.tmpl, ctx, out.s);
      return out;
    }
  }
  return Val{};
}

void SimApp::Impl::Expand(const Template& t, const EvalCtx& ctx, std::string& out) const {
  for (const Template::Piece& p : t.pieces) {
    out += p.text;
    switch (p.ref.kind) {
      case RefKind::kNone:
        break;
      case RefKind::kVar:
        AppendText(st_.vars[p.ref.a], out);
        break;
      case RefKind::kInput:
      case RefKind::kInputByName:
        if (const std::string* s = FieldText(p.ref, ctx, nullptr)) out += *s;
        break;
      default:
        AppendText(Deref(p.ref, ctx), out);
    }
  }
}

bool SimApp::Impl::Valid(const Ref& field, const EvalCtx& ctx) const {
  const FieldSpec* spec = nullptr;
  const std::string* text = FieldText(field, ctx, &spec);
  if (!text || !spec) return false;
  int len = static_cast<int>(text->size());
  if (len < spec->min || (spec->max >= 0 && len > spec->max)) return false;
  return !spec->has_pattern || std::regex_match(*text, spec->pattern);
}

bool SimApp::Impl::Test(int cond, const EvalCtx& ctx) const {
  return cond < 0 || Test(spec_->conds()[cond], ctx);
}

bool SimApp::Impl::Test(const Cond& c, const EvalCtx& ctx) const {
  switch (c.op) {
    case CondOp::kEq:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) == 0;
    case CondOp::kNe:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) != 0;
    case CondOp::kLt:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) < 0;
    case CondOp::kLe:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) <= 0;
    case CondOp::kGt:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) > 0;
    case CondOp::kGe:
      return Compare(Eval(c.a, ctx), Eval(c.b, ctx)) >= 0;
    case CondOp::kNot:
      return c.kids.empty() || !Test(c.kids[0], ctx);
    case CondOp::kAll:
      return std::all_of(c.kids.begin(), c.kids.end(), [&](const Cond& k) { return Test(k, ctx); });
    case CondOp::kAny:
      return std::any_of(c.kids.begin(), c.kids.end(), [&](const Cond& k) { return Test(k, ctx); });
    case CondOp::kValid:
      return Valid(c.field, ctx);
    case CondOp::kTruthy:
      return Truthy(Eval(c.a, ctx));
  }
  return false;
}

void SimApp::Impl::RunHandler(int handler, const EvalCtx& ctx) {
  if (handler < 0 || depth_ >= kMaxHandlerDepth) return;
  const Handler& h = spec_->handlers()[handler];
  Cover(h.unit);
  dirty_ = true;
  ++depth_;
  for (const Effect& e : h.effects) {
    if (e.bug >= 0 && bug_off_[e.bug] != e.fix) continue;
    if (!Test(e.cond, ctx)) continue;
    if (!RunEffect(e, h, ctx)) break;
  }
  --depth_;
}

void SimApp::Impl::RaiseFault(const Effect& e, const Handler& h, const EvalCtx& ctx) {
  Fault f;
  f.kind = e.verb == Verb::kCrash ? Fault::Kind::kCrash : Fault::Kind::kAnr;
  f.exception = e.exception;
  Expand(e.message, ctx, f.message);
  f.frames = e.frames.empty() ? std::vector<std::string>{h.default_frame} : e.frames;
  if (e.bug >= 0 && !e.fix) f.bug_id = spec_->bugs()[e.bug].id;
  faults_.push_back(std::move(f));
  Stop();  // the process dies; the launcher shows
}

bool SimApp::Impl::RunEffect(const Effect& e, const Handler& h, const EvalCtx& ctx) {
  auto& lists = st_.lists;
  switch (e.verb) {
    case Verb::kNavigate:
      PushScreen(e.target, ctx.row);
      break;
    case Verb::kBack:
      DefaultBack();
      break;
    case Verb::kFinish:
      st_.has_dialog = st_.menu_open = false;
      if (!st_.stack.empty()) st_.stack.pop_back();
      if (st_.stack.empty()) st_.foreground = false;
      break;
    case Verb::kSet:
      st_.vars[e.target] = ConvertTo(Eval(e.value, ctx), spec_->var_init()[e.target].type);
      break;
    case Verb::kInc:
      st_.vars[e.target].i += AsInt(Eval(e.value, ctx)).value_or(0);
      break;
    case Verb::kToggle:
      st_.vars[e.target].i = !st_.vars[e.target].i;
      break;
    case Verb::kAddItem: {
      Item item(spec_->field_names().size());
      for (const auto& [field, value] : e.fields) item[field] = Eval(value, ctx);
      auto& list = lists[e.target];
      const int64_t at = AsInt(Eval(e.value, ctx)).value_or(-1);  // none: at the end
      if (at >= 0 && at < static_cast<int64_t>(list.size()))
        list.insert(list.begin() + at, std::move(item));
      else
        list.push_back(std::move(item));
      break;
    }
    case Verb::kRemoveItem: {
      int64_t at = AsInt(Eval(e.value, ctx)).value_or(-1);
      if (InRange(lists[e.target], at)) lists[e.target].erase(lists[e.target].begin() + at);
      break;
    }
    case Verb::kUpdateItem: {
      int64_t at = AsInt(Eval(e.value, ctx)).value_or(-1);
      if (!InRange(lists[e.target], at)) break;
      for (const auto& [field, value] : e.fields) {
        Val v = Eval(value, ctx);
        lists[e.target][at][field] = std::move(v);
      }
      break;
    }
    case Verb::kClearList:
      lists[e.target].clear();
      break;
    case Verb::kDialog:
      OpenDialog(e.target, ctx.row);
      break;
    case Verb::kDismiss:
      st_.has_dialog = false;
      break;
    case Verb::kCrash:
    case Verb::kHang:
      RaiseFault(e, h, ctx);
      return false;
    case Verb::kCover:
      for (int u : e.units) Cover(u);
      break;
    case Verb::kStop:
      return false;
    case Verb::kLeave:
      Leave();
      break;
    case Verb::kSetInput:
      if (std::string* field = MutableField(e.input, ctx)) {
        field->clear();
        AppendText(Eval(e.value, ctx), *field);
      }
      break;
  }
  return st_.running;
}

}  // namespace roam::sim
