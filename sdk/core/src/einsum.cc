// parse_einsum (nnbridge/einsum.h).
#include "nnbridge/einsum.h"

#include <algorithm>
#include <map>
#include <string>

#include "nnbridge/error.h"

namespace nnbridge {

namespace {

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorId::AttributeValue, "equation: " + what); }

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// One term: its letters in order, with the position of its ellipsis among them (-1: none).
struct Term {
  std::string letters;
  int ellipsis_at = -1;
};

Term parse_term(const std::string& t, const std::string& where) {
  Term out;
  for (std::size_t i = 0; i < t.size();) {
    if (is_letter(t[i])) {
      out.letters.push_back(t[i++]);
    } else if (t.compare(i, 3, "...") == 0) {
      if (out.ellipsis_at >= 0) bad(where + " has two ellipses");
      out.ellipsis_at = static_cast<int>(out.letters.size());
      i += 3;
    } else {
      bad(where + " has the character '" + std::string(1, t[i]) + "' (letters and one '...' only)");
    }
  }
  return out;
}

}  // namespace

EinsumTerms parse_einsum(std::string_view equation, const std::vector<int64_t>& ranks) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq.push_back(c);
  const std::size_t arrow = eq.find("->");
  const bool explicit_out = arrow != std::string::npos;
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(lhs.substr(start, comma - start), "input term " + std::to_string(terms.size())));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size())
    bad(std::to_string(terms.size()) + " input terms for " + std::to_string(ranks.size()) + " inputs");

  EinsumTerms r;
  std::map<char, int> id;
  std::map<char, int> uses;
  int64_t max_ell = 0;
  std::vector<int64_t> ell(terms.size(), 0);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const int64_t n = static_cast<int64_t>(terms[k].letters.size());
    if (terms[k].ellipsis_at < 0 ? ranks[k] != n : ranks[k] < n)
      bad("input term " + std::to_string(k) + " names " + std::to_string(n) + " dims of an input of rank " +
          std::to_string(ranks[k]));
    ell[k] = terms[k].ellipsis_at < 0 ? 0 : ranks[k] - n;
    max_ell = std::max(max_ell, ell[k]);
    for (char c : terms[k].letters) {
      if (!id.count(c)) id.emplace(c, static_cast<int>(id.size()));
      ++uses[c];
    }
  }
  const int letters = static_cast<int>(id.size());
  r.labels = letters + static_cast<int>(max_ell);
  r.broadcast.assign(static_cast<std::size_t>(r.labels), false);
  for (int64_t b = 0; b < max_ell; ++b) r.broadcast[static_cast<std::size_t>(letters + b)] = true;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    std::vector<int> dims;
    const Term& t = terms[k];
    for (std::size_t i = 0; i <= t.letters.size(); ++i) {
      if (static_cast<int>(i) == t.ellipsis_at)
        for (int64_t e = 0; e < ell[k]; ++e) dims.push_back(letters + static_cast<int>(max_ell - ell[k] + e));
      if (i < t.letters.size()) dims.push_back(id.at(t.letters[i]));
    }
    r.inputs.push_back(std::move(dims));
  }

  if (explicit_out) {
    const Term out = parse_term(eq.substr(arrow + 2), "the output term");
    std::vector<bool> seen(static_cast<std::size_t>(r.labels), false);
    for (std::size_t i = 0; i <= out.letters.size(); ++i) {
      if (static_cast<int>(i) == out.ellipsis_at)
        for (int64_t b = 0; b < max_ell; ++b) r.output.push_back(letters + static_cast<int>(b));
      if (i == out.letters.size()) break;
      const char c = out.letters[i];
      auto it = id.find(c);
      if (it == id.end()) bad("the output label '" + std::string(1, c) + "' is in no input term");
      if (seen[static_cast<std::size_t>(it->second)]) bad("the output repeats the label '" + std::string(1, c) + "'");
      seen[static_cast<std::size_t>(it->second)] = true;
      r.output.push_back(it->second);
    }
  } else {
    for (int64_t b = 0; b < max_ell; ++b) r.output.push_back(letters + static_cast<int>(b));
    for (const auto& [c, n] : uses)  // std::map: character order
      if (n == 1) r.output.push_back(id.at(c));
  }
  return r;
}

}  // namespace nnbridge
