// Work-size formulas (OpenVINO simple_math.cpp rules): precedence, left associativity, C++
// integer truncation, variables in either case, and every error, each with its column.
// Expected values are hand calculations.
#include <doctest/doctest.h>

#include "nnbridge/config/openvino_custom.h"

using namespace nnbridge;
using namespace nnbridge::config::openvino_custom;

namespace {

const Dims kDims{2, 3, 5, 7};  // B F Y X

// The message of the error evaluating `f` throws, which must have identifier `id`: a formula
// that does not parse or divides by zero is an attribute value outside its domain
// (nnbridge.invalid.404); a value past int is nnbridge.invalid.406.
std::string error_of(std::string_view f, const Dims& d = kDims, ErrorId id = ErrorId::AttributeValue) {
  try {
    (void)evaluate_work_size(f, d);
  } catch (const Error& e) {
    CHECK(e.id() == id);
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("openvino_custom formula: variables, numbers and blanks") {
  CHECK(evaluate_work_size("B", kDims) == 2);
  CHECK(evaluate_work_size("f", kDims) == 3);
  CHECK(evaluate_work_size("Y", kDims) == 5);
  CHECK(evaluate_work_size("x", kDims) == 7);
  CHECK(evaluate_work_size("B*F*Y*X", kDims) == 210);
  CHECK(evaluate_work_size("  ( X + 31 ) / 32 * 32", kDims) == 32);
  CHECK(evaluate_work_size("1024", kDims) == 1024);
}

TEST_CASE("openvino_custom formula: * / % bind tighter than + -") {
  CHECK(evaluate_work_size("1+2*3", kDims) == 7);
  CHECK(evaluate_work_size("X-Y%3", kDims) == 5);   // 7 - (5 % 3)
  CHECK(evaluate_work_size("(1+2)*3", kDims) == 9);
  CHECK(evaluate_work_size("X+Y/2", kDims) == 9);   // 7 + 2
  CHECK(evaluate_work_size("((Y+7)/8)*8", kDims) == 8);
}

TEST_CASE("openvino_custom formula: operators of equal precedence associate left") {
  CHECK(evaluate_work_size("10-4-3", kDims) == 3);     // (10-4)-3, not 10-(4-3)=9
  CHECK(evaluate_work_size("64/4/2", kDims) == 8);     // (64/4)/2, not 64/(4/2)=32
  CHECK(evaluate_work_size("100/10*5", kDims) == 50);  // (100/10)*5, not 100/50=2
  CHECK(evaluate_work_size("17%5*3", kDims) == 6);     // (17%5)*3, not 17%15=2
  CHECK(evaluate_work_size("X-Y+B", kDims) == 4);      // (7-5)+2
}

TEST_CASE("openvino_custom formula: integer division truncates toward zero as in C++") {
  CHECK(evaluate_work_size("X/2", kDims) == 3);
  CHECK(evaluate_work_size("(1-X)/2", kDims) == -3);  // -6/2
  CHECK(evaluate_work_size("(2-X)/2", kDims) == -2);  // -5/2 = -2.5 -> -2 (not floor -3)
  CHECK(evaluate_work_size("(2-X)%3", kDims) == -2);  // -5 % 3 = -2 in C++ (not 1 as in Python)
  CHECK(evaluate_work_size("Y*X/B", kDims) == 17);    // 35/2
}

TEST_CASE("openvino_custom formula: every error names the formula and the column") {
  CHECK(error_of("X/0") == "formula \"X/0\": column 2: division by zero");
  CHECK(error_of("X%(Y-5)") == "formula \"X%(Y-5)\": column 2: modulo by zero");
  CHECK(error_of("X/(B-2)") == "formula \"X/(B-2)\": column 2: division by zero");
  CHECK(error_of("X ") == "formula \"X \": column 2: blanks after the formula");
  CHECK(error_of("B*F\t") == "formula \"B*F\t\": column 4: blanks after the formula");
  CHECK(error_of("X+Z").find("column 3: unknown token 'Z'") != std::string::npos);
  CHECK(error_of("2^3").find("column 2: unexpected '^'") != std::string::npos);
  CHECK(error_of("") == "formula \"\": column 1: the formula is empty");
  CHECK(error_of("(X+1") == "formula \"(X+1\": column 1: '(' is not closed");
  CHECK(error_of("X+1)") == "formula \"X+1)\": column 4: a ')' without its '('");
  CHECK(error_of("X+") == "formula \"X+\": column 3: an operand is missing at the end");
  CHECK(error_of("X+ ") == "formula \"X+ \": column 3: an operand is missing at the end");
  CHECK(error_of("*X") == "formula \"*X\": column 1: an operand is missing before '*'");
  CHECK(error_of("-1") == "formula \"-1\": column 1: an operand is missing before '-'");  // no unary minus in OpenVINO either
  CHECK(error_of("()") == "formula \"()\": column 2: an operand is missing before ')'");
  CHECK(error_of("99999999999", kDims, ErrorId::Narrowing).find("does not fit an int") != std::string::npos);
  CHECK(error_of("X*X*X", {1, 1, 1, 2000}, ErrorId::Narrowing).find("column 4: the value 8000000000 does not fit an int") != std::string::npos);
  std::string why;
  CHECK_FALSE(is_legal_work_size("Y,X", &why));  // one formula each: the comma splits items before this
  CHECK(why.find("unexpected ','") != std::string::npos);
  CHECK(is_legal_work_size("((X + 31)/32)*32"));
}

TEST_CASE("openvino_custom formula: nesting is bounded, so hostile depth is an error and not a stack overflow") {
  // Oracle: hand values. 256 levels of "(X)" evaluate to X = 7; one more level is refused at the
  // column of the 257th '(' (1-based 257); 30000 levels (which overflowed the stack before the
  // bound) are refused the same way, with the formula shortened in the message.
  const auto nested = [](int n) { return std::string(n, '(') + "X" + std::string(n, ')'); };
  CHECK(evaluate_work_size(nested(kMaxFormulaDepth), kDims) == 7);
  CHECK(error_of(nested(kMaxFormulaDepth + 1)).find("column 257: parentheses nest deeper than 256") != std::string::npos);
  const std::string deep = error_of(nested(30000));
  CHECK(deep.find("column 257: parentheses nest deeper than 256") != std::string::npos);
  CHECK(deep.size() < 200);
  CHECK_FALSE(is_legal_work_size(nested(30000)));
}
