// Work-size formulas (OpenVINO intel_gpu simple_math.cpp): integers, B F Y X, + - * / % and
// parentheses, C++ int arithmetic. A recursive-descent parser over the grammar
//   expr   := term (('+' | '-') term)*          left-associative
//   term   := factor (('*' | '/' | '%') factor)*  left-associative, binds tighter
//   factor := digits | variable | '(' expr ')'
// with blanks (space, tab) allowed before any token but not after the last one (OpenVINO reads
// past the end of the string there).
#include <climits>

#include "internal.h"

namespace nnbridge::config::openvino_custom {

namespace {

class Parser {
 public:
  Parser(std::string_view text, const Dims* dims, bool identifiers) : s_(text), dims_(dims), identifiers_(identifiers) {}

  int64_t run() {
    if (s_.empty()) fail(0, "the formula is empty");
    const int64_t v = expr();
    if (pos_ < s_.size()) {
      if (s_[pos_] == ' ' || s_[pos_] == '\t') fail(pos_, "blanks after the formula");
      fail(pos_, s_[pos_] == ')' ? "a ')' without its '('" : "unexpected '" + std::string(1, s_[pos_]) + "'");
    }
    return v;
  }

 private:
  // A formula that does not parse or evaluate: the attribute holding it is outside its domain.
  [[noreturn]] void fail(std::size_t at, const std::string& why) const { fail(ErrorId::AttributeValue, at, why); }
  [[noreturn]] void fail(ErrorId id, std::size_t at, const std::string& why) const {
    const std::string shown = s_.size() <= 80 ? std::string(s_) : std::string(s_.substr(0, 77)) + "...";
    throw Error(id, "formula \"" + shown + "\": column " + std::to_string(at + 1) + ": " + why);
  }
  // Skips blanks unless they end the formula (then they are reported by run()).
  void blanks() {
    std::size_t p = pos_;
    while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t')) ++p;
    if (p < s_.size()) pos_ = p;
  }
  bool at_blank_tail() const {
    for (std::size_t p = pos_; p < s_.size(); ++p)
      if (s_[p] != ' ' && s_[p] != '\t') return false;
    return pos_ < s_.size();
  }
  int64_t checked(int64_t v, std::size_t at) const {
    if (v < INT_MIN || v > INT_MAX) fail(ErrorId::Narrowing, at, "the value " + std::to_string(v) + " does not fit an int");
    return v;
  }

  int64_t expr() {
    int64_t v = term();
    for (;;) {
      blanks();
      if (pos_ >= s_.size() || (s_[pos_] != '+' && s_[pos_] != '-')) return v;
      const char op = s_[pos_];
      const std::size_t at = pos_++;
      const int64_t r = term();
      v = checked(op == '+' ? v + r : v - r, at);
    }
  }
  int64_t term() {
    int64_t v = factor();
    for (;;) {
      blanks();
      if (pos_ >= s_.size() || (s_[pos_] != '*' && s_[pos_] != '/' && s_[pos_] != '%')) return v;
      const char op = s_[pos_];
      const std::size_t at = pos_++;
      const int64_t r = factor();
      if (op == '*') v = checked(v * r, at);
      else if (r == 0) fail(at, op == '/' ? "division by zero" : "modulo by zero");
      else v = checked(op == '/' ? v / r : v % r, at);  // C++: truncation toward zero
    }
  }
  int64_t factor() {
    blanks();
    if (pos_ >= s_.size() || at_blank_tail()) fail(pos_, "an operand is missing at the end");
    const char c = s_[pos_];
    if (c >= '0' && c <= '9') {
      const std::size_t at = pos_;
      int64_t v = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        v = v * 10 + (s_[pos_++] - '0');
        if (v > INT_MAX) fail(ErrorId::Narrowing, at, "the number does not fit an int");
      }
      return v;
    }
    if (c == '(') {
      const std::size_t open = pos_++;
      // Each level is a stack frame: bound it so that hostile nesting is an error, not a crash.
      if (++depth_ > kMaxFormulaDepth) fail(open, "parentheses nest deeper than " + std::to_string(kMaxFormulaDepth));
      const int64_t v = expr();
      --depth_;
      blanks();
      if (pos_ >= s_.size() || s_[pos_] != ')') fail(open, "'(' is not closed");
      ++pos_;
      return v;
    }
    if (identifiers_ && (std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      return 1;  // an MVCL layer parameter: checked for syntax only
    }
    const int var = c == 'B' || c == 'b' ? 0 : c == 'F' || c == 'f' ? 1 : c == 'Y' || c == 'y' ? 2 : c == 'X' || c == 'x' ? 3 : -1;
    if (var >= 0) {
      ++pos_;
      return dims_ ? (*dims_)[var] : 1;
    }
    if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') fail(pos_, "an operand is missing before '" + std::string(1, c) + "'");
    if (c == ')') fail(pos_, "an operand is missing before ')'");
    fail(pos_, "unknown token '" + std::string(1, c) + "' (formulas use integers, B, F, Y, X, + - * / % and parentheses)");
  }

  std::string_view s_;
  const Dims* dims_;
  bool identifiers_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

int64_t evaluate_work_size(std::string_view formula, const Dims& dims) {
  for (int64_t d : dims)
    if (d < 0 || d > INT_MAX) throw Error(ErrorId::Narrowing, "formula \"" + std::string(formula) + "\": a dimension of " +
                                                                  std::to_string(d) + " does not fit an int");
  return Parser(formula, &dims, false).run();
}

bool is_legal_work_size(std::string_view formula, std::string* why) {
  try {
    Parser(formula, nullptr, false).run();
    return true;
  } catch (const Error& e) {
    if (why) *why = e.message();
    return false;
  }
}

namespace detail {

bool check_formula_syntax(std::string_view formula, bool identifiers, std::string* why) {
  try {
    Parser(formula, nullptr, identifiers).run();
    return true;
  } catch (const Error& e) {
    if (why) *why = e.message();
    return false;
  }
}

}  // namespace detail

}  // namespace nnbridge::config::openvino_custom
